package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// A record id where a base id goes, or the reverse, is not found with a
// hint, for the caller's organization's ids only: another organization's
// key gets the plain answer.
func TestAnIDOfTheWrongKindIsNotFoundWithAHint(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin, other := w.as["admin"], w.as["other tenant"]
		flow := w.createFlow(t, `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`)
		record, base := w.age.ID.String(), w.age.BaseID.String()
		group := w.createGroupAs(t, admin, `{"name": "g"}`)
		recordHint := "no policy " + record + ": that is the id of a record of policy " + base + "; here a base id goes"
		for _, tc := range []struct {
			path, body, hint string
		}{
			{"/run/policy/" + record, seniorRun, recordHint},
			{"/run/policy/" + record + "/batch", `{"items": [{}]}`, recordHint},
			{"/run/policy_version/" + base, seniorRun, "no policy record " + base + ": that is the id of a policy base; here a record id goes"},
			{"/run/policy_version/" + base + "/batch", `{"items": [{}]}`, "no policy record " + base + ": that is the id of a policy base; here a record id goes"},
			{"/run/flow/" + flow.ID.String(), `{"data": {}}`,
				"no flow " + flow.ID.String() + ": that is the id of a record of flow " + flow.BaseID.String() + "; here a base id goes"},
			{"/run/flow_version/" + flow.BaseID.String(), `{"data": {}}`,
				"no flow record " + flow.BaseID.String() + ": that is the id of a flow base; here a record id goes"},
			{"/group/" + group.ID.String() + "/member", `{"kind": "policy", "baseId": "` + record + `"}`, recordHint},
		} {
			wantMessage(t, w.call(t, admin, http.MethodPost, tc.path, tc.body), http.StatusNotFound, service.CodeNotFound, tc.hint)
		}
		wantMessage(t, w.call(t, other, http.MethodPost, "/run/policy/"+record, seniorRun), http.StatusNotFound, service.CodeNotFound, "no policy "+record)
		wantMessage(t, w.call(t, other, http.MethodPost, "/run/policy_version/"+base, seniorRun), http.StatusNotFound, service.CodeNotFound, "no policy "+base)
		if n := db.Client().GroupMember.Query().CountX(t.Context()); n != 0 {
			t.Errorf("%d group members stored, want none", n)
		}
	})
}

// An invalid id is quoted by its first engine.MaxQuoted characters, however
// long, in a path or in a body.
func TestALongInvalidIDIsQuotedByItsStart(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		long := strings.Repeat("z", 100_000)
		quoted := `"` + strings.Repeat("z", engine.MaxQuoted) + `…" is not a valid id`
		group := w.createGroupAs(t, admin, `{"name": "g"}`)
		wantMessage(t, w.call(t, admin, http.MethodPost, "/run/policy/"+long, seniorRun), http.StatusBadRequest, service.CodeInvalidArgument,
			"baseId "+quoted)
		wantMessage(t, w.call(t, admin, http.MethodPost, "/group/"+group.ID.String()+"/member", `{"kind": "policy", "baseId": "`+long+`"}`),
			http.StatusBadRequest, service.CodeInvalidArgument, "baseId "+quoted)
		pol := w.age
		wantMessage(t, w.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "`+long+`"}`),
			http.StatusBadRequest, service.CodeInvalidArgument,
			`status must be "draft" or "published", not "`+strings.Repeat("z", engine.MaxQuoted)+`…"`)
		w405 := w.call(t, admin, strings.Repeat("Z", 3000), "/run", "{}")
		wantMessage(t, w405, http.StatusMethodNotAllowed, service.CodeInvalidArgument,
			strings.Repeat("Z", engine.MaxQuoted)+"… is not allowed on /run; allowed: POST")
	})
}
