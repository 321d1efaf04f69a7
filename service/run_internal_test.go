package service

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

func TestRunResultAppendJSONWritesWhatEncodingJSONWrites(t *testing.T) {
	var e engine.Engine
	run := e.Run("A **Person** gets <senior> & \"discount\" if the __age__ of the **Person** is at least 65.",
		map[string]any{"Person": map[string]any{"age": 70.0}})
	run.Explain()
	run.Data = json.RawMessage(`{"Person": {"age": 70}}`)
	execution := Execution{Orchestrator: Orchestrator{Go: 12, Database: 0, Total: 12}, Engine: 3456, Total: 1234567890123}
	for name, res := range map[string]*RunResult{
		"a run":            {Result: run, Execution: execution},
		"timings only":     {Execution: execution},
		"a zero execution": {Result: run},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		got, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(got, '\n'), want.Bytes()) {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, want.Bytes())
		}
	}
}

func TestARequestCompilesEachInlineTextOnce(t *testing.T) {
	s := &Service{}
	rule := "A **P** is ok if the __a__ of the **P** is at least 1."
	broken := "A **P** is ok if the __a__ of the **P** is at lest 1."
	ctx := WithCall(context.Background(), &Call{})
	first := s.compileInline(ctx, rule)
	if again := s.compileInline(ctx, rule); again != first {
		t.Error("a request compiled its text twice")
	}
	if failed := s.compileInline(ctx, broken); s.compileInline(ctx, broken) != failed {
		t.Error("a request compiled a text that does not parse twice")
	}
	if other := s.compileInline(WithCall(context.Background(), &Call{}), rule); other == first {
		t.Error("another request ran what this one compiled")
	}
	if alone := s.compileInline(context.Background(), rule); s.compileInline(context.Background(), rule) == alone {
		t.Error("runs outside a request shared what they compiled")
	}
	res, err := first.RunCharged(map[string]any{"P": map[string]any{"a": 2.0}}, nil)
	if err != nil || !res.Result {
		t.Errorf("the compiled text ran %v, %v", res.Result, err)
	}

	// Past maxCompiledTextBytes of texts, a request compiles each run anew.
	full := WithCall(context.Background(), &Call{})
	long := strings.Repeat("x", maxCompiledTextBytes/2)
	s.compileInline(full, long)
	s.compileInline(full, strings.Repeat("y", maxCompiledTextBytes/2))
	if past := s.compileInline(full, rule); s.compileInline(full, rule) == past {
		t.Error("a request kept more than maxCompiledTextBytes of compiled texts")
	}
	if kept := s.compileInline(full, long); s.compileInline(full, long) != kept {
		t.Error("a request forgot a text it kept")
	}
}
