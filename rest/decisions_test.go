package rest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestDecisionRecordsOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin, editor, viewer, other := as["admin"], as["editor"], as["viewer"], as["other tenant"]
		auditor := f.auditor(t)

		w := f.call(t, editor, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "published"}`), http.StatusCreated)
		settingsPath := "/policy/" + pol.BaseID.String() + "/decision-records"

		wantError(t, f.call(t, viewer, http.MethodPut, settingsPath, `{"enabled": true}`), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, f.call(t, other, http.MethodPut, settingsPath, `{"enabled": true}`), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, other, http.MethodGet, settingsPath, nil), http.StatusNotFound, service.CodeNotFound)
		w = f.call(t, editor, http.MethodPut, settingsPath, `{"enabled": true, "mask": ["$.Person.ssn"]}`)
		wantStatus(t, w, http.StatusOK)
		w = f.call(t, viewer, http.MethodGet, settingsPath, nil)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.DecisionSettings](t, w); !got.Enabled || got.SampleRate != 1 || len(got.Mask) != 1 {
			t.Fatalf("settings %+v", got)
		}

		for _, age := range []string{"70", "30"} {
			f.runStored(t, editor, "/run/policy/"+pol.BaseID.String(), `{"Person": {"age": `+age+`, "ssn": "123-45-6789"}}`)
		}
		waitForExecuted(t, db, 2)

		for _, m := range []member{editor, viewer} {
			wantError(t, f.call(t, m, http.MethodGet, "/decisions", nil), http.StatusForbidden, service.CodePermissionDenied)
		}
		w = f.call(t, auditor, http.MethodGet, "/decisions?result=true&baseId="+pol.BaseID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Page[service.Decision]](t, w)
		if len(page.Items) != 1 || string(page.Items[0].Data) != `{"Person":{"age":70,"ssn":"[masked]"}}` || page.Items[0].Actor.ID != editor.id {
			t.Fatalf("decisions %+v", page.Items)
		}
		if strings.Contains(w.Body.String(), "123-45-6789") {
			t.Errorf("the list shows a masked value: %s", w.Body)
		}
		w = f.call(t, other, http.MethodGet, "/decisions", nil)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Page[service.Decision]](t, w); len(got.Items) != 0 {
			t.Errorf("another tenant lists %+v", got.Items)
		}

		decisionPath := "/decision/" + page.Items[0].ID.String()
		w = f.call(t, admin, http.MethodGet, decisionPath, nil)
		wantStatus(t, w, http.StatusOK)
		if !strings.Contains(w.Body.String(), `"recomputed":{"result":true`) || !strings.Contains(w.Body.String(), `"note":null`) {
			t.Errorf("decision %s", w.Body)
		}
		wantError(t, f.call(t, viewer, http.MethodGet, decisionPath, nil), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, f.call(t, other, http.MethodGet, decisionPath, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, admin, http.MethodGet, "/decision/"+uuid.Must(uuid.NewV7()).String(), nil), http.StatusNotFound, service.CodeNotFound)

		for _, query := range []string{"?result=maybe", "?since=yesterday", "?baseId=nope", "?q=x",
			"?since=2030-01-02T00:00:00Z&until=2030-01-01T00:00:00Z", "?result=true&result=false"} {
			wantError(t, f.call(t, admin, http.MethodGet, "/decisions"+query, nil), http.StatusBadRequest, service.CodeInvalidArgument)
		}

		// A stricter draft flips the 70-year-old's decision.
		w = f.call(t, admin, http.MethodGet, "/policy/"+pol.ID.String()+"/draft", nil)
		wantStatus(t, w, http.StatusCreated)
		draft := decodeStrict[service.Policy](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+draft.ID.String(),
			`{"status": "draft", "rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 75."}`), http.StatusOK)
		replayPath := "/policy/" + draft.ID.String() + "/replay"
		before := rowCounts(t, db)
		w = f.call(t, admin, http.MethodPost, replayPath, nil)
		wantStatus(t, w, http.StatusOK)
		rep := decodeStrict[service.Replay](t, w)
		if rep.Compared != 2 || rep.Changed != 1 || rep.Unchanged != 1 || !rep.Items[0].Changed || rep.Items[0].After.Result {
			t.Fatalf("replay %+v", rep)
		}
		// Whoever may publish the policy may replay against it.
		w = f.call(t, as["publisher"], http.MethodPost, replayPath, `{"limit": 1, "since": "2000-01-01T00:00:00Z"}`)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Replay](t, w); got.Compared != 1 {
			t.Errorf("a replay of one compared %d", got.Compared)
		}
		for _, m := range []member{editor, viewer, auditor} {
			wantError(t, f.call(t, m, http.MethodPost, replayPath, nil), http.StatusForbidden, service.CodePermissionDenied)
		}
		wantError(t, f.call(t, other, http.MethodPost, replayPath, nil), http.StatusNotFound, service.CodeNotFound)
		for _, body := range []string{`{"limit": 0}`, `{"limit": 10001}`, `{"limit": "5"}`, `{"since": "yesterday"}`,
			`{"since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"}`, `{"bogus": 1}`, `[]`, `{"limit": 1} x`} {
			wantError(t, f.call(t, admin, http.MethodPost, replayPath, body), http.StatusBadRequest, service.CodeInvalidArgument)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("replays changed rows from %v to %v", before, after)
		}

		// Each decision replayed is a run of the rate limits: a replay of
		// two spends its request's token and one more.
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 3, OrgRateLimit: -1})
		wantStatus(t, f.call(t, admin, http.MethodPost, replayPath, nil), http.StatusOK)
		wantError(t, f.call(t, admin, http.MethodPost, replayPath, nil), http.StatusTooManyRequests, service.CodeRateLimited)
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 1, OrgRateLimit: -1})
		w = f.call(t, admin, http.MethodPost, replayPath, nil)
		wantError(t, w, http.StatusTooManyRequests, service.CodeRateLimited)
		if !strings.Contains(w.Body.String(), "2 runs at once are more than the rate limit's burst of 1 allows, ever") {
			t.Errorf("a replay past the burst: %s", w.Body)
		}
	})
}

func TestAFlowDecisionIsRecomputedOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin, auditor, other := as["admin"], f.auditor(t), as["other tenant"]
		w := f.call(t, admin, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "published"}`), http.StatusCreated)
		w = f.call(t, admin, http.MethodPost, "/flow", strings.ReplaceAll(seniorFlow, "{policyId}", pol.ID.String()))
		wantStatus(t, w, http.StatusCreated)
		fl := decodeStrict[service.SavedFlow](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/flow/"+fl.ID.String()+"/decision-records", `{"enabled": true}`), http.StatusOK)
		w = f.call(t, admin, http.MethodPost, "/run/flow/"+fl.BaseID.String(), seniorInput)
		wantStatus(t, w, http.StatusOK)
		waitForExecuted(t, db, 1)

		w = f.call(t, auditor, http.MethodGet, "/decisions?baseId="+fl.BaseID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Page[service.Decision]](t, w)
		want := []service.FlowPolicy{{Ref: flow.PolicyRef{ID: pol.ID.String()}, RecordID: pol.ID, Revision: 2}}
		if len(page.Items) != 1 || !reflect.DeepEqual(page.Items[0].Policies, want) {
			t.Fatalf("flow decisions %+v, want one that ran on %+v", page.Items, want)
		}
		decisionPath := "/decision/" + page.Items[0].ID.String()
		w = f.call(t, auditor, http.MethodGet, decisionPath, nil)
		wantStatus(t, w, http.StatusOK)
		var got struct {
			Policies   []service.FlowPolicy
			Recomputed struct {
				Result bool
				Trace  struct{ Execution []struct{ Result bool } }
				Flow   struct {
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
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		rc := got.Recomputed
		if got.Note != nil || !rc.Result || len(rc.Trace.Execution) != 1 || !rc.Trace.Execution[0].Result || !rc.Flow.Result ||
			len(rc.Flow.NodeResponses) != 1 || rc.Flow.NodeResponses[0].NodeID != "s" ||
			len(rc.Flow.NodeResponses[0].Response.Trace.Execution) != 1 || !rc.Flow.NodeResponses[0].Response.Trace.Execution[0].Result {
			t.Errorf("the flow decision %s", w.Body)
		}
		wantError(t, f.call(t, other, http.MethodGet, decisionPath, nil), http.StatusNotFound, service.CodeNotFound)
	})
}

// TestAFlowDecisionKeepsItsOutcomeOverREST: a flow's decision reads with
// the outcome its run ended on, and a replay of a draft that ends the same
// run elsewhere with the same result counts it changed, each side with
// its outcome.
func TestAFlowDecisionKeepsItsOutcomeOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		admin := f.team(t)["admin"]
		w := f.call(t, admin, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "published"}`), http.StatusCreated)
		definition := func(onTrue string) string {
			return `{"definition": {"formatVersion": 1, "nodes": [
				{"id": "s", "type": "start", "policy": {"id": "` + pol.ID.String() + `"}, "onTrue": "` + onTrue + `", "onFalse": "no"},
				{"id": "senior", "type": "custom", "outcome": "senior offer"},
				{"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}]}}`
		}
		w = f.call(t, admin, http.MethodPost, "/flow", `{"name": "offers", `+strings.TrimPrefix(definition("senior"), "{"))
		wantStatus(t, w, http.StatusCreated)
		fl := decodeStrict[service.SavedFlow](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/flow/"+fl.ID.String()+"/decision-records", `{"enabled": true}`), http.StatusOK)
		wantStatus(t, f.call(t, admin, http.MethodPost, "/run/flow/"+fl.BaseID.String(), seniorInput), http.StatusOK)
		waitForExecuted(t, db, 1)

		w = f.call(t, admin, http.MethodGet, "/decisions?baseId="+fl.BaseID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Page[service.Decision]](t, w)
		if len(page.Items) != 1 || page.Items[0].Outcome == nil || *page.Items[0].Outcome != "senior offer" {
			t.Fatalf("decisions %s, want one with the outcome \"senior offer\"", w.Body)
		}
		w = f.call(t, admin, http.MethodGet, "/decision/"+page.Items[0].ID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		if d := decodeStrict[service.DecisionDetail](t, w); d.Outcome == nil || *d.Outcome != "senior offer" {
			t.Errorf("the decision %s, want the outcome \"senior offer\"", w.Body)
		}

		wantStatus(t, f.call(t, admin, http.MethodPut, "/flow/"+fl.ID.String(), `{"status": "draft", `+strings.TrimPrefix(definition("yes"), "{")), http.StatusOK)
		w = f.call(t, admin, http.MethodPost, "/flow/"+fl.ID.String()+"/replay", nil)
		wantStatus(t, w, http.StatusOK)
		rep := decodeStrict[service.Replay](t, w)
		if rep.Compared != 1 || rep.Changed != 1 || len(rep.Items) != 1 {
			t.Fatalf("replay %s, want the one decision changed", w.Body)
		}
		it := rep.Items[0]
		if !it.Changed || !it.Before.Result || !it.After.Result || it.Before.Outcome == nil || *it.Before.Outcome != "senior offer" || it.After.Outcome != nil {
			t.Errorf("the replayed decision %+v, want true ending on \"senior offer\", then true ending on no outcome", it)
		}
	})
}

func TestARecomputedErrorIsWrittenAsItsMessage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		admin := f.team(t)["admin"]
		w := f.call(t, admin, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "published"}`), http.StatusCreated)
		wantStatus(t, f.call(t, admin, http.MethodPut, "/policy/"+pol.BaseID.String()+"/decision-records", `{"enabled": true}`), http.StatusOK)
		f.runStored(t, admin, "/run/policy/"+pol.BaseID.String(), `{"Person": {}}`)
		waitForExecuted(t, db, 1)
		page := decodeStrict[service.Page[service.Decision]](t, f.call(t, admin, http.MethodGet, "/decisions", nil))
		if len(page.Items) != 1 || page.Items[0].Error == nil {
			t.Fatalf("decisions %+v", page.Items)
		}
		w = f.call(t, admin, http.MethodGet, "/decision/"+page.Items[0].ID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		var got struct {
			Error      string
			Recomputed struct{ Error string }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Error == "" || got.Recomputed.Error != got.Error {
			t.Errorf("error %q, recomputed error %q (%v): %s", got.Error, got.Recomputed.Error, err, w.Body)
		}
	})
}
