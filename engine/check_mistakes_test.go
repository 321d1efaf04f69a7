package engine_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/verdict/verdict/engine"
)

// span is the range from line:column to line:column, as diagnostics give it.
func span(line, col, endLine, endCol int) engine.Range {
	return engine.Range{Start: engine.Position{Line: line, Column: col}, End: engine.Position{Line: endLine, Column: endCol}}
}

// selectorHolds begins the message for a character a selector cannot hold.
const selectorHolds = "A selector's name may hold only ASCII letters (a to z, A to Z), digits, `_` and spaces, " +
	"starting with a letter or `_`, "

// spacedOperator is the message for an operator phrase whose words are
// apart by more than one space.
func spacedOperator(phrase, apart string) string {
	return "The words of `" + phrase + "` are separated here by " + apart +
		", but a comparison's words are separated by one space, on one line. Write `" + phrase + "`."
}

// mistakes are texts with a common mistake and every diagnostic the check
// must give them, exactly.
var mistakes = []struct {
	name, src string
	want      []engine.Diagnostic
}{
	{
		name: "a reference missing a letter, written with an article",
		src:  "adult. A **P** is adult if the __age__ of the **P** is at least 18.\n\nA **P** gets by if the **P** is an adlt.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(3, 30, 3, 40),
			Message: "No rule's outcome matches \"is an adlt\". When the rule runs, Verdict looks for a data property named after " +
				"the phrase inside **P**, and the run fails if there is none.",
			Suggestions: []string{"is adult"},
		}},
	},
	{
		name: "a reference that reads like a comparison with a bare word",
		src:  "A **P** gets on if the **P** is old enough.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 30, 1, 43),
			Message: "No rule's outcome matches \"is old enough\". When the rule runs, Verdict looks for a data property named after " +
				"the phrase inside **P**, and the run fails if there is none.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a reference whose comparison would not parse",
		src:  "A **P** gets in if the **P** is a resident.\n\nA **Q** gets out if the **Q** is at home.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeUnusedRule, Range: span(1, 1, 1, 8),
			Message: "No rule refers to the rule that P gets in, and it is not the golden rule (\"out\" decides the result), " +
				"so its result is never used. Refer to it from another rule, give it a label, or remove it.",
			Suggestions: []string{},
		}, {
			Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 30, 1, 43),
			Message: "No rule's outcome matches \"is a resident\". When the rule runs, Verdict looks for a data property named after " +
				"the phrase inside **P**, and the run fails if there is none.",
			Suggestions: []string{},
		}, {
			Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(3, 31, 3, 41),
			Message: "No rule's outcome matches \"is at home\". When the rule runs, Verdict looks for a data property named after " +
				"the phrase inside **Q**, and the run fails if there is none.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a comparison written where a reference is read",
		src:  "A **P** gets on if the **age** is more than 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeUnresolvedReference, Range: span(1, 32, 1, 47),
			Message: "No rule's outcome matches \"is more than 18\". When the rule runs, Verdict looks for a data property named after " +
				"the phrase inside **age**, and the run fails if there is none.",
			Suggestions: []string{"is greater than 18"},
		}},
	},
	{
		name: "two rules with one label",
		src: "adult. A **P** is adult if the __age__ of the **P** is at least 18.\n\n" +
			"adult. A **P** is grown if the __age__ of the **P** is at least 21.\n\nA **P** is ok if §adult is valid.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeDuplicateLabel, Range: span(1, 1, 1, 6),
			Message: "Another rule, on line 3, has the label \"adult\" too. A reference to it (`§adult`) and the result's " +
				"labels reach only the last rule that has it, so this rule's label is never used. Give one of them another label.",
			Suggestions: []string{},
		}},
	},
	{
		name: "booleans written with capitals",
		src:  "A **P** is ok if the __premium__ of the **P** is equal to True and the __flag__ of the **P** is in [FALSE, \"True\", true].",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeBooleanCase, Range: span(1, 59, 1, 63),
			Message: "`True` is the text \"True\", not the boolean true: only `true` and `false`, in lower case, are " +
				"booleans. Write `true`, or \"True\" in quotes to mean the text.",
			Suggestions: []string{"true"},
		}, {
			Severity: engine.SeverityWarning, Code: engine.CodeBooleanCase, Range: span(1, 101, 1, 106),
			Message: "`FALSE` is the text \"FALSE\", not the boolean false: only `true` and `false`, in lower case, are " +
				"booleans. Write `false`, or \"FALSE\" in quotes to mean the text.",
			Suggestions: []string{"false"},
		}},
	},
	{
		name: "a letter beyond ASCII in a header selector",
		src:  "A **Bürger** is ok if the __age__ of the **Bürger** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 3, 1, 13),
			Message:     selectorHolds + "so `ü` cannot be in `**Bürger**`. Rename it with ASCII letters: this selector need not be in the data.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a letter beyond ASCII in a condition's selector",
		src:  "A **P** is ok if the __age__ of the **Bürger** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 37, 1, 47),
			Message:     selectorHolds + "so `ü` cannot be in `**Bürger**`. A property may hold any characters and reads the same data: `__Bürger__`.",
			Suggestions: []string{"__Bürger__"},
		}},
	},
	{
		name: "a hyphen in a condition's selector",
		src:  "A **P** is ok if the __x__ of the **e-mail** of the **P** is equal to \"x\".",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 35, 1, 45),
			Message: selectorHolds + "so `-` cannot be in `**e-mail**`. A property may hold any characters and reads the same data: " +
				"`__e-mail__`. Or rename it `**email**`, in the data too.",
			Suggestions: []string{"__e-mail__", "**email**"},
		}},
	},
	{
		name: "a hyphen in a header selector",
		src:  "A **e-mail** is valid if the __address__ of the **e-mail** is not empty.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 3, 1, 13),
			Message:     selectorHolds + "so `-` cannot be in `**e-mail**`. Rename it `**email**`.",
			Suggestions: []string{"**email**"},
		}},
	},
	{
		name: "a property with two dots in a row",
		src:  "A **user** is local if the __address..city__ of the **user** is equal to \"Leeds\".",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 28, 1, 45),
			Message: "`__address..city__` has no name between two dots. A dot steps from the name before it into the name after it, " +
				"so every dot stands between two names. Write `__address.city__`.",
			Suggestions: []string{"__address.city__"},
		}},
	},
	{
		name: "a property ending with a dot",
		src:  "A **user** is local if the __address.__ of the **user** is not empty.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 28, 1, 40),
			Message: "`__address.__` has no name after its last dot. A dot steps from the name before it into the name after it, " +
				"so every dot stands between two names. Write `__address__`.",
			Suggestions: []string{"__address__"},
		}},
	},
	{
		name: "a property of a dot alone",
		src:  "A **user** is local if the __.__ of the **user** is not empty.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 28, 1, 33),
			Message: "`__.__` has no name before its first dot. A dot steps from the name before it into the name after it, " +
				"so every dot stands between two names. Write a name on each side of every dot.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a selector with two dots in a row",
		src:  "A **request** is tested if the __mode__ of **settings..environment** is equal to \"test\".",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 44, 1, 69),
			Message: "`**settings..environment**` has no name between two dots. A dot steps from the name before it into the name after it, " +
				"so every dot stands between two names. Write `**settings.environment**`.",
			Suggestions: []string{"**settings.environment**"},
		}},
	},
	{
		name: "greater than or equal without to",
		src:  "A **Person** is an adult if the __age__ of the **Person** is greater than or equal 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 59, 1, 83),
			Message: "`is greater than or equal` is not a comparison Verdict knows: without `to`, it reads as " +
				"`is greater than` the text \"or equal 18\", so the condition is never true. Did you mean `is greater than or equal to`?",
			Suggestions: []string{"is greater than or equal to"},
		}},
	},
	{
		name: "greater than or equals, with its to",
		src:  "A **Person** is an adult if the __age__ of the **Person** is greater than or equals to 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 59, 1, 87),
			Message: "`is greater than or equals to` is not a comparison Verdict knows: it reads as " +
				"`is greater than` the text \"or equals to 18\", so the condition is never true. Did you mean `is greater than or equal to`?",
			Suggestions: []string{"is greater than or equal to"},
		}},
	},
	{
		name: "greater than or equals, its to on the next line",
		src:  "A **Person** is an adult if the __age__ of the **Person** is greater than or equals\n  to 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 59, 2, 5),
			Message: "`is greater than or equals to` is not a comparison Verdict knows: a text value ends with its line, so it reads as " +
				"`is greater than` the text \"or equals\", and the next line is left over. Did you mean `is greater than or equal to`?",
			Suggestions: []string{"is greater than or equal to"},
		}},
	},
	{
		name: "an operator with two spaces between its words",
		src:  "A **x** is ok if the __v__ of **x** is  at least 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 37, 1, 49),
			Message:     spacedOperator("is at least", "more than one space"),
			Suggestions: []string{"is at least"},
		}},
	},
	{
		name: "an operator with a tab between its words",
		src:  "A **x** is ok if the __v__ of **x** is greater\tthan 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 37, 1, 52),
			Message:     spacedOperator("is greater than", "a tab"),
			Suggestions: []string{"is greater than"},
		}},
	},
	{
		name: "an operator broken across lines",
		src:  "A **x** is ok if the __v__ of **x** is\n  greater than 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 37, 2, 15),
			Message:     spacedOperator("is greater than", "a line break"),
			Suggestions: []string{"is greater than"},
		}},
	},
	{
		name: "an operator broken across lines before its last word",
		src:  "A **x** is ok if the __v__ of **x** is greater than or equal\n to 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 37, 2, 4),
			Message:     spacedOperator("is greater than or equal to", "a line break"),
			Suggestions: []string{"is greater than or equal to"},
		}},
	},
	{
		name: "an operator broken across lines where a shorter one ends, which runs",
		src:  "A **x** is ok if the __v__ of **x** is less than\n  or equal to 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 37, 2, 14),
			Message:     spacedOperator("is less than or equal to", "a line break"),
			Suggestions: []string{"is less than or equal to"},
		}},
	},
	{
		name: "less than or equal without to, counting",
		src:  "A **Cart** is small if the number of __items__ of the **Cart** is less than or equal 3.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 64, 1, 85),
			Message: "`is less than or equal` is not a comparison Verdict knows: without `to`, it reads as " +
				"`is less than` the text \"or equal 3\", so the condition is never true. Did you mean `is less than or equal to`?",
			Suggestions: []string{"is less than or equal to"},
		}},
	},
	{
		name: "a choice written as one text",
		src:  "A **Customer** is valued if the __tier__ of the **Customer** is equal to gold or silver.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeConnectiveInText, Range: span(1, 62, 1, 88),
			Message: "`gold or silver` is compared as one text, \"gold or silver\", not as a choice between values. " +
				"To compare with each of them, write `is in [gold, silver]`; to compare with the text itself, put it in quotes.",
			Suggestions: []string{"is in [gold, silver]"},
		}},
	},
	{
		name: "a choice written as one text, the connective in capitals",
		src:  "A **Customer** is valued if the __tier__ of the **Customer** is equal to gold AND silver.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeConnectiveInText, Range: span(1, 62, 1, 89),
			Message: "`gold AND silver` is compared as one text, \"gold AND silver\", not as a choice between values. " +
				"To compare with each of them, write `is in [gold, silver]`; to compare with the text itself, put it in quotes.",
			Suggestions: []string{"is in [gold, silver]"},
		}},
	},
	{
		name: "choices written as one text, with and, not equal",
		src:  "A **C** is rare if the __tier__ of the **C** is not the same as gold card and silver or bronze.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeConnectiveInText, Range: span(1, 46, 1, 95),
			Message: "`gold card and silver or bronze` is compared as one text, \"gold card and silver or bronze\", not as a choice between values. " +
				"To compare with each of them, write `is not in [gold card, silver, bronze]`; to compare with the text itself, put it in quotes.",
			Suggestions: []string{"is not in [gold card, silver, bronze]"},
		}},
	},
	{
		name: "a value missing before the next condition",
		src:  "A **P** is ok if __a__ is equal to\n and __b__ is equal to 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(2, 2, 2, 5),
			Message: "Verdict expected a value: a number, a date, true, false or text here, but found `and`, " +
				"which begins the next condition. Write the value to compare with before `and`.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a value missing before the next condition, on one line",
		src:  "A **P** is ok if __a__ is equal to or __b__ is equal to 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 36, 1, 38),
			Message: "Verdict expected a value: a number, a date, true, false or text here, but found `or`, " +
				"which begins the next condition. Write the value to compare with before `or`.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a reference phrase missing before the next condition",
		src:  "A **P** is ok if the **Q** and __b__ is equal to 1.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 28, 1, 31),
			Message: "Verdict expected a comparison such as `is at least` or `is equal to` or what the rule referred to says, " +
				"such as `passes the eye test` here, but found `and`, which begins the next condition. Complete the condition before `and`.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a text that begins with or",
		src:  "A **C** is valued if the __tier__ of the **C** is equal to or gold or silver.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeConnectiveInText, Range: span(1, 48, 1, 77),
			Message: "The text compared here, \"or gold or silver\", begins with `or`, so the value before `or` seems to be missing. " +
				"Write that value; to compare with the text itself, put it in quotes.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a text that begins with and, alone on its line",
		src:  "A **C** is odd if the __tier__ of the **C** is not equal to\n  and so on.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeConnectiveInText, Range: span(1, 45, 2, 12),
			Message: "The text compared here, \"and so on\", begins with `and`, so the value before `and` seems to be missing. " +
				"Write that value; to compare with the text itself, put it in quotes.",
			Suggestions: []string{},
		}},
	},
	{
		name: "texts that begin with the letters of or and and",
		src:  "A **C** is west if the __state__ of the **C** is equal to oregon\n  and the __os__ of the **C** is equal to android\n  or the __kind__ of the **C** is not equal to order.",
		want: []engine.Diagnostic{},
	},
	{
		name: "a quoted text with and is meant",
		src:  "A **Team** is central if the __name__ of the **Team** is equal to \"research and development\".",
		want: []engine.Diagnostic{},
	},
	{
		name: "If in capitals",
		src:  "A **Person** is an adult If the __age__ of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 26, 1, 28),
			Message: "Keywords are lower-case: write `if`, not `If`.", Suggestions: []string{"if"},
		}},
	},
	{
		name: "when for if",
		src:  "A **Person** is an adult when the __age__ of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 26, 1, 30),
			Message: "A rule's conditions follow `if`: write `if`, not `when`.", Suggestions: []string{"if"},
		}},
	},
	{
		name: "AND in capitals",
		src:  "A **Person** is an adult if the __age__ of the **Person** is at least 18 AND the __name__ of the **Person** is not empty.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 74, 1, 77),
			Message: "Keywords are lower-case: write `and`, not `AND`.", Suggestions: []string{"and"},
		}},
	},
	{
		name: "The starting a condition",
		src:  "A **Person** is an adult if The __age__ of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 29, 1, 32),
			Message: "Keywords are lower-case: write `the`, not `The`.", Suggestions: []string{"the"},
		}},
	},
	{
		name: "OF in a chain of names",
		src:  "A **Person** is an adult if the __name__ OF the **Person** is empty.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 42, 1, 44),
			Message: "Keywords are lower-case: write `of`, not `OF`.", Suggestions: []string{"of"},
		}},
	},
	{
		name: "not at least",
		src:  "A **Person** is a minor if the __age__ of the **Person** is not at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 58, 1, 73),
			Message: "`is not at least` is not a comparison Verdict knows. Did you mean `is less than`?", Suggestions: []string{"is less than"},
		}},
	},
	{
		name: "between two numbers",
		src:  "A **Person** works if the __age__ of the **Person** is between 18 and 65.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 73),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"`is at least 18 and the __age__ of the **Person** is no more than 65`, which keeps both ends.",
			Suggestions: []string{"is at least 18 and the __age__ of the **Person** is no more than 65"},
		}},
	},
	{
		name: "between two days",
		src:  "A **Contract** is current if the __start__ of the **Contract** is between 2024-01-01 and 2024-12-31.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 64, 1, 100),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"`is later than 2023-12-31 and the __start__ of the **Contract** is earlier than 2025-01-01`, which keeps both ends.",
			Suggestions: []string{"is later than 2023-12-31 and the __start__ of the **Contract** is earlier than 2025-01-01"},
		}},
	},
	{
		name: "between two numbers inclusive",
		src:  "A **Person** works if the __age__ of the **Person** is between 18 and 65 inclusive.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 83),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"`is at least 18 and the __age__ of the **Person** is no more than 65`, which keeps both ends.",
			Suggestions: []string{"is at least 18 and the __age__ of the **Person** is no more than 65"},
		}},
	},
	{
		name: "between two numbers exclusive",
		src:  "A **Person** works if the __age__ of the **Person** is between 18 and 65 exclusive.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 53, 1, 83),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"`is greater than 18 and the __age__ of the **Person** is less than 65`, which leaves both ends out.",
			Suggestions: []string{"is greater than 18 and the __age__ of the **Person** is less than 65"},
		}},
	},
	{
		name: "between two days exclusive",
		src:  "A **Contract** is current if the __start__ of the **Contract** is between 2024-01-01 and 2024-12-31 exclusive.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 64, 1, 110),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"`is later than 2024-01-01 and the __start__ of the **Contract** is earlier than 2024-12-31`, which leaves both ends out.",
			Suggestions: []string{"is later than 2024-01-01 and the __start__ of the **Contract** is earlier than 2024-12-31"},
		}},
	},
	{
		name: "between what is not two numbers or days",
		src:  "A **Person** works if the __name__ of the **Person** is between a and m.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 54, 1, 64),
			Message: "Verdict has no `is between`: write two conditions joined by `and`, " +
				"such as `is at least 18 and the __name__ of the **Person** is no more than 65`.",
			Suggestions: []string{},
		}},
	},
	{
		name: "the count of",
		src:  "A **Cart** is full if the count of __items__ of the **Cart** is at least 10.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownCount, Range: span(1, 27, 1, 35),
			Message: "Verdict has no `the count of`: it counts the items of a list with `the number of`, " +
				"and the characters of a text with `the length of`. Did you mean `the number of`?",
			Suggestions: []string{"number of"},
		}},
	},
	{
		name: "the size of",
		src:  "A **Cart** is full if the size of __items__ of the **Cart** is at least 10.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownCount, Range: span(1, 27, 1, 34),
			Message: "Verdict has no `the size of`: it counts the items of a list with `the number of`, " +
				"and the characters of a text with `the length of`. Did you mean `the length of`?",
			Suggestions: []string{"length of"},
		}},
	},
	{
		name: "the Number of",
		src:  "A **Cart** is full if the Number of __items__ of the **Cart** is at least 10.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeWrongKeyword, Range: span(1, 27, 1, 33),
			Message: "Keywords are lower-case: write `number`, not `Number`.", Suggestions: []string{"number"},
		}},
	},
	{
		name: "a property between single underscores",
		src:  "A **Person** is an adult if the _age_ of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 33, 1, 38),
			Message: "Verdict expected a selector (`**name**`) or a property (`__name__`) here, but found `_age_`. " +
				"A property is written between double underscores: `__age__`.",
			Suggestions: []string{"__age__"},
		}},
	},
	{
		name: "a selector between single asterisks",
		src:  "A **Person** is an adult if the __age__ of the *Person* is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 48, 1, 56),
			Message: "Verdict expected a selector (`**name**`) or a property (`__name__`) here, but found `*Person*`. " +
				"A selector is written between double asterisks: `**Person**`.",
			Suggestions: []string{"**Person**"},
		}},
	},
	{
		name: "a word where a name belongs",
		src:  "A **Person** is an adult if the age of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeParseError, Range: span(1, 33, 1, 36),
			Message:     "Verdict expected a selector (`**name**`) or a property (`__name__`) here, but found `age`.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a day compared as a number",
		src:  "A **Contract** is current if the __end__ of the **Contract** is greater than 2024-01-01.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeTypeMismatch, Range: span(1, 62, 1, 88),
			Message: "`is greater than` compares numbers, but 2024-01-01 is a date, so the condition is always false. " +
				"Days are compared with `is later than` and `is earlier than`, which leave out the day itself: write `is later than 2024-01-01`.",
			Suggestions: []string{"is later than 2024-01-01"},
		}},
	},
	{
		name: "days compared as numbers, the day itself included",
		src: "A **C** is current if the __end__ of the **C** is at least 2024-03-01\n" +
			"  and the __start__ of the **C** is less than or equal to date(2024-02-28).",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeTypeMismatch, Range: span(1, 48, 1, 70),
			Message: "`is at least` compares numbers, but 2024-03-01 is a date, so the condition is always false. " +
				"Days are compared with `is later than` and `is earlier than`, which leave out the day itself: write `is later than 2024-02-29`.",
			Suggestions: []string{"is later than 2024-02-29"},
		}, {
			Severity: engine.SeverityWarning, Code: engine.CodeTypeMismatch, Range: span(2, 34, 2, 75),
			Message: "`is less than or equal to` compares numbers, but date(2024-02-28) is a date, so the condition is always false. " +
				"Days are compared with `is later than` and `is earlier than`, which leave out the day itself: write `is earlier than 2024-02-29`.",
			Suggestions: []string{"is earlier than 2024-02-29"},
		}},
	},
	{
		name: "a quote never closed",
		src:  "A **Person** is ada if the __name__ of the **Person** is equal to \"abc.\n",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnclosedQuote, Range: span(1, 67, 1, 68),
			Message:     "This quote is never closed: a text in quotes ends at the next `\"`, and none follows.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a quote closed in the next rule",
		src: "A **Person** is ada if the __name__ of the **Person** is equal to \"abc.\n\n" +
			"A **Person** is bob if the __name__ of the **Person** is equal to \"bob\".\n",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnclosedQuote, Range: span(1, 67, 1, 68),
			Message: "This quote is closed only on line 3: a text in quotes ends at the next `\"`, " +
				"so this one runs on into the lines after it. Close it on its own line.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a rule whose outcome a later rule repeats",
		src:  repeatedOutcome,
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeUnusedRule, Range: span(1, 1, 1, 12),
			Message: "Another rule, on line 3, has this rule's outcome (`is ok`), and references to an outcome reach " +
				"only the last rule that has it, so this rule's result is never used. Join the two rules' conditions " +
				"with `or` in one rule, give this one another outcome or a label, or remove it.",
			Suggestions: []string{},
		}},
	},
	{
		name: "an opening marker without its partner",
		src:  "A **Person** is an adult if the __age of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnbalancedMarker, Range: span(1, 33, 1, 35),
			Message: "An opening `__` without a closing one on this line. Write names between a pair: " +
				"`**Person**` for a selector, `__age__` for a property.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a closing marker without its partner",
		src:  "A **Person** is an adult if the age__ of the **Person** is at least 18.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnbalancedMarker, Range: span(1, 36, 1, 38),
			Message: "A closing `__` without an opening one on this line. Write names between a pair: " +
				"`**Person**` for a selector, `__age__` for a property.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a count compared with a list",
		src:  "A **Cart** is full if the number of __items__ of the **Cart** is in [1, 2].",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeCountOperator, Range: span(1, 63, 1, 68),
			Message:     "`the number of` compares a count with a number, so `is in` cannot follow it: use `is equal to`, `is not equal to`, `is greater than`, `is less than`, `is at least`, `is no more than` or their longer forms.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a length compared with a day",
		src:  "A **Cart** is full if the length of __items__ of the **Cart** is later than 2024-01-01.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeCountOperator, Range: span(1, 63, 1, 76),
			Message:     "`the length of` compares a count with a number, so `is later than` cannot follow it: use `is equal to`, `is not equal to`, `is greater than`, `is less than`, `is at least`, `is no more than` or their longer forms.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a count compared with a value of the data",
		src:  "A **Cart** is full if the number of __items__ of the **Cart** is at least the __max__ of the **Cart**.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeCountOperator, Range: span(1, 75, 1, 102),
			Message:     "`the number of` compares a count with a number written in the rule, not with a value of the data.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a label with a space",
		src:  "Age Check. A **user** is old if the __age__ of the **user** is at least 80.\n\nA **user** gets access if §Age Check.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeLabelWithSpaces, Range: span(3, 27, 3, 37),
			Message: "The label `Age Check` has a space in it, and a reference to a label ends at the first space: " +
				"`§Age` names `Age` only. Refer to the rule by its outcome (`the **user** is old`), or give it a label without spaces.",
			Suggestions: []string{"the **user** is old"},
		}},
	},
	{
		name: "a label with a space, and its predicate",
		src: "Age Check. A **user** is old if the __age__ of the **user** is at least 80.\n\n" +
			"A **user** gets access if $Age Check is valid and the __role__ of the **user** is equal to \"x\".",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeLabelWithSpaces, Range: span(3, 27, 3, 46),
			Message: "The label `Age Check` has a space in it, and a reference to a label ends at the first space: " +
				"`$Age` names `Age` only. Refer to the rule by its outcome (`the **user** is old`), or give it a label without spaces.",
			Suggestions: []string{"the **user** is old"},
		}},
	},
	{
		name: "a label the text has, followed by a word no predicate begins with",
		src:  "agecheck. A **user** is old if the __age__ of the **user** is at least 80.\n\nA **user** gets access if §agecheck holds.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeLabelWithSpaces, Range: span(3, 27, 3, 42),
			Message: "`§agecheck` refers to the rule labelled `agecheck` and is a whole condition: `holds` cannot follow it. " +
				"Write `§agecheck` alone, or follow it with `passes` or `is valid`.",
			Suggestions: []string{"§agecheck"},
		}},
	},
	{
		name: "a label with a space no rule has",
		src:  "A **user** gets access if §Age Check.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeLabelWithSpaces, Range: span(1, 27, 1, 37),
			Message: "A reference to a label ends at the first space: `§Age` names `Age` only, and `Check` cannot follow it. " +
				"A label with spaces cannot be referred to with `§`: refer to the rule by its outcome, or give it a label without spaces.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a number with a full stop in an outcome",
		src:  "A **user** gets 2.5 points if the __age__ of the **user** is at least 80.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeFullStopInOutcome, Range: span(1, 18, 1, 19),
			Message: "An outcome cannot contain a full stop: a full stop ends the rule, so this one ends here, before its `if`. " +
				"Write the outcome without it.",
			Suggestions: []string{},
		}},
	},
	{
		name: "rules in a circle",
		src:  circle,
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeCircularReference, Range: span(1, 45, 1, 66),
			Message: "These rules refer to each other in a circle: `passes the alpha check` → `passes the beta check` → " +
				"`passes the gamma check` → `passes the alpha check`. Evaluating them can never finish, so every run stops with an error. " +
				"Break the circle, so that every chain of references ends in comparisons.",
			Suggestions: []string{},
		}},
	},
	{
		name: "a rule that refers to itself",
		src:  selfReference,
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeCircularReference, Range: span(1, 28, 1, 33),
			Message: "This rule refers to itself: `is ok`. Evaluating it can never finish, so every run stops with an error. " +
				"Break the circle, so that every chain of references ends in comparisons.",
			Suggestions: []string{},
		}},
	},
	{
		name: "rules in a circle only labels reach",
		src:  labelledCircle,
		want: []engine.Diagnostic{{
			Severity: engine.SeverityWarning, Code: engine.CodeCircularReference, Range: span(3, 41, 3, 46),
			Message: "These rules refer to each other in a circle: `passes the alpha check` → `passes the beta check` → " +
				"`passes the alpha check`. Evaluating them can never finish: the golden rule does not depend on them, " +
				"so runs still answer, but a label that depends on them is always false. " +
				"Break the circle, so that every chain of references ends in comparisons.",
			Suggestions: []string{},
		}},
	},
}

const (
	circle = "A **x** passes the alpha check if the **x** passes the beta check.\n\n" +
		"A **x** passes the beta check if the **x** passes the gamma check.\n\n" +
		"A **x** passes the gamma check if the **x** passes the alpha check."
	selfReference   = "A **x** is ok if the **x** is ok."
	repeatedOutcome = "A **Order** is ok if the __total__ of the **Order** is at least 10.\n\n" +
		"A **Order** is ok if the __total__ of the **Order** is at least 20.\n\n" +
		"A **Order** ships if the **Order** is ok."
	labelledCircle = "A **x** is fine if the __a__ of the **x** is at least 1.\n\n" +
		"loop. A **x** passes the alpha check if §beta is valid.\n\n" +
		"beta. A **x** passes the beta check if the **x** passes the alpha check."
)

// The circles the check reports are those runs find.
func TestCheckedCirclesAreTheRunsInfiniteLoops(t *testing.T) {
	var eng engine.Engine
	for _, src := range []string{circle, selfReference} {
		res := eng.Run(src, map[string]any{"x": map[string]any{}})
		if res.Error == nil || !strings.HasPrefix(res.Error.Message, "Evaluation error: Infinite loop detected") {
			t.Errorf("%q runs with error %v, want an infinite loop", src, res.Error)
		}
	}
	res := eng.Run(labelledCircle, map[string]any{"x": map[string]any{"a": 1.0}})
	if want := map[string]bool{"loop": false, "beta": false}; res.Error != nil || !res.Result || !reflect.DeepEqual(res.Labels, want) {
		t.Errorf("%q = %v, error %v, labels %v; want true, no error, labels %v", labelledCircle, res.Result, res.Error, res.Labels, want)
	}
}

// A reference to a repeated outcome reaches the last rule that has it,
// as the unused-rule warning on the first says.
func TestARepeatedOutcomeIsTheLastRules(t *testing.T) {
	var eng engine.Engine
	res := eng.Run(repeatedOutcome, map[string]any{"Order": map[string]any{"total": 15.0}})
	if res.Error != nil || res.Result {
		t.Errorf("a total of 15 ships: %v (error %v), want false, from the rule that asks for 20", res.Result, res.Error)
	}
}

func TestCheckExplainsCommonMistakes(t *testing.T) {
	for _, m := range mistakes {
		t.Run(m.name, func(t *testing.T) {
			got := engine.Check(m.src).Diagnostics
			if !reflect.DeepEqual(got, m.want) {
				t.Errorf("Check(%q)\n got %+v\nwant %+v", m.src, got, m.want)
			}
		})
	}
}

// offsetAt is the byte offset of a diagnostic's line and column (counted
// in characters) in src.
func offsetAt(src string, p engine.Position) int {
	off := 0
	for line := 1; line < p.Line; line++ {
		off += strings.IndexByte(src[off:], '\n') + 1
	}
	for col := 1; col < p.Column; col++ {
		_, size := utf8.DecodeRuneInString(src[off:])
		off += size
	}
	return off
}

// applied is src with the diagnostic's range replaced by its first
// suggestion, as an editor applies it.
func applied(src string, d engine.Diagnostic) string {
	return src[:offsetAt(src, d.Range.Start)] + d.Suggestions[0] + src[offsetAt(src, d.Range.End):]
}

// TestApplyingTheSuggestionForAMissingToGivesTheComparison applies the
// suggestion for `is greater than or equal` without `to`, or with
// `equals`, and parses the result: it must be the one comparison meant,
// with its number, whether the text had a `to` or not.
func TestApplyingTheSuggestionForAMissingToGivesTheComparison(t *testing.T) {
	tests := []struct {
		written string
		op      engine.Operator
	}{
		{"is greater than or equal 5", engine.OpGreaterThanOrEqual},
		{"is greater than or equals 5", engine.OpGreaterThanOrEqual},
		{"is greater than or equals to 5", engine.OpGreaterThanOrEqual},
		{"is greater than or equals  to 5", engine.OpGreaterThanOrEqual},
		{"is less than or equal 5", engine.OpLessThanOrEqual},
		{"is less than or equals to 5", engine.OpLessThanOrEqual},
		{"is less than or equals To 5", engine.OpLessThanOrEqual},
		{"is greater than or Equal to 5", engine.OpGreaterThanOrEqual},
		// A text value ends with its line: the value or the `to` on the next.
		{"is greater than or equals\nto 5", engine.OpGreaterThanOrEqual},
		{"is less than or equals\r\n  To 5", engine.OpLessThanOrEqual},
		{"is greater than  or equals to\n5", engine.OpGreaterThanOrEqual},
		{"is less than or equal\n  5", engine.OpLessThanOrEqual},
		{"is greater than or equal \n5", engine.OpGreaterThanOrEqual},
	}
	for _, tt := range tests {
		d, ok := checkAppliedComparison(t, tt.written, tt.op)
		if to := strings.Contains(tt.written, "to ") || strings.Contains(tt.written, "To "); ok && to && strings.Contains(d.Message, "without `to`") {
			t.Errorf("%q: the message says `to` is missing: %s", tt.written, d.Message)
		}
	}
}

// TestApplyingTheSuggestionForAComparisonOfOtherWordsGivesIt applies the
// suggestion for a comparison written with a symbol or in words Verdict
// does not read: the result parses as the comparison meant.
func TestApplyingTheSuggestionForAComparisonOfOtherWordsGivesIt(t *testing.T) {
	tests := []struct {
		written string
		op      engine.Operator
	}{
		{"is >= 5", engine.OpGreaterThanOrEqual},
		{">= 5", engine.OpGreaterThanOrEqual},
		{"is <= 5", engine.OpLessThanOrEqual},
		{"is > 5", engine.OpGreaterThan},
		{"< 5", engine.OpLessThan},
		{"is = 5", engine.OpEqualTo},
		{"== 5", engine.OpEqualTo},
		{"is != 5", engine.OpNotEqualTo},
		{"is greater or equal to 5", engine.OpGreaterThanOrEqual},
		{"is less or equal 5", engine.OpLessThanOrEqual},
		{"is equal or greater than 5", engine.OpGreaterThanOrEqual},
		{"is equal or less than 5", engine.OpLessThanOrEqual},
		{"is => 5", engine.OpGreaterThanOrEqual},
		{"=< 5", engine.OpLessThanOrEqual},
		{"is ≥ 5", engine.OpGreaterThanOrEqual},
		{"≠ 5", engine.OpNotEqualTo},
		{"==5", engine.OpEqualTo},
		{"is === 5", engine.OpEqualTo},
		{"is on or after 5", engine.OpGreaterThanOrEqual},
		{"is on or before 5", engine.OpLessThanOrEqual},
		{"is more or equal to 5", engine.OpGreaterThanOrEqual},
	}
	for _, tt := range tests {
		checkAppliedComparison(t, tt.written, tt.op)
	}
}

// A comparison Verdict lacks, written where `is` alone would be read as
// `is equal to`, is not offered that: `is null` is `is empty`, and `is
// present` or `is not contains` has no comparison to offer.
func TestCheckOffersNoEqualityForWordsThatAreNoValue(t *testing.T) {
	for _, c := range []struct {
		written     string
		suggestions []string
	}{
		{"is null", []string{"is empty"}},
		{"is not null", []string{"is not empty"}},
		{"is present", nil},
		{"is missing", nil},
		{"is not set", nil},
		{"is defined", nil},
		{`is not contains "a"`, nil},
		{"is not between 18 and 65", nil},
		{"is from 18 to 65", nil},
		{"is outside 18 and 65", nil},
		{"is on or after 2024-01-01", []string{"is later than 2023-12-31"}},
		{"is on or before 2024-12-31", []string{"is earlier than 2025-01-01"}},
		{`is on or after "2024-03-01"`, []string{"is later than 2024-02-29"}},
	} {
		src := "A **P** is ok if the __v__ of the **P** " + c.written + "."
		diags := engine.Check(src).Diagnostics
		if len(diags) != 1 || diags[0].Code != engine.CodeUnknownOperator || !slices.Equal(diags[0].Suggestions, c.suggestions) {
			t.Errorf("%q: diagnostics %+v, want one unknown-operator suggesting %q", c.written, diags, c.suggestions)
			continue
		}
		if len(c.suggestions) > 0 {
			if fixed := applied(src, diags[0]); len(engine.Check(fixed).Diagnostics) != 0 {
				t.Errorf("%q: the fix gives %q, which has diagnostics %+v", c.written, fixed, engine.Check(fixed).Diagnostics)
			}
		}
	}
}

// A reference is not offered the rule it says the opposite of, in check
// or in the run's error.
func TestAReferenceIsNotOfferedItsOpposite(t *testing.T) {
	src := "A **P** has a valid licence if the __x__ of the **P** is at least 1.\n\nA **P** gets a car if the **P** has an invalid licence."
	for _, d := range engine.Check(src).Diagnostics {
		if d.Code == engine.CodeUnresolvedReference && len(d.Suggestions) != 0 {
			t.Errorf("check suggests %q", d.Suggestions)
		}
	}
	// Nor the other way round.
	other := "A **P** has an invalid licence if the __x__ of the **P** is at least 1.\n\nA **P** gets a car if the **P** has a valid licence."
	for _, d := range engine.Check(other).Diagnostics {
		if d.Code == engine.CodeUnresolvedReference && len(d.Suggestions) != 0 {
			t.Errorf("check suggests %q", d.Suggestions)
		}
	}
	res := fixedEngine().Run(src, mustData(t, `{"P": {"x": 2}}`))
	if res.Error == nil || res.Error.Kind != engine.KindUnresolvedReference || res.Error.Nearest != "" {
		t.Errorf("the run's error: %v", res.Error)
	}
}

// checkAppliedComparison checks that a rule comparing __v__ by written
// with 5 has one unknown-operator diagnostic whose suggestion, applied,
// parses as the comparison op with 5 and leaves nothing to say; it
// returns the diagnostic, and whether there was one.
func checkAppliedComparison(t *testing.T, written string, op engine.Operator) (engine.Diagnostic, bool) {
	t.Helper()
	src := "A **P** is ok if the __v__ of the **P** " + written + "."
	diags := engine.Check(src).Diagnostics
	if len(diags) != 1 || diags[0].Code != engine.CodeUnknownOperator || len(diags[0].Suggestions) == 0 {
		t.Errorf("%q: diagnostics %+v, want one unknown-operator with a suggestion", written, diags)
		return engine.Diagnostic{}, false
	}
	fixed := applied(src, diags[0])
	text, errs := engine.Parse(fixed, engine.DefaultLimits)
	if len(errs) > 0 {
		t.Errorf("%q: the fix gives %q, which does not parse: %v", written, fixed, errs)
		return diags[0], true
	}
	cmp, ok := text.Rules[0].Conditions[0].(*engine.Comparison)
	if !ok || len(text.Rules[0].Conditions) != 1 || cmp.Op != op || cmp.Value.Kind != engine.LitNumber || cmp.Value.Number != 5 {
		t.Errorf("%q: the fix gives %q, not the comparison with 5 meant", written, fixed)
	}
	if left := engine.Check(fixed).Diagnostics; len(left) != 0 {
		t.Errorf("%q: the fix %q still has diagnostics %+v", written, fixed, left)
	}
	return diags[0], true
}

// TestApplyingTheSuggestionForAnEmptyNameReadsTheNamesWritten applies the
// suggestion for a dot with no name on one side: the result must parse,
// with the names written and nothing between them.
func TestApplyingTheSuggestionForAnEmptyNameReadsTheNamesWritten(t *testing.T) {
	tests := []struct{ written, want string }{
		{"__.a__ of **P**", "a"},
		{"__a..b__ of **P**", "a.b"},
		{"__a...b.__ of **P**", "a.b"},
		{"___a..b__ of **P**", "_a.b"},
		{"__x__ of **a..b**", "a.b"},
		{"__x__ of **.P**", "P"},
	}
	for _, tt := range tests {
		src := "A **P** is ok if the " + tt.written + " is not empty."
		diags := engine.Check(src).Diagnostics
		if len(diags) != 1 || diags[0].Code != engine.CodeParseError || len(diags[0].Suggestions) != 1 {
			t.Errorf("%q: diagnostics %+v, want one parse error with a suggestion", tt.written, diags)
			continue
		}
		fixed := applied(src, diags[0])
		text, errs := engine.Parse(fixed, engine.DefaultLimits)
		if len(errs) > 0 {
			t.Errorf("%q: the fix gives %q, which does not parse: %v", tt.written, fixed, errs)
			continue
		}
		cmp, ok := text.Rules[0].Conditions[0].(*engine.Comparison)
		if !ok || len(cmp.Left.Elements) != 2 {
			t.Errorf("%q: the fix gives %q, not a comparison of two names", tt.written, fixed)
			continue
		}
		if got := cmp.Left.Elements[0].Text + "|" + cmp.Left.Elements[1].Text; !strings.Contains(got, tt.want) || strings.Contains(got, "..") {
			t.Errorf("%q: the fix gives %q, whose names are %q", tt.written, fixed, got)
		}
	}
}

// TestANumberOrDaySuggestedIsOneARuleCanWrite applies each suggestion for a
// number or a day written as no rule writes it: the result parses and
// holds the very number written, or there is no suggestion.
func TestANumberOrDaySuggestedIsOneARuleCanWrite(t *testing.T) {
	tests := []struct{ written, code, fix string }{
		{`is at least 1.5e3`, engine.CodeParseError, "1500"},
		{`is less than 123456789012345678901e0`, engine.CodeParseError, "123456789012345678901"},
		{`is less than 1.00000000000000000001e0`, engine.CodeParseError, "1.00000000000000000001"},
		{`is less than 2.5E-3`, engine.CodeParseError, "0.0025"},
		{`is less than 1e308`, engine.CodeParseError, "1" + strings.Repeat("0", 308)},
		{`is less than 1e-400`, engine.CodeParseError, ""},
		{`is at least "1,500"`, engine.CodeTypeMismatch, "1500"},
		{`is at least "2.75"`, engine.CodeTypeMismatch, "2.75"},
		{`is at least "-5"`, engine.CodeTypeMismatch, ""},
		{`is at least "+5"`, engine.CodeTypeMismatch, ""},
		{`is at least "1e5"`, engine.CodeTypeMismatch, ""},
		{`is at least ".5"`, engine.CodeTypeMismatch, ""},
		{`is at least "5."`, engine.CodeTypeMismatch, ""},
		{`is at least "NaN"`, engine.CodeTypeMismatch, ""},
		{`is at least "1,0,0"`, engine.CodeTypeMismatch, ""},
		{`is at least ",500"`, engine.CodeTypeMismatch, ""},
		{`is at least "1.5,00"`, engine.CodeTypeMismatch, ""},
		{`is at least "12,345,678.5"`, engine.CodeTypeMismatch, "12345678.5"},
		{`is at least 2024-01-01`, engine.CodeTypeMismatch, "is later than 2023-12-31"},
		{`is no more than 9999-12-31`, engine.CodeTypeMismatch, ""},
		{`is at least 0000-01-01`, engine.CodeTypeMismatch, ""},
	}
	for _, tt := range tests {
		src := "A **x** is ok if the __v__ of the **x** " + tt.written + "."
		var found *engine.Diagnostic
		for _, d := range engine.Check(src).Diagnostics {
			if d.Code == tt.code {
				found = &d
				break
			}
		}
		if found == nil {
			t.Errorf("%s: no %s in %+v", tt.written, tt.code, engine.Check(src).Diagnostics)
			continue
		}
		if tt.fix == "" {
			if len(found.Suggestions) != 0 {
				t.Errorf("%s: suggested %q", tt.written, found.Suggestions)
			}
			continue
		}
		if len(found.Suggestions) != 1 || found.Suggestions[0] != tt.fix {
			t.Errorf("%s: suggested %q, want %q", tt.written, found.Suggestions, tt.fix)
			continue
		}
		lines := strings.Split(src, "\n")
		from, to := found.Range.Start.Column-1, found.Range.End.Column-1
		applied := lines[0][:from] + tt.fix + lines[0][to:]
		for _, d := range engine.Check(applied).Diagnostics {
			if d.Severity == engine.SeverityError || d.Code == engine.CodeTypeMismatch {
				t.Errorf("%s applied as %q: %s %s", tt.written, applied, d.Code, d.Message)
			}
		}
	}
}

// A reference that matches no rule names both properties it may read:
// the first keeps its negation, the second does not.
func TestANegatedReferenceToDataNamesBothProperties(t *testing.T) {
	diags := engine.Check("A **Applicant** gets a loan if the **Applicant** has no debts.").Diagnostics
	if len(diags) != 1 || diags[0].Code != engine.CodeNegatedReference ||
		!strings.Contains(diags[0].Message, "`hasNoDebts` when the data has it, else `debts`, which leaves out \"no\"") {
		t.Errorf("diagnostics %+v", diags)
	}
}

// TestApplyingABetweenSuggestionKeepsWhatTheEndsMeant applies each
// suggestion for `is between`, with or without a word on its ends: the
// rule that results checks clean and holds at the ends only when they
// were meant to count.
func TestApplyingABetweenSuggestionKeepsWhatTheEndsMeant(t *testing.T) {
	var eng engine.Engine
	for _, c := range []struct {
		src         string
		data        map[string]any
		holdsAtEnds bool
	}{
		{"A **Person** works if the __age__ of the **Person** is between 18 and 65.", map[string]any{"Person": map[string]any{"age": 65.0}}, true},
		{"A **Person** works if the __age__ of the **Person** is between 18 and 65 inclusive.", map[string]any{"Person": map[string]any{"age": 18.0}}, true},
		{"A **Person** works if the __age__ of the **Person** is between 18 and 65 exclusive.", map[string]any{"Person": map[string]any{"age": 65.0}}, false},
		{"A **Contract** is current if the __start__ of the **Contract** is between 2024-01-01 and 2024-12-31.", map[string]any{"Contract": map[string]any{"start": "2024-12-31"}}, true},
		{"A **Contract** is current if the __start__ of the **Contract** is between 2024-01-01 and 2024-12-31 exclusive.", map[string]any{"Contract": map[string]any{"start": "2024-01-01"}}, false},
	} {
		diags := engine.Check(c.src).Diagnostics
		if len(diags) != 1 || len(diags[0].Suggestions) != 1 {
			t.Fatalf("Check(%q) = %+v, want one diagnostic with a suggestion", c.src, diags)
		}
		fixed := applied(c.src, diags[0])
		if left := engine.Check(fixed).Diagnostics; len(left) != 0 {
			t.Errorf("%q leaves %+v", fixed, left)
			continue
		}
		if res := eng.Run(fixed, c.data); res.Error != nil || res.Result != c.holdsAtEnds {
			t.Errorf("%q on %v = %v (error %v), want %v", fixed, c.data, res.Result, res.Error, c.holdsAtEnds)
		}
	}
}
