package engine

// Operator is a comparison operator. Its String is the trace name.
type Operator int

const (
	OpGreaterThanOrEqual Operator = iota
	OpLessThanOrEqual
	OpEqualTo
	OpExactlyEqualTo
	OpNotEqualTo
	OpLaterThan
	OpEarlierThan
	OpGreaterThan
	OpLessThan
	OpIn
	OpNotIn
	OpContains
	OpIsEmpty
	OpIsNotEmpty
	OpWithin
	OpOlderThan
	OpYoungerThan
)

var operatorNames = [...]string{
	OpGreaterThanOrEqual: "GreaterThanOrEqual",
	OpLessThanOrEqual:    "LessThanOrEqual",
	OpEqualTo:            "EqualTo",
	OpExactlyEqualTo:     "ExactlyEqualTo",
	OpNotEqualTo:         "NotEqualTo",
	OpLaterThan:          "LaterThan",
	OpEarlierThan:        "EarlierThan",
	OpGreaterThan:        "GreaterThan",
	OpLessThan:           "LessThan",
	OpIn:                 "In",
	OpNotIn:              "NotIn",
	OpContains:           "Contains",
	OpIsEmpty:            "IsEmpty",
	OpIsNotEmpty:         "IsNotEmpty",
	OpWithin:             "Within",
	OpOlderThan:          "OlderThan",
	OpYoungerThan:        "YoungerThan",
}

func (o Operator) String() string { return operatorNames[o] }

// operatorPhrase is a written form of an operator.
type operatorPhrase struct {
	text string
	op   Operator
}

// operatorPhrases is ordered so that no phrase is tried after a shorter
// phrase that is its prefix.
var operatorPhrases = []operatorPhrase{
	{"is greater than or equal to", OpGreaterThanOrEqual},
	{"is less than or equal to", OpLessThanOrEqual},
	{"is greater than", OpGreaterThan},
	{"is less than", OpLessThan},
	{"is at least", OpGreaterThanOrEqual},
	{"is no more than", OpLessThanOrEqual},
	{"is exactly equal to", OpExactlyEqualTo},
	{"is equal to", OpEqualTo},
	{"is the same as", OpEqualTo},
	{"is not equal to", OpNotEqualTo},
	{"is not the same as", OpNotEqualTo},
	{"is not in", OpNotIn},
	{"is not empty", OpIsNotEmpty},
	{"is later than", OpLaterThan},
	{"is earlier than", OpEarlierThan},
	{"is within", OpWithin},
	{"is older than", OpOlderThan},
	{"is younger than", OpYoungerThan},
	{"is in", OpIn},
	{"is empty", OpIsEmpty},
	{"contains", OpContains},
}

func (o Operator) isList() bool  { return o == OpIn || o == OpNotIn }
func (o Operator) isEmpty() bool { return o == OpIsEmpty || o == OpIsNotEmpty }

// countable reports whether `number of` / `length of` may use the operator.
func (o Operator) countable() bool {
	switch o {
	case OpGreaterThanOrEqual, OpLessThanOrEqual, OpExactlyEqualTo, OpEqualTo,
		OpNotEqualTo, OpGreaterThan, OpLessThan:
		return true
	}
	return false
}

// outcomeVerbs are removed from the front of an outcome phrase (one of
// them, as a whole word, leaving a non-empty remainder).
var outcomeVerbs = []string{
	"gets", "passes", "is", "has", "receives", "qualifies for", "meets",
	"satisfies", "achieves", "attains", "earns", "gains", "obtains", "secures",
	"acquires", "deserves", "merits", "warrants", "requires", "needs",
	"completes", "fulfills", "demonstrates", "shows", "proves", "establishes",
	"maintains", "holds", "possesses", "displays", "exhibits", "presents",
	"provides", "supplies", "delivers", "submits", "confirms", "validates",
	"verifies", "supports", "justifies", "ensures", "guarantees", "undergoes",
	"experiences", "encounters", "faces", "enjoys", "benefits from", "suffers",
	"lacks", "misses", "fails", "succeeds in", "excels at", "reaches",
	"arrives at", "comes to",
}

// labelPredicates may follow a label reference; they carry no meaning.
var labelPredicates = []string{
	"clears", "succeeds", "qualifies", "passes", "meets requirements",
	"satisfies", "is valid", "is approved", "has passed", "is authorized",
	"is sanctioned", "is certified", "is permitted", "is legitimate",
	"is satisfied",
}
