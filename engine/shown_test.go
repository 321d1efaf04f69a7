package engine_test

import (
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// TestAResultCountsTheLargeValuesItShows: numbers and short texts fit a
// condition's allowance; a long text and a list count about their size in
// JSON each time a condition shows them, three times over, and a labelled
// rule's conditions, which the trace leaves out, count nothing.
func TestAResultCountsTheLargeValuesItShows(t *testing.T) {
	long := strings.Repeat("x", 200)
	data := map[string]any{"A": map[string]any{
		"n": 5.0, "s": "short", "t": long,
		// 1 for the brackets, and each item 1 for its comma and 8 for a
		// number or 2 more than its length for a text: 1 + 9 + 9 + 5 = 24.
		"l": []any{1.0, 2.0, "ab"},
	}}
	cases := []struct {
		name  string
		rule  string
		shown int
	}{
		{"numbers and short texts", `A **A** gets x if the __n__ of the **A** is at least 1 and the __s__ of the **A** is equal to "short".`, 0},
		{"a long text", `A **A** gets x if the __t__ of the **A** is equal to "y".`, 202},
		{"a list, twice", `A **A** gets x if the __l__ of the **A** contains 1 and the __l__ of the **A** contains 2.`, 2 * 24},
		{"a list on the right", `A **A** gets x if the __n__ of the **A** is in the __l__ of the **A**.`, 24},
		{"a labelled rule's conditions",
			"listed. A **A** is listed if the __l__ of the **A** contains 1.\nA **A** gets x if the __n__ of the **A** is at least 1.", 0},
	}
	var eng engine.Engine
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := eng.Run(c.rule, data)
			if res.Error != nil {
				t.Fatal(res.Error.Message)
			}
			if got := res.ShownAnswerBytes(); got != 3*c.shown {
				t.Errorf("ShownAnswerBytes() = %d, want %d", got, 3*c.shown)
			}
		})
	}
}

// TestARunStopsWhereItsShownValuesPassTheirBound: with a bound of 1,000
// bytes, a list counted at 24 bytes a showing (72 answered) may be read by
// thirteen conditions, and the fourteenth stops the run.
func TestARunStopsWhereItsShownValuesPassTheirBound(t *testing.T) {
	data := map[string]any{"A": map[string]any{"l": []any{1.0, 2.0, "ab"}}}
	conds := make([]string, 20)
	for i := range conds {
		conds[i] = "the __l__ of the **A** contains 1"
	}
	eng := engine.Engine{Limits: engine.Limits{MaxShownAnswerBytes: 1000}}
	res := eng.Run("A **A** gets x if "+strings.Join(conds, " and ")+".", data)
	want := "Evaluation error: the data values this run shows would answer more than 1000 bytes; read large values in fewer conditions"
	if res.Error == nil || res.Error.Message != want {
		t.Fatalf("error %v, want %q", res.Error, want)
	}
	if n := len(res.Trace.Execution[0].Conditions); n != 14 {
		t.Errorf("the trace holds %d conditions, want the 14 evaluated", n)
	}
	if got := res.ShownAnswerBytes(); got != 14*72 {
		t.Errorf("ShownAnswerBytes() = %d, want %d", got, 14*72)
	}
}
