package engine_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/verdict/verdict/engine"
)

// reflectiveJSON is what a server writes with encoding/json: HTML left
// alone, no trailing newline.
func reflectiveJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func appendedJSON(t testing.TB, r *engine.Result) []byte {
	t.Helper()
	members, err := r.AppendJSONMembers([]byte{'{'})
	if err != nil {
		t.Fatal(err)
	}
	return append(members, '}')
}

// Every result the corpora produce, with its data as raw JSON (as the
// server runs it) and as decoded values, is written byte for byte as
// encoding/json writes it.
func TestAppendJSONMembersWritesWhatEncodingJSONWrites(t *testing.T) {
	type corpusCase struct {
		ID   string          `json:"id"`
		Rule string          `json:"rule"`
		Data json.RawMessage `json:"data"`
	}
	var cases []corpusCase
	for _, c := range loadConformance(t) {
		cases = append(cases, corpusCase{c.ID, c.Rule, c.Data})
	}
	for _, c := range loadReferenceCases(t) {
		cases = append(cases, corpusCase{c.ID, c.Rule, c.Data})
	}
	var e engine.Engine
	checked := 0
	for _, c := range cases {
		data, err := engine.DecodeData(c.Data, engine.Limits{})
		if err != nil {
			continue
		}
		res := e.Run(c.Rule, data)
		res.Explain()
		if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("%s, decoded data:\n got %s\nwant %s", c.ID, got, want)
		}
		res.Data = json.RawMessage(c.Data)
		if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("%s, raw data:\n got %s\nwant %s", c.ID, got, want)
		}
		res.Data = engine.DataText(c.Data)
		if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("%s, data text:\n got %s\nwant %s", c.ID, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// The escapes and number forms the corpora may not reach.
func TestAppendJSONMembersEscapesAndFormatsAsEncodingJSON(t *testing.T) {
	odd := "<a href=\"x\">&amp;</a> \\ \b\f\n\r\t\x00\x1f \u2028\u2029 \xff é 😀"
	values := []any{nil, true, false, "", odd, 0.0, math.Copysign(0, -1), 1.0, -12.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 3.0e-9,
		[]any{}, []any(nil), map[string]any{}, map[string]any(nil),
		map[string]any{odd: []any{odd, 1.5, map[string]any{"b": nil, "a": true}}},
		json.RawMessage(` { "x" : [ 1 , "<&>" ] } `), json.RawMessage(nil),
		engine.DataText(" {\n\t\"x\" : [ 1 , \"<&> \\\" \\\\\" ],\r\n \"y z\":{ } } "), engine.DataText(nil), json.Number("12.50"), 7, int64(-3), engine.Text{odd}}
	for _, v := range values {
		res := &engine.Result{
			Result: true,
			Trace: engine.Trace{Execution: []engine.RuleTrace{{Label: odd, Selector: engine.Text{odd}, Outcome: engine.Text{odd}, Conditions: []engine.ConditionTrace{
				{Selector: engine.Text{odd}, Property: engine.PropertyTrace{Path: odd, Value: v}, Operator: odd,
					Value: engine.TypedValue{Type: odd, Value: v}, Compared: true,
					Details: engine.EvaluationDetails{LeftValue: engine.TypedValue{odd, v}, RightValue: engine.TypedValue{odd, v}, ComparisonResult: true}},
				{Selector: engine.Text{odd}, Property: engine.PropertyTrace{Path: odd, Value: v}, Value: engine.TypedValue{Value: v}},
				{Reference: true, Selector: engine.Text{odd}, RuleName: odd, ReferencedRuleOutcome: odd,
					PropertyCheck: &engine.PropertyCheck{PropertyName: odd, PropertyValue: v}},
				{Reference: true, RuleName: odd},
			}}}},
			Rule:        []string{odd, ""},
			Data:        v,
			Error:       &engine.Error{Message: odd},
			Labels:      map[string]bool{odd: true, "b": false, "a": true},
			Explanation: odd,
			Warnings:    engine.Warnings{{Code: odd, Message: odd}},
		}
		if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
	empty := &engine.Result{}
	if want, got := reflectiveJSON(t, empty), appendedJSON(t, empty); !bytes.Equal(got, want) {
		t.Fatalf("the empty result:\n got %s\nwant %s", got, want)
	}
}

// A value encoding/json cannot write fails the whole result, as it would.
func TestAppendJSONMembersFailsWhereEncodingJSONFails(t *testing.T) {
	res := &engine.Result{Data: map[string]any{"x": math.Inf(1)}}
	if _, err := res.AppendJSONMembers(nil); err == nil {
		t.Fatal("an infinite number was written")
	}
}

func BenchmarkResultJSON(b *testing.B) {
	var e engine.Engine
	for _, c := range loadBenchCases(b) {
		data, err := engine.DecodeData(c.Data, engine.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		res := e.Run(c.Rule, data)
		res.Explain()
		res.Data = json.RawMessage(c.Data)
		b.Run(c.Name+"/reflective", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				reflectiveJSON(b, res)
			}
		})
		b.Run(c.Name+"/appended", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 8192)
			for b.Loop() {
				buf, _ = res.AppendJSONMembers(buf[:0])
			}
		})
	}
}

// Lines set once for many results are written as encoding/json writes
// them, and a Rule replaced afterwards is written as it now is.
func TestAppendJSONMembersWritesRuleLinesAsEncodingJSON(t *testing.T) {
	odd := "<a href=\"x\">&amp;</a> \\ \b\f\n\r\t\x00\x1f \u2028\u2029 \xff é 😀 §label"
	for _, lines := range [][]string{{"# Mortgage", odd, ""}, {}, {odd}} {
		res := &engine.Result{}
		res.SetRule(engine.NewRuleLines(lines))
		if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", lines, got, want)
		}
		for _, replaced := range [][]string{nil, {}, {"other"}, append([]string(nil), lines...)} {
			res.Rule = replaced
			if want, got := reflectiveJSON(t, res), appendedJSON(t, res); !bytes.Equal(got, want) {
				t.Fatalf("%q replaced by %q:\n got %s\nwant %s", lines, replaced, got, want)
			}
		}
	}
}
