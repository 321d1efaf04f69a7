package graph_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const decisionQuery = `query($id: ID!) {
  decision(id: $id) { id kind baseId version result explanation durationNs actor { kind } data policies { recordId }
    recomputed { result explanation error trace { execution { conditions { __typename } } } flow { result } } note }
  node(id: $id) { __typename ... on Decision { id } }
}`

func TestDecisionsInGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		auditor := member(t, f, "audrey", authz.RoleAuditor)
		pol := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)

		var set struct {
			SetDecisionRecords struct {
				BaseID     string
				Enabled    bool
				SampleRate float64
				Mask       []string
			}
		}
		f.post(t, adminKey, `mutation($id: ID!) { setDecisionRecords(input: {policyId: $id, enabled: true, mask: ["$.Person.name"]}) { baseId enabled sampleRate mask } }`,
			map[string]any{"id": pol.ID}).decode(t, &set)
		if s := set.SetDecisionRecords; s.BaseID != pol.BaseID || !s.Enabled || s.SampleRate != 1 || len(s.Mask) != 1 {
			t.Fatalf("settings %+v", s)
		}
		for _, bad := range []string{
			`mutation($id: ID!) { setDecisionRecords(input: {policyId: $id, flowId: $id, enabled: true}) { baseId } }`,
			`mutation { setDecisionRecords(input: {enabled: true}) { baseId } }`,
			`mutation($id: ID!) { setDecisionRecords(input: {policyId: $id, enabled: true, sampleRate: 2}) { baseId } }`,
			`mutation($id: ID!) { replayPolicy(input: {policyId: $id, limit: 0}) { compared } }`,
			`mutation($id: ID!) { replayPolicy(input: {policyId: $id, limit: 10001}) { compared } }`,
		} {
			f.post(t, adminKey, bad, map[string]any{"id": pol.ID}).failure(t, service.CodeInvalidArgument)
		}

		var run struct{ RunPolicy struct{ Result bool } }
		f.post(t, adminKey, `mutation($id: ID!) { runPolicy(input: {baseId: $id, data: {Person: {age: 70, name: "Zed Zulu"}}}) { result } }`,
			map[string]any{"id": pol.BaseID}).decode(t, &run)
		waitForExecutedEvent(t, db)

		var list struct {
			Decisions struct {
				Edges []struct{ Node struct{ ID string } }
			}
		}
		f.post(t, auditor, `query($base: ID!) { decisions(first: 10, filter: {baseId: $base, result: true}) { edges { node { id } } } }`,
			map[string]any{"base": pol.BaseID}).decode(t, &list)
		if len(list.Decisions.Edges) != 1 {
			t.Fatalf("decisions %+v", list)
		}
		id := list.Decisions.Edges[0].Node.ID

		var got struct {
			Decision struct {
				ID, Kind, BaseID, Explanation, DurationNs string
				Version                                   int
				Result                                    bool
				Actor                                     struct{ Kind string }
				Data                                      map[string]map[string]any
				Policies                                  []struct{ RecordID string }
				Recomputed                                *struct {
					Result      bool
					Explanation string
					Error       *string
					Trace       struct {
						Execution []struct{ Conditions []struct{ Typename string } }
					}
					Flow *struct{ Result bool }
				}
				Note *string
			}
			Node struct {
				Typename string `json:"__typename"`
				ID       string
			}
		}
		f.post(t, auditor, decisionQuery, map[string]any{"id": id}).decode(t, &got)
		d := got.Decision
		if d.ID != id || d.Kind != "POLICY" || d.BaseID != pol.BaseID || d.Version != 1 || !d.Result || d.Actor.Kind != "USER" ||
			d.Data["Person"]["name"] != "[masked]" || d.Recomputed == nil || !d.Recomputed.Result || d.Recomputed.Error != nil ||
			len(d.Recomputed.Trace.Execution) != 1 || d.Note != nil || got.Node.Typename != "Decision" || got.Node.ID != id ||
			d.Policies != nil || d.Recomputed.Flow != nil {
			t.Fatalf("decision %+v, node %+v", d, got.Node)
		}
		if strings.Contains(d.Explanation, "Zed Zulu") {
			t.Errorf("the explanation shows a masked value: %s", d.Explanation)
		}

		var rep struct {
			ReplayPolicy struct {
				Compared, Changed, Unchanged, Errors int
				Items                                []struct {
					DecisionID string
					Before     struct{ Result bool }
				}
			}
		}
		f.post(t, adminKey, `mutation($id: ID!) { replayPolicy(input: {policyId: $id}) { compared changed unchanged errors items { decisionId before { result } } } }`,
			map[string]any{"id": pol.ID}).decode(t, &rep)
		if r := rep.ReplayPolicy; r.Compared != 1 || r.Unchanged != 1 || r.Items[0].DecisionID != id || !r.Items[0].Before.Result {
			t.Errorf("replay %+v", r)
		}
		// Whoever may publish the policy may replay against it.
		const replayCount = `mutation($id: ID!) { replayPolicy(input: {policyId: $id}) { compared } }`
		var counted struct{ ReplayPolicy struct{ Compared int } }
		f.post(t, member(t, f, "petra", authz.RolePublisher), replayCount, map[string]any{"id": pol.ID}).decode(t, &counted)
		if counted.ReplayPolicy.Compared != 1 {
			t.Errorf("the publisher's replay compared %d", counted.ReplayPolicy.Compared)
		}
		for _, key := range []string{auditor, member(t, f, "eddie", authz.RoleEditor), member(t, f, "vera", authz.RoleViewer)} {
			f.post(t, key, replayCount, map[string]any{"id": pol.ID}).failure(t, service.CodePermissionDenied)
		}
		beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		f.post(t, beta.Secret, replayCount, map[string]any{"id": pol.ID}).failure(t, service.CodeNotFound)
		f.post(t, auditor, `query($id: ID!) { decision(id: $id) { id } }`, map[string]any{"id": pol.ID}).
			nullFailure(t, "decision", service.CodeNotFound)
	})
}

// waitForExecutedEvent waits until the one run's executed event, and so
// its decision record, is stored.
func waitForExecutedEvent(t *testing.T, db *database.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for audittest.Count(t, db, audittest.Filter{Action: auditevent.ActionExecuted}) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the run's executed event was not stored")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestAFlowDecisionIsRecomputedInGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		auditor := member(t, f, "audrey", authz.RoleAuditor)
		pol := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)
		definition := map[string]any{"formatVersion": 1, "nodes": []map[string]any{
			{"id": "s", "type": "start", "policy": map[string]any{"baseId": pol.BaseID}, "onTrue": "yes", "onFalse": "no"},
			{"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}}}
		fl := createFlow(t, f, adminKey, map[string]any{"name": "seniors", "definition": definition}).Flow
		f.post(t, adminKey, `mutation($id: ID!) { setDecisionRecords(input: {flowId: $id, enabled: true}) { enabled } }`,
			map[string]any{"id": fl.ID}).decode(t, &struct{}{})
		f.post(t, adminKey, `mutation($id: ID!) { runFlow(input: {baseId: $id, data: {Person: {age: 70}}}) { result } }`,
			map[string]any{"id": fl.BaseID}).decode(t, &struct{}{})
		waitForExecutedEvent(t, db)

		var list struct {
			Decisions struct {
				Edges []struct {
					Node struct {
						ID       string
						Policies []struct {
							Ref      map[string]string
							RecordID string
							Revision int
						}
						Recomputed *struct {
							Result bool
							Trace  struct{ Execution []struct{ Result bool } }
							Flow   *struct {
								Result        bool
								NodeResponses []struct {
									NodeID   string
									Response struct {
										Result bool
										Trace  struct{ Execution []struct{ Result bool } }
									}
								}
							}
						}
						Note *string
					}
				}
			}
		}
		f.post(t, auditor, `query($base: ID!) { decisions(first: 10, filter: {baseId: $base}) { edges { node { id
			policies { ref recordId revision }
			recomputed { result trace { execution { result } } flow { result nodeResponses { nodeId response { result trace { execution { result } } } } } }
			note } } } }`, map[string]any{"base": fl.BaseID}).decode(t, &list)
		if len(list.Decisions.Edges) != 1 {
			t.Fatalf("flow decisions %+v", list)
		}
		d := list.Decisions.Edges[0].Node
		if len(d.Policies) != 1 || d.Policies[0].Ref["baseId"] != pol.BaseID || d.Policies[0].RecordID != pol.ID || d.Policies[0].Revision < 1 {
			t.Errorf("policies %+v, want the senior policy's version 1", d.Policies)
		}
		rc := d.Recomputed
		if d.Note != nil || rc == nil || !rc.Result || len(rc.Trace.Execution) != 1 || rc.Flow == nil || !rc.Flow.Result ||
			len(rc.Flow.NodeResponses) != 1 || rc.Flow.NodeResponses[0].NodeID != "s" || !rc.Flow.NodeResponses[0].Response.Result ||
			len(rc.Flow.NodeResponses[0].Response.Trace.Execution) != 1 {
			t.Errorf("recomputed %+v, note %v", rc, d.Note)
		}
	})
}

// A lookup of decision record settings that fails is null in its place,
// beside the operation's other fields, as every lookup is.
func TestAFailedLookupOfRecordSettingsLeavesTheOtherFields(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, field := range []string{"policyDecisionRecords", "flowDecisionRecords"} {
			res := f.post(t, adminKey, `{ viewer { role } `+field+`(id: "00000000-0000-0000-0000-000000000000") { baseId } }`, nil)
			if want := `{"viewer":{"role":"ADMIN"},"` + field + `":null}`; string(res.Data) != want || res.Status != http.StatusOK {
				t.Errorf("%d %s, want 200 %s", res.Status, res.Data, want)
			}
			if e := res.fieldFailure(t, service.CodeNotFound); len(e.Path) != 1 || e.Path[0] != field {
				t.Errorf("the error's path is %v", e.Path)
			}
		}
	})
}

// TestAFlowDecisionKeepsItsOutcomeInGraphQL: a Decision has the outcome
// its flow run ended on, and a replay's sides have theirs: the draft that
// ends the run elsewhere with the same result decides otherwise.
func TestAFlowDecisionKeepsItsOutcomeInGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		pol := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule}).Policy.ID, nil)
		definition := func(onTrue string) map[string]any {
			return map[string]any{"formatVersion": 1, "nodes": []map[string]any{
				{"id": "s", "type": "start", "policy": map[string]any{"id": pol.ID}, "onTrue": onTrue, "onFalse": "no"},
				{"id": "senior", "type": "custom", "outcome": "senior offer"},
				{"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}}}
		}
		fl := createFlow(t, f, adminKey, map[string]any{"name": "offers", "definition": definition("senior")}).Flow
		f.post(t, adminKey, `mutation($id: ID!) { setDecisionRecords(input: {flowId: $id, enabled: true}) { enabled } }`,
			map[string]any{"id": fl.ID}).decode(t, &struct{}{})
		f.post(t, adminKey, `mutation($id: ID!) { runFlow(input: {baseId: $id, data: {Person: {age: 70}}}) { result } }`,
			map[string]any{"id": fl.BaseID}).decode(t, &struct{}{})
		waitForExecutedEvent(t, db)

		var list struct {
			Decisions struct {
				Edges []struct{ Node struct{ Outcome *string } }
			}
		}
		f.post(t, adminKey, `query($base: ID!) { decisions(first: 10, filter: {baseId: $base}) { edges { node { outcome } } } }`,
			map[string]any{"base": fl.BaseID}).decode(t, &list)
		if e := list.Decisions.Edges; len(e) != 1 || e[0].Node.Outcome == nil || *e[0].Node.Outcome != "senior offer" {
			t.Fatalf("decisions %+v, want one with the outcome \"senior offer\"", list)
		}

		f.post(t, adminKey, updateFlowMutation, draftInput(fl.ID, map[string]any{"definition": definition("yes")})).decode(t, &struct{}{})
		var replay struct {
			ReplayFlow struct {
				Compared, Changed int
				Items             []struct {
					Changed       bool
					Before, After struct {
						Result  bool
						Outcome *string
					}
				}
			}
		}
		f.post(t, adminKey, `mutation($id: ID!) { replayFlow(input: {flowId: $id}) { compared changed
			items { changed before { result outcome } after { result outcome } } } }`, map[string]any{"id": fl.ID}).decode(t, &replay)
		r := replay.ReplayFlow
		if r.Compared != 1 || r.Changed != 1 || len(r.Items) != 1 {
			t.Fatalf("replay %+v, want the one decision changed", r)
		}
		it := r.Items[0]
		if !it.Changed || !it.Before.Result || !it.After.Result || it.Before.Outcome == nil || *it.Before.Outcome != "senior offer" || it.After.Outcome != nil {
			t.Errorf("the replayed decision %+v, want true ending on \"senior offer\", then true ending on no outcome", it)
		}
	})
}
