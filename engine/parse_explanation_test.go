package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

// TestAParseFailureIsExplainedByCheckFirstError holds the explanation of a
// run whose text does not parse, worked out from the run's own parse
// errors, to the first error Check reports for the whole text, over every
// text of the corpora and the diagnostic cases that does not parse, alone
// and two by two.
func TestAParseFailureIsExplainedByCheckFirstError(t *testing.T) {
	var texts []string
	for _, path := range []string{"testdata/conformance.jsonl", "testdata/reference_cases.jsonl"} {
		for _, c := range jsonltest.Read[struct{ Rule string }](t, path) {
			texts = append(texts, c.Rule)
		}
	}
	for _, c := range diagnosticCases {
		texts = append(texts, c.fires)
	}
	var failing []string
	for _, src := range texts {
		if _, err := new(engine.Engine).Compile(src); err != nil {
			failing = append(failing, src)
		}
	}
	if len(failing) < 20 {
		t.Fatalf("only %d texts do not parse", len(failing))
	}
	for i := range failing {
		failing = append(failing, failing[i]+"\n\n"+failing[(i+1)%len(failing)])
	}
	var eng engine.Engine
	for _, src := range failing {
		res := eng.Run(src, map[string]any{})
		res.Explain()
		want := "The rule text does not parse: " + res.Error.Message
		for _, d := range engine.Check(src).Diagnostics {
			if d.Severity == engine.SeverityError {
				want = fmt.Sprintf("The rule text does not parse (line %d, column %d): %s", d.Range.Start.Line, d.Range.Start.Column, d.Message)
				break
			}
		}
		if res.Explanation != want {
			t.Errorf("%q:\n got %s\nwant %s", src, res.Explanation, want)
		}
	}
}

// BenchmarkExplainAParseFailure runs and explains a thousand rules of
// which every one misspells its comparison, without Check's highlighting
// and second parse; the runs of one compiled text (engine.Inline) share
// the explanation.
func BenchmarkExplainAParseFailure(b *testing.B) {
	var sb strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&sb, "A **P** is ok%d if the __a__ of the **P** is at lest 1.\n", i)
	}
	src := sb.String()
	data := map[string]any{"P": map[string]any{"a": 2.0}}
	var eng engine.Engine
	for b.Loop() {
		eng.Run(src, data).Explain()
	}
}
