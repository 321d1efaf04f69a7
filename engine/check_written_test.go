package engine_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// writtenMistakes are texts written the way people write outside rules
// (pasted characters, everyday dates and numbers), with the one
// diagnostic the check must give each, and the explanation of a run of a
// text that does not parse.
var writtenMistakes = []struct {
	name, src   string
	want        engine.Diagnostic
	explanation string // "" when the text parses
}{
	{
		name: "a non-breaking space inside an operator",
		src:  "A **Person** is adult if the __age__ of the **Person** is at\u00a0least 18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 61, 1, 62),
			Message: "There is a non-breaking space (U+00A0) here, which looks like a space but is not one to Verdict: " +
				"write a plain space instead.", Suggestions: []string{" "}},
		explanation: "The rule text does not parse (line 1, column 61): There is a non-breaking space (U+00A0) here, " +
			"which looks like a space but is not one to Verdict: write a plain space instead.",
	},
	{
		name: "a non-breaking space after the full stop",
		src:  "A **Person** is adult if the __age__ of the **Person** is at least 18.\u00a0\n",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 71, 1, 72),
			Message: "There is a non-breaking space (U+00A0) here, which looks like a space but is not one to Verdict: " +
				"write a plain space instead.", Suggestions: []string{" "}},
		explanation: "The rule text does not parse (line 1, column 71): There is a non-breaking space (U+00A0) here, " +
			"which looks like a space but is not one to Verdict: write a plain space instead.",
	},
	{
		name: "a zero-width space before a value",
		src:  "A **Person** is adult if the __age__ of the **Person** is at least \u200b18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 68, 1, 69),
			Message: "There is an invisible character here, a zero-width space (U+200B), which Verdict does not read " +
				"as a space: remove it.", Suggestions: []string{}},
		explanation: "The rule text does not parse (line 1, column 68): There is an invisible character here, " +
			"a zero-width space (U+200B), which Verdict does not read as a space: remove it.",
	},
	{
		name: "a text value in curly quotes",
		src:  "A **Person** is ok if the __name__ of the **Person** is equal to “Ann”.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 66, 1, 71),
			Message:     "`“Ann”` is in curly quotes, which Verdict does not read as quotes: a text value takes straight quotes, `\"Ann\"`.",
			Suggestions: []string{`"Ann"`}},
		explanation: "The rule text does not parse (line 1, column 66): `“Ann”` is in curly quotes, which Verdict does " +
			"not read as quotes: a text value takes straight quotes, `\"Ann\"`.",
	},
	{
		name: "a contraction where the operator belongs",
		src:  "A **Person** is ok if the __name__ of the **Person** isn't empty.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 54, 1, 65),
			Message: "`isn't empty` is not a comparison Verdict knows. Did you mean `is not empty`?", Suggestions: []string{"is not empty"}},
		explanation: "The rule text does not parse (line 1, column 54): `isn't empty` is not a comparison Verdict knows. " +
			"Did you mean `is not empty`?",
	},
	{
		name: "a contraction with a typographic apostrophe",
		src:  "A **P** is ok if the __n__ of the **P** isn’t in [1, 2].",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 41, 1, 49),
			Message: "`isn’t in` is not a comparison Verdict knows. Did you mean `is not in`?", Suggestions: []string{"is not in"}},
		explanation: "The rule text does not parse (line 1, column 41): `isn’t in` is not a comparison Verdict knows. " +
			"Did you mean `is not in`?",
	},
	{
		name: "a colon after if",
		src:  "A **Person** is an adult if: the __age__ of the **Person** is at least 18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 28, 1, 29),
			Message: "The conditions follow `if` with only a space between: drop the `:` after `if`.", Suggestions: []string{}},
		explanation: "The rule text does not parse (line 1, column 28): The conditions follow `if` with only a space " +
			"between: drop the `:` after `if`.",
	},
	{
		name: "a number too large for a rule",
		src:  "A **Person** is an adult if the __age__ of the **Person** is at least 1" + strings.Repeat("0", 400) + ".",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 71, 1, 472),
			Message: "This number, of 401 digits, is too large: the largest a rule can compare is about 1.8e308, " +
				"a number of 309 digits.", Suggestions: []string{}},
		explanation: "The rule text does not parse (line 1, column 71): This number, of 401 digits, is too large: " +
			"the largest a rule can compare is about 1.8e308, a number of 309 digits.",
	},
}

func TestCheckNamesWhatWasWrittenAsElsewhere(t *testing.T) {
	var eng engine.Engine
	for _, m := range writtenMistakes {
		t.Run(m.name, func(t *testing.T) {
			got := engine.Check(m.src).Diagnostics
			if want := []engine.Diagnostic{m.want}; !reflect.DeepEqual(got, want) {
				t.Errorf("Check(%q)\n got %+v\nwant %+v", m.src, got, want)
			}
			if m.explanation == "" {
				return
			}
			res := eng.Run(m.src, map[string]any{})
			res.Explain()
			if res.Explanation != m.explanation {
				t.Errorf("explanation of %q\n got %s\nwant %s", m.src, res.Explanation, m.explanation)
			}
		})
	}
}
