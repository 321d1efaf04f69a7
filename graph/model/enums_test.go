package model

import (
	"testing"

	"github.com/verdict/verdict/engine"
)

// The schema's ComparisonOperator binds each of its values to one of these
// names; an operator the engine has and the list lacks would fail every
// run whose trace shows it.
func TestEveryEngineOperatorIsAComparisonOperator(t *testing.T) {
	names := map[string]bool{}
	for _, n := range []string{
		OpGreaterThanOrEqual, OpLessThanOrEqual, OpEqualTo, OpExactlyEqualTo, OpNotEqualTo,
		OpLaterThan, OpEarlierThan, OpGreaterThan, OpLessThan, OpIn, OpNotIn, OpContains,
		OpIsEmpty, OpIsNotEmpty, OpWithin, OpOlderThan, OpYoungerThan,
	} {
		names[n] = true
	}
	for op := engine.OpGreaterThanOrEqual; op <= engine.OpYoungerThan; op++ {
		if !names[op.String()] {
			t.Errorf("the engine's operator %q is no ComparisonOperator", op)
		}
		delete(names, op.String())
	}
	if len(names) != 0 {
		t.Errorf("ComparisonOperator names operators the engine lacks: %v", names)
	}
}
