package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

type benchCase struct {
	Name string          `json:"name"`
	Rule string          `json:"rule"`
	Data json.RawMessage `json:"data"`
}

// loadBenchCases reads testdata/bench_cases.jsonl, a copy of the cases the
// reference engine was measured on.
func loadBenchCases(b *testing.B) []benchCase {
	return jsonltest.Read[benchCase](b, "testdata/bench_cases.jsonl")
}

func benchData(b *testing.B, c benchCase) map[string]any {
	data, err := engine.DecodeData(c.Data, engine.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseAndEvaluate measures text to result with trace, as
// POST /run does.
func BenchmarkParseAndEvaluate(b *testing.B) {
	var eng engine.Engine
	for _, c := range loadBenchCases(b) {
		data := benchData(b, c)
		b.Run(c.Name, func(b *testing.B) {
			if res := eng.Run(c.Rule, data); res.Error != nil {
				b.Fatalf("case fails: %s", res.Error.Message)
			}
			b.ReportAllocs()
			for b.Loop() {
				eng.Run(c.Rule, data)
			}
		})
	}
}

// BenchmarkEvaluateCompiled measures a program compiled once and evaluated
// with a full trace, as stored policies run: into a result taken from a
// pool, whose memory the evaluation reuses.
func BenchmarkEvaluateCompiled(b *testing.B) {
	benchmarkCompiled(b, func(prog *engine.Program, res *engine.Result, data map[string]any) *engine.Result {
		prog.EvaluateInto(res, data)
		return res
	})
}

// BenchmarkEvaluateItem measures what an item of a batch costs the engine:
// its data's text read for the values the program's paths name and
// evaluated as BenchmarkEvaluateCompiled evaluates decoded data.
func BenchmarkEvaluateItem(b *testing.B) {
	var eng engine.Engine
	for _, c := range loadBenchCases(b) {
		b.Run(c.Name, func(b *testing.B) {
			prog, err := eng.Compile(c.Rule)
			if err != nil {
				b.Fatal(err)
			}
			dec := engine.NewDataDecoder(engine.Limits{})
			res := new(engine.Result)
			b.ReportAllocs()
			for b.Loop() {
				if err := dec.EvaluateInto(res, prog, c.Data); err != nil {
					b.Fatal(err)
				}
				dec.Recycle()
			}
			if res.Error != nil {
				b.Fatalf("case fails: %s", res.Error.Message)
			}
		})
	}
}

// BenchmarkEvaluateFresh is BenchmarkEvaluateCompiled with a newly
// allocated result every time.
func BenchmarkEvaluateFresh(b *testing.B) {
	benchmarkCompiled(b, func(prog *engine.Program, _ *engine.Result, data map[string]any) *engine.Result {
		return prog.Evaluate(data)
	})
}

func benchmarkCompiled(b *testing.B, eval func(*engine.Program, *engine.Result, map[string]any) *engine.Result) {
	var eng engine.Engine
	for _, c := range loadBenchCases(b) {
		data := benchData(b, c)
		b.Run(c.Name, func(b *testing.B) {
			prog, err := eng.Compile(c.Rule)
			if err != nil {
				b.Fatal(err)
			}
			var res engine.Result
			if r := eval(prog, &res, data); r.Error != nil || !r.Result {
				b.Fatalf("case does not pass: %v", r.Error)
			}
			b.ReportAllocs()
			for b.Loop() {
				eval(prog, &res, data)
			}
		})
	}
}

// BenchmarkCheck measures engine.Check: tokens and diagnostics of a text,
// as POST /check and an editor checking as one types.
func BenchmarkCheck(b *testing.B) {
	for _, c := range loadBenchCases(b) {
		b.Run(c.Name, func(b *testing.B) {
			if res := engine.Check(c.Rule); res.HasErrors() {
				b.Fatalf("case has errors: %+v", res.Diagnostics)
			}
			b.ReportAllocs()
			for b.Loop() {
				engine.Check(c.Rule)
			}
		})
	}
}

// BenchmarkExplain measures building a result's explanation and warnings,
// which the service does when it hands a result out.
func BenchmarkExplain(b *testing.B) {
	var eng engine.Engine
	for _, c := range loadBenchCases(b) {
		data := benchData(b, c)
		prog, err := eng.Compile(c.Rule)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.Name, func(b *testing.B) {
			res := new(engine.Result)
			b.ReportAllocs()
			for b.Loop() {
				prog.EvaluateInto(res, data)
				res.Explain()
			}
		})
	}
}

// BenchmarkLooseNamesInALargeObject measures a rule that reads a thousand
// names, none spelled as a key, in one object of 1,000 or 10,000 keys: keys
// that are their own canonical form (the rule's __K_7__ reads k7), and
// keys that are not (__key 7__ reads Key_7). A run costs the names plus the
// keys, not their product.
func BenchmarkLooseNamesInALargeObject(b *testing.B) {
	const names = 1000
	for _, shape := range []struct{ name, key, written string }{
		{"canonical_keys", "k%d", "K_%d"},
		{"camel_keys", "Key_%d", "key %d"},
	} {
		conds := make([]string, names)
		for i := range conds {
			conds[i] = "__" + fmt.Sprintf(shape.written, i) + "__ is at least 0"
		}
		rule := "A **P** is ok if " + strings.Join(conds, " or ") + "."
		for _, keys := range []int{1000, 10000} {
			obj := make(map[string]any, keys)
			for i := range keys {
				obj[fmt.Sprintf(shape.key, i)] = float64(i)
			}
			data := map[string]any{"P": obj}
			b.Run(fmt.Sprintf("%s/keys=%d", shape.name, keys), func(b *testing.B) {
				var eng engine.Engine
				prog, err := eng.Compile(rule)
				if err != nil {
					b.Fatal(err)
				}
				var res engine.Result
				if prog.EvaluateInto(&res, data); res.Error != nil || !res.Result {
					b.Fatalf("case does not pass: %v", res.Error)
				}
				b.ReportAllocs()
				for b.Loop() {
					prog.EvaluateInto(&res, data)
				}
			})
		}
	}
}
