package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func items(data ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(data))
	for i, d := range data {
		out[i] = json.RawMessage(d)
	}
	return out
}

func TestABatchAnswersEachItemAsASingleRunWould(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		data := []string{`{"Person": {"age": 70}}`, `{"Person": {"age": 40}}`, `{"Person": {}}`, `{"Person": {"age": "70"}}`}

		batch, err := f.svc.RunPolicyBatch(ctx, v1.BaseID, items(data...))
		if err != nil {
			t.Fatal(err)
		}
		if len(batch.Results) != len(data) {
			t.Fatalf("%d results for %d items", len(batch.Results), len(data))
		}
		// The batch's event is stored before any single run adds its own.
		f.waitForEvents(t, v1.BaseID, auditevent.ActionExecuted, 1)
		executed := audittest.Events(t, db, audittest.Filter{Base: &v1.BaseID, Action: auditevent.ActionExecuted})
		if len(executed) != 1 {
			t.Fatalf("%d executed events of the batch's base, want 1", len(executed))
		}
		ev := executed[0]
		// JSON numbers come back as float64 from the stored details.
		for k, want := range map[string]any{"count": 4.0, "passed": 1.0, "errors": 1.0, "version": 1.0, "status": "published"} {
			if got := ev.Details[k]; got != want {
				t.Errorf("details[%s] = %v, want %v (details %v)", k, got, want, ev.Details)
			}
		}
		if ev.RecordID == nil || *ev.RecordID != v1.ID {
			t.Errorf("the event names record %v, want %s", ev.RecordID, v1.ID)
		}

		f.answersAsSingleRuns(t, ctx, v1.BaseID, data, batch)
		if !batch.Results[0].Result.Result || batch.Results[2].Result.Error == nil || len(batch.Results[3].Result.Warnings) == 0 {
			t.Errorf("the items' results are not the expected true, an error and a warning: %+v %+v %+v",
				batch.Results[0].Result, batch.Results[2].Result, batch.Results[3].Result)
		}
	})
}

// answersAsSingleRuns checks that each of batch's results is what a single
// run of base on the item's data answers.
func (f *fixture) answersAsSingleRuns(t *testing.T, ctx context.Context, base uuid.UUID, data []string, batch *service.BatchResult) {
	t.Helper()
	for i, d := range data {
		single, err := f.svc.RunPolicy(ctx, base, json.RawMessage(d))
		if err != nil {
			t.Fatal(err)
		}
		got, want := batch.Results[i].Result, single.Result
		if got.Result != want.Result || got.Explanation != want.Explanation ||
			!reflect.DeepEqual(got.Error, want.Error) || !reflect.DeepEqual(got.Warnings, want.Warnings) ||
			!reflect.DeepEqual(got.Trace, want.Trace) || !reflect.DeepEqual(got.Rule, want.Rule) {
			t.Errorf("item %d: batch gave %+v, a single run %+v", i, got, want)
		}
	}
}

// housedRule reads an object of the data.
const housedRule = "A **Person** is housed if the __address__ of the **Person** is not empty."

// Each item is decoded as it runs; the objects a held result's trace shows
// stay that item's, whatever the items after it hold.
func TestABatchsHeldResultsKeepTheirItemsObjects(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "housed", housedRule)
		data := []string{`{"Person": {"address": {"city": "Oslo"}}}`, `{"Person": {"address": {}}}`, `{"Person": {"address": {"zip": "0150"}}}`}

		batch, err := f.svc.RunPolicyBatch(ctx, v1.BaseID, items(data...))
		if err != nil {
			t.Fatal(err)
		}
		if got := []bool{batch.Results[0].Result.Result, batch.Results[1].Result.Result, batch.Results[2].Result.Result}; !reflect.DeepEqual(got, []bool{true, false, true}) {
			t.Errorf("results %v, want [true false true]", got)
		}
		f.answersAsSingleRuns(t, ctx, v1.BaseID, data, batch)
	})
}

// withoutTimings decodes a batch's answer and takes out its timings, after
// checking that the answer and each result have them.
func withoutTimings(t *testing.T, answer []byte) map[string]any {
	t.Helper()
	var batch map[string]any
	if err := json.Unmarshal(answer, &batch); err != nil {
		t.Fatalf("%v in %s", err, answer)
	}
	objects := []any{batch}
	if results, ok := batch["results"].([]any); ok {
		objects = append(objects, results...)
	}
	for _, o := range objects {
		m, _ := o.(map[string]any)
		if e, _ := m["execution"].(map[string]any); e == nil || e["total"] == nil || e["total"] == "0" {
			t.Fatalf("no execution total in %v", o)
		}
		delete(m, "execution")
	}
	return batch
}

// splitItems is what SplitItems gives of the items written as an array.
func splitItems(t *testing.T, f *fixture, list []json.RawMessage) service.Items {
	t.Helper()
	parts := make([]string, len(list))
	for i, item := range list {
		parts[i] = string(item)
	}
	text := []byte("[" + strings.Join(parts, ", ") + "]")
	items, end, ok := f.svc.SplitItems(text)
	if !ok || end != len(text) {
		t.Fatalf("%s: split %v up to %d", text, ok, end)
	}
	if !slices.EqualFunc(items.List, list, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
		t.Fatalf("%s: split into %q", text, items.List)
	}
	return items
}

func TestABatchAnsweredAsJSONIsEncodingJSONsAnswerOfTheSameResults(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		for _, c := range []struct {
			name, rule string
			data       []json.RawMessage
		}{
			{"senior", seniorRule, items(`{"Person": {"age": 70}}`, `{"Person": {"age": 40}}`, `{"Person": {}}`, `{"Person": {"age": "70"}}`)},
			// Each item's object is written before the next item is
			// decoded into its map.
			{"housed", housedRule, items(`{"Person": {"address": {"city": "Oslo"}}}`, `{"Person": {"address": {}}}`, `{"Person": {"address": {"zip": "0150"}}}`)},
		} {
			v1 := f.publishedPolicy(t, c.name, c.rule)
			listed := service.Items{List: c.data}
			split := splitItems(t, f, c.data)
			runs := map[string]func(buf []byte) ([]byte, error){
				"base":          func(buf []byte) ([]byte, error) { return f.svc.RunPolicyBatchJSON(ctx, v1.BaseID, listed, buf) },
				"record":        func(buf []byte) ([]byte, error) { return f.svc.RunPolicyVersionBatchJSON(ctx, v1.ID, listed, buf) },
				"base, split":   func(buf []byte) ([]byte, error) { return f.svc.RunPolicyBatchJSON(ctx, v1.BaseID, split, buf) },
				"record, split": func(buf []byte) ([]byte, error) { return f.svc.RunPolicyVersionBatchJSON(ctx, v1.ID, split, buf) },
			}
			for name, run := range runs {
				got, err := run([]byte("kept"))
				if err != nil {
					t.Fatal(err)
				}
				got, ok := bytes.CutPrefix(got, []byte("kept"))
				if !ok {
					t.Fatalf("%s %s: the buffer's bytes were not kept: %.40s", c.name, name, got)
				}
				collected, err := f.svc.RunPolicyBatch(ctx, v1.BaseID, c.data)
				if err != nil {
					t.Fatal(err)
				}
				want, err := json.Marshal(collected)
				if err != nil {
					t.Fatal(err)
				}
				// The same results, timings aside, as encoding/json writes them.
				gotBatch, wantBatch := withoutTimings(t, got), withoutTimings(t, want)
				if !reflect.DeepEqual(gotBatch, wantBatch) {
					t.Errorf("%s %s:\n got %s\nwant %s", c.name, name, got, want)
				}
				if results, _ := gotBatch["results"].([]any); len(results) != len(c.data) {
					t.Errorf("%s %s: %d results for %d items", c.name, name, len(results), len(c.data))
				}
				collected.Release()
			}
			// One event per batch, answered as JSON or not.
			f.waitForEvents(t, v1.BaseID, auditevent.ActionExecuted, 2*len(runs))
		}
	})
}

func TestABatchOfOneRecordRunsThatRecord(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		draft, err := f.svc.PolicyDraftFromVersion(ctx, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdatePolicyDraft(ctx, draft.ID, service.Changes{Rule: ptr(strings.Replace(seniorRule, "65", "30", 1))}); err != nil {
			t.Fatal(err)
		}
		forty := items(`{"Person": {"age": 40}}`)
		for _, c := range []struct {
			id   string
			run  func() (*service.BatchResult, error)
			want bool
		}{
			{"the version", func() (*service.BatchResult, error) { return f.svc.RunPolicyVersionBatch(ctx, v1.ID, forty) }, false},
			{"the draft", func() (*service.BatchResult, error) { return f.svc.RunPolicyVersionBatch(ctx, draft.ID, forty) }, true},
			{"the base (its latest version)", func() (*service.BatchResult, error) { return f.svc.RunPolicyBatch(ctx, v1.BaseID, forty) }, false},
		} {
			res, err := c.run()
			if err != nil || len(res.Results) != 1 || res.Results[0].Result.Result != c.want {
				t.Errorf("%s: %+v, %v; want one result %v", c.id, res, err, c.want)
			}
		}
		_, err = f.svc.RunPolicyBatch(ctx, v1.ID, forty)
		wantCode(t, err, service.CodeNotFound) // a record id is no base id
	})
}

func TestABatchWithABadItemRunsNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxBatchItems = 3 })
		spent := &countingBudget{}
		ctx := service.WithRunBudget(f.as(t, adminKey, ""), spent)
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		adult := `{"Person": {"age": 70}}`
		for _, c := range []struct {
			name    string
			items   []json.RawMessage
			message string
		}{
			{"no items", items(), "items must hold at least one data object"},
			{"more items than the limit", items(adult, adult, adult, adult), "items holds 4 data objects; the limit is 3 a call"},
			{"a number among objects", items(adult, `42`), "items[1]: data must be a JSON object"},
			{"a null item", items(`null`, adult), "items[0]: data must be a JSON object"},
			{"an array item", items(adult, adult, `[]`), "items[2]: data must be a JSON object"},
			{"a malformed item", items(adult, `{"Person": {"age": }}`), "items[1]: data is not valid JSON: invalid character '}' looking for beginning of value (at byte 20)"},
			{"a number out of range", items(`{"Person": {"age": 1e400}}`), "items[0]: data holds the number 1e400 (at byte 20), larger than any number a rule can compare (about 1.8e308)"},
			{"an empty item", items(adult, ``), "items[1]: data is required and must be a JSON object"},
		} {
			_, err := f.svc.RunPolicyBatch(ctx, v1.BaseID, c.items)
			wantCode(t, err, service.CodeInvalidArgument)
			if !strings.Contains(err.Error(), c.message) {
				t.Errorf("%s: %v, want %q", c.name, err, c.message)
			}
		}
		// Only the batch that follows is recorded: waitForEvents fails on
		// more events than one.
		if _, err := f.svc.RunPolicyBatch(ctx, v1.BaseID, items(adult, adult, adult)); err != nil {
			t.Fatal(err)
		}
		f.waitForEvents(t, v1.BaseID, auditevent.ActionExecuted, 1)
		if !reflect.DeepEqual(spent.spent, []int{3}) {
			t.Errorf("spent %v, want only the good batch's 3", spent.spent)
		}
	})
}

// countingBudget records what is spent, and refuses when refuse is set.
type countingBudget struct {
	mu     sync.Mutex
	spent  []int
	refuse bool
}

func (b *countingBudget) SpendRuns(n int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refuse {
		return &service.Error{Code: service.CodeRateLimited, Message: "spent"}
	}
	b.spent = append(b.spent, n)
	return nil
}

func TestABatchIsChargedOneRunPerItemBeforeItRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		three := items(`{"Person": {"age": 70}}`, `{"Person": {"age": 71}}`, `{"Person": {"age": 72}}`)

		b := &countingBudget{}
		if _, err := f.svc.RunPolicyBatch(service.WithRunBudget(f.as(t, adminKey, ""), b), v1.BaseID, three); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(b.spent, []int{3}) {
			t.Errorf("spent %v, want one charge of 3", b.spent)
		}

		refusing := &countingBudget{refuse: true}
		_, err := f.svc.RunPolicyBatch(service.WithRunBudget(f.as(t, adminKey, ""), refusing), v1.BaseID, three)
		wantCode(t, err, service.CodeRateLimited)
		// The refused batch left no event: only the first one is stored.
		if _, err := f.svc.RunPolicy(f.as(t, adminKey, ""), v1.BaseID, json.RawMessage(`{"Person": {"age": 70}}`)); err != nil {
			t.Fatal(err)
		}
		f.waitForEvents(t, v1.BaseID, auditevent.ActionExecuted, 2)
	})
}
