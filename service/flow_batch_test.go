package service_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestAFlowBatchAnswersEachItemAsASingleRunWould(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var runs atomic.Int64
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return countsRuns{az, &runs} }, nil)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		fl := f.createFlow(t, admin, chainFlow(byBaseID(adult.BaseID), byBaseID(income.BaseID)))
		data := []string{
			`{"applicant": {"age": 20, "income": 40000}}`, // true
			`{"applicant": {"age": 10}}`,                  // false at the start
			`{"applicant": {"age": 20, "income": 100}}`,   // the manual review: true
			`{"applicant": {"age": "20"}}`,                // a warning, false
		}

		runs.Store(0)
		batch, err := f.svc.RunFlowBatch(admin, fl.BaseID, service.Items{List: items(data...)})
		if err != nil {
			t.Fatal(err)
		}
		// The flow once, and each of its two policies once for the call.
		if n := runs.Load(); n != 3 {
			t.Errorf("a batch of four runs asked %d run decisions, want 3 (the flow and its two policies, once each)", n)
		}
		if len(batch.Results) != len(data) {
			t.Fatalf("%d results for %d items", len(batch.Results), len(data))
		}
		if e := batch.Execution; e.Engine <= 0 || e.Engine > e.Total {
			t.Errorf("the call's execution %+v: its engine time is not the nodes' within the whole", e)
		}
		f.waitForEvents(t, fl.BaseID, auditevent.ActionExecuted, 1)
		executed := audittest.Events(t, db, audittest.Filter{Base: &fl.BaseID, Action: auditevent.ActionExecuted})
		if len(executed) != 1 {
			t.Fatalf("%d executed events of the batch's base, want 1", len(executed))
		}
		ev := executed[0]
		// Not every item passed: the event's result is false.
		for k, want := range map[string]any{"count": 4.0, "passed": 2.0, "errors": 0.0, "status": "draft", "result": false} {
			if got := ev.Details[k]; got != want {
				t.Errorf("details[%s] = %v, want %v (details %v)", k, got, want, ev.Details)
			}
		}
		if ev.RecordID == nil || *ev.RecordID != fl.ID {
			t.Errorf("the event names record %v, want %s", ev.RecordID, fl.ID)
		}

		for i, d := range data {
			single, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(d))
			if err != nil {
				t.Fatal(err)
			}
			got, want := batch.Results[i], single
			if got.Result != want.Result || !reflect.DeepEqual(got.Outcome, want.Outcome) || !reflect.DeepEqual(got.ExecutionPath, want.ExecutionPath) ||
				!reflect.DeepEqual(got.Errors, want.Errors) || len(got.NodeResponses) != len(want.NodeResponses) {
				t.Errorf("item %d: %+v, a single run %+v", i, got, want)
				continue
			}
			for j := range got.NodeResponses {
				g, w := got.NodeResponses[j].Response, want.NodeResponses[j].Response
				if g.Result != w.Result || g.Explanation != w.Explanation || !reflect.DeepEqual(g.Trace, w.Trace) || !reflect.DeepEqual(g.Warnings, w.Warnings) {
					t.Errorf("item %d, node %d: %+v, a single run %+v", i, j, g, w)
				}
			}
		}
		if !batch.Results[0].Result || batch.Results[2].Outcome == nil || *batch.Results[2].Outcome != "manual review" ||
			len(batch.Results[3].NodeResponses[0].Response.Warnings) == 0 {
			t.Errorf("the items' results are not true, the manual review and a warning: %+v", batch.Results)
		}
	})
}

func TestAFlowBatchOfOneRecordRunsThatRecord(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byID(adult.ID)))
		v1, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		// The draft answers the other way round.
		reversed := strings.NewReplacer(`"returnValue": true`, `"returnValue": false`, `"id": "no", "type": "return", "returnValue": false`, `"id": "no", "type": "return", "returnValue": true`)
		draft, err := f.svc.FlowDraftFromVersion(admin, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdateFlowDraft(admin, draft.ID, service.Changes{Definition: json.RawMessage(reversed.Replace(string(adultFlow(byID(adult.ID)))))}); err != nil {
			t.Fatal(err)
		}
		twenty := items(`{"applicant": {"age": 20}}`)
		for _, c := range []struct {
			id   string
			run  func() (*service.FlowBatchResult, error)
			want bool
		}{
			{"the version", func() (*service.FlowBatchResult, error) {
				return f.svc.RunFlowVersionBatch(admin, v1.ID, service.Items{List: twenty})
			}, true},
			{"the draft", func() (*service.FlowBatchResult, error) {
				return f.svc.RunFlowVersionBatch(admin, draft.ID, service.Items{List: twenty})
			}, false},
			{"the base (its latest version)", func() (*service.FlowBatchResult, error) {
				return f.svc.RunFlowBatch(admin, v1.BaseID, service.Items{List: twenty})
			}, true},
		} {
			res, err := c.run()
			if err != nil || len(res.Results) != 1 || res.Results[0].Result != c.want {
				t.Errorf("%s: %+v, %v; want one result %v", c.id, res, err, c.want)
			}
		}
		_, err = f.svc.RunFlowBatch(admin, v1.ID, service.Items{List: twenty})
		wantCode(t, err, service.CodeNotFound) // a record id is no base id
		_, err = f.svc.RunFlowBatch(admin, adult.BaseID, service.Items{List: twenty})
		wantCode(t, err, service.CodeNotFound) // a policy is no flow
	})
}

func TestAFlowBatchWithABadItemRunsNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxBatchItems = 3 })
		spent := &countingBudget{}
		ctx := service.WithRunBudget(f.as(t, adminKey, ""), spent)
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, f.as(t, adminKey, ""), adultFlow(byID(adult.ID)))
		twenty := `{"applicant": {"age": 20}}`
		for _, c := range []struct {
			name    string
			items   []json.RawMessage
			message string
		}{
			{"no items", items(), "items must hold at least one data object"},
			{"more items than the limit", items(twenty, twenty, twenty, twenty), "items holds 4 data objects; the limit is 3 a call"},
			{"a number among objects", items(twenty, `42`), "items[1]: data must be a JSON object"},
			{"a malformed item", items(twenty, `{"applicant": {"age": }}`), "items[1]: data is not valid JSON"},
		} {
			_, err := f.svc.RunFlowBatch(ctx, fl.BaseID, service.Items{List: c.items})
			wantCode(t, err, service.CodeInvalidArgument)
			if !strings.Contains(err.Error(), c.message) {
				t.Errorf("%s: %v, want %q", c.name, err, c.message)
			}
		}
		// Only the batch that follows is charged and recorded:
		// waitForEvents fails on more events than one.
		if _, err := f.svc.RunFlowBatch(ctx, fl.BaseID, service.Items{List: items(twenty, twenty, twenty)}); err != nil {
			t.Fatal(err)
		}
		f.waitForEvents(t, fl.BaseID, auditevent.ActionExecuted, 1)
		if !reflect.DeepEqual(spent.spent, []int{3}) {
			t.Errorf("spent %v, want only the good batch's 3", spent.spent)
		}

		refusing := &countingBudget{refuse: true}
		_, err := f.svc.RunFlowBatch(service.WithRunBudget(f.as(t, adminKey, ""), refusing), fl.BaseID, service.Items{List: items(twenty)})
		wantCode(t, err, service.CodeRateLimited)
	})
}

func TestAFlowBatchIsForThoseWhoMayRunTheFlowInItsTenant(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		as["auditor"] = f.auditor(t)
		admin := as["admin"]
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byID(adult.ID)))
		if _, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		twenty := items(`{"applicant": {"age": 20}}`)
		if res, err := f.svc.RunFlowBatch(as["viewer"], fl.BaseID, service.Items{List: twenty}); err != nil || !res.Results[0].Result {
			t.Errorf("a viewer's batch: %+v, %v", res, err)
		}
		_, err := f.svc.RunFlowBatch(as["auditor"], fl.BaseID, service.Items{List: twenty})
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.RunFlowBatch(as["other tenant"], fl.BaseID, service.Items{List: twenty})
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestAFlowBatchStopsTheRunsPastWhatARequestMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A run of the adult flow counts about 600 bytes: the 6,000 a
		// request may answer hold about ten of the twenty.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 6000 })
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, f.as(t, adminKey, ""), adultFlow(byID(adult.ID)))
		twenty := make([]string, 20)
		for i := range twenty {
			twenty[i] = `{"applicant": {"age": 20}}`
		}
		batch, err := f.svc.RunFlowBatch(f.as(t, adminKey, ""), fl.BaseID, service.Items{List: items(twenty...)})
		if err != nil {
			t.Fatal(err)
		}
		fitting := slices.IndexFunc(batch.Results, func(r *service.FlowResult) bool { return len(r.Errors) > 0 })
		if fitting < 1 || fitting > 15 {
			t.Fatalf("%d runs answered before the bound, want about ten", fitting)
		}
		want := []string{"flow stopped: this request would answer more than 5.9 KiB; ask for fewer runs, checks or records in one request"}
		for i, r := range batch.Results {
			if i < fitting && (!r.Result || len(r.Errors) != 0) || i >= fitting && (r.Result || !reflect.DeepEqual(r.Errors, want)) {
				t.Errorf("item %d: %v %q", i, r.Result, r.Errors)
			}
		}
		f.waitForEvents(t, fl.BaseID, auditevent.ActionExecuted, 1)
		ev := audittest.Events(t, db, audittest.Filter{Base: &fl.BaseID, Action: auditevent.ActionExecuted})[0]
		if got, want := ev.Details["errors"], float64(20-fitting); got != want {
			t.Errorf("the event counts %v errors, want %v", got, want)
		}
	})
}
