package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const threeRules = `A **Person** is an adult if the __age__ of the **Person** is at least 18.
A **Person** is a senior if the __age__ of the **Person** is at least 65.
A **Person** gets a discount if the **Person** is a senior.`

func TestAPolicyDiffShowsRuleHunksTestsAndSchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		created, err := f.svc.CreatePolicy(ctx, service.Changes{Name: ptr("discount"), Rule: ptr(threeRules),
			Schema: json.RawMessage(`{"type": "object", "properties": {"age": {"minimum": 0}}, "title": "old"}`),
			Tests:  tests(testCase("70", `{"Person": {"age": 70}}`, true), testCase("40", `{"Person": {"age": 40}}`, false))})
		if err != nil {
			t.Fatal(err)
		}
		v1, err := f.svc.PublishPolicy(ctx, created.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.PolicyDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdatePolicyDraft(ctx, draft.ID, service.Changes{
			Name: ptr("discount for seniors"), Rule: ptr(strings.Replace(threeRules, "65", "60", 1)),
			Schema: json.RawMessage(`{"type": "object", "properties": {"age": {"minimum": 18}}, "required": ["Person"]}`),
			Tests:  tests(testCase("70", `{"Person": {"age": 70}}`, true), testCase("62", `{"Person": {"age": 62}}`, true), testCase("40", `{"Person":{"age":40}}`, true)),
		}); err != nil {
			t.Fatal(err)
		}

		d, err := f.svc.PolicyDiff(ctx, v1.ID, draft.ID)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(threeRules, "\n")
		want := &service.PolicyDiff{
			BaseID: v1.BaseID,
			From:   service.DiffSide{ID: v1.ID, Status: "published", Version: ptr(1)},
			To:     service.DiffSide{ID: draft.ID, Status: "draft"},
			Name:   &service.TextChange{Before: "discount", After: "discount for seniors"},
			Rule: []service.Hunk{{FromLine: 1, FromCount: 3, ToLine: 1, ToCount: 3, Lines: []service.DiffLine{
				{Kind: "context", Text: lines[0]},
				{Kind: "removed", Text: lines[1]},
				{Kind: "added", Text: strings.Replace(lines[1], "65", "60", 1)},
				{Kind: "context", Text: lines[2]},
			}}},
			Tests: service.TestsDiff{
				Added:   []service.TestCase{testCase("62", `{"Person": {"age": 62}}`, true)},
				Removed: []service.TestCase{},
				// Spacing is no change; the expectation is.
				Changed: []service.TestChange{{Name: "40", Before: ptr(testCase("40", `{"Person": {"age": 40}}`, false)), After: ptr(testCase("40", `{"Person":{"age":40}}`, true))}},
			},
			Schema: []service.ValueChange{
				{Path: "$.properties.age.minimum", Change: "changed", Before: json.RawMessage(`0`), After: json.RawMessage(`18`)},
				{Path: "$.required", Change: "added", Before: json.RawMessage(`null`), After: json.RawMessage(`["Person"]`)},
				{Path: "$.title", Change: "removed", Before: json.RawMessage(`"old"`), After: json.RawMessage(`null`)},
			},
		}
		if !reflect.DeepEqual(jsonOf(t, d), jsonOf(t, want)) {
			t.Errorf("diff\n%s\nwant\n%s", jsonOf(t, d), jsonOf(t, want))
		}

		same, err := f.svc.PolicyDiff(ctx, v1.BaseID, v1.ID)
		if err != nil {
			t.Fatal(err)
		}
		if same.Name != nil || same.Description != nil || len(same.Rule) != 0 || len(same.Schema) != 0 ||
			len(same.Tests.Added)+len(same.Tests.Removed)+len(same.Tests.Changed) != 0 {
			t.Errorf("a record compared with itself (by its base id) differs: %s", jsonOf(t, same))
		}
	})
}

// TestADiffComparesNumbersExactly: records keep their numbers as written,
// and a diff compares and answers them so. 9007199254740993 and
// 9007199254740992, one number to a float64, differ, and so do two
// numbers of 23 digits, answered whole; 1 and 1.0 are one number.
func TestADiffComparesNumbersExactly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		// Members are in the order PostgreSQL's jsonb keeps them (shorter
		// names first), so that the tests read back as written.
		created, err := f.svc.CreatePolicy(ctx, service.Changes{Name: ptr("exact"), Rule: ptr(seniorRule),
			Schema: json.RawMessage(`{"properties": {"id": {"const": 9007199254740993}, "big": {"const": 12345678901234567890123}, "age": {"minimum": 1}}}`),
			Tests: tests(testCase("big", `{"Person": {"id": 12345678901234567890123, "age": 70}}`, true),
				testCase("one", `{"Person": {"n": 1, "age": 70}}`, true))})
		if err != nil {
			t.Fatal(err)
		}
		v1, err := f.svc.PublishPolicy(ctx, created.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.PolicyDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdatePolicyDraft(ctx, draft.ID, service.Changes{
			Schema: json.RawMessage(`{"properties": {"id": {"const": 9007199254740992}, "big": {"const": 12345678901234567890124}, "age": {"minimum": 1.0}}}`),
			Tests: tests(testCase("big", `{"Person": {"id": 12345678901234567890124, "age": 70}}`, true),
				testCase("one", `{"Person": {"n": 1.0, "age": 70}}`, true)),
		}); err != nil {
			t.Fatal(err)
		}

		d, err := f.svc.PolicyDiff(ctx, v1.ID, draft.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantSchema := []service.ValueChange{
			{Path: "$.properties.big.const", Change: "changed", Before: json.RawMessage(`12345678901234567890123`), After: json.RawMessage(`12345678901234567890124`)},
			{Path: "$.properties.id.const", Change: "changed", Before: json.RawMessage(`9007199254740993`), After: json.RawMessage(`9007199254740992`)},
		}
		if jsonOf(t, d.Schema) != jsonOf(t, wantSchema) {
			t.Errorf("schema changes\n%s\nwant\n%s", jsonOf(t, d.Schema), jsonOf(t, wantSchema))
		}
		wantTests := []service.TestChange{{Name: "big",
			Before: ptr(testCase("big", `{"Person": {"id": 12345678901234567890123, "age": 70}}`, true)),
			After:  ptr(testCase("big", `{"Person": {"id": 12345678901234567890124, "age": 70}}`, true))}}
		if jsonOf(t, d.Tests.Changed) != jsonOf(t, wantTests) {
			t.Errorf("changed tests\n%s\nwant\n%s", jsonOf(t, d.Tests.Changed), jsonOf(t, wantTests))
		}
	})
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestADiffComparesRecordsOfOneBaseTheCallerMaySee(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		a := f.publishedPolicy(t, "a", seniorRule)
		b := f.publishedPolicy(t, "b", seniorRule)

		_, err := f.svc.PolicyDiff(as["viewer"], a.ID, b.ID)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "invalid_argument: " + a.ID.String() + " and " + b.ID.String() + " are records of two different policies; only records of one policy can be compared"; err.Error() != want {
			t.Errorf("comparing two policies answers %q, want %q", err, want)
		}
		if _, err := f.svc.PolicyDiff(as["viewer"], a.ID, a.BaseID); err != nil {
			t.Errorf("a viewer may compare: %v", err)
		}
		auditor := f.auditor(t)
		if _, err := f.svc.PolicyDiff(auditor, a.ID, a.BaseID); err != nil {
			t.Errorf("an auditor may compare: %v", err)
		}

		other := as["other tenant"]
		theirs, err := f.svc.CreatePolicy(other, service.Changes{Name: ptr("theirs"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		nowhere := uuid.Must(uuid.NewV7())
		_, foreign := f.svc.PolicyDiff(as["viewer"], a.ID, theirs.ID)
		_, absent := f.svc.PolicyDiff(as["viewer"], a.ID, nowhere)
		wantCode(t, foreign, service.CodeNotFound)
		if strings.ReplaceAll(foreign.Error(), theirs.ID.String(), "{id}") != strings.ReplaceAll(absent.Error(), nowhere.String(), "{id}") {
			t.Errorf("another tenant's record answers %q, an id of nothing %q", foreign, absent)
		}
		_, foreign = f.svc.PolicyDiff(as["viewer"], theirs.BaseID, a.ID)
		wantCode(t, foreign, service.CodeNotFound)
		_, err = f.svc.FlowDiff(as["viewer"], a.ID, a.ID)
		wantCode(t, err, service.CodeNotFound) // a policy is no flow
	})
}

func TestAFlowDiffComparesNodesByIDAndEdgesByBranch(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		created := f.createFlow(t, ctx, adultFlow(byBaseID(adult.BaseID)))
		changed := json.RawMessage(`{"formatVersion": 1, "nodes": [
			{"id": "s", "type": "start", "policy": ` + byBaseID(adult.BaseID) + `, "onTrue": "p", "onFalse": "no"},
			{"id": "p", "type": "policy", "policy": ` + byBaseID(income.BaseID) + `, "onTrue": "yes", "onFalse": "no"},
			{"id": "no", "type": "custom", "outcome": "refused"}]}`)
		if _, err := f.svc.UpdateFlowDraft(ctx, created.ID, service.Changes{Definition: changed}); err != nil {
			t.Fatal(err)
		}
		// The draft has a dangling branch (yes): a diff shows drafts as saved.
		d, err := f.svc.FlowDiff(ctx, created.ID, created.BaseID)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Nodes.Added)+len(d.Nodes.Removed)+len(d.Nodes.Changed)+len(d.Edges.Added)+len(d.Edges.Removed) != 0 {
			t.Errorf("a record compared with itself differs: %s", jsonOf(t, d))
		}

		v1Def := adultFlow(byBaseID(adult.BaseID))
		v1 := f.createFlow(t, ctx, v1Def)
		published, err := f.svc.PublishFlow(ctx, v1.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.FlowDraftFromVersion(ctx, published.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdateFlowDraft(ctx, draft.ID, service.Changes{Definition: changed}); err != nil {
			t.Fatal(err)
		}
		d, err = f.svc.FlowDiff(ctx, published.ID, draft.ID)
		if err != nil {
			t.Fatal(err)
		}
		var before, after flow.Definition
		if err := json.Unmarshal(v1Def, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(changed, &after); err != nil {
			t.Fatal(err)
		}
		want := service.NodesDiff{
			Added:   []flow.Node{after.Nodes[1]},
			Removed: []flow.Node{before.Nodes[1]},
			Changed: []service.NodeChange{{ID: "no", Before: before.Nodes[2], After: after.Nodes[2]}},
		}
		if jsonOf(t, d.Nodes) != jsonOf(t, want) {
			t.Errorf("nodes\n%s\nwant\n%s", jsonOf(t, d.Nodes), jsonOf(t, want))
		}
		wantEdges := service.EdgesDiff{
			Added:   []service.Edge{{From: "s", Branch: "onTrue", To: "p"}, {From: "p", Branch: "onTrue", To: "yes"}, {From: "p", Branch: "onFalse", To: "no"}},
			Removed: []service.Edge{{From: "s", Branch: "onTrue", To: "yes"}},
		}
		if !reflect.DeepEqual(d.Edges, wantEdges) {
			t.Errorf("edges %+v, want %+v", d.Edges, wantEdges)
		}
		if d.Start != nil {
			t.Errorf("start changed: %+v", d.Start)
		}
	})
}

func TestRollbackPublishesAVersionsContentAgain(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		publisher := as["publisher"]
		created, err := f.svc.CreatePolicy(publisher, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule),
			Tests: tests(testCase("70", `{"Person": {"age": 70}}`, true))})
		if err != nil {
			t.Fatal(err)
		}
		v1, err := f.svc.PublishPolicy(publisher, created.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.PolicyDraftFromVersion(publisher, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := f.svc.PublishPolicy(publisher, draft.ID, service.Changes{Name: ptr("senior 60"), Rule: ptr(strings.Replace(seniorRule, "65", "60", 1))})
		if err != nil {
			t.Fatal(err)
		}
		pending, err := f.svc.PolicyDraftFromVersion(publisher, v2.ID, false)
		if err != nil {
			t.Fatal(err)
		}

		_, err = f.svc.RollbackPolicy(as["editor"], v1.ID)
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.RollbackPolicy(publisher, pending.ID)
		wantCode(t, err, service.CodeConflict)
		_, err = f.svc.RollbackPolicy(as["other tenant"], v1.ID)
		wantCode(t, err, service.CodeNotFound)

		v3, err := f.svc.RollbackPolicy(publisher, v1.ID)
		if err != nil {
			t.Fatal(err)
		}
		if *v3.Version != 3 || v3.Status != "published" || v3.Rule != v1.Rule || v3.Name != v1.Name ||
			v3.BaseID != v1.BaseID || v3.ID == v1.ID || !reflect.DeepEqual(v3.Tests, v1.Tests) {
			t.Fatalf("v3 %+v, want v1's content as version 3", v3)
		}
		latest, err := f.svc.Policy(publisher, v1.BaseID)
		if err != nil || latest.ID != v3.ID || latest.Name != "senior" {
			t.Fatalf("the base's latest is %+v, %v; want v3", latest, err)
		}
		run, err := f.svc.RunPolicy(publisher, v1.BaseID, json.RawMessage(`{"Person": {"age": 62}}`))
		if err != nil || run.Result.Result {
			t.Fatalf("a run of the base after the rollback gives %v, %v; want false (65 again)", run, err)
		}
		stillDraft, err := f.svc.Policy(publisher, pending.ID)
		if err != nil || stillDraft.Status != "draft" || stillDraft.Rule != v2.Rule {
			t.Errorf("the draft after the rollback: %+v, %v", stillDraft, err)
		}
		ev, err := db.Client().AuditEvent.Query().
			Where(auditevent.RecordID(v3.ID), auditevent.ActionEQ(auditevent.ActionPublished)).Only(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if ev.Details["rollbackOf"] != v1.ID.String() || ev.Details["rollbackOfVersion"] != 1.0 || ev.Details["version"] != 3.0 {
			t.Errorf("the published event's details %v", ev.Details)
		}
		if n, err := db.Client().Record.Query().Where(record.BaseID(v1.BaseID), record.StatusEQ(record.StatusPublished)).Count(context.Background()); err != nil || n != 3 {
			t.Errorf("%d published records, %v; want 3", n, err)
		}
	})
}

// TestAFlowDiffShowsABranchListsOrderAndRepeats: a branch's last node
// gives its value and a node named twice runs twice, so a branch that
// leads to the same nodes in another order, or as many times, shows its
// node changed, which its edges cannot show; nodes it leads to anew or no
// more are edges.
func TestAFlowDiffShowsABranchListsOrderAndRepeats(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		definition := func(onTrue string) json.RawMessage {
			return json.RawMessage(`{"formatVersion": 1, "nodes": [
				{"id": "s", "type": "start", "policy": ` + byBaseID(adult.BaseID) + `, "onTrue": ` + onTrue + `, "onFalse": "c"},
				{"id": "a", "type": "return", "returnValue": true},
				{"id": "b", "type": "return", "returnValue": false},
				{"id": "c", "type": "return", "returnValue": false}]}`)
		}
		v1, err := f.svc.PublishFlow(ctx, f.createFlow(t, ctx, definition(`["a", "b"]`)).ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.FlowDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		var before flow.Definition
		if err := json.Unmarshal(definition(`["a", "b"]`), &before); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			onTrue      string
			changed     bool
			added, gone []service.Edge
		}{
			{onTrue: `["b", "a"]`, changed: true},
			{onTrue: `["a", "b", "a"]`, changed: true},
			{onTrue: `["a", "a", "b"]`, changed: true},
			{onTrue: `["a", "b"]`},
			{onTrue: `["a", "c", "b"]`, added: []service.Edge{{From: "s", Branch: "onTrue", To: "c"}}},
			{onTrue: `"b"`, gone: []service.Edge{{From: "s", Branch: "onTrue", To: "a"}}},
			{onTrue: `["b", "c", "a"]`, changed: true, added: []service.Edge{{From: "s", Branch: "onTrue", To: "c"}}},
		} {
			if _, err := f.svc.UpdateFlowDraft(ctx, draft.ID, service.Changes{Definition: definition(c.onTrue)}); err != nil {
				t.Fatal(err)
			}
			var after flow.Definition
			if err := json.Unmarshal(definition(c.onTrue), &after); err != nil {
				t.Fatal(err)
			}
			want := service.NodesDiff{Added: []flow.Node{}, Removed: []flow.Node{}, Changed: []service.NodeChange{}}
			if c.changed {
				want.Changed = append(want.Changed, service.NodeChange{ID: "s", Before: before.Nodes[0], After: after.Nodes[0]})
			}
			wantEdges := service.EdgesDiff{Added: []service.Edge{}, Removed: []service.Edge{}}
			wantEdges.Added = append(wantEdges.Added, c.added...)
			wantEdges.Removed = append(wantEdges.Removed, c.gone...)
			d, err := f.svc.FlowDiff(ctx, v1.ID, draft.ID)
			if err != nil {
				t.Fatal(err)
			}
			if jsonOf(t, d.Nodes) != jsonOf(t, want) || !reflect.DeepEqual(d.Edges, wantEdges) {
				t.Errorf("onTrue from [\"a\", \"b\"] to %s: nodes %s, edges %+v; want nodes %s, edges %+v",
					c.onTrue, jsonOf(t, d.Nodes), d.Edges, jsonOf(t, want), wantEdges)
			}
		}
	})
}

// TestAFlowDiffComparesTheStartNodeInEffect: the start member is
// optional, so a diff compares the node a run starts at, whether the
// member names it or it is the only start node.
func TestAFlowDiffComparesTheStartNodeInEffect(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		definition := func(start, id string) json.RawMessage {
			return json.RawMessage(`{"formatVersion": 1,` + start + ` "nodes": [
				{"id": "` + id + `", "type": "start", "policy": ` + byBaseID(adult.BaseID) + `, "onTrue": "yes", "onFalse": "no"},
				{"id": "yes", "type": "return", "returnValue": true},
				{"id": "no", "type": "return", "returnValue": false}]}`)
		}
		v1, err := f.svc.PublishFlow(ctx, f.createFlow(t, ctx, definition("", "s")).ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.FlowDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name      string
			start, id string
			want      *service.TextChange
		}{
			{name: "the member names the same start node", start: `"start": "s",`, id: "s"},
			{name: "the start node renamed", id: "s2", want: &service.TextChange{Before: "s", After: "s2"}},
			{name: "the member names the renamed start node", start: `"start": "s2",`, id: "s2", want: &service.TextChange{Before: "s", After: "s2"}},
		} {
			if _, err := f.svc.UpdateFlowDraft(ctx, draft.ID, service.Changes{Definition: definition(c.start, c.id)}); err != nil {
				t.Fatal(err)
			}
			d, err := f.svc.FlowDiff(ctx, v1.ID, draft.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Start, c.want) {
				t.Errorf("%s: start %s, want %s", c.name, jsonOf(t, d.Start), jsonOf(t, c.want))
			}
			if d, err = f.svc.FlowDiff(ctx, draft.ID, v1.ID); err != nil {
				t.Fatal(err)
			}
			if c.want != nil {
				c.want = &service.TextChange{Before: c.want.After, After: c.want.Before}
			}
			if !reflect.DeepEqual(d.Start, c.want) {
				t.Errorf("%s, compared the other way: start %s, want %s", c.name, jsonOf(t, d.Start), jsonOf(t, c.want))
			}
		}
	})
}

func TestRollbackRunsThePublishGate(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var f *fixture
		f = newFixtureWith(t, db, func(c *service.Config) {
			c.Engine = engine.Engine{Now: func() time.Time { return *f.clock }}
		})
		ctx := f.as(t, adminKey, "")
		const recent = "A **member** is new if the __joined__ of the **member** is within 30 days."
		created, err := f.svc.CreatePolicy(ctx, service.Changes{Name: ptr("new member"), Rule: ptr(recent),
			Tests: tests(testCase("joined at new year", `{"member": {"joined": "2030-01-01"}}`, true))})
		if err != nil {
			t.Fatal(err)
		}
		v1, err := f.svc.PublishPolicy(ctx, created.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		// Two months on, the stored test no longer passes.
		*f.clock = f.clock.AddDate(0, 2, 0)
		_, err = f.svc.RollbackPolicy(ctx, v1.ID)
		wantCode(t, err, service.CodeConflict)
		var e *service.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "joined at new year") || len(e.Details) == 0 {
			t.Errorf("the refusal %+v does not name the failing test", err)
		}

		// A flow whose policy is gone cannot be published again either.
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, ctx, adultFlow(byBaseID(adult.BaseID)))
		fv1, err := f.svc.PublishFlow(ctx, fl.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.DeletePolicy(ctx, adult.BaseID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.RollbackFlow(ctx, fv1.ID)
		wantCode(t, err, service.CodeNotFound)

		// Nor one whose stored test now stops on an error, though it
		// expects the false of the stopped run: the flow's policy now
		// reads an income the test's data lacks.
		gated := f.publishedPolicy(t, "gated", adultRule)
		gf := f.createFlow(t, ctx, adultFlow(byBaseID(gated.BaseID)), flowTest("minor", `{"applicant": {"age": 10}}`, `false`))
		gv1, err := f.svc.PublishFlow(ctx, gf.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		next, err := f.svc.PolicyDraftFromVersion(ctx, gated.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(ctx, next.ID, service.Changes{Rule: ptr(incomeRule)}); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.RollbackFlow(ctx, gv1.ID)
		wantCode(t, err, service.CodeConflict)
		if !errors.As(err, &e) || e.Message != "tests failed: minor" {
			t.Errorf("the refusal %+v, want \"tests failed: minor\"", err)
		}

		for _, base := range []uuid.UUID{v1.BaseID, fv1.BaseID, gv1.BaseID} {
			if n, err := db.Client().Record.Query().Where(record.BaseID(base)).Count(context.Background()); err != nil || n != 1 {
				t.Errorf("base %s has %d records, %v; a refused rollback stores none", base, n, err)
			}
		}
	})
}

func TestRollbackOfAFlowPublishesItsDefinition(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		fl := f.createFlow(t, ctx, adultFlow(byBaseID(adult.BaseID)))
		v1, err := f.svc.PublishFlow(ctx, fl.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.FlowDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishFlow(ctx, draft.ID, service.Changes{Definition: adultFlow(byBaseID(income.BaseID))}); err != nil {
			t.Fatal(err)
		}
		v3, err := f.svc.RollbackFlow(ctx, v1.BaseID)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := f.svc.Flow(ctx, draft.ID)
		if err != nil {
			t.Fatal(err)
		}
		if *v3.Version != 3 || string(v3.Definition) != string(v2.Definition) {
			t.Errorf("rolling back the base (its latest, v2) gave %+v; want v2's definition as version 3", v3)
		}
		v4, err := f.svc.RollbackFlow(ctx, v1.ID)
		if err != nil {
			t.Fatal(err)
		}
		if *v4.Version != 4 || string(v4.Definition) != string(v1.Definition) {
			t.Errorf("v4 %+v, want v1's definition", v4)
		}
		res, err := f.svc.RunFlow(ctx, v1.BaseID, json.RawMessage(`{"applicant": {"age": 30, "income": 100}}`))
		if err != nil || !res.Result {
			t.Errorf("the flow after rolling back to v1 gives %+v, %v; want true (adult)", res, err)
		}
	})
}
