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
		name: "a text value in curly quotes with an apostrophe inside",
		src:  "A **Person** is ok if the __car__ of the **Person** is equal to “Ann’s car”.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 65, 1, 76),
			Message:     "`“Ann’s car”` is in curly quotes, which Verdict does not read as quotes: a text value takes straight quotes, `\"Ann’s car\"`.",
			Suggestions: []string{`"Ann’s car"`}},
		explanation: "The rule text does not parse (line 1, column 65): `“Ann’s car”` is in curly quotes, which Verdict does " +
			"not read as quotes: a text value takes straight quotes, `\"Ann’s car\"`.",
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
		name: "a contraction before a comparison keeps its negation",
		src:  "A **Person** is ok if the __age__ of the **Person** isn't greater than 18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 71),
			Message: "`isn't greater than` is not a comparison Verdict knows. Did you mean `is no more than`?", Suggestions: []string{"is no more than"}},
		explanation: "The rule text does not parse (line 1, column 53): `isn't greater than` is not a comparison Verdict knows. " +
			"Did you mean `is no more than`?",
	},
	{
		name: "a contraction before at least keeps its negation",
		src:  "A **Person** is ok if the __age__ of the **Person** isn't at least 18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 67),
			Message: "`isn't at least` is not a comparison Verdict knows. Did you mean `is less than`?", Suggestions: []string{"is less than"}},
		explanation: "The rule text does not parse (line 1, column 53): `isn't at least` is not a comparison Verdict knows. " +
			"Did you mean `is less than`?",
	},
	{
		name: "a contraction before an operator with no negation is not made is not equal to",
		src:  "A **Person** is ok if the __day__ of the **Person** isn't later than 18.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 58),
			Message: "`isn't` is not a comparison Verdict knows. Comparisons read like `is at least`, `is equal to` or `is in`; " +
				"docs/rules.md lists them all.", Suggestions: []string{}},
		explanation: "The rule text does not parse (line 1, column 53): `isn't` is not a comparison Verdict knows. " +
			"Comparisons read like `is at least`, `is equal to` or `is in`; docs/rules.md lists them all.",
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
	{
		name: "a date written with slashes",
		src:  "A **P** is ok if the __d__ of the **P** is later than 01/02/2024.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeInvalidDate, Range: span(1, 55, 1, 65),
			Message:     "`01/02/2024` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-02-01` if the day comes first, or `2024-01-02` if the month does.",
			Suggestions: []string{"2024-02-01", "2024-01-02"}},
		explanation: "The rule text does not parse (line 1, column 55): `01/02/2024` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-02-01` if the day comes first, or `2024-01-02` if the month does.",
	},
	{
		name: "a date with one-digit month and day",
		src:  "A **P** is ok if the __d__ of the **P** is later than 2024-1-5.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeInvalidDate, Range: span(1, 55, 1, 63),
			Message:     "`2024-1-5` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-01-05`.",
			Suggestions: []string{"2024-01-05"}},
		explanation: "The rule text does not parse (line 1, column 55): `2024-1-5` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-01-05`.",
	},
	{
		name: "a date with the month's name",
		src:  "A **P** is ok if the __d__ of the **P** is later than 1 January 2024.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeInvalidDate, Range: span(1, 55, 1, 69),
			Message:     "`1 January 2024` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-01-01`.",
			Suggestions: []string{"2024-01-01"}},
		explanation: "The rule text does not parse (line 1, column 55): `1 January 2024` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two digits for the month and the day), such as `2024-01-31`. Write `2024-01-01`.",
	},
	{
		name: "a duration unit in capitals",
		src:  "A **P** is ok if the __d__ of the **P** is within 30 Days.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 51, 1, 58),
			Message:     "Duration units are written in lower case: write `30 days`, not `30 Days`.",
			Suggestions: []string{"30 days"}},
		explanation: "The rule text does not parse (line 1, column 51): Duration units are written in lower case: write `30 days`, not `30 Days`.",
	},
	{
		name: "a duration unit misspelt",
		src:  "A **P** is ok if the __d__ of the **P** is within 30 dys.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 51, 1, 57),
			Message:     "`dys` is not a duration unit Verdict knows. Did you mean `30 days`? The units are `second`, `minute`, `hour`, `day`, `week`, `month`, `year`, `decade` and `century`, in lower case, singular or plural.",
			Suggestions: []string{"30 days"}},
		explanation: "The rule text does not parse (line 1, column 51): `dys` is not a duration unit Verdict knows. Did you mean `30 days`? The units are `second`, `minute`, `hour`, `day`, `week`, `month`, `year`, `decade` and `century`, in lower case, singular or plural.",
	},
	{
		name: "a number with an exponent",
		src:  "A **P** is ok if the __n__ of the **P** is at least 1e3.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 53, 1, 56),
			Message:     "Numbers are written in plain digits, without an exponent: write 1000, not 1e3.",
			Suggestions: []string{"1000"}},
		explanation: "The rule text does not parse (line 1, column 53): Numbers are written in plain digits, without an exponent: write 1000, not 1e3.",
	},
	{
		name: "a number with spaces between its thousands",
		src:  "A **P** is ok if the __n__ of the **P** is at least 1 000.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeThousandsSeparator, Range: span(1, 53, 1, 58),
			Message:     "Numbers are written without thousands separators: write 1000, not 1 000.",
			Suggestions: []string{"1000"}},
		explanation: "The rule text does not parse (line 1, column 53): Numbers are written without thousands separators: write 1000, not 1 000.",
	},
	{
		name: "a label ending with a colon",
		src:  "admin: A **P** is ok if the __n__ of the **P** is at least 1.",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 1, 1, 7),
			Message:     "A label ends with a full stop, not a colon: write `admin.` before the rule.",
			Suggestions: []string{"admin."}},
		explanation: "The rule text does not parse (line 1, column 1): A label ends with a full stop, not a colon: write `admin.` before the rule.",
	},
	{
		name: "an empty list",
		src:  "A **P** is ok if the __n__ of the **P** is in [].",
		want: engine.Diagnostic{Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 47, 1, 49),
			Message:     "A list holds at least one item, so `[]` cannot be written. No value is in an empty list, so `is in []` would never be true and `is not in []` always would: leave the condition out. To ask whether a list in the data is empty, write `is empty`.",
			Suggestions: []string{}},
		explanation: "The rule text does not parse (line 1, column 47): A list holds at least one item, so `[]` cannot be written. No value is in an empty list, so `is in []` would never be true and `is not in []` always would: leave the condition out. To ask whether a list in the data is empty, write `is empty`.",
	},
	{
		name: "a possessive",
		src:  "A **Person** is adult if the **Person**'s __age__ is at least 18.",
		want: engine.Diagnostic{Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 26, 1, 50),
			Message: "Verdict has no `'s`: `the **Person**'s __age__` reads as a reference to a rule whose outcome is " +
				"\"'s __age__ is at least 18\", and no rule's outcome is. Write `the __age__ of the **Person**`.",
			Suggestions: []string{"the __age__ of the **Person**"}},
	},
	{
		name: "a possessive before no comparison is not offered as a fix",
		src:  "A **Person** is covered if the **Person**'s __premium__ is true.",
		want: engine.Diagnostic{Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 28, 1, 56),
			Message: "Verdict has no `'s`: `the **Person**'s __premium__` reads as a reference to a rule whose outcome is " +
				"\"'s __premium__ is true\", and no rule's outcome is. Write `the __premium__ of the **Person**`.",
			Suggestions: []string{}},
	},
	{
		name: "possessives in a row",
		src:  "A **Person** is local if **Person**’s __address__'s __city__ is equal to Leeds.",
		want: engine.Diagnostic{Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 26, 1, 61),
			Message: "Verdict has no `'s`: `**Person**’s __address__'s __city__` reads as a reference to a rule whose outcome is " +
				"\"’s __address__'s __city__ is equal to Leeds\", and no rule's outcome is. " +
				"Write `the __city__ of the __address__ of the **Person**`.",
			Suggestions: []string{"the __city__ of the __address__ of the **Person**"}},
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
