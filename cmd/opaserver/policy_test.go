package main

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

// The Rego policy the comparison gives OPA must decide what the rule
// language decides on the same data, or the comparison compares
// different work.
func TestBenchPolicyDecidesAsTheRuleDoes(t *testing.T) {
	var rule string
	var data map[string]any
	for _, c := range jsonltest.Read[struct {
		Name string         `json:"name"`
		Rule string         `json:"rule"`
		Data map[string]any `json:"data"`
	}](t, "../../engine/testdata/bench_cases.jsonl") {
		if c.Name == "five_rule_policy_refs_labels" {
			rule, data = c.Rule, c.Data
		}
	}
	if rule == "" {
		t.Fatal("bench_cases.jsonl has no five_rule_policy_refs_labels")
	}
	module, err := os.ReadFile("../../engine/testdata/bench_policy.rego")
	if err != nil {
		t.Fatal(err)
	}
	query, err := rego.New(rego.Query("data.bench.allow"), rego.Module("bench_policy.rego", string(module))).
		PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(applicant, property map[string]any)
		want   bool
	}{
		{"the bench data gets the mortgage", func(a, p map[string]any) {}, true},
		{"a young applicant fails identity", func(a, p map[string]any) { a["dateOfBirth"] = "2010-03-01" }, false},
		{"no passport number fails identity", func(a, p map[string]any) { a["passportNumber"] = "" }, false},
		{"a low income fails affordability", func(a, p map[string]any) { a["monthlyIncome"] = 2999 }, false},
		{"a high debt ratio fails affordability", func(a, p map[string]any) { a["debtRatio"] = 0.41 }, false},
		{"a low credit score fails the credit check", func(a, p map[string]any) { a["creditScore"] = 650 }, false},
		{"a listed country fails the credit check", func(a, p map[string]any) { a["country"] = "IR" }, false},
		{"a flag fails the credit check", func(a, p map[string]any) { a["flags"] = []any{"fraud"} }, false},
		{"a cheap property fails the valuation", func(a, p map[string]any) { p["value"] = 250000 }, false},
	}
	var e engine.Engine
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := copyOf(t, data)
			tt.change(input["Applicant"].(map[string]any), input["Property"].(map[string]any))
			if got := e.Run(rule, copyOf(t, input)); got.Error != nil || got.Result != tt.want {
				t.Fatalf("the rule gives %v (error %v), want %v", got.Result, got.Error, tt.want)
			}
			rs, err := query.Eval(context.Background(), rego.EvalInput(input))
			if err != nil {
				t.Fatal(err)
			}
			if got := rs.Allowed(); got != tt.want {
				t.Fatalf("the Rego policy gives %v, want %v", got, tt.want)
			}
		})
	}
}

// copyOf is a deep copy through JSON, numbers as the engine decodes them.
func copyOf(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := engine.DecodeData(b, engine.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
