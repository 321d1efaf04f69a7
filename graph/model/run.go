package model

import (
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// PolicyRunResult is a run result as the schema shows it. The trace is
// converted, and raw encoded, only when a query selects them.
type PolicyRunResult struct {
	Result    bool
	Rule      []string
	Data      any
	Error     *string
	Labels    any
	Execution service.Execution
	// Explanation and Warnings are built from the trace by the service.
	Explanation string
	Warnings    []engine.Warning

	run *engine.Result
}

// NewPolicyRunResult shapes a result of the service. The result stays in
// use until the response is written, so it must not be released: a
// released result's memory is reused by the next run.
func NewPolicyRunResult(run *service.RunResult) *PolicyRunResult {
	res := run.Result
	r := &PolicyRunResult{
		Result:    res.Result,
		Rule:      res.Rule,
		Data:      res.Data,
		Execution: run.Execution,
		run:       res,

		Explanation: res.Explanation,
		Warnings:    warnings(res.Warnings),
	}
	if res.Error != nil {
		msg := res.Error.Message
		r.Error = &msg
	}
	if res.Labels != nil {
		r.Labels = res.Labels
	}
	return r
}

// warnings is never nil: the schema's list is non-null.
func warnings(w engine.Warnings) []engine.Warning {
	if w == nil {
		return []engine.Warning{}
	}
	return w
}

// Trace is the `trace` field.
func (r *PolicyRunResult) Trace() *Trace { return traceOf(r.run.Trace) }

// Raw is the `raw` field: the REST object, which the JSON scalar encodes
// with the service's own JSON encoding.
func (r *PolicyRunResult) Raw() any {
	return &service.RunResult{Result: r.run, Execution: r.Execution}
}

// Trace is the explanation of a run.
type Trace struct {
	Execution []*RuleTrace
}

// RuleTrace is how a rule was decided.
type RuleTrace struct {
	// Label is nil when the rule has none.
	Label      *string
	Selector   string
	Outcome    string
	Conditions []ConditionTrace
	Result     bool
}

// ConditionTrace is a ComparisonCondition or a ReferenceCondition.
type ConditionTrace interface{ isConditionTrace() }

// ComparisonCondition is a condition that compares data with a value.
type ComparisonCondition struct {
	Selector string
	Property engine.PropertyTrace
	Operator string
	Value    engine.TypedValue
	// EvaluationDetails is nil when the operands were not compared.
	EvaluationDetails *engine.EvaluationDetails
	Result            bool
}

// ReferenceCondition is a condition that refers to another rule.
type ReferenceCondition struct {
	Selector string
	RuleName string
	// ReferencedRuleOutcome is nil when the reference resolved to no rule.
	ReferencedRuleOutcome *string
	PropertyCheck         *engine.PropertyCheck
	Result                bool
}

func (ComparisonCondition) isConditionTrace() {}
func (ReferenceCondition) isConditionTrace()  {}

func traceOf(t engine.Trace) *Trace {
	out := &Trace{Execution: make([]*RuleTrace, len(t.Execution))}
	for i, rt := range t.Execution {
		out.Execution[i] = ruleTraceOf(rt)
	}
	return out
}

func ruleTraceOf(rt engine.RuleTrace) *RuleTrace {
	out := &RuleTrace{
		Label:      nonEmpty(rt.Label),
		Selector:   rt.Selector.Value,
		Outcome:    rt.Outcome.Value,
		Conditions: make([]ConditionTrace, len(rt.Conditions)),
		Result:     rt.Result,
	}
	for i, c := range rt.Conditions {
		out.Conditions[i] = conditionOf(c)
	}
	return out
}

func conditionOf(c engine.ConditionTrace) ConditionTrace {
	if c.Reference {
		return &ReferenceCondition{
			Selector:              c.Selector.Value,
			RuleName:              c.RuleName,
			ReferencedRuleOutcome: nonEmpty(c.ReferencedRuleOutcome),
			PropertyCheck:         c.PropertyCheck,
			Result:                c.Result,
		}
	}
	out := &ComparisonCondition{
		Selector: c.Selector.Value,
		Property: c.Property,
		Operator: c.Operator,
		Value:    c.Value,
		Result:   c.Result,
	}
	if c.Compared {
		details := c.Details
		out.EvaluationDetails = &details
	}
	return out
}

// nonEmpty is the optional form of a string that is empty when absent, as
// the REST encoding omits it.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// NewPolicyBatchResult shows a batch run's results as runPolicyBatch
// answers them.
func NewPolicyBatchResult(b *service.BatchResult) *PolicyBatchResult {
	out := &PolicyBatchResult{Results: make([]*PolicyRunResult, len(b.Results)), Execution: &b.Execution}
	for i, res := range b.Results {
		out.Results[i] = NewPolicyRunResult(res)
	}
	return out
}
