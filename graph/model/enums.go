package model

// Comparison operators as a trace names them, which the schema's
// ComparisonOperator enum stands for (gqlgen.yml binds each enum value to
// one of them).
const (
	OpGreaterThanOrEqual = "GreaterThanOrEqual"
	OpLessThanOrEqual    = "LessThanOrEqual"
	OpEqualTo            = "EqualTo"
	OpExactlyEqualTo     = "ExactlyEqualTo"
	OpNotEqualTo         = "NotEqualTo"
	OpLaterThan          = "LaterThan"
	OpEarlierThan        = "EarlierThan"
	OpGreaterThan        = "GreaterThan"
	OpLessThan           = "LessThan"
	OpIn                 = "In"
	OpNotIn              = "NotIn"
	OpContains           = "Contains"
	OpIsEmpty            = "IsEmpty"
	OpIsNotEmpty         = "IsNotEmpty"
	OpWithin             = "Within"
	OpOlderThan          = "OlderThan"
	OpYoungerThan        = "YoungerThan"
)

// Value types as a trace names them, which the schema's ValueType enum
// stands for.
const (
	TypeNumber      = "number"
	TypeString      = "string"
	TypeBoolean     = "boolean"
	TypeDate        = "date"
	TypeDuration    = "duration"
	TypeList        = "list"
	TypeNull        = "null"
	TypeObject      = "object"
	TypeParseError  = "parse_error"
	TypeExpectation = "expectation"
)
