package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// seniorText is a stored rule text with a heading and a blank line, so a
// stored run's `rule` shows one entry per line, those included.
const seniorText = "# Senior discount\n\nA **Person** gets senior_discount if the __age__ of the **Person** is at least 65.\n"

var seniorLines = []string{"# Senior discount", "", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."}

// seniorPolicy is a body POST /policy accepts.
const seniorPolicy = `{"name": "Senior discount", "rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.",
	"description": "for the over-65s", "schema": {"type": "object"},
	"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}]}`

// seniorRun is a body the stored-policy runs accept.
const seniorRun = `{"data": {"Person": {"age": 70}}}`

// member is someone of a tenant: their key and, for a user, their id.
type member struct {
	key string
	id  uuid.UUID
}

// team adds a member of every authoring role to Acme, each with an
// admin-scoped key (their role alone limits them), and a second tenant.
func (f *fixture) team(t *testing.T) map[string]member {
	t.Helper()
	ctx := context.Background()
	op := f.svc.Operator()
	out := map[string]member{"admin": {adminKey, f.acme.User.ID}}
	for _, m := range []struct {
		name string
		role authz.Role
	}{{"editor", authz.RoleEditor}, {"editor2", authz.RoleEditor}, {"publisher", authz.RolePublisher}, {"viewer", authz.RoleViewer}} {
		email := m.name + "@acme.test"
		u, err := op.CreateUser(ctx, email, m.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, f.acme.Organization.ID, email, m.role); err != nil {
			t.Fatal(err)
		}
		k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: email, Name: m.name, Scope: authz.ScopeAdmin})
		if err != nil {
			t.Fatal(err)
		}
		out[m.name] = member{k.Secret, u.ID}
	}
	beta, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
	if err != nil {
		t.Fatal(err)
	}
	out["other tenant"] = member{beta.Secret, beta.User.ID}
	return out
}

// noRateLimit is for tests that send more requests on one key, or on one
// organization, than a burst allows.
var noRateLimit = withConfig(func(c *Config) { c.RateLimit, c.OrgRateLimit = -1, -1 })

// call sends a request as m; body is sent as it is when a string, else
// encoded as JSON.
func (f *fixture) call(t *testing.T, m member, method, path string, body any) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	return f.do(method, path, r, append(key(m.key), "Content-Type", "application/json")...)
}

// decodeStrict decodes a response body into T, refusing members T lacks.
func decodeStrict[T any](t *testing.T, w *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s as %T: %v", w.Body, v, err)
	}
	return v
}

// policyRun is the policy run result as the tests read it.
type policyRun struct {
	Result bool            `json:"result"`
	Trace  json.RawMessage `json:"trace"`
	Rule   []string        `json:"rule"`
	Data   json.RawMessage `json:"data"`
	Error  json.RawMessage `json:"error"`
	Labels json.RawMessage `json:"labels"`

	Explanation string           `json:"explanation"`
	Warnings    []engine.Warning `json:"warnings"`

	Execution struct {
		Orchestrator map[string]string `json:"orchestrator"`
		Engine       string            `json:"engine"`
		Total        string            `json:"total"`
	} `json:"execution"`
}

func (f *fixture) runStored(t *testing.T, m member, path, data string) policyRun {
	t.Helper()
	w := f.call(t, m, http.MethodPost, path, `{"data": `+data+`}`)
	wantStatus(t, w, http.StatusOK)
	return decodeStrict[policyRun](t, w)
}

func (f *fixture) listed(t *testing.T, m member, baseID uuid.UUID) bool {
	t.Helper()
	w := f.call(t, m, http.MethodGet, "/policies?limit=200", nil)
	wantStatus(t, w, http.StatusOK)
	page := decodeStrict[service.Page[service.Summary]](t, w)
	for _, s := range page.Items {
		if s.BaseID == baseID {
			return true
		}
	}
	return false
}

// stored is what the database holds of a record and its base.
type stored struct {
	Status   record.Status
	Version  *int
	Revision int
	Owner    base.OwnerKind
}

func storedRecord(t *testing.T, db *database.DB, id uuid.UUID) stored {
	t.Helper()
	ctx := context.Background()
	r, err := db.Client().Record.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Client().Base.Get(ctx, r.BaseID)
	if err != nil {
		t.Fatal(err)
	}
	return stored{Status: r.Status, Version: r.Version, Revision: r.Revision, Owner: b.OwnerKind}
}

// waitForExecuted waits until n `executed` events are stored: runs hand
// them to a writer that stores them a few milliseconds later.
func waitForExecuted(t *testing.T, db *database.DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := audittest.Count(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
		if got == n {
			return
		}
		if got > n || time.Now().After(deadline) {
			t.Fatalf("%d executed events stored, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func version(p service.Policy) int {
	if p.Version == nil {
		return 0
	}
	return *p.Version
}

func TestThePolicyLifecycleOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		editor, publisher, viewer, admin := as["editor"], as["publisher"], as["viewer"], as["admin"]

		w := f.call(t, publisher, http.MethodPost, "/policy", map[string]any{
			"name": "Senior discount", "rule": seniorText,
			"tests": []map[string]any{{"name": "70 is senior", "data": map[string]any{"Person": map[string]any{"age": 70}}, "expect": true}},
		})
		wantStatus(t, w, http.StatusCreated)
		created := decodeStrict[service.SavedPolicy](t, w)
		if created.Status != "draft" || created.Version != nil || created.Owner != (service.Owner{Kind: authz.OwnerUser, ID: publisher.id}) ||
			created.CreatedBy != publisher.id || created.Rule != seniorText || created.Description != "" || string(created.Schema) != "null" ||
			len(created.Tests) != 1 || created.PublishedAt != nil || created.Validation.Errors == nil || len(created.Validation.Errors) != 0 {
			t.Fatalf("created %s", w.Body)
		}
		if rec := storedRecord(t, db, created.ID); rec.Status != record.StatusDraft || rec.Version != nil || rec.Revision != 1 || rec.Owner != base.OwnerKindUser {
			t.Fatalf("stored after create: %+v", rec)
		}

		broken := f.call(t, editor, http.MethodPost, "/policy", `{"name": "wip", "rule": "A **P** is ok if __a__ of **P** is bigger than 1."}`)
		wantStatus(t, broken, http.StatusCreated)
		if v := decodeStrict[service.SavedPolicy](t, broken).Validation; len(v.Errors) != 1 || !strings.HasPrefix(v.Errors[0], "Parse error:  --> 1:") {
			t.Errorf("validation of an unparseable rule: %+v", v)
		}

		// Before any version, a run by base runs the draft, line by line.
		run := f.runStored(t, viewer, "/run/policy/"+created.BaseID.String(), `{"Person": {"age": 70}}`)
		if !run.Result || !reflect.DeepEqual(run.Rule, seniorLines) || string(run.Error) != "null" {
			t.Errorf("run of the draft: result %v, rule %q, error %s", run.Result, run.Rule, run.Error)
		}
		if db := run.Execution.Orchestrator["database"]; !digits.MatchString(db) {
			t.Errorf("execution.orchestrator.database = %q, want a string of digits", db)
		}

		w = f.call(t, publisher, http.MethodPut, "/policy/"+created.ID.String(), `{"status": "draft", "description": "for the over-65s", "schema": {"type": "object"}}`)
		wantStatus(t, w, http.StatusOK)
		edited := decodeStrict[service.SavedPolicy](t, w)
		if edited.ID != created.ID || edited.Revision != 2 || edited.Description != "for the over-65s" || edited.Rule != seniorText ||
			string(edited.Schema) != `{"type":"object"}` || edited.Status != "draft" {
			t.Fatalf("edited %s", w.Body)
		}
		if rec := storedRecord(t, db, created.ID); rec.Revision != 2 {
			t.Errorf("stored revision %d after an edit, want 2", rec.Revision)
		}
		w = f.call(t, publisher, http.MethodPut, "/policy/"+created.ID.String(), `{"status": "draft", "schema": null}`)
		wantStatus(t, w, http.StatusOK)
		if p := decodeStrict[service.SavedPolicy](t, w); string(p.Schema) != "null" || p.Revision != 3 || p.Description != "for the over-65s" {
			t.Errorf("schema null clears the schema and leaves the rest: %s", w.Body)
		}
		// An edit or a publish made from revision 2, which the draft has left.
		for _, body := range []string{`{"status": "draft", "revision": 2, "description": "stale"}`, `{"status": "published", "revision": 2}`} {
			w = f.call(t, publisher, http.MethodPut, "/policy/"+created.ID.String(), body)
			wantError(t, w, http.StatusConflict, service.CodeConflict)
		}
		if rec := storedRecord(t, db, created.ID); rec.Revision != 3 || rec.Status != record.StatusDraft {
			t.Errorf("stale requests changed the draft: %+v", rec)
		}

		w = f.call(t, editor, http.MethodPut, "/policy/"+created.ID.String(), `{"status": "published"}`)
		wantError(t, w, http.StatusForbidden, service.CodePermissionDenied)
		w = f.call(t, publisher, http.MethodPut, "/policy/"+created.ID.String(), `{"status": "published"}`)
		wantStatus(t, w, http.StatusCreated)
		v1 := decodeStrict[service.Policy](t, w)
		if v1.ID != created.ID || v1.Status != "published" || version(v1) != 1 || v1.Owner != (service.Owner{Kind: authz.OwnerOrganization, ID: f.acme.Organization.ID}) || v1.PublishedAt == nil {
			t.Fatalf("version 1: %s", w.Body)
		}
		if rec := storedRecord(t, db, v1.ID); rec.Status != record.StatusPublished || rec.Version == nil || *rec.Version != 1 || rec.Owner != base.OwnerKindOrganization {
			t.Fatalf("stored after publishing: %+v", rec)
		}
		for _, body := range []string{`{"status": "draft", "name": "x"}`, `{"status": "published"}`} {
			wantError(t, f.call(t, publisher, http.MethodPut, "/policy/"+v1.ID.String(), body), http.StatusConflict, service.CodeConflict)
		}
		wantError(t, f.call(t, editor, http.MethodGet, "/policy/"+created.BaseID.String()+"/draft?replace=maybe", nil),
			http.StatusBadRequest, service.CodeInvalidArgument)

		// HEAD must not do what GET does here: make a draft (the loop's
		// first GET would then find one).
		w = f.call(t, editor, http.MethodHead, "/policy/"+created.BaseID.String()+"/draft", nil)
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET" {
			t.Fatalf("HEAD on /draft: %d, Allow %q", w.Code, w.Header().Get("Allow"))
		}

		// Versions 2 and 3 lower the age to 60, each through a new draft.
		lowered := strings.Replace(seniorText, "65", "60", 1)
		for want := 2; want <= 3; want++ {
			w := f.call(t, editor, http.MethodGet, "/policy/"+created.BaseID.String()+"/draft", nil)
			wantStatus(t, w, http.StatusCreated)
			draft := decodeStrict[service.Policy](t, w)
			if draft.Status != "draft" || draft.BaseID != created.BaseID || draft.ID == v1.ID || draft.Rule == "" {
				t.Fatalf("draft from a version: %s", w.Body)
			}
			w = f.call(t, editor, http.MethodGet, "/policy/"+created.BaseID.String()+"/draft", nil)
			wantError(t, w, http.StatusConflict, service.CodeConflict)
			if !strings.Contains(w.Body.String(), draft.ID.String()) {
				t.Errorf("the conflict does not name the existing draft %s: %s", draft.ID, w.Body)
			}
			wantError(t, f.call(t, editor, http.MethodGet, "/policy/"+created.BaseID.String()+"/draft?replace=false", nil),
				http.StatusConflict, service.CodeConflict)
			w = f.call(t, editor, http.MethodGet, "/policy/"+created.BaseID.String()+"/draft?replace=true", nil)
			wantStatus(t, w, http.StatusCreated)
			if again := decodeStrict[service.Policy](t, w); again.ID != draft.ID {
				t.Fatalf("replacing the draft made %s, want %s overwritten", again.ID, draft.ID)
			}
			w = f.call(t, publisher, http.MethodPut, "/policy/"+draft.ID.String(), map[string]any{"status": "published", "rule": lowered})
			wantStatus(t, w, http.StatusCreated)
			if v := decodeStrict[service.Policy](t, w); version(v) != want || v.ID != draft.ID || v.Rule != lowered {
				t.Fatalf("version %d: %s", want, w.Body)
			}
		}

		w = f.call(t, viewer, http.MethodGet, "/policy/"+created.BaseID.String()+"/versions", nil)
		wantStatus(t, w, http.StatusOK)
		hist := decodeStrict[service.Versions](t, w)
		if hist.BaseID != created.BaseID || hist.Draft != nil || len(hist.Versions) != 3 ||
			version(*hist.Versions[0]) != 3 || version(*hist.Versions[1]) != 2 || version(*hist.Versions[2]) != 1 || hist.NextCursor != "" {
			t.Fatalf("versions %s", w.Body)
		}
		// The history pages as lists do: two versions, then the last.
		w = f.call(t, viewer, http.MethodGet, "/policy/"+created.BaseID.String()+"/versions?limit=2", nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Versions](t, w)
		if len(page.Versions) != 2 || version(*page.Versions[1]) != 2 || page.NextCursor == "" {
			t.Fatalf("the first page of two: %s", w.Body)
		}
		w = f.call(t, viewer, http.MethodGet, "/policy/"+created.BaseID.String()+"/versions?limit=2&cursor="+page.NextCursor, nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Versions](t, w); len(page.Versions) != 1 || version(*page.Versions[0]) != 1 || page.NextCursor != "" {
			t.Fatalf("the last page: %s", w.Body)
		}
		for _, query := range []string{"limit=0", "limit=201", "limit=two", "cursor=nope", "limit=2&limit=3", "q=senior"} {
			wantError(t, f.call(t, viewer, http.MethodGet, "/policy/"+created.BaseID.String()+"/versions?"+query, nil),
				http.StatusBadRequest, service.CodeInvalidArgument)
		}
		w = f.call(t, viewer, http.MethodGet, "/policy/"+created.BaseID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		if latest := decodeStrict[service.Policy](t, w); version(latest) != 3 {
			t.Errorf("GET by base: %s, want version 3", w.Body)
		}
		w = f.call(t, viewer, http.MethodGet, "/policy/"+v1.ID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		if first := decodeStrict[service.Policy](t, w); version(first) != 1 || first.Rule != seniorText {
			t.Errorf("GET by record: %s, want version 1", w.Body)
		}

		// By base the latest version runs (60), by record id the first (65).
		data := `{"Person": {"age": 62}}`
		if run := f.runStored(t, viewer, "/run/policy/"+created.BaseID.String(), data); !run.Result ||
			!reflect.DeepEqual(run.Rule, strings.Split(strings.TrimSuffix(lowered, "\n"), "\n")) {
			t.Errorf("run of the latest version: result %v, rule %q", run.Result, run.Rule)
		}
		if run := f.runStored(t, viewer, "/run/policy_version/"+v1.ID.String(), data); run.Result || !reflect.DeepEqual(run.Rule, seniorLines) {
			t.Errorf("run of version 1: result %v, rule %q", run.Result, run.Rule)
		}

		wantError(t, f.call(t, editor, http.MethodDelete, "/policy/"+created.BaseID.String(), nil), http.StatusForbidden, service.CodePermissionDenied)
		w = f.call(t, admin, http.MethodDelete, "/policy/"+v1.ID.String(), nil)
		wantStatus(t, w, http.StatusNoContent)
		if w.Body.Len() != 0 {
			t.Errorf("a 204 with a body: %s", w.Body)
		}
		if f.listed(t, admin, created.BaseID) || f.listed(t, publisher, created.BaseID) {
			t.Error("a deleted policy is still listed")
		}
		for _, tc := range []struct{ method, path, body string }{
			{http.MethodGet, "/policy/" + created.BaseID.String(), ""},
			{http.MethodGet, "/policy/" + v1.ID.String(), ""},
			{http.MethodGet, "/policy/" + created.BaseID.String() + "/versions", ""},
			{http.MethodPost, "/run/policy/" + created.BaseID.String(), `{"data": {}}`},
			{http.MethodPost, "/run/policy_version/" + v1.ID.String(), `{"data": {}}`},
			// Each id where the other kind goes.
			{http.MethodPost, "/run/policy/" + v1.ID.String(), `{"data": {}}`},
			{http.MethodPost, "/run/policy_version/" + created.BaseID.String(), `{"data": {}}`},
			{http.MethodDelete, "/policy/" + created.BaseID.String(), ""},
		} {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			wantError(t, f.call(t, admin, tc.method, tc.path, body), http.StatusGone, service.CodeDeleted)
		}
	})
}

func TestPublishingWithAFailingTestIsAConflictAndKeepsTheDraft(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := member{key: adminKey, id: f.acme.User.ID}
		w := f.call(t, admin, http.MethodPost, "/policy", `{"name": "senior", "rule": "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.",
			"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true},
			          {"name": "young is senior", "data": {"Person": {"age": 20}}, "expect": true},
			          {"name": "missing age", "data": {"Person": {}}, "expect": false}]}`)
		wantStatus(t, w, http.StatusCreated)
		draft := decodeStrict[service.SavedPolicy](t, w)
		before := rowCounts(t, db)

		w = f.call(t, admin, http.MethodPut, "/policy/"+draft.ID.String(), `{"status": "published"}`)
		wantStatus(t, w, http.StatusConflict)
		var body errorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != service.CodeConflict ||
			body.Error.Message != "tests failed: missing age, young is senior" {
			t.Errorf("message %q, want the failing tests named", body.Error.Message)
		}
		wantDetails := []string{
			"young is senior: expected true, got false. Person gets senior_discount: no — the age of the Person is 20, which is not at least 65.",
			"missing age: expected false, got an error. Person gets senior_discount: no — the age of the Person could not be read. " +
				"The run stopped with an error: Missing property: property 'age' not found at $.Person.",
		}
		if !reflect.DeepEqual(body.Error.Details, wantDetails) {
			t.Errorf("details %q, want %q", body.Error.Details, wantDetails)
		}
		if rec := storedRecord(t, db, draft.ID); rec.Status != record.StatusDraft || rec.Version != nil || rec.Revision != 1 || rec.Owner != base.OwnerKindUser {
			t.Errorf("a refused publish changed the record: %+v", rec)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}

		// Changes given with the publish are checked with the tests: a
		// fixed test publishes.
		w = f.call(t, admin, http.MethodPut, "/policy/"+draft.ID.String(), `{"status": "published",
			"tests": [{"name": "70 is senior", "data": {"Person": {"age": 70}}, "expect": true}]}`)
		wantStatus(t, w, http.StatusCreated)
		if v := decodeStrict[service.Policy](t, w); version(v) != 1 || len(v.Tests) != 1 {
			t.Errorf("published %s", w.Body)
		}
	})
}

func TestPolicyVisibilityAndTenantsOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		w := f.call(t, as["editor"], http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		mine := decodeStrict[service.SavedPolicy](t, w)

		if !f.listed(t, as["editor"], mine.BaseID) {
			t.Error("the creator does not list their never-published policy")
		}
		for _, who := range []string{"editor2", "viewer", "admin"} {
			if f.listed(t, as[who], mine.BaseID) {
				t.Errorf("%s lists another's never-published policy", who)
			}
		}
		w = f.call(t, as["editor2"], http.MethodGet, "/policy/"+mine.ID.String(), nil)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Policy](t, w); got.ID != mine.ID {
			t.Errorf("another editor loads %s, want %s", got.ID, mine.ID)
		}
		for _, who := range []string{"viewer", "editor2"} {
			wantError(t, f.call(t, as[who], http.MethodPut, "/policy/"+mine.ID.String(), `{"status": "draft", "name": "taken"}`),
				http.StatusForbidden, service.CodePermissionDenied)
		}

		other := as["other tenant"]
		for _, id := range []uuid.UUID{mine.ID, mine.BaseID} {
			for _, tc := range []struct{ method, path, body string }{
				{http.MethodGet, "/policy/" + id.String(), ""},
				{http.MethodGet, "/policy/" + id.String() + "/versions", ""},
				{http.MethodGet, "/policy/" + id.String() + "/draft", ""},
				{http.MethodPut, "/policy/" + id.String(), `{"status": "draft", "name": "taken"}`},
				{http.MethodPut, "/policy/" + id.String(), `{"status": "published"}`},
				{http.MethodDelete, "/policy/" + id.String(), ""},
				{http.MethodPost, "/run/policy/" + id.String(), seniorRun},
				{http.MethodPost, "/run/policy_version/" + id.String(), seniorRun},
			} {
				t.Run("another tenant gets not found on "+tc.method+" "+strings.Replace(tc.path, id.String(), "{id}", 1), func(t *testing.T) {
					var body any
					if tc.body != "" {
						body = tc.body
					}
					wantError(t, f.call(t, other, tc.method, tc.path, body), http.StatusNotFound, service.CodeNotFound)
				})
			}
		}
		if f.listed(t, other, mine.BaseID) {
			t.Error("another tenant lists the policy")
		}
		if rec := storedRecord(t, db, mine.ID); rec.Status != record.StatusDraft || rec.Revision != 1 {
			t.Errorf("refused requests changed the record: %+v", rec)
		}

		wantStatus(t, f.call(t, as["admin"], http.MethodPut, "/policy/"+mine.ID.String(), `{"status": "published"}`), http.StatusCreated)
		for _, who := range []string{"editor2", "viewer", "admin"} {
			if !f.listed(t, as[who], mine.BaseID) {
				t.Errorf("%s does not list a published policy", who)
			}
		}
	})
}

func TestConcurrentPublishesOverHTTPHaveOneWinner(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		admin := member{key: adminKey, id: f.acme.User.ID}
		w := f.call(t, admin, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		draft := decodeStrict[service.SavedPolicy](t, w)

		const racers = 8
		responses := make([]*httptest.ResponseRecorder, racers)
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() {
				responses[i] = f.do(http.MethodPut, "/policy/"+draft.ID.String(), strings.NewReader(`{"status": "published"}`),
					append(key(adminKey), "Content-Type", "application/json")...)
			})
		}
		wg.Wait()
		wins := 0
		for _, w := range responses {
			if w.Code == http.StatusCreated {
				wins++
				continue
			}
			wantError(t, w, http.StatusConflict, service.CodeConflict)
		}
		if wins != 1 {
			t.Fatalf("%d publishes won, want exactly 1", wins)
		}
		recs, err := db.Client().Record.Query().Where(record.BaseID(draft.BaseID)).All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || recs[0].Status != record.StatusPublished || recs[0].Version == nil || *recs[0].Version != 1 {
			t.Errorf("records after the race: %+v", recs)
		}
		published, err := db.Client().AuditEvent.Query().
			Where(auditevent.BaseID(draft.BaseID), auditevent.ActionEQ(auditevent.ActionPublished)).Count(context.Background())
		if err != nil || published != 1 {
			t.Errorf("%d published events, want 1 (%v)", published, err)
		}
	})
}

// TestPolicyRequestsRestDecidesNeverReachTheService sends what the HTTP
// layer refuses on its own to a service whose authorizer is unreachable:
// a request that got as far as the service would answer 503.
func TestPolicyRequestsRestDecidesNeverReachTheService(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		remote, err := authz.NewRemote("http://" + closedPort(t))
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, withAuthorizer(remote), noRateLimit)
		admin := member{key: adminKey, id: f.acme.User.ID}
		before := rowCounts(t, db)
		id := uuid.Must(uuid.NewV7()).String()
		for _, bad := range []string{"nope", "123", "{" + id + "}", "urn:uuid:" + id, strings.ReplaceAll(id, "-", ""), id + "0", "%20" + id} {
			for _, tc := range []struct{ method, path, body string }{
				{http.MethodGet, "/policy/" + bad, ""},
				{http.MethodGet, "/policy/" + bad + "/versions", ""},
				{http.MethodGet, "/policy/" + bad + "/draft", ""},
				{http.MethodPut, "/policy/" + bad, `{"status": "draft"}`},
				{http.MethodDelete, "/policy/" + bad, ""},
				{http.MethodPost, "/run/policy/" + bad, seniorRun},
				{http.MethodPost, "/run/policy_version/" + bad, seniorRun},
			} {
				t.Run(tc.method+" "+tc.path+" is an invalid id", func(t *testing.T) {
					var body any
					if tc.body != "" {
						body = tc.body
					}
					wantError(t, f.call(t, admin, tc.method, tc.path, body), http.StatusBadRequest, service.CodeInvalidArgument)
				})
			}
		}
		for _, tc := range []struct{ name, method, path, body string }{
			{"a limit that is not a number", http.MethodGet, "/policies?limit=ten", ""},
			{"a fractional limit", http.MethodGet, "/policies?limit=1.5", ""},
			{"a limit of zero", http.MethodGet, "/policies?limit=0", ""},
			{"a negative limit", http.MethodGet, "/policies?limit=-1", ""},
			{"a limit given twice", http.MethodGet, "/policies?limit=1&limit=2", ""},
			{"a groupId that is not an id", http.MethodGet, "/policies?groupId=staff", ""},
			{"replace that is not a boolean", http.MethodGet, "/policy/" + id + "/draft?replace=yes", ""},
			{"replace given twice", http.MethodGet, "/policy/" + id + "/draft?replace=true&replace=false", ""},
			{"a PUT without status", http.MethodPut, "/policy/" + id, `{"name": "x"}`},
			{"a PUT with status null", http.MethodPut, "/policy/" + id, `{"status": null}`},
			{"a PUT with an unknown status", http.MethodPut, "/policy/" + id, `{"status": "archived"}`},
			{"a PUT with a status in capitals", http.MethodPut, "/policy/" + id, `{"status": "Published"}`},
			{"a run without data", http.MethodPost, "/run/policy/" + id, `{}`},
		} {
			t.Run("refuses "+tc.name, func(t *testing.T) {
				var body any
				if tc.body != "" {
					body = tc.body
				}
				wantError(t, f.call(t, admin, tc.method, tc.path, body), http.StatusBadRequest, service.CodeInvalidArgument)
			})
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}
		// The control: a well-formed request reaches the service, which
		// fails closed.
		wantError(t, f.call(t, admin, http.MethodGet, "/policies?limit=5&groupId="+id, nil), http.StatusServiceUnavailable, service.CodeAuthorizationUnavailable)
	})
}

func TestPolicyListsPageAndFilter(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		admin := member{key: adminKey, id: f.acme.User.ID}
		for _, name := range []string{"alpha", "beta", "gamma", "delta", "alphabet"} {
			wantStatus(t, f.call(t, admin, http.MethodPost, "/policy", map[string]string{"name": name, "rule": seniorText}), http.StatusCreated)
		}
		var names []string
		cursor := ""
		for pages := 0; pages < 10; pages++ {
			w := f.call(t, admin, http.MethodGet, "/policies?limit=2&cursor="+cursor, nil)
			wantStatus(t, w, http.StatusOK)
			page := decodeStrict[service.Page[service.Summary]](t, w)
			for _, s := range page.Items {
				names = append(names, s.Name)
				if !s.HasDraft || s.DraftID == nil || s.LatestVersion != nil || s.Owner.Kind != authz.OwnerUser {
					t.Errorf("summary %+v", s)
				}
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		if strings.Join(names, ",") != "alphabet,delta,gamma,beta,alpha" {
			t.Errorf("pages gave %v", names)
		}
		w := f.call(t, admin, http.MethodGet, "/policies?q=ALPHA", nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Page[service.Summary]](t, w); len(page.Items) != 2 || page.NextCursor != "" {
			t.Errorf("q=ALPHA gave %s", w.Body)
		}
		wantError(t, f.call(t, admin, http.MethodGet, "/policies?groupId="+uuid.Must(uuid.NewV7()).String(), nil),
			http.StatusNotFound, service.CodeNotFound)
		w = f.call(t, admin, http.MethodGet, "/policies?q=omega", nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Page[service.Summary]](t, w); len(page.Items) != 0 {
			t.Errorf("q=omega lists %s", w.Body)
		}
		if !strings.Contains(w.Body.String(), `"items":[]`) {
			t.Errorf("an empty page must have items [], not null: %s", w.Body)
		}
		wantError(t, f.call(t, admin, http.MethodGet, "/policies?limit=201", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		wantError(t, f.call(t, admin, http.MethodGet, "/policies?cursor=nonsense", nil), http.StatusBadRequest, service.CodeInvalidArgument)
	})
}

// A rollback's path names the version it publishes again: a body member
// would be ignored, so it is refused by name and nothing is published.
func TestARollbackTakesNoFields(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		flow := w.createFlow(t, `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`)
		wantStatus(t, w.call(t, admin, http.MethodPut, "/flow/"+flow.ID.String(), `{"status": "published"}`), http.StatusCreated)
		for _, path := range []string{"/policy/" + w.age.ID.String() + "/rollback", "/flow/" + flow.ID.String() + "/rollback"} {
			before := rowCounts(t, db)
			wantMessage(t, w.call(t, admin, http.MethodPost, path, `{"version": 1, "foo": true}`),
				http.StatusBadRequest, service.CodeInvalidArgument, `unknown field "version"; this request takes no fields`)
			wantMessage(t, w.call(t, admin, http.MethodPost, path, `[]`),
				http.StatusBadRequest, service.CodeInvalidArgument, "the request body must be a JSON object, not an array")
			if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused rollback changed the rows from %v to %v", before, after)
			}
			for i, body := range []string{"", " {} "} {
				w := w.call(t, admin, http.MethodPost, path, body)
				wantStatus(t, w, http.StatusCreated)
				var v struct{ Version int }
				if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || v.Version != i+2 {
					t.Errorf("POST %s with %q published version %d (%v), want %d", path, body, v.Version, err, i+2)
				}
			}
		}
	})
}

// Changing or publishing a published record of a base that has a draft
// names the draft, as making a second draft does, and changes nothing.
func TestChangingAVersionNamesTheBasesDraft(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		r := w.call(t, admin, http.MethodGet, "/policy/"+w.age.ID.String()+"/draft", nil)
		wantStatus(t, r, http.StatusCreated)
		draft := decodeStrict[service.Policy](t, r).ID.String()
		before := rowCounts(t, db)
		for _, id := range []string{w.age.BaseID.String(), w.age.ID.String()} {
			for body, verb := range map[string]string{`{"status": "draft", "name": "x"}`: "change", `{"status": "published"}`: "publish"} {
				wantMessage(t, w.call(t, admin, http.MethodPut, "/policy/"+id, body), http.StatusConflict, service.CodeConflict,
					"record "+w.age.ID.String()+" is published; the base has a draft already: "+draft+"; "+verb+" that one")
			}
		}
		wantMessage(t, w.call(t, admin, http.MethodPut, "/policy/"+w.income.BaseID.String(), `{"status": "draft", "name": "x"}`),
			http.StatusConflict, service.CodeConflict, "record "+w.income.ID.String()+" is published and cannot change; create a draft from it")
		if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
			t.Errorf("refused changes changed the rows from %v to %v", before, after)
		}
		r = w.call(t, admin, http.MethodGet, "/policy/"+draft, nil)
		wantStatus(t, r, http.StatusOK)
		if got := decodeStrict[service.Policy](t, r); got.Name != "P-AGE" || got.Revision != 1 {
			t.Errorf("the draft is now %+v", got)
		}
	})
}

// No draft is at a revision below 1: sending one is a malformed request,
// not a conflict with the draft.
func TestARevisionBelowOneIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		r := w.call(t, admin, http.MethodPost, "/policy", map[string]string{"name": "draft", "rule": ageRule})
		wantStatus(t, r, http.StatusCreated)
		draft := decodeStrict[service.SavedPolicy](t, r)
		flow := w.createFlow(t, `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`)
		before := rowCounts(t, db)
		for _, path := range []string{"/policy/" + draft.ID.String(), "/flow/" + flow.ID.String()} {
			for _, revision := range []string{"0", "-1"} {
				for _, status := range []string{"draft", "published"} {
					wantMessage(t, w.call(t, admin, http.MethodPut, path, `{"status": "`+status+`", "revision": `+revision+`}`),
						http.StatusBadRequest, service.CodeInvalidArgument, "revision must be 1 or more, not "+revision)
				}
			}
		}
		if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
			t.Errorf("refused changes changed the rows from %v to %v", before, after)
		}
	})
}
