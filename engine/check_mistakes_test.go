package engine_test

import (
	"reflect"
	"testing"

	"github.com/verdict/verdict/engine"
)

// span is the range from line:column to line:column, as diagnostics give it.
func span(line, col, endLine, endCol int) engine.Range {
	return engine.Range{Start: engine.Position{Line: line, Column: col}, End: engine.Position{Line: endLine, Column: endCol}}
}

// mistakes are texts with a common mistake and every diagnostic the check
// must give them, exactly.
var mistakes = []struct {
	name, src string
	want      []engine.Diagnostic
}{
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
		name: "less than or equal without to, counting",
		src:  "A **Cart** is small if the number of __items__ of the **Cart** is less than or equal 3.",
		want: []engine.Diagnostic{{
			Severity: engine.SeverityError, Code: engine.CodeUnknownOperator, Range: span(1, 64, 1, 85),
			Message: "`is less than or equal` is not a comparison Verdict knows: without `to`, it reads as " +
				"`is less than` the text \"or equal 3\", so the condition is never true. Did you mean `is less than or equal to`?",
			Suggestions: []string{"is less than or equal to"},
		}},
	},
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
