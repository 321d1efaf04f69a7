package engine

import "encoding/json"

// Trace is the `trace` member of a run result: the golden rule's entry.
type Trace struct {
	Execution []RuleTrace `json:"execution"`
}

// RuleTrace is a rule's entry in a trace.
type RuleTrace struct {
	Label      string           `json:"label,omitempty"`
	Selector   Text             `json:"selector"`
	Outcome    Text             `json:"outcome"`
	Conditions []ConditionTrace `json:"conditions"`
	Result     bool             `json:"result"`
}

// Text is the `{"value": ...}` wrapper traces put around names.
type Text struct {
	Value string `json:"value"`
}

// TypedValue is a value with its type name, as traces show literals and
// compared operands.
type TypedValue struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// PropertyTrace is the resolved left-hand path and the raw JSON found there.
type PropertyTrace struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// EvaluationDetails shows both operands as compared; absent (null) when
// their types do not go together.
type EvaluationDetails struct {
	LeftValue        TypedValue `json:"left_value"`
	RightValue       TypedValue `json:"right_value"`
	ComparisonResult bool       `json:"comparison_result"`
}

// PropertyCheck records the data property that decided an unresolved
// reference.
type PropertyCheck struct {
	PropertyName  string `json:"property_name"`
	PropertyValue any    `json:"property_value"`
	// found is the value as the data holds it: explanations and warnings
	// show it plainly, where PropertyValue wraps it by kind.
	found any
}

// ConditionTrace is one condition's entry: a comparison or a reference to
// another rule, told apart by Reference. Each form has its own JSON shape.
type ConditionTrace struct {
	Reference bool
	Selector  Text
	Result    bool

	// Comparison members. Compared is false when the operand types did not
	// go together (or the condition failed): `evaluation_details` is then
	// null and Details is to be ignored.
	Property PropertyTrace
	Operator string
	Value    TypedValue
	Compared bool
	// rightPath tells that Value names a right-hand path, not a text that
	// happens to start with "$.".
	rightPath bool
	// rightFailed tells that the run stopped on the right-hand path, whose
	// failure, like the left's, leaves Property.Value null.
	rightFailed bool
	Details     EvaluationDetails
	// rightFound is what a right-hand path found, kept for warnings: a
	// trace without evaluation_details does not show it.
	rightFound any

	// Reference members; ReferencedRuleOutcome is empty and PropertyCheck
	// nil when absent.
	RuleName              string
	ReferencedRuleOutcome string
	PropertyCheck         *PropertyCheck
}

type comparisonJSON struct {
	Selector Text               `json:"selector"`
	Property PropertyTrace      `json:"property"`
	Operator string             `json:"operator"`
	Value    TypedValue         `json:"value"`
	Details  *EvaluationDetails `json:"evaluation_details"`
	Result   bool               `json:"result"`
}

type referenceJSON struct {
	Selector              Text           `json:"selector"`
	RuleName              string         `json:"rule_name"`
	ReferencedRuleOutcome string         `json:"referenced_rule_outcome,omitempty"`
	PropertyCheck         *PropertyCheck `json:"property_check,omitempty"`
	Result                bool           `json:"result"`
}

// MarshalJSON writes the form's own shape.
func (c ConditionTrace) MarshalJSON() ([]byte, error) {
	if c.Reference {
		return json.Marshal(referenceJSON{c.Selector, c.RuleName, c.ReferencedRuleOutcome, c.PropertyCheck, c.Result})
	}
	var details *EvaluationDetails
	if c.Compared {
		details = &c.Details
	}
	return json.Marshal(comparisonJSON{c.Selector, c.Property, c.Operator, c.Value, details, c.Result})
}

// UnmarshalJSON reads either shape, so results can be stored and compared.
func (c *ConditionTrace) UnmarshalJSON(b []byte) error {
	var probe struct {
		RuleName *string `json:"rule_name"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if probe.RuleName != nil {
		var r referenceJSON
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		*c = ConditionTrace{Reference: true, Selector: r.Selector, RuleName: r.RuleName,
			ReferencedRuleOutcome: r.ReferencedRuleOutcome, PropertyCheck: r.PropertyCheck, Result: r.Result}
		return nil
	}
	var m comparisonJSON
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*c = ConditionTrace{Selector: m.Selector, Property: m.Property, Operator: m.Operator,
		Value: m.Value, Result: m.Result}
	if m.Details != nil {
		c.Compared, c.Details = true, *m.Details
	}
	return nil
}
