package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestDiffsAndRollbacksRefuseBadIDsAndChangeNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		headers := append(key(adminKey), "Content-Type", "application/json")
		var ids []string
		for range 2 {
			w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), headers...)
			wantStatus(t, w, http.StatusCreated)
			ids = append(ids, decodeStrict[service.SavedPolicy](t, w).ID.String())
		}
		before := rowCounts(t, db)
		for _, c := range []struct {
			method, path string
		}{
			{http.MethodGet, "/policy/not-an-id/diff/" + ids[0]},
			{http.MethodGet, "/policy/" + ids[0] + "/diff/not-an-id"},
			{http.MethodGet, "/flow/" + ids[0] + "/diff/12345"},
			{http.MethodGet, "/policy/" + ids[0] + "/diff/" + ids[1]}, // records of two policies
			{http.MethodPost, "/policy/not-an-id/rollback"},
			{http.MethodPost, "/flow/not-an-id/rollback"},
		} {
			wantError(t, f.do(c.method, c.path, nil, headers...), http.StatusBadRequest, service.CodeInvalidArgument)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}
		w := f.do(http.MethodGet, "/policy/"+ids[0]+"/diff/"+ids[0], nil, headers...)
		wantStatus(t, w, http.StatusOK)
		d := decodeStrict[service.PolicyDiff](t, w)
		if d.From.ID.String() != ids[0] || d.To.ID.String() != ids[0] || len(d.Rule) != 0 || d.Name != nil {
			t.Errorf("a draft compared with itself: %+v", d)
		}
	})
}

// TestADiffPastWhatARequestMayAnswerIsRefused: a schema member of a
// 100,000-character name over 2,000 changes, or a node of a 50,000-character
// id over 2,000 edges, would answer its name or id with each: 200 and 100
// MB from records of a few hundred kilobytes. Each diff is refused as any
// answer past the bound is.
func TestADiffPastWhatARequestMayAnswerIsRefused(t *testing.T) {
	const tooMuch = "this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request"
	long := strings.Repeat("n", 100000)
	schema := func(value int) map[string]any {
		members := map[string]any{}
		for i := range 2000 {
			members[fmt.Sprint("m", i)] = value
		}
		return map[string]any{"properties": map[string]any{long: members}}
	}
	definition := func(policy uuid.UUID, onTrue ...string) map[string]any {
		return map[string]any{"formatVersion": 1, "nodes": []any{
			map[string]any{"id": long[:50000], "type": "start", "policy": map[string]any{"baseId": policy}, "onTrue": onTrue, "onFalse": "no"},
			map[string]any{"id": "yes", "type": "return", "returnValue": true},
			map[string]any{"id": "no", "type": "return", "returnValue": false}}}
	}
	targets := make([]string, 1999)
	for i := range targets {
		targets[i] = fmt.Sprint("t", i)
	}
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		idOf := func(r *httptest.ResponseRecorder) string {
			t.Helper()
			wantStatus(t, r, http.StatusCreated)
			var record struct{ ID string }
			if err := json.Unmarshal(r.Body.Bytes(), &record); err != nil {
				t.Fatal(err)
			}
			return record.ID
		}
		// diff publishes a record of kind with first, makes a draft of it
		// with second and compares the two.
		diff := func(kind string, first, second map[string]any) *httptest.ResponseRecorder {
			t.Helper()
			id := idOf(w.call(t, admin, http.MethodPost, "/"+kind, first))
			version := idOf(w.call(t, admin, http.MethodPut, "/"+kind+"/"+id, map[string]string{"status": "published"}))
			draft := idOf(w.call(t, admin, http.MethodGet, "/"+kind+"/"+version+"/draft", nil))
			second["status"] = "draft"
			wantStatus(t, w.call(t, admin, http.MethodPut, "/"+kind+"/"+draft, second), http.StatusOK)
			return w.call(t, admin, http.MethodGet, "/"+kind+"/"+version+"/diff/"+draft, nil)
		}
		r := diff("policy", map[string]any{"name": "long", "rule": ageRule, "schema": schema(0)}, map[string]any{"schema": schema(1)})
		wantMessage(t, r, http.StatusBadRequest, service.CodeInvalidArgument, tooMuch)
		r = diff("flow", map[string]any{"name": "long", "definition": definition(w.age.BaseID, "yes")},
			map[string]any{"definition": definition(w.age.BaseID, targets...)})
		wantMessage(t, r, http.StatusBadRequest, service.CodeInvalidArgument, tooMuch)
	})
}

// TestADiffAnswersNumbersAsStored: a schema's const and a test's data that
// changed only past a float64's precision show as changed, answered as
// stored.
func TestADiffAnswersNumbersAsStored(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		headers := append(key(adminKey), "Content-Type", "application/json")
		idOf := func(w *httptest.ResponseRecorder, status int) string {
			t.Helper()
			wantStatus(t, w, status)
			var record struct{ ID string }
			if err := json.Unmarshal(w.Body.Bytes(), &record); err != nil {
				t.Fatal(err)
			}
			return record.ID
		}
		content := func(id, big string) string {
			return `"schema": {"properties": {"id": {"const": ` + id + `}}},
				"tests": [{"name": "big", "data": {"Person": {"id": ` + big + `, "age": 70}}, "expect": true}]`
		}
		created := idOf(f.do(http.MethodPost, "/policy", strings.NewReader(`{"name": "exact", "rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.", `+
			content("9007199254740993", "12345678901234567890123")+`}`), headers...), http.StatusCreated)
		version := idOf(f.do(http.MethodPut, "/policy/"+created, strings.NewReader(`{"status": "published"}`), headers...), http.StatusCreated)
		draft := idOf(f.do(http.MethodGet, "/policy/"+version+"/draft", nil, headers...), http.StatusCreated)
		idOf(f.do(http.MethodPut, "/policy/"+draft, strings.NewReader(`{"status": "draft", `+content("9007199254740992", "12345678901234567890124")+`}`), headers...), http.StatusOK)

		w := f.do(http.MethodGet, "/policy/"+version+"/diff/"+draft, nil, headers...)
		wantStatus(t, w, http.StatusOK)
		var d struct {
			Tests struct {
				Changed []struct {
					Name          string
					Before, After struct{ Data json.RawMessage }
				}
			}
			Schema json.RawMessage
		}
		if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		if want := `[{"path":"$.properties.id.const","change":"changed","before":9007199254740993,"after":9007199254740992}]`; string(d.Schema) != want {
			t.Errorf("schema %s, want %s", d.Schema, want)
		}
		if c := d.Tests.Changed; len(c) != 1 || c[0].Name != "big" || string(c[0].Before.Data) != `{"Person":{"id":12345678901234567890123,"age":70}}` ||
			string(c[0].After.Data) != `{"Person":{"id":12345678901234567890124,"age":70}}` {
			t.Errorf("changed tests %+v, want big from …123 to …124", c)
		}
	})
}

// TestAFlowDiffShowsABranchListsNewOrder: the same branch targets in
// another order end the flow elsewhere, so the node shows changed, with
// its branch lists before and after; no edge was added or removed.
func TestAFlowDiffShowsABranchListsNewOrder(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		node := func(onTrue string) string {
			return w.ids(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": ` + onTrue + `}`)
		}
		definition := func(onTrue string) string {
			return `{"formatVersion": 1, "nodes": [` + node(onTrue) + `,
				{"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}]}`
		}
		v1 := w.createFlow(t, definition(`["yes", "no"]`)).ID.String()
		wantStatus(t, w.call(t, admin, http.MethodPut, "/flow/"+v1, `{"status": "published"}`), http.StatusCreated)
		r := w.call(t, admin, http.MethodGet, "/flow/"+v1+"/draft", nil)
		wantStatus(t, r, http.StatusCreated)
		v2 := decodeStrict[service.Flow](t, r).ID.String()
		wantStatus(t, w.call(t, admin, http.MethodPut, "/flow/"+v2, `{"status": "published", "definition": `+definition(`["no", "yes"]`)+`}`), http.StatusCreated)

		r = w.call(t, admin, http.MethodGet, "/flow/"+v1+"/diff/"+v2, nil)
		wantStatus(t, r, http.StatusOK)
		d := decodeStrict[service.FlowDiff](t, r)
		got, err := json.Marshal(struct {
			Nodes service.NodesDiff `json:"nodes"`
			Edges service.EdgesDiff `json:"edges"`
		}{d.Nodes, d.Edges})
		if err != nil {
			t.Fatal(err)
		}
		want := compact(t, `{"nodes": {"added": [], "removed": [], "changed": [{"id": "s", "before": `+node(`["yes", "no"]`)+`, "after": `+node(`["no", "yes"]`)+`}]},
			"edges": {"added": [], "removed": []}}`)
		if string(got) != want {
			t.Errorf("diff %s\nwant %s", got, want)
		}
	})
}
