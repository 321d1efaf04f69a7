package flow

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/verdict/verdict/engine"
)

// BenchmarkRun runs a three-node flow (start → policy → return) with
// policies already compiled, as a warm service cache would supply them,
// preparing the definition on every run.
func BenchmarkRun(b *testing.B) {
	d, data, raw, resolver := benchFlow(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(ctx, d, data, raw, resolver, Options{})
		if err != nil || !res.Result {
			b.Fatalf("Run = %+v, %v", res, err)
		}
	}
}

// BenchmarkPlanRun is BenchmarkRun with the definition prepared once, as
// the service's definition cache keeps it.
func BenchmarkPlanRun(b *testing.B) {
	d, data, raw, resolver := benchFlow(b)
	plan, err := Prepare(d)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := plan.Run(ctx, data, raw, resolver, Options{})
		if err != nil || !res.Result {
			b.Fatalf("Run = %+v, %v", res, err)
		}
	}
}

func benchFlow(b *testing.B) (*Definition, any, json.RawMessage, benchResolver) {
	d := &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"p"}, OnFalse: []string{"no"}},
		{ID: "p", Type: "policy", Policy: &PolicyRef{BaseID: "B-INCOME"}, OnTrue: []string{"yes"}, OnFalse: []string{"no"}},
		{ID: "yes", Type: "return", ReturnValue: true},
		{ID: "no", Type: "return", ReturnValue: false},
	}}
	raw := json.RawMessage(`{"applicant": {"age": 30, "income": 45000}}`)
	data, err := engine.DecodeData(raw, engine.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	return d, data, raw, benchResolver{newFakeResolver(b).records}
}

// benchResolver is a lookup without the fake's call log.
type benchResolver struct {
	records map[string]*ResolvedPolicy
}

func (r benchResolver) ResolvePolicy(_ context.Context, ref PolicyRef) (*ResolvedPolicy, error) {
	if ref.BaseID == "B-INCOME" {
		return r.records["P-INCOME"], nil
	}
	return r.records[ref.ID], nil
}
