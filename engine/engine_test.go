package engine_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/verdict/verdict/engine"
)

// fixedDay is "today" for the date-relative tests.
var fixedDay = time.Date(2030, 6, 15, 23, 59, 0, 0, time.UTC)

func fixedEngine() *engine.Engine {
	return &engine.Engine{Now: func() time.Time { return fixedDay }}
}

func mustData(t *testing.T, raw string) map[string]any {
	t.Helper()
	data, err := engine.DecodeData([]byte(raw), engine.Limits{})
	if err != nil {
		t.Fatalf("DecodeData(%s): %v", raw, err)
	}
	return data
}

// firstCondition runs a one-condition rule and returns the result and the
// condition's trace.
func firstCondition(t *testing.T, rule, data string) (*engine.Result, engine.ConditionTrace) {
	t.Helper()
	res := fixedEngine().Run(rule, mustData(t, data))
	if res.Error != nil && res.Error.Kind == engine.KindParse {
		t.Fatalf("%s: %s", rule, res.Error.Message)
	}
	return res, res.Trace.Execution[0].Conditions[0]
}

func TestEveryOperatorPhraseHasItsTraceName(t *testing.T) {
	tests := []struct {
		phrase, right string
		left          string
		want          bool
		operator      string
	}{
		{"is greater than or equal to", "5", `5`, true, "GreaterThanOrEqual"},
		{"is at least", "5", `4`, false, "GreaterThanOrEqual"},
		{"is less than or equal to", "5", `5`, true, "LessThanOrEqual"},
		{"is no more than", "5", `6`, false, "LessThanOrEqual"},
		{"is greater than", "5", `5.5`, true, "GreaterThan"},
		{"is less than", "5", `5`, false, "LessThan"},
		{"is equal to", `"ABC"`, `"abc"`, true, "EqualTo"},
		{"is the same as", "2.50", `2.5`, true, "EqualTo"},
		{"is exactly equal to", `"ABC"`, `"abc"`, false, "ExactlyEqualTo"},
		{"is not equal to", `"x"`, `"y"`, true, "NotEqualTo"},
		{"is not the same as", `"x"`, `"X"`, false, "NotEqualTo"},
		{"is later than", "2030-01-01", `"2030-01-02"`, true, "LaterThan"},
		{"is earlier than", "2030-01-01", `"2030-01-02T08:00:00+02:00"`, false, "EarlierThan"},
		{"is in", `["a", "b"]`, `"B"`, true, "In"},
		{"is not in", `[1, 2]`, `3`, true, "NotIn"},
		{"contains", `"urgent"`, `"This is URGENT!"`, true, "Contains"},
		{"is empty", "", `""`, true, "IsEmpty"},
		{"is not empty", "", `[1]`, true, "IsNotEmpty"},
		{"is within", "30 days", `"2030-05-16"`, true, "Within"},
		{"is older than", "18 years", `"2012-06-14"`, true, "OlderThan"},
		{"is younger than", "18 years", `"2012-06-16"`, true, "YoungerThan"},
	}
	for _, tt := range tests {
		t.Run(tt.phrase, func(t *testing.T) {
			rule := fmt.Sprintf("A **x** is ok if the __v__ of the **x** %s %s.", tt.phrase, tt.right)
			if tt.right == "" {
				rule = fmt.Sprintf("A **x** is ok if the __v__ of the **x** %s.", tt.phrase)
			}
			res, c := firstCondition(t, rule, `{"x": {"v": `+tt.left+`}}`)
			if res.Result != tt.want || res.Error != nil {
				t.Errorf("result %v error %v, want %v", res.Result, res.Error, tt.want)
			}
			if c.Operator != tt.operator {
				t.Errorf("operator %q, want %q", c.Operator, tt.operator)
			}
			if !c.Compared {
				t.Error("evaluation_details is null for operands that go together")
			}
		})
	}
}

func TestOperatorPhrasesAreCaseSensitiveAndSingleSpaced(t *testing.T) {
	for _, rule := range []string{
		"A **x** is ok if __v__ of **x** Is greater than 1.",
		"A **x** is ok if __v__ of **x** is greater  than 1.",
		"A **x** is ok IF __v__ of **x** is greater than 1.",
		"A **x** is ok if __v__ of **x** is greater than 1 AND __v__ of **x** is less than 3.",
		"a **x** is ok if __v__ of **x** is greater than 1.",
	} {
		res := fixedEngine().Run(rule, map[string]any{"x": map[string]any{"v": 2.0}})
		if res.Error == nil || res.Error.Kind != engine.KindParse {
			t.Errorf("%q parsed; want a parse error", rule)
		}
	}
}

func TestTypeMismatchIsFalseWithoutDetails(t *testing.T) {
	tests := []struct{ name, predicate, value string }{
		{"numeric string against a number", "is at least 18", `"21"`},
		{"list against a number", "is equal to 3", `[1, 3]`},
		{"string against a number, negated", "is not equal to 5", `"abc"`},
		{"date against a number ordering", "is greater than 2020", `"2024-01-01"`},
		{"number against a date operator", "is later than 2020-01-01", `5`},
		{"right side not a list", "is not in __w__ of **x**", `"a"`},
		{"boolean against string true", `is equal to "true"`, `true`},
		{"emptiness of a number", "is empty", `0`},
		{"emptiness of a date", "is not empty", `"2024-01-01"`},
		{"within a plain number", "is within 5", `"2024-01-01"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, c := firstCondition(t, "A **x** is ok if __v__ of **x** "+tt.predicate+".", `{"x": {"v": `+tt.value+`, "w": "a"}}`)
			if res.Result || res.Error != nil || c.Compared || c.Result {
				t.Errorf("result %v error %v compared %v; want false, no error, no details", res.Result, res.Error, c.Compared)
			}
		})
	}
}

func TestValuesAndHowTracesShowThem(t *testing.T) {
	tests := []struct {
		literal  string
		typ      string
		shown    any
		dataJSON string
		want     bool
	}{
		{"007", "number", 7.0, `7`, true},
		{"0.005", "number", 0.005, `0.005`, true},
		{"true", "boolean", true, `true`, true},
		{"True", "string", "True", `true`, false},
		{"falsehood", "string", "falsehood", `"FALSEHOOD"`, true},
		{"gold member", "string", "gold member", `"Gold Member"`, true},
		{`"a.b, c"`, "string", "a.b, c", `"A.B, C"`, true},
		{"2024-02-29", "date", "2024-02-29", `"2024-02-29"`, true},
		{"date(2024-02-29)", "date", "2024-02-29", `"2024-02-29T10:00:00Z"`, true},
		{`"2024-02-29"`, "string", "2024-02-29", `"2024-02-29"`, true},
		{`[1, "on", true, 2030-01-01]`, "list", []any{1.0, "on", true, "2030-01-01"}, `"ON"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.literal, func(t *testing.T) {
			op := "is equal to"
			if strings.HasPrefix(tt.literal, "[") {
				op = "is in"
			}
			res, c := firstCondition(t, fmt.Sprintf("A **x** is ok if __v__ of **x** %s %s.", op, tt.literal), `{"x": {"v": `+tt.dataJSON+`}}`)
			if res.Result != tt.want {
				t.Errorf("result %v, want %v (error %v)", res.Result, tt.want, res.Error)
			}
			if c.Value.Type != tt.typ || !sameJSON(c.Value.Value, tt.shown) {
				t.Errorf("value = {%s %v}, want {%s %v}", c.Value.Type, c.Value.Value, tt.typ, tt.shown)
			}
		})
	}
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestDurationsUseFixedFactorsAndSingularDisplay(t *testing.T) {
	tests := []struct {
		duration, shown string
		daysAgo         int
		within          bool
	}{
		{"1 years", "1 year", 365, true},
		{"1 year", "1 year", 366, false},
		{"1.5 hours", "1.5 hours", 0, true},
		{"2 weeks", "2 weeks", 14, true},
		{"2 weeks", "2 weeks", 15, false},
		{"3 months", "3 months", 91, true},
		{"3 months", "3 months", 92, false},
		{"1 decade", "1 decade", 3652, true},
		{"2 centuries", "2 centuries", 73048, true},
		{"1 century", "1 century", 36525, false},
		{"90 minutes", "90 minutes", 1, false},
		{"30days", "30 days", 30, true},
	}
	for _, tt := range tests {
		t.Run(tt.duration+" "+fmt.Sprint(tt.daysAgo), func(t *testing.T) {
			day := fixedDay.AddDate(0, 0, -tt.daysAgo).Format("2006-01-02")
			res, c := firstCondition(t, "A **x** is ok if __d__ of **x** is within "+tt.duration+".", `{"x": {"d": "`+day+`"}}`)
			if res.Result != tt.within {
				t.Errorf("%s within %s = %v, want %v", day, tt.duration, res.Result, tt.within)
			}
			if c.Value.Type != "duration" || c.Value.Value != tt.shown {
				t.Errorf("value = %v, want duration %q", c.Value, tt.shown)
			}
		})
	}
}

func TestDateRelativeOperatorsUseTheInjectedClock(t *testing.T) {
	tests := []struct {
		predicate string
		date      string
		want      bool
	}{
		{"is within 30 days", "2030-05-16", true},  // exactly 30 days ago
		{"is within 30 days", "2030-05-15", false}, // 31 days ago
		{"is within 30 days", "2030-06-25", true},  // future dates count
		{"is older than 18 years", "2012-06-15", false},
		{"is older than 18 years", "2012-06-13", true},
		{"is younger than 18 years", "2012-06-16", true},
		{"is younger than 1 day", "2030-06-15T23:00:00Z", true},
	}
	for _, tt := range tests {
		t.Run(tt.predicate+" "+tt.date, func(t *testing.T) {
			res, _ := firstCondition(t, "A **x** is ok if __d__ of **x** "+tt.predicate+".", `{"x": {"d": "`+tt.date+`"}}`)
			if res.Result != tt.want {
				t.Errorf("result %v, want %v", res.Result, tt.want)
			}
		})
	}
}

func TestTextIsCountedInCharacters(t *testing.T) {
	tests := []struct {
		name, rule, data string
		want             bool
	}{
		{"length of Köln is 4", `A **c** is short if the length of __name__ of **c** is equal to 4.`, `{"c": {"name": "Köln"}}`, true},
		{"length of an emoji string", `A **c** is short if the length of __name__ of **c** is equal to 2.`, `{"c": {"name": "👍🏽"}}`, true},
		{"contains after an accented word", `A **r** is ok if __text__ of **r** contains "bar".`, `{"r": {"text": "café bar"}}`, true},
		{"contains is whole-word around accents", `A **r** is ok if __text__ of **r** contains "caf".`, `{"r": {"text": "café bar"}}`, false},
		{"equality folds non-ASCII case", `A **r** is ok if __w__ of **r** is equal to "ÄRGER".`, `{"r": {"w": "ärger"}}`, true},
		{"exact equality keeps case", `A **r** is ok if __w__ of **r** is exactly equal to "ÄRGER".`, `{"r": {"w": "ärger"}}`, false},
		{"non-ASCII property names match exactly", `A **s** is ok if __prénom__ of **s** is not empty.`, `{"s": {"prénom": "Zoé"}}`, true},
		{"membership folds non-ASCII case", `A **r** is ok if __w__ of **r** is in ["ÉTÉ", "hiver"].`, `{"r": {"w": "été"}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
			if res.Result != tt.want || res.Error != nil {
				t.Errorf("result %v error %v, want %v", res.Result, res.Error, tt.want)
			}
			prog, err := fixedEngine().Compile(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			if got := prog.Evaluate(mustData(t, tt.data)); got.Result != tt.want {
				t.Errorf("compiled for reuse: result %v, want %v", got.Result, tt.want)
			}
		})
	}
}

// Lower-casing makes some texts shorter (İ, the Kelvin sign) and others
// longer (Ⱥ): a written list gives the same answers however its program
// was compiled, the answers of `is equal to` against each item.
func TestMembershipIsTheSameCompiledForReuseOrRunOnce(t *testing.T) {
	texts := []string{"i", "İ", "ı", "I", "Ⱥ", "ⱥ", "K", "k", "Å", "å", "Ω", "ω", "ẞ", "ß", "ÉTÉ", "été", "x"}
	lists := [][]string{texts}
	for _, a := range texts {
		for _, b := range texts {
			lists = append(lists, []string{a, b}, []string{a, "x", b})
		}
	}
	for _, list := range lists {
		rule := `A **u** is ok if the __x__ of the **u** is in ["` + strings.Join(list, `", "`) + `"].`
		prog, err := fixedEngine().Compile(rule)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range texts {
			// The language lower-cases both sides, which is not Unicode's
			// case folding (strings.EqualFold) for every letter.
			want, lowered := false, strings.ToLower(v)
			for _, it := range list {
				want = want || strings.ToLower(it) == lowered
			}
			data := map[string]any{"u": map[string]any{"x": v}}
			once, reused := fixedEngine().Run(rule, data), prog.Evaluate(data)
			if once.Result != want || reused.Result != want {
				t.Errorf("%q is in %q: run once %v, compiled for reuse %v, want %v", v, list, once.Result, reused.Result, want)
			}
		}
	}
}

// A string item of a list from the data is text even when it reads as a
// date: it equals another text only as text, and a date as a date.
func TestListItemsFromTheDataKeepTheirType(t *testing.T) {
	tests := []struct {
		name, condition, data string
		want                  bool
	}{
		{"a date-like item does not contain a timestamp text", `__d__ of **x** contains "2024-01-01T09:00:00Z"`, `{"d": ["2024-01-01"]}`, false},
		{"a timestamp text is not in date-like items", `__t__ of **x** is in __d__ of **x**`, `{"t": "2024-01-01T09:00:00Z", "d": ["2024-01-01"]}`, false},
		{"a timestamp text is not in them, negated", `__t__ of **x** is not in __d__ of **x**`, `{"t": "2024-01-01T09:00:00Z", "d": ["2024-01-01"]}`, true},
		{"a date-like item contains the same text", `__d__ of **x** contains "2024-01-01"`, `{"d": ["2024-01-01"]}`, true},
		{"a timestamp item contains a written date", `__d__ of **x** contains 2024-01-01`, `{"d": ["2024-01-01T09:00:00Z"]}`, true},
		{"a date from the data is in timestamp items", `__t__ of **x** is in __d__ of **x**`, `{"t": "2024-01-01", "d": ["2024-01-01T09:00:00Z"]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run("A **x** is ok if "+tt.condition+".", mustData(t, `{"x": `+tt.data+`}`))
			if res.Result != tt.want || res.Error != nil {
				t.Errorf("result %v error %v, want %v", res.Result, res.Error, tt.want)
			}
		})
	}
}

func TestErrorKindsAndMessages(t *testing.T) {
	tests := []struct {
		name, rule, data, message string
	}{
		{"missing selector", `A **P** is ok if __age__ of **P** is at least 1.`, `{"Q": {}}`,
			"Missing selector: selector 'P' not found in data"},
		{"missing segment of a dotted root", `A **P** is ok if __age__ of **a.b** is at least 1.`, `{"a": {"c": 1}}`,
			"Missing selector: selector 'b' not found at $.a"},
		{"missing property", `A **P** is ok if __age__ of **P** is at least 1.`, `{"P": {"name": "x"}}`,
			"Missing property: property 'age' not found at $.P"},
		{"stepping into a string", `A **P** is ok if __x__ of __name__ of **P** is at least 1.`, `{"P": {"name": "x"}}`,
			"Missing property: property 'x' not found at $.P.name"},
		{"null compared", `A **P** is ok if __age__ of **P** is at least 1.`, `{"P": {"age": null}}`,
			"Type error: Unsupported JSON value type: null"},
		{"object compared", `A **P** is ok if __age__ of **P** is at least 1.`, `{"P": {"age": {"b": 2, "a": "<"}}}`,
			`Type error: Unsupported JSON value type: {"a":"<","b":2}`},
		{"array of objects compared", `A **P** is ok if __tags__ of **P** contains "a".`, `{"P": {"tags": ["a", {"k": 1}]}}`,
			`Type error: Unsupported array item type: {"k":1}`},
		{"length of a number", `A **P** is ok if the length of __n__ of **P** is at least 1.`, `{"P": {"n": 12.5}}`,
			"Evaluation error: Cannot calculate length of 12.5"},
		{"number of a string", `A **P** is ok if the number of __n__ of **P** is at least 1.`, `{"P": {"n": "abc"}}`,
			`Evaluation error: Cannot calculate number of "abc" for non array`},
		{"unresolved reference", `A **P** is ok if the **P** passes the eye tset.`, `{"P": {}}`,
			`Unresolved reference: no rule or data property matches "passes the eye tset"`},
		{"reference to a missing selector", `A **P** is ok if the **Q** passes the eye test.`, `{"P": {}}`,
			"Missing selector: selector 'Q' not found in data"},
		{"cycle", "A **x** passes a if the **x** passes b.\nA **x** passes b if the **x** passes a.\nA **x** is ok if the **x** passes a.", `{"x": {}}`,
			"Evaluation error: Infinite loop detected in rule evaluation: ok -> a -> b -> a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
			if res.Result || res.Error == nil || res.Error.Message != tt.message {
				t.Errorf("result %v error %v, want false and %q", res.Result, res.Error, tt.message)
			}
			if kind, _, _ := strings.Cut(tt.message, ":"); res.Error != nil && res.Error.Kind.String() != kind {
				t.Errorf("kind %q, want %q", res.Error.Kind, kind)
			}
		})
	}
}

func TestParseErrorsPointAtLineAndColumn(t *testing.T) {
	tests := []struct {
		name, rule, message string
	}{
		{"unknown operator", "A **P** is ok if __a__ of **P** is bigger than 1.", "Parse error:  --> 1:33\n  = expected predicate"},
		{"missing value", "# heading\nA **P** is ok\n  if __a__ of **P** is at least.", "Parse error:  --> 3:32\n  = expected value"},
		{"missing full stop", "A **P** is ok if __a__ of **P** is at least 1", "Parse error:  --> 1:46\n  = expected \"and\", \"or\" or \".\""},
		{"no if", "A **P** is ok when __a__ of **P** is at least 1.", "Parse error:  --> 1:48\n  = expected \"if\""},
		{"columns count characters", "A **P** is ök if __a__ of **P** is bigger than 1.", "Parse error:  --> 1:33\n  = expected predicate"},
		{"empty list", "A **P** is ok if __a__ of **P** is in [].", "Parse error:  --> 1:40\n  = expected value"},
		{"a value missing before and", "A **P** is ok if __a__ is equal to\n and __b__ is equal to 1.", "Parse error:  --> 2:2\n  = expected value"},
		{"a value missing before or", "A **P** is ok if __a__ is equal to or __b__ is equal to 1.", "Parse error:  --> 1:36\n  = expected value"},
		{"a value missing before or the", "A **P** is ok if __a__ is not equal to or the **P** is b.", "Parse error:  --> 1:40\n  = expected value"},
		{"a reference phrase missing before and", "A **P** is ok if the **Q** and __b__ is equal to 1.", "Parse error:  --> 1:28\n  = expected predicate or reference phrase"},
		{"a property starting with a dot", "A **P** is ok if __.a__ is equal to 1.", "Parse error:  --> 1:20\n  = expected property name"},
		{"a property with two dots in a row", "A **P** is ok if __b..c__ is equal to 1.", "Parse error:  --> 1:22\n  = expected property name"},
		{"a property ending with a dot", "A **P** is ok if __a.b.__ is equal to 1.", "Parse error:  --> 1:24\n  = expected property name"},
		{"a property of only a dot", "A **P** is ok if the __a__ of the __.__ of **P** is empty.", "Parse error:  --> 1:37\n  = expected property name"},
		{"a right-hand property with two dots in a row", "A **P** is ok if __a__ is equal to __b..c__.", "Parse error:  --> 1:40\n  = expected property name"},
		{"a selector with two dots in a row", "A **P** is ok if __a__ of **a..b** is equal to 1.", "Parse error:  --> 1:31\n  = expected selector name"},
		{"a list item missing before or", "A **P** is ok if __a__ is in [or __b__ is equal to 1].", "Parse error:  --> 1:31\n  = expected value"},
		{"negative number", "A **P** is ok if __a__ of **P** is at least -1.", "Parse error:  --> 1:45\n  = expected value"},
		{"invalid date", "A **P** is ok if __a__ of **P** is later than 2023-02-29.", "Parse error: Invalid date: 2023-02-29"},
		{"no rules", "# only a comment", "Parse error: No global rule found"},
		{"count with a list operator", "A **P** is ok if the number of __a__ of **P** is in [1].", "Parse error: Number of comparisons require comparison operators"},
		{"count with a date operator", "A **P** is ok if the length of __a__ of **P** is later than 2020-01-01.", "Parse error: Unsupported operator for length of comparison: is later than"},
		{"count against a path", "A **P** is ok if the length of __a__ of **P** is equal to __b__ of **P**.", "Parse error: Length of comparisons require a numeric value"},
		{"label reference with a bad predicate", "a. A **P** is ok if __a__ of **P** is empty.\nA **P** is b if §a works.", "Parse error:  --> 2:20\n  = expected label predicate, \"and\", \"or\" or \".\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, map[string]any{})
			if res.Error == nil || res.Error.Message != tt.message {
				t.Errorf("error %v, want %q", res.Error, tt.message)
			}
			if res.Labels != nil || res.Result {
				t.Errorf("labels %v result %v, want null and false", res.Labels, res.Result)
			}
		})
	}
}

func TestCommentLinesInsideARuleAreNoPartOfIt(t *testing.T) {
	tests := []struct {
		name, rule, label, outcome string
	}{
		{"an if in the comment", "A **P** is an adult\n  # only if resident\n  if the __age__ of the **P** is at least 18.", "", "an adult"},
		{"a full stop in the comment", "A **P** is an adult\n  # see law 12.3\n  if the __age__ of the **P** is at least 18.", "", "an adult"},
		{"a plain comment", "A **P** is an adult\n  # note\n  if the __age__ of the **P** is at least 18.", "", "an adult"},
		{"inside the outcome", "A **P** is\r\n  # note\r\n  an adult\r\n  if the __age__ of the **P** is at least 18.", "", "an adult"},
		{"between two lines of the outcome", "A **P** is an\n# note\nadult if the __age__ of the **P** is at least 18.", "", "an\nadult"},
		{"between the label and the rule", "grown.\n# about. A **Q**\nA **P** is an adult if the __age__ of the **P** is at least 18.", "grown", "an adult"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, map[string]any{"P": map[string]any{"age": 20.0}})
			if res.Error != nil || !res.Result {
				t.Fatalf("result %v error %v, want true", res.Result, res.Error)
			}
			entry := res.Trace.Execution[0]
			if entry.Label != tt.label || entry.Outcome.Value != tt.outcome {
				t.Errorf("label %q outcome %q, want %q and %q", entry.Label, entry.Outcome.Value, tt.label, tt.outcome)
			}
			if d := engine.Check(tt.rule).Diagnostics; len(d) != 0 {
				t.Errorf("diagnostics %+v, want none", d)
			}
		})
	}
}

func TestTheParserReportsEveryBrokenRule(t *testing.T) {
	src := "A **P** is a if __a__ of **P** is bigger than 1.\n\nA **P** is b if __a__ of **P** is at least 1.\n\nA **P** is c if __a__ of **P** equals 2."
	_, err := fixedEngine().Compile(src)
	errs, ok := err.(engine.ParseErrors)
	if !ok || len(errs) != 2 {
		t.Fatalf("errors %v, want two problems", err)
	}
	if errs[0].Pos.Line != 1 || errs[1].Pos.Line != 5 {
		t.Errorf("lines %d and %d, want 1 and 5", errs[0].Pos.Line, errs[1].Pos.Line)
	}
}

func TestReferencesResolveInTheSpecifiedOrder(t *testing.T) {
	tests := []struct {
		name, rule, data string
		want             bool
		outcome          string
	}{
		{"normalised phrase with verb", "A **P** passes the practical test if __s__ of **P** is at least 60.\nA **P** gets a licence if the **P** passes  the Practical test.", `{"P": {"s": 61}}`, true, "the practical test"},
		{"fuzzy containment", "A **P** passes the full credit check if __s__ of **P** is at least 1.\nA **P** gets a loan if the **P** passes the credit check.", `{"P": {"s": 1}}`, true, "the full credit check"},
		{"the last duplicate outcome wins", "A **P** is fine if __a__ of **P** is equal to 1.\nA **P** is fine if __a__ of **P** is equal to 2.\nA **P** is ok if the **P** is fine.", `{"P": {"a": 2}}`, true, "fine"},
		{"label reference ending the rule", "age.check. A **P** passes the age test if __a__ of **P** is at least 18.\nA **P** is ok if §age.check.", `{"P": {"a": 20}}`, true, "the age test"},
		{"dollar label with predicate", "kyc. A **P** passes identity if __id__ of **P** is not empty.\nA **P** is ok if $kyc is approved.", `{"P": {"id": "x"}}`, true, "identity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
			if res.Result != tt.want || res.Error != nil {
				t.Fatalf("result %v error %v, want %v", res.Result, res.Error, tt.want)
			}
			c := res.Trace.Execution[0].Conditions[0]
			if !c.Reference || c.ReferencedRuleOutcome != tt.outcome {
				t.Errorf("condition %+v, want a reference to %q", c, tt.outcome)
			}
		})
	}
}

func TestAnUnresolvedLabelReferenceIsFalse(t *testing.T) {
	res := fixedEngine().Run("A **P** is ok if §nothing is valid or __a__ of **P** is equal to 1.", map[string]any{"P": map[string]any{"a": 1.0}})
	c := res.Trace.Execution[0].Conditions[0]
	if !res.Result || res.Error != nil || c.Result || c.ReferencedRuleOutcome != "" || c.RuleName != "nothing" {
		t.Errorf("result %v error %v condition %+v", res.Result, res.Error, c)
	}
}

func TestPropertyInferenceDecidesUnresolvedPhrases(t *testing.T) {
	tests := []struct {
		data     string
		want     bool
		property string
		value    any
		// shown is the value as the explanation and the warning write it:
		// as the data holds it, not wrapped by kind as the trace keeps it.
		shown string
	}{
		{`{"P": {"eyeTestPassed": false}}`, false, "eyeTestPassed", map[string]any{"Boolean": false}, `false`},
		{`{"P": {"eye_test_status": "PASSED"}}`, true, "eyeTestStatus", map[string]any{"String": "PASSED"}, `"PASSED"`},
		{`{"P": {"testQualified": 2}}`, true, "testQualified", map[string]any{"Number": 2.0}, `2`},
		{`{"P": {"eyeTest": ["x"]}}`, false, "eyeTest", []any{"x"}, `["x"]`},
		{`{"P": {"eyeTest": {"Boolean": true}}}`, false, "eyeTest", map[string]any{"Boolean": true}, `{"Boolean":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			res := fixedEngine().Run("A **P** is ok if the **P** passes the eye test.", mustData(t, tt.data))
			c := res.Trace.Execution[0].Conditions[0]
			if res.Result != tt.want || res.Error != nil || c.PropertyCheck == nil {
				t.Fatalf("result %v error %v check %v", res.Result, res.Error, c.PropertyCheck)
			}
			if c.PropertyCheck.PropertyName != tt.property || !sameJSON(c.PropertyCheck.PropertyValue, tt.value) {
				t.Errorf("property_check %+v, want %s %v", *c.PropertyCheck, tt.property, tt.value)
			}
			res.Explain()
			verdict := map[bool]string{true: "yes", false: "no"}[tt.want]
			if want := "P is ok: " + verdict + " — the P passes the eye test: the data property " + tt.property + " is " + tt.shown + "."; res.Explanation != want {
				t.Errorf("explanation %q, want %q", res.Explanation, want)
			}
			want := engine.Warning{Code: engine.WarnInferredReference, Message: `No rule matches "passes the eye test"; the data property ` + tt.property + " of P decided it (" + tt.shown + ")."}
			if len(res.Warnings) != 1 || res.Warnings[0] != want {
				t.Errorf("warnings %+v, want %+v", res.Warnings, want)
			}
		})
	}
}

// The selector of a reference decided by a data property steps into nested
// objects at its dots, as every selector does.
func TestAnInferredReferenceStepsIntoADottedSelector(t *testing.T) {
	tests := []struct {
		data, err string
		want      bool
	}{
		{`{"order": {"customer": {"check": true}}}`, "", true},
		{`{"Order": {"Customer": {"check_passed": "no"}}}`, "", false},
		{`{"order.customer": {"check": true}}`, "Missing selector: selector 'order' not found in data", false},
		{`{"order": {"client": {"check": true}}}`, "Missing selector: selector 'customer' not found at $.order", false},
		{`{"order": "customer"}`, "Missing selector: selector 'customer' not found at $.order", false},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			res := fixedEngine().Run("A **P** gets a licence if the **order.customer** passes the check.", mustData(t, tt.data))
			if res.Result != tt.want || (res.Error == nil) != (tt.err == "") || res.Error != nil && res.Error.Message != tt.err {
				t.Errorf("result %v error %v, want %v and %q", res.Result, res.Error, tt.want, tt.err)
			}
		})
	}
}

// A comparison whose run stopped keeps the property's value null, whichever
// side failed; the explanation names the side that did.
func TestTheExplanationNamesTheSideOfAComparisonThatFailed(t *testing.T) {
	tests := []struct{ data, said string }{
		{`{"user": {"age": 25}, "config": {}}`, "the min age of the config could not be read"},
		{`{"user": {"age": 25}}`, "the min age of the config could not be read"},
		{`{"user": {"age": 25}, "config": {"min_age": null}}`, "the min age of the config could not be compared"},
		{`{"user": {}, "config": {"min_age": 18}}`, "the age of the user could not be read"},
		{`{"user": {"age": null}, "config": {"min_age": null}}`, "the age of the user could not be compared"},
	}
	for _, tt := range tests {
		t.Run(tt.data, func(t *testing.T) {
			res := fixedEngine().Run("A **user** is old enough if the __age__ of the **user** is greater than the __min age__ of the **config**.", mustData(t, tt.data))
			if res.Error == nil {
				t.Fatal("no error")
			}
			if c := res.Trace.Execution[0].Conditions[0]; c.Property.Value != nil || c.Compared {
				t.Errorf("property value %v, compared %v; want null and not compared", c.Property.Value, c.Compared)
			}
			res.Explain()
			if want := "user is old enough: no — " + tt.said + ". The run stopped with an error: " + res.Error.Message + "."; res.Explanation != want {
				t.Errorf("explanation %q, want %q", res.Explanation, want)
			}
		})
	}
}

// An explanation shows a text value as written, <, > and & included: it is
// read as text, and \u003c showed other characters than the data held.
func TestTheExplanationShowsTextAsWritten(t *testing.T) {
	res := fixedEngine().Run(`A **Person** gets approved if the __name__ of the **Person** is equal to "x".`,
		mustData(t, `{"Person": {"name": "<b>\"&\"</b>"}}`))
	res.Explain()
	if want := `Person gets approved: no — the name of the Person is "<b>\"&\"</b>", which is not equal to "x".`; res.Explanation != want {
		t.Errorf("explanation %q, want %q", res.Explanation, want)
	}
}

func TestTheGoldenRuleIsTheLastUnreferencedRule(t *testing.T) {
	tests := []struct{ name, rule, outcome string }{
		{"helpers first", "A **P** passes x if __a__ of **P** is equal to 1.\nA **P** is ok if the **P** passes x.", "ok"},
		{"golden first", "A **P** is ok if the **P** passes x.\nA **P** passes x if __a__ of **P** is equal to 1.", "ok"},
		{"independent rules", "A **P** is minor if __a__ of **P** is less than 18.\nA **P** is adult if __a__ of **P** is at least 18.", "adult"},
		{"all in a cycle", "A **P** passes x if the **P** passes y.\nA **P** passes y if the **P** passes x.", "y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, map[string]any{"P": map[string]any{"a": 1.0}})
			if got := res.Trace.Execution[0].Outcome.Value; got != tt.outcome {
				t.Errorf("golden outcome %q, want %q", got, tt.outcome)
			}
		})
	}
}

func TestLabelsCoverEveryLabelledRule(t *testing.T) {
	src := "a. A **P** passes x if __a__ of **P** is equal to 1.\nb. A **P** passes y if __missing__ of **P** is equal to 1.\nc. A **P** is ok if the **P** passes x."
	res := fixedEngine().Run(src, map[string]any{"P": map[string]any{"a": 1.0}})
	want := map[string]bool{"a": true, "b": false, "c": true}
	if !res.Result || res.Error != nil || !sameJSON(res.Labels, want) {
		t.Errorf("result %v error %v labels %v, want true, no error, %v", res.Result, res.Error, res.Labels, want)
	}
}

func TestBareWordsEndBeforeANewCondition(t *testing.T) {
	res := fixedEngine().Run("A **u** is ok if __tier__ of **u** is equal to gold and __n__ of **u** is equal to 1.", map[string]any{"u": map[string]any{"tier": "Gold", "n": 1.0}})
	conds := res.Trace.Execution[0].Conditions
	if !res.Result || len(conds) != 2 || conds[0].Value.Value != "gold" {
		t.Errorf("result %v, %d conditions, first value %v", res.Result, len(conds), conds[0].Value.Value)
	}
	res = fixedEngine().Run("A **u** is ok if the **u** meets terms and conditions.", map[string]any{"u": map[string]any{"termsAndConditions": true}})
	if c := res.Trace.Execution[0].Conditions[0]; !res.Result || c.RuleName != "meets terms and conditions" {
		t.Errorf("result %v rule_name %q", res.Result, c.RuleName)
	}
}

// A bare word may begin with the letters of `and` or `or`, and with the
// words themselves when no condition follows them; only an `and`/`or`
// that starts a new condition ends it, and where the word would begin
// that leaves no value (see TestParseErrorsPointAtLineAndColumn).
func TestBareWordsMayBeginWithTheLettersOfAConnective(t *testing.T) {
	for _, word := range []string{"android", "oregon", "order", "and_more", "orange juice", "and so on", "or else", "or", "and"} {
		rule := "A **u** is ok if __tier__ of **u** is equal to " + word + "\n  and __n__ of **u** is equal to 1."
		res := fixedEngine().Run(rule, map[string]any{"u": map[string]any{"tier": word, "n": 1.0}})
		if res.Error != nil || !res.Result || len(res.Trace.Execution[0].Conditions) != 2 {
			t.Errorf("%q: result %v error %v", word, res.Result, res.Error)
			continue
		}
		if got := res.Trace.Execution[0].Conditions[0].Value.Value; got != word {
			t.Errorf("%q: value %q", word, got)
		}
	}
	res := fixedEngine().Run("A **u** is ok if __tier__ of **u** is equal to order or __n__ of **u** is equal to 1.",
		map[string]any{"u": map[string]any{"tier": "x", "n": 1.0}})
	if conds := res.Trace.Execution[0].Conditions; res.Error != nil || !res.Result || len(conds) != 2 || conds[0].Value.Value != "order" {
		t.Errorf("order or a condition: result %v error %v", res.Result, res.Error)
	}
}

func TestRuleEntries(t *testing.T) {
	src := "# Loan policy\r\nA **loan** is approved\r\n  if the __amount__ of the **loan** is no more than 10000.\r\n"
	prog, err := fixedEngine().Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := prog.InlineRules(); !sameJSON(got, []string{"A **loan** is approved\r\n  if the __amount__ of the **loan** is no more than 10000."}) {
		t.Errorf("inline = %q", got)
	}
	lines := []struct {
		src  string
		want []string
	}{
		{src, []string{"# Loan policy", "A **loan** is approved", "  if the __amount__ of the **loan** is no more than 10000."}},
		{"", []string{}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\n", []string{"a"}},
	}
	for _, tt := range lines {
		if got := engine.Lines(tt.src); !sameJSON(got, tt.want) {
			t.Errorf("Lines(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
	if got := engine.Paragraphs("# h\nA x\n  y\n\n\n  # c\nB z\n"); !sameJSON(got, []string{"A x\n  y", "B z"}) {
		t.Errorf("Paragraphs = %q", got)
	}
}

func TestLimitsAreErrorsNotCrashes(t *testing.T) {
	small := &engine.Engine{Limits: engine.Limits{MaxTextBytes: 200, MaxRules: 2, MaxConditions: 3, MaxListItems: 2, MaxDataDepth: 3, MaxReferenceDepth: 2}}
	rule := "A **P** is ok if __a__ of **P** is equal to 1."
	tests := []struct{ name, src, message string }{
		{"text size", strings.Repeat("#", 201), "Parse error: rule text is 201 bytes, the limit is 200"},
		{"rules", rule + "\n" + rule + "\n" + rule, "Parse error: more than 2 rules"},
		{"conditions", "A **P** is ok if __a__ of **P** is empty and __a__ of **P** is empty and __a__ of **P** is empty and __a__ of **P** is empty.", "Parse error: more than 3 conditions"},
		{"list items", "A **P** is ok if __a__ of **P** is in [1, 2, 3].", "Parse error: list has more than 2 items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := small.Run(tt.src, map[string]any{"P": map[string]any{"a": 1.0}})
			if res.Error == nil || res.Error.Message != tt.message {
				t.Errorf("error %v, want %q", res.Error, tt.message)
			}
		})
	}
	shallow := &engine.Engine{Limits: engine.Limits{MaxReferenceDepth: 2}}
	chain := "A **P** passes x if the **P** passes y.\nA **P** passes y if the **P** passes z.\nA **P** passes z if __a__ of **P** is empty.\nA **P** is ok if the **P** passes x."
	if res := shallow.Run(chain, map[string]any{"P": map[string]any{"a": ""}}); res.Error == nil ||
		res.Error.Message != "Evaluation error: references nest deeper than 2 rules" {
		t.Errorf("a chain of 3 references under a limit of 2: error %v", res.Error)
	}
	if res := shallow.Run(chain, map[string]any{"P": map[string]any{"a": ""}}); res.Result {
		t.Error("a run over the reference limit is true")
	}
	if _, err := engine.DecodeData([]byte(`{"a": {"b": {"c": {}}}}`), small.Limits); err == nil {
		t.Error("data nested 4 deep was accepted with a limit of 3")
	}
	if _, err := engine.DecodeData([]byte(`{"a": "{{{{{{"}`), small.Limits); err != nil {
		t.Errorf("brackets inside strings count as nesting: %v", err)
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if _, err := engine.DecodeData([]byte(`{"a": `+deep+`}`), engine.Limits{}); err == nil {
		t.Error("data nested 100000 deep was accepted with the default limit")
	}
}

func TestDataMustBeAnObject(t *testing.T) {
	for _, raw := range []string{`null`, `[]`, `"x"`, `1`, ` `, `{"a": }`, `{} {}`} {
		if _, err := engine.DecodeData([]byte(raw), engine.Limits{}); err == nil {
			t.Errorf("DecodeData(%q) accepted", raw)
		}
	}
}

func TestAProgramIsSafeForConcurrentUse(t *testing.T) {
	prog, err := fixedEngine().Compile("a. A **P** passes x if __age__ of **P** is at least 18.\nA **P** is ok if §a passes and __tags__ of **P** contains \"vip\".")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var res engine.Result
			for i := 0; i < 500; i++ {
				age := float64((g*500 + i) % 40)
				prog.EvaluateInto(&res, map[string]any{"P": map[string]any{"age": age, "tags": []any{"VIP"}}})
				if want := age >= 18; res.Result != want || res.Labels["a"] != want {
					t.Errorf("age %v: result %v labels %v, want %v", age, res.Result, res.Labels, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestEvaluateIntoLeavesNothingOfThePreviousResult(t *testing.T) {
	long, _ := fixedEngine().Compile("l. A **P** is ok if __a__ of **P** is equal to 1 and __a__ of **P** is equal to 1.")
	short, _ := fixedEngine().Compile("A **Q** is ok if __b__ of **Q** is equal to 2.")
	var res engine.Result
	long.EvaluateInto(&res, map[string]any{"P": map[string]any{"a": 1.0}})
	short.EvaluateInto(&res, map[string]any{"Q": map[string]any{"b": 2.0}})
	fresh := short.Evaluate(map[string]any{"Q": map[string]any{"b": 2.0}})
	got, _ := json.Marshal(&res)
	want, _ := json.Marshal(fresh)
	if string(got) != string(want) {
		t.Errorf("reused result\n%s\nwant\n%s", got, want)
	}
}

func TestDateNotParsedNamesTheValueThatIsNotADate(t *testing.T) {
	const data = `{"sub": {"expiry": "2024-06-30", "b": "soon", "end": "next June"}}`
	const notDate = "not a date (YYYY-MM-DD or an ISO 8601 timestamp), so the condition is false."
	tests := []struct{ cond, want string }{
		{`the __expiry__ of the **sub** is later than "January 1, 2024"`,
			`The rule compares the expiry of the sub with "January 1, 2024", which is ` + notDate},
		{`the __expiry__ of the **sub** is later than 12`,
			`The rule compares the expiry of the sub with 12, which is ` + notDate},
		{`the __expiry__ of the **sub** is within thirty days`,
			`The rule compares the expiry of the sub with "thirty days", which is not a duration (a number and a unit, such as 30 days), so the condition is false.`},
		{`__expiry__ is later than __b__`,
			`The expiry of the sub is compared with the b of the sub, which is "soon", ` + notDate},
		{`the __end__ of the **sub** is later than 2024-01-01`,
			`The end of the sub is "next June", which is ` + notDate},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			res := fixedEngine().Run("A **sub** is current if "+tt.cond+".", mustData(t, data))
			res.Explain()
			want := engine.Warning{Code: engine.WarnDateNotParsed, Message: tt.want}
			if res.Error != nil || len(res.Warnings) != 1 || res.Warnings[0] != want {
				t.Errorf("error %v, warnings %+v, want %+v", res.Error, res.Warnings, want)
			}
		})
	}
}

func TestTimestampsAreDatesWhenTheyAreRFC3339OrISO8601(t *testing.T) {
	tests := []struct {
		stamp string
		date  bool
	}{
		{"2024-03-02T10:00:00Z", true},
		{"2024-03-02t10:00:00z", true},
		{"2024-03-02 23:59:60.5+05:30", true},
		{"2024-03-02T10:00-0800", true},
		{"2024-03-02T25:00:00Z", false},
		{"2024-03-02T24:00:00Z", false},
		{"2024-03-02T10:60:00Z", false},
		{"2024-03-02T10:00:61Z", false},
		{"2024-03-02T10:00:00+24:00", false},
		{"2024-03-02T10:00:00+05:60", false},
		{"2024-03-02x10:00:00Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.stamp, func(t *testing.T) {
			res, c := firstCondition(t, "A **s** is ok if the __at__ of the **s** is later than 2024-03-01.",
				`{"s": {"at": "`+tt.stamp+`"}}`)
			if res.Error != nil || res.Result != tt.date || c.Compared != tt.date {
				t.Errorf("result %v, compared %v, error %v; want both %v", res.Result, c.Compared, res.Error, tt.date)
			}
		})
	}
}

func TestANumberSentAsTextIsNamedWhenComparedWithNumbers(t *testing.T) {
	const data = `{"P": {"age": "65", "n": 65, "ns": [65], "name": "Ann"}}`
	const send = " Send numbers without quotes."
	tests := []struct{ cond, code, message string }{
		{"__age__ is equal to 65", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it was not compared with 65 and the condition is false.` + send},
		{"__age__ is not equal to 65", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it was not compared with 65 and the condition is false.` + send},
		{"__age__ is equal to __n__", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it was not compared with the n of the P (65) and the condition is false.` + send},
		{"__age__ is in [65, 66]", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it equals none of the numbers in [65,66] and the condition is false.` + send},
		{"__age__ is not in [65, 66]", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it equals none of the numbers in [65,66] and the condition is true.` + send},
		{"__age__ is in __ns__", engine.WarnTextComparedWithNumber,
			`The age of the P is the text "65", not a number, so it equals none of the numbers in the ns of the P ([65]) and the condition is false.` + send},
		{"__name__ is equal to 65", engine.WarnValuesNotCompared,
			`The name of the P is "Ann", which cannot be compared with 65, so the condition is false.`},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			res := fixedEngine().Run("A **P** is ok if "+tt.cond+".", mustData(t, data))
			res.Explain()
			want := engine.Warning{Code: tt.code, Message: tt.message}
			if res.Error != nil || len(res.Warnings) != 1 || res.Warnings[0] != want {
				t.Errorf("error %v, warnings %+v, want %+v", res.Error, res.Warnings, want)
			}
		})
	}
	res := fixedEngine().Run("A **P** is ok if __name__ is in [65, 66].", mustData(t, data))
	if res.Explain(); len(res.Warnings) != 0 {
		t.Errorf("a text that is no number in a list of numbers: warnings %+v, want none", res.Warnings)
	}
}

// TestAListLookedForAmongValuesIsNamed: a list equals no value of a list,
// so `is not in` is true whatever the list holds. The decision is the
// language's; the warning says why and what to write instead.
func TestAListLookedForAmongValuesIsNamed(t *testing.T) {
	const data = `{"user": {"roles": ["banned"], "blocked": ["banned"], "role": "banned"}}`
	const use = " Use `contains` to look for a value in a list."
	tests := []struct {
		cond    string
		result  bool
		message string
	}{
		{`the __roles__ of the **user** is not in ["banned"]`, true,
			`The roles of the user is a list, ["banned"], which is never one of the values in ["banned"], so the condition is true.` + use},
		{`the __roles__ of the **user** is in ["banned"]`, false,
			`The roles of the user is a list, ["banned"], which is never one of the values in ["banned"], so the condition is false.` + use},
		{`the __roles__ of the **user** is not in the __blocked__ of the **user**`, true,
			`The roles of the user is a list, ["banned"], which is never one of the values in the blocked of the user (["banned"]), so the condition is true.` + use},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			res := fixedEngine().Run("A **user** is allowed if "+tt.cond+".", mustData(t, data))
			res.Explain()
			want := engine.Warning{Code: engine.WarnListComparedWithValue, Message: tt.message}
			if res.Error != nil || res.Result != tt.result || len(res.Warnings) != 1 || res.Warnings[0] != want {
				t.Errorf("result %v, error %v, warnings %+v; want %v and %+v", res.Result, res.Error, res.Warnings, tt.result, want)
			}
		})
	}
	res := fixedEngine().Run(`A **user** is allowed if the __role__ of the **user** is not in ["banned"].`, mustData(t, data))
	if res.Explain(); res.Result || len(res.Warnings) != 0 {
		t.Errorf("a single value: result %v, warnings %+v; want false and none", res.Result, res.Warnings)
	}
}

func TestEveryConditionThatCallsForAWarningGetsIt(t *testing.T) {
	const eye = "A **Person** passes the eye test if the __vision__ of the **Person** is at least 6.\n" +
		"A **Person** gets a licence if the **Person** passes the eye test.\n"
	tests := []struct {
		name, rule, data string
		result           bool
		want             []engine.Warning
	}{
		{"a misspelt reference in a referenced rule",
			"A **Person** is fit if the **Person** passes the eye tset.\nA **Person** gets a licence if the **Person** is fit.\n",
			`{"Person": {"eye_tset_passed": true}}`, true,
			[]engine.Warning{{Code: engine.WarnInferredReference, Message: `In the rule "Person is fit", no rule matches "passes the eye tset"; the data property eyeTsetPassed of Person decided it (true).`}}},
		{"text compared with a number in a referenced rule", eye, `{"Person": {"vision": "8"}}`, false,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `In the rule "Person passes the eye test", the vision of the Person is the text "8", not a number, so it was not compared with 6 and the condition is false. Send numbers without quotes.`}}},
		{"an unparsed date in a referenced rule",
			"A **Person** is adult if the __birth__ of the **Person** is older than 18 years.\nA **Person** gets a licence if the **Person** is adult.\n",
			`{"Person": {"birth": "01/02/1990"}}`, false,
			[]engine.Warning{{Code: engine.WarnDateNotParsed, Message: `In the rule "Person is adult", the birth of the Person is "01/02/1990", which is not a date (YYYY-MM-DD or an ISO 8601 timestamp), so the condition is false.`}}},
		{"a condition the explanation of a true result does not quote",
			"A **user** is ok if the __a__ of the **user** is at least 1 or the __b__ of the **user** is at least 1.\n",
			`{"user": {"a": "5", "b": 2}}`, true,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `The a of the user is the text "5", not a number, so it was not compared with 1 and the condition is false. Send numbers without quotes.`}}},
		{"a number sent as text looked for among numbers in a referenced rule",
			"A **P** is known if the __code__ of the **P** is in [1, 2].\nA **P** gets in if the **P** is known.\n",
			`{"P": {"code": "1"}}`, false,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `In the rule "P is known", the code of the P is the text "1", not a number, so it equals none of the numbers in [1,2] and the condition is false. Send numbers without quotes.`}}},
		{"a referenced rule whose values go together", eye, `{"Person": {"vision": 8}}`, true, []engine.Warning{}},
		{"a labelled rule read for the labels alone",
			"lab. A **P** is x if the __a__ of the **P** is at least 1.\nA **P** is y if the __b__ of the **P** is at least 1.\n",
			`{"P": {"a": "5", "b": 6}}`, true,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `In the rule "P is x", the a of the P is the text "5", not a number, so it was not compared with 1 and the condition is false. Send numbers without quotes.`}}},
		{"text ordered against a number a path found",
			"A **P** is ok if the __a__ of the **P** is greater than the __b__ of the **P**.\n",
			`{"P": {"a": "5", "b": 7}}`, false,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `The a of the P is the text "5", not a number, so it was not compared with the b of the P (7) and the condition is false. Send numbers without quotes.`}}},
		{"a long outcome is cut where its warnings name it",
			"A **P** is " + strings.Repeat("very ", 20) + "fit if the __a__ of the **P** is at least 1.\nA **P** gets in if the **P** is " + strings.Repeat("very ", 20) + "fit.\n",
			`{"P": {"a": "5"}}`, false,
			[]engine.Warning{{Code: engine.WarnTextComparedWithNumber, Message: `In the rule "P is very very very very very very very very very very very …", the a of the P is the text "5", not a number, so it was not compared with 1 and the condition is false. Send numbers without quotes.`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
			res.Explain()
			if res.Error != nil || res.Result != tt.result || !reflect.DeepEqual([]engine.Warning(res.Warnings), tt.want) {
				t.Errorf("result %v, error %v, warnings %+v; want result %v, warnings %+v", res.Result, res.Error, res.Warnings, tt.result, tt.want)
			}
		})
	}
}

func TestExplanationsSayWhatTheOtherSideIs(t *testing.T) {
	tests := []struct{ name, rule, data, explanation string }{
		{"a right-hand path with the value it found",
			"A **user** is old enough if the __age__ of the **user** is greater than the __min age__ of the **config**.",
			`{"user": {"age": 25}, "config": {"minAge": 30}}`,
			"user is old enough: no — the age of the user is 25, which is not greater than the min age of the config (30)."},
		{"a text that starts like a path",
			`A **item** is cheap if the __price__ of the **item** is equal to "$.99".`,
			`{"item": {"price": "$1.50"}}`,
			`item is cheap: no — the price of the item is "$1.50", which is not equal to "$.99".`},
		{"emptiness of a number",
			"A **form** is blank if the __notes__ of the **form** is empty.",
			`{"form": {"notes": 0}}`,
			"form is blank: no — the notes of the form is 0, and only a text, a list or an object is empty or not, so the condition is false."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fixedEngine().Run(tt.rule, mustData(t, tt.data))
			res.Explain()
			if res.Explanation != tt.explanation {
				t.Errorf("explanation\n%s\nwant\n%s", res.Explanation, tt.explanation)
			}
		})
	}
}
