package engine_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/verdict/verdict/engine"
)

// seedCorpus adds every conformance case to a fuzz target, so the seeds run
// in the normal test suite.
func seedCorpus(f *testing.F, add func(c conformanceCase)) {
	for _, c := range loadConformance(f) {
		add(c)
	}
}

func FuzzParse(f *testing.F) {
	seedCorpus(f, func(c conformanceCase) { f.Add(c.Rule) })
	var eng engine.Engine
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := eng.Compile(src)
		if err != nil {
			errs, ok := err.(engine.ParseErrors)
			if !ok || len(errs) == 0 {
				t.Fatalf("Compile error %T %v is not a non-empty ParseErrors", err, err)
			}
			if msg := errs[0].Message(); len(msg) < len("Parse error:") || msg[:12] != "Parse error:" {
				t.Fatalf("parse error message %q lacks its prefix", msg)
			}
			return
		}
		rules := prog.InlineRules()
		if len(rules) == 0 {
			t.Fatal("a compiled program has no rules")
		}
		for _, r := range rules {
			if !utf8.ValidString(r) && utf8.ValidString(src) {
				t.Fatalf("rule entry %q is not valid UTF-8", r)
			}
		}
		res := prog.Evaluate(map[string]any{})
		checkResultInvariants(t, res)
	})
}

func FuzzEvaluate(f *testing.F) {
	seedCorpus(f, func(c conformanceCase) { f.Add(c.Rule, string(c.Data)) })
	var eng engine.Engine
	f.Fuzz(func(t *testing.T, src, rawData string) {
		data, err := engine.DecodeData([]byte(rawData), engine.Limits{})
		if err != nil {
			return
		}
		checkResultInvariants(t, eng.Run(src, data))
	})
}

// FuzzMembership checks that a written list gives the same answers whether
// its program was compiled to be reused (the list indexed) or to run once.
func FuzzMembership(f *testing.F) {
	f.Add("İ", "Ⱥ", "i")
	f.Add("K", "ⱥ", "k")
	f.Add("ẞ", "x", "ß")
	f.Add("2024-01-01", "Ω", "2024-01-01T09:00:00Z")
	var eng engine.Engine
	f.Fuzz(func(t *testing.T, a, b, v string) {
		if strings.Contains(a+b, `"`) {
			return
		}
		rule := `A **u** is ok if the __x__ of the **u** is in ["` + a + `", "` + b + `"].`
		prog, err := eng.Compile(rule)
		if err != nil {
			return
		}
		data := map[string]any{"u": map[string]any{"x": v}}
		if once, reused := eng.Run(rule, data), prog.Evaluate(data); once.Result != reused.Result {
			t.Fatalf("%q is in [%q, %q]: run once %v, compiled for reuse %v", v, a, b, once.Result, reused.Result)
		}
	})
}

// checkResultInvariants asserts what holds for every run result.
func checkResultInvariants(t *testing.T, res *engine.Result) {
	t.Helper()
	if res.Error != nil && res.Result {
		t.Fatalf("result is true with error %q", res.Error.Message)
	}
	if len(res.Trace.Execution) != 1 {
		t.Fatalf("trace has %d entries, want the golden rule only", len(res.Trace.Execution))
	}
	if res.Rule == nil {
		t.Fatal("rule is nil, want an array")
	}
	if res.Labels != nil && len(res.Labels) == 0 {
		t.Fatal("labels is an empty object, want null")
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("result does not encode: %v", err)
	}
}

// FuzzCheck checks that any text gets an answer: tokens inside the text and
// in order, diagnostics with a known code, and an error diagnostic when the
// text does not compile. A text that compiles has errors only of the codes
// that mark what it cannot mean as written (compiledErrorCodes).
func FuzzCheck(f *testing.F) {
	seedCorpus(f, func(c conformanceCase) { f.Add(c.Rule) })
	for _, tc := range diagnosticCases {
		f.Add(tc.fires)
	}
	for _, m := range mistakes {
		f.Add(m.src)
	}
	for _, m := range writtenMistakes {
		f.Add(m.src)
	}
	// A rule's article with nothing after it.
	f.Add("A")
	f.Add("An \t")
	codes := map[string]bool{}
	for _, c := range engine.DiagnosticCodes {
		codes[c] = true
	}
	var eng engine.Engine
	f.Fuzz(func(t *testing.T, src string) {
		res := engine.Check(src)
		lines := strings.Count(src, "\n") + 1
		var prev engine.Position
		for _, tk := range res.Tokens {
			s, e := tk.Range.Start, tk.Range.End
			if s.Line < prev.Line || s.Line == prev.Line && s.Column < prev.Column ||
				e.Line < s.Line || e.Line == s.Line && e.Column <= s.Column || e.Line > lines {
				t.Fatalf("token %+v out of order or empty after %+v", tk, prev)
			}
			prev = e
		}
		for _, d := range res.Diagnostics {
			if !codes[d.Code] || d.Message == "" || d.Suggestions == nil || d.Range.Start.Line < 1 || d.Range.Start.Column < 1 {
				t.Fatalf("malformed diagnostic %+v", d)
			}
		}
		_, err := eng.Compile(src)
		if err != nil && !res.HasErrors() {
			t.Fatalf("compile error %v, but diagnostics %+v", err, res.Diagnostics)
		}
		for _, d := range res.Diagnostics {
			if err == nil && d.Severity == engine.SeverityError && !compiledErrorCodes[d.Code] {
				t.Fatalf("the text compiles, but diagnostics %+v", res.Diagnostics)
			}
		}
	})
}

// compiledErrorCodes are the codes of errors a text that compiles may
// have: it runs, but not as it says.
var compiledErrorCodes = map[string]bool{engine.CodeUnknownOperator: true, engine.CodeCircularReference: true, engine.CodeNegatedReference: true,
	engine.CodeConditionInPhrase: true, engine.CodeShadowedReference: true}

// FuzzCheckWithSchema checks texts against schemas: a schema only adds
// warnings, well formed and within the text, to what Check finds.
func FuzzCheckWithSchema(f *testing.F) {
	for _, tc := range diagnosticCases {
		f.Add(tc.fires, tc.schema)
	}
	f.Add("A **P** is ok if the __a.b__ of the __c__ of the **P.q** is at least 1 and the number of __d__ of **P** is at least 2.",
		`{"properties": {"P": {"properties": {"q": {"properties": {"c": {"type": ["string", 5]}}}, "d": {"type": "string"}}}}}`)
	f.Add("A **P** is ok if the __a..b__ of the **P** is at least 1.", `{"properties": {"P": {"properties": {"a": {}}}}}`)
	f.Add("A **P** is ok if the __b__ of the **P** is at least 1.",
		`{"$defs": {"p": {"properties": {"a": {"$ref": "#/$defs/p"}}}, "n": {"$ref": "#/$defs/n"}}, "properties": {"P": {"$ref": "#/$defs/p"}}}`)
	f.Fuzz(func(t *testing.T, src, schema string) {
		alone := engine.Check(src)
		res := engine.CheckWithSchema(src, []byte(schema))
		lines := strings.Count(src, "\n") + 1
		added := 0
		for _, d := range res.Diagnostics {
			switch d.Code {
			case engine.CodeNotInSchema, engine.CodeSchemaTypeMismatch:
				added++
				if d.Severity != engine.SeverityWarning || d.Message == "" || d.Suggestions == nil ||
					d.Range.Start.Line < 1 || d.Range.Start.Column < 1 || d.Range.End.Line > lines ||
					d.Range.End.Line < d.Range.Start.Line || d.Range.End.Line == d.Range.Start.Line && d.Range.End.Column <= d.Range.Start.Column {
					t.Fatalf("malformed diagnostic %+v", d)
				}
			}
		}
		if len(res.Diagnostics) != len(alone.Diagnostics)+added {
			t.Fatalf("with the schema %+v, alone %+v", res.Diagnostics, alone.Diagnostics)
		}
	})
}
