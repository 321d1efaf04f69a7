package rest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// withQuery adds a query parameter to a path that may have some already.
func withQuery(path, param string) string {
	if strings.Contains(path, "?") {
		return path + "&" + param
	}
	return path + "?" + param
}

// Every list's cursor serves that list only: one of another list, of
// another base's history or another group's list, or one no list gave,
// is refused.
func TestACursorServesOnlyTheListThatGaveIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		send := func(method, path, body string, status int) *http.Response {
			t.Helper()
			r := w.call(t, admin, method, path, body)
			wantStatus(t, r, status)
			return r.Result()
		}
		created := func(path, body string) string {
			t.Helper()
			var out struct{ ID string }
			if err := json.NewDecoder(send(http.MethodPost, path, body, http.StatusCreated).Body).Decode(&out); err != nil {
				t.Fatal(err)
			}
			return out.ID
		}
		// Two flows, and a second version of each policy and flow, so that
		// every list and history has a second page.
		var flows []string
		for range 2 {
			flow := w.createFlow(t, `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`)
			send(http.MethodPut, "/flow/"+flow.ID.String(), `{"status": "published"}`, http.StatusCreated)
			send(http.MethodPost, "/flow/"+flow.ID.String()+"/rollback", "", http.StatusCreated)
			flows = append(flows, flow.BaseID.String())
		}
		policies := []string{w.age.BaseID.String(), w.income.BaseID.String()}
		for _, id := range []string{w.age.ID.String(), w.income.ID.String()} {
			send(http.MethodPost, "/policy/"+id+"/rollback", "", http.StatusCreated)
		}
		in, out := created("/group", `{"name": "in"}`), created("/group", `{"name": "out"}`)
		for kind, ids := range map[string][]string{"policy": policies, "flow": flows} {
			for _, id := range ids {
				created("/group/"+in+"/member", `{"kind": "`+kind+`", "baseId": "`+id+`"}`)
			}
		}
		send(http.MethodPut, "/policy/"+policies[0]+"/decision-records", `{"enabled": true}`, http.StatusOK)
		for range 2 {
			w.runStored(t, admin, "/run/policy/"+policies[0], `{"applicant": {"age": 20}}`)
		}
		waitForExecuted(t, db, 2)

		cursors := map[string]string{}
		for _, list := range []string{
			"/policies", "/flows", "/group/" + in + "/policies", "/group/" + in + "/flows",
			"/policies?notInGroupId=" + out, "/flows?notInGroupId=" + out, "/groups", "/admin/members",
			"/admin/keys", "/audit", "/decisions",
			"/policy/" + policies[0] + "/versions", "/policy/" + policies[1] + "/versions",
			"/flow/" + flows[0] + "/versions", "/flow/" + flows[1] + "/versions",
		} {
			var page struct{ NextCursor string }
			if err := json.NewDecoder(send(http.MethodGet, withQuery(list, "limit=1"), "", http.StatusOK).Body).Decode(&page); err != nil || page.NextCursor == "" {
				t.Fatalf("GET %s gives no next cursor: %v", withQuery(list, "limit=1"), err)
			}
			cursors[list] = page.NextCursor
		}
		// The same list, however named, takes it.
		cursors["/policies?groupId="+in] = cursors["/group/"+in+"/policies"]

		// Cursors no list gave: all zeros, and the old form of a list's
		// cursor, the bare id the page ended with.
		made := []string{"AAAAAAAAAAAAAAAAAAAAAA", "AaINE2DEcZS1p3NoJJD4nw", "AQ"}
		for list, own := range cursors {
			send(http.MethodGet, withQuery(list, "cursor="+own), "", http.StatusOK)
			foreign := slices.Clone(made)
			for _, c := range cursors {
				if c != own {
					foreign = append(foreign, c)
				}
			}
			for _, c := range foreign {
				wantMessage(t, w.call(t, admin, http.MethodGet, withQuery(list, "cursor="+c), nil),
					http.StatusBadRequest, service.CodeInvalidArgument, "cursor is not one this list gave out; ask for the first page again, without a cursor")
			}
		}
	})
}
