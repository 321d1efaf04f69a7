package service_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/jsonltest"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

// BenchmarkRunPolicyCached is a stored run through the service with warm
// caches: authentication, resolution of the latest version, the compiled
// program, evaluation with trace, and the queued audit event.
func BenchmarkRunPolicyCached(b *testing.B) {
	benchmarkRunPolicy(b, nil)
}

// BenchmarkRunPolicyRecorded is BenchmarkRunPolicyCached with every run
// recorded and one path of its input masked: what recording adds to a run
// (masking, the explanation's redaction, the record in the queued event).
func BenchmarkRunPolicyRecorded(b *testing.B) {
	benchmarkRunPolicy(b, &service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.Applicant.passportNumber"}})
}

func benchmarkRunPolicy(b *testing.B, recording *service.DecisionSettingsInput) {
	rule, data := fiveRuleCase(b)
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db)
		ctx := context.Background()
		admin := f.as(b, adminKey, "")
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("five rules"), Rule: &rule})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(admin, pol.ID, service.Changes{}); err != nil {
			b.Fatal(err)
		}
		if recording != nil {
			if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.BaseID, *recording); err != nil {
				b.Fatal(err)
			}
		}
		b.Cleanup(f.svc.Close)
		b.ReportAllocs()
		for b.Loop() {
			p, err := f.svc.Authenticate(ctx, adminKey, "")
			if err != nil {
				b.Fatal(err)
			}
			res, err := f.svc.RunPolicy(service.WithPrincipal(ctx, p), pol.BaseID, data)
			if err != nil || !res.Result.Result {
				b.Fatalf("run: %v", err)
			}
			res.Release()
		}
	})
}

func fiveRuleCase(b *testing.B) (string, json.RawMessage) {
	type benchCase struct {
		Name string          `json:"name"`
		Rule string          `json:"rule"`
		Data json.RawMessage `json:"data"`
	}
	for _, c := range jsonltest.Read[benchCase](b, "../engine/testdata/bench_cases.jsonl") {
		if c.Name == "five_rule_policy_refs_labels" {
			return c.Rule, c.Data
		}
	}
	b.Fatal("no five_rule_policy_refs_labels case")
	return "", nil
}

// BenchmarkRunFlowCached is a stored flow run through the service with warm
// caches: a start node on one policy, a policy node on another, a return.
// Besides what a policy run does, it resolves each node's policy for the
// caller (tenant, deletion, authorization) from the run cache.
func BenchmarkRunFlowCached(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db)
		ctx := context.Background()
		admin := f.as(b, adminKey, "")
		adult := f.publishedPolicy(b, "adult", adultRule)
		income := f.publishedPolicy(b, "income", incomeRule)
		definition := json.RawMessage(`{"formatVersion": 1, "nodes": [
			{"id": "s", "type": "start", "policy": ` + byID(adult.ID) + `, "onTrue": "p"},
			{"id": "p", "type": "policy", "policy": ` + byBaseID(income.BaseID) + `, "onTrue": "yes"},
			{"id": "yes", "type": "return", "returnValue": true}]}`)
		fl, err := f.svc.CreateFlow(admin, service.Changes{Name: ptr("three nodes"), Definition: definition})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{}); err != nil {
			b.Fatal(err)
		}
		data := json.RawMessage(`{"applicant": {"age": 30, "income": 45000}}`)
		b.Cleanup(f.svc.Close)
		b.ReportAllocs()
		for b.Loop() {
			p, err := f.svc.Authenticate(ctx, adminKey, "")
			if err != nil {
				b.Fatal(err)
			}
			res, err := f.svc.RunFlow(service.WithPrincipal(ctx, p), fl.BaseID, data)
			if err != nil || !res.Result {
				b.Fatalf("run: %+v, %v", res, err)
			}
		}
	})
}

// BenchmarkRunFlowBatch runs the flow of BenchmarkRunFlowCached on a batch
// of 1,000 inputs in one call; ns/item is one input's share, to set beside
// that benchmark's single run.
func BenchmarkRunFlowBatch(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db)
		admin := f.as(b, adminKey, "")
		adult := f.publishedPolicy(b, "adult", adultRule)
		income := f.publishedPolicy(b, "income", incomeRule)
		definition := json.RawMessage(`{"formatVersion": 1, "nodes": [
			{"id": "s", "type": "start", "policy": ` + byID(adult.ID) + `, "onTrue": "p"},
			{"id": "p", "type": "policy", "policy": ` + byBaseID(income.BaseID) + `, "onTrue": "yes"},
			{"id": "yes", "type": "return", "returnValue": true}]}`)
		fl, err := f.svc.CreateFlow(admin, service.Changes{Name: ptr("three nodes"), Definition: definition})
		if err != nil {
			b.Fatal(err)
		}
		inputs := make([]json.RawMessage, 1000)
		for i := range inputs {
			inputs[i] = json.RawMessage(`{"applicant": {"age": 30, "income": 45000}}`)
		}
		b.Cleanup(f.svc.Close)
		b.ReportAllocs()
		for b.Loop() {
			res, err := f.svc.RunFlowBatch(f.as(b, adminKey, ""), fl.BaseID, service.Items{List: inputs})
			if err != nil || len(res.Results) != len(inputs) || !res.Results[0].Result {
				b.Fatalf("batch: %v", err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(inputs)), "ns/item")
	})
}

// BenchmarkReplayPolicy replays 10,000 recorded decisions of the five-rule
// policy against a draft of it: reading the records, decoding each input,
// evaluating and explaining, comparing and ordering the answer.
func BenchmarkReplayPolicy(b *testing.B) {
	const recorded = 10000
	rule, data := fiveRuleCase(b)
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db)
		admin := f.as(b, adminKey, "")
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("five rules"), Rule: &rule})
		if err != nil {
			b.Fatal(err)
		}
		v, err := f.svc.PublishPolicy(admin, pol.ID, service.Changes{})
		if err != nil {
			b.Fatal(err)
		}
		draft, err := f.svc.PolicyDraftFromVersion(admin, v.ID, false)
		if err != nil {
			b.Fatal(err)
		}
		// The records are written through the store, as the run writer
		// would have written them (on PostgreSQL it gives their day a
		// partition): 10,000 runs through the service would only slow the
		// setup.
		ctx := context.Background()
		store := storage.New(db)
		version := 1
		for start := 0; start < recorded; start += 500 {
			rows := make([]*ent.DecisionRecord, 500)
			for i := range rows {
				rows[i] = &ent.DecisionRecord{ID: uuid.Must(uuid.NewV7()), OrganizationID: f.acme.Organization.ID,
					Kind: decisionrecord.KindPolicy, BaseID: v.BaseID, RecordID: v.ID, Version: &version,
					Revision: v.Revision, At: f.clock.Add(time.Duration(start+i) * time.Millisecond), Result: true,
					Explanation: "recorded", DurationNs: 1000, ActorKind: decisionrecord.ActorKindUser,
					ActorID: f.acme.User.ID, Input: string(data)}
			}
			if err := store.InsertDecisions(ctx, rows); err != nil {
				b.Fatal(err)
			}
		}
		b.Cleanup(f.svc.Close)
		b.ReportAllocs()
		for b.Loop() {
			// Each replay is a request of its own, with its own bound.
			rep, err := f.svc.ReplayPolicy(f.as(b, adminKey, ""), draft.ID, service.ReplayInput{Limit: recorded})
			if err != nil {
				b.Fatal(err)
			}
			if rep.Compared != recorded || rep.Unchanged != recorded {
				b.Fatalf("replay compared %d, %d unchanged; want %d", rep.Compared, rep.Unchanged, recorded)
			}
		}
	})
}
