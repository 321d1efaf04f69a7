package model

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// The built-in scalars Int, Float and Boolean take exactly the values the
// GraphQL specification gives them: gqlgen's own would take a string of
// digits for an Int or a Float, and any int64 for an Int. A value reaches
// these as the document writes it (an int64 or a float64) or as a
// variable's JSON holds it (a json.Number, or an int64 or a float64 once
// gqlgen has coerced it).

// MarshalInt writes an Int.
func MarshalInt(n int) graphql.Marshaler { return graphql.MarshalInt(n) }

// UnmarshalInt reads an Int: a whole number within 32 bits.
func UnmarshalInt(v any) (int, error) {
	var n int64
	var err error
	switch v := v.(type) {
	case int64:
		n = v
	case json.Number:
		n, err = strconv.ParseInt(string(v), 10, 64)
	default:
		return 0, service.Invalid("an Int must be a whole number, not %s", Describe(v))
	}
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, service.Invalid("an Int must be a whole number from %d to %d, not %s", math.MinInt32, math.MaxInt32, Describe(v))
	}
	return int(n), nil
}

// MarshalFloat writes a Float; an infinity or NaN, which JSON cannot
// write, fails the field.
func MarshalFloat(f float64) graphql.ContextMarshaler { return graphql.MarshalFloatContext(f) }

// UnmarshalFloat reads a Float: a number.
func UnmarshalFloat(_ context.Context, v any) (float64, error) {
	switch v := v.(type) {
	case float64:
		return v, nil
	case int64:
		return float64(v), nil
	case json.Number:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			return f, nil
		}
		return 0, service.Invalid("a Float must be a number of at most about 1.8e308 in size, not %s", Describe(v))
	}
	return 0, service.Invalid("a Float must be a number, not %s", Describe(v))
}

// MarshalBoolean writes a Boolean.
func MarshalBoolean(b bool) graphql.Marshaler { return graphql.MarshalBoolean(b) }

// UnmarshalBoolean reads a Boolean: true or false.
func UnmarshalBoolean(v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, service.Invalid("a Boolean must be true or false, not %s", Describe(v))
}

// Describe names a value an argument was given, in JSON's terms (a
// string, a number, an object, ...), quoting a number or a string (its
// first engine.MaxQuoted characters): what a refusal says was sent, whether the
// document wrote it or a variable's JSON held it.
func Describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("the boolean %t", v)
	case json.Number:
		return "the number " + engine.Quoted(string(v))
	case int64:
		return fmt.Sprintf("the number %d", v)
	case float64:
		return "the number " + strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return "the string " + strconv.Quote(engine.Quoted(v))
	case []any:
		return "an array"
	}
	// What remains of a value the document or JSON holds is an object.
	return "an object"
}
