package model

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/verdict/verdict/service"
)

// The built-in scalars take what the GraphQL specification gives them,
// however they were sent, and say what was sent in JSON's terms.
func TestIntFloatAndBooleanTakeOnlyTheirOwnValues(t *testing.T) {
	message := func(err error) string {
		var e *service.Error
		if !errors.As(err, &e) || e.Code != service.CodeInvalidArgument {
			t.Fatalf("%v is not invalid_argument", err)
		}
		return e.Message
	}
	for _, tc := range []struct {
		v    any
		want int
		err  string
	}{
		{int64(5), 5, ""},
		{json.Number("-2147483648"), -2147483648, ""},
		{json.Number("2147483648"), 0, "an Int must be a whole number from -2147483648 to 2147483647, not the number 2147483648"},
		{int64(3000000000), 0, "an Int must be a whole number from -2147483648 to 2147483647, not the number 3000000000"},
		{json.Number("1.5"), 0, "an Int must be a whole number from -2147483648 to 2147483647, not the number 1.5"},
		{"5", 0, `an Int must be a whole number, not the string "5"`},
		{true, 0, "an Int must be a whole number, not the boolean true"},
		{map[string]any{}, 0, "an Int must be a whole number, not an object"},
	} {
		got, err := UnmarshalInt(tc.v)
		if tc.err == "" && (err != nil || got != tc.want) || tc.err != "" && (err == nil || message(err) != tc.err) {
			t.Errorf("UnmarshalInt(%#v) = %d, %v; want %d, %q", tc.v, got, err, tc.want, tc.err)
		}
	}
	for _, tc := range []struct {
		v    any
		want float64
		err  string
	}{
		{0.5, 0.5, ""},
		{int64(2), 2, ""},
		{json.Number("1e308"), 1e308, ""},
		{json.Number("1e400"), 0, "a Float must be a number of at most about 1.8e308 in size, not the number 1e400"},
		{"0.5", 0, `a Float must be a number, not the string "0.5"`},
		{[]any{}, 0, "a Float must be a number, not an array"},
	} {
		got, err := UnmarshalFloat(t.Context(), tc.v)
		if tc.err == "" && (err != nil || got != tc.want) || tc.err != "" && (err == nil || message(err) != tc.err) {
			t.Errorf("UnmarshalFloat(%#v) = %g, %v; want %g, %q", tc.v, got, err, tc.want, tc.err)
		}
	}
	if b, err := UnmarshalBoolean(true); err != nil || !b {
		t.Errorf("UnmarshalBoolean(true) = %t, %v", b, err)
	}
	for v, want := range map[any]string{
		json.Number("1"): "a Boolean must be true or false, not the number 1",
		"true":           `a Boolean must be true or false, not the string "true"`,
		nil:              "a Boolean must be true or false, not null",
	} {
		if _, err := UnmarshalBoolean(v); err == nil || message(err) != want {
			t.Errorf("UnmarshalBoolean(%#v): %v, want %q", v, err, want)
		}
	}
}

// A refusal quotes a long value in part.
func TestDescribeQuotesTheStartOfALongValue(t *testing.T) {
	long := strings.Repeat("é", 50)
	if got, want := Describe(long), `the string "`+strings.Repeat("é", 40)+`…"`; got != want {
		t.Errorf("Describe = %s, want %s", got, want)
	}
	if got, want := Describe(json.Number(strings.Repeat("9", 50))), "the number "+strings.Repeat("9", 40)+"…"; got != want {
		t.Errorf("Describe = %s, want %s", got, want)
	}
}
