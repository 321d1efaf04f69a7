package rest

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// auditor adds an auditor to Acme, with an admin-scoped key.
func (f *fixture) auditor(t *testing.T) member {
	t.Helper()
	ctx := context.Background()
	op := f.svc.Operator()
	u, err := op.CreateUser(ctx, "auditor@acme.test", "Aud")
	if err != nil {
		t.Fatal(err)
	}
	if err := op.AddMember(ctx, f.acme.Organization.ID, "auditor@acme.test", authz.RoleAuditor); err != nil {
		t.Fatal(err)
	}
	k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: "auditor@acme.test", Scope: authz.ScopeAdmin})
	if err != nil {
		t.Fatal(err)
	}
	return member{k.Secret, u.ID}
}

// auditPage reads one page of GET /audit as m.
func (f *fixture) auditPage(t *testing.T, m member, query string) service.Page[service.AuditEvent] {
	t.Helper()
	w := f.call(t, m, http.MethodGet, "/audit"+query, nil)
	wantStatus(t, w, http.StatusOK)
	return decodeStrict[service.Page[service.AuditEvent]](t, w)
}

// byCallers is the page without the operator's events: the setup makes
// the fixture's members and keys as the operator.
func byCallers(page service.Page[service.AuditEvent]) service.Page[service.AuditEvent] {
	page.Items = slices.DeleteFunc(slices.Clone(page.Items), func(ev service.AuditEvent) bool {
		return ev.Actor.Kind == service.ActorOperator
	})
	return page
}

// auditActions are the actions of the page's events the API's callers
// caused, in its order.
func auditActions(page service.Page[service.AuditEvent]) []service.AuditAction {
	var out []service.AuditAction
	for _, ev := range byCallers(page).Items {
		out = append(out, ev.Action)
	}
	return out
}

func TestTheAuditLogOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin, editor := as["admin"], as["editor"]
		auditor := f.auditor(t)

		w := f.call(t, editor, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		w = f.call(t, admin, http.MethodPut, "/policy/"+pol.ID.String(), `{"status": "published"}`)
		wantStatus(t, w, http.StatusCreated)
		f.runStored(t, editor, "/run/policy/"+pol.BaseID.String(), `{"Person": {"age": 70}}`)
		g := f.createGroupAs(t, editor, `{"name": "Pricing"}`)
		wantStatus(t, f.call(t, editor, http.MethodPost, "/group/"+g.ID.String()+"/member",
			`{"kind": "policy", "baseId": "`+pol.BaseID.String()+`"}`), http.StatusCreated)
		f.createGroupAs(t, as["other tenant"], `{"name": "Beta's"}`)
		waitForExecuted(t, db, 1)

		for _, who := range []string{"viewer", "editor", "publisher"} {
			wantError(t, f.call(t, as[who], http.MethodGet, "/audit", nil), http.StatusForbidden, service.CodePermissionDenied)
		}
		wantError(t, f.do(http.MethodGet, "/audit", nil), http.StatusUnauthorized, service.CodeUnauthenticated)

		want := []service.AuditAction{"assigned", "created", "executed", "published", "created"}
		for who, m := range map[string]member{"admin": admin, "auditor": auditor} {
			if got := auditActions(f.auditPage(t, m, "")); !slices.Equal(got, want) {
				t.Errorf("%s reads %v, want %v", who, got, want)
			}
		}
		if got := auditActions(f.auditPage(t, as["other tenant"], "")); !slices.Equal(got, []service.AuditAction{"created"}) {
			t.Errorf("the other tenant reads %v", got)
		}

		// The event's shape: every member present, absent ids null.
		w = f.call(t, auditor, http.MethodGet, "/audit?kind=group", nil)
		wantStatus(t, w, http.StatusOK)
		var raw struct {
			Items []map[string]json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil || len(raw.Items) != 1 {
			t.Fatalf("%s: %v", w.Body, err)
		}
		ev := raw.Items[0]
		wantMembers := map[string]string{
			"action": `"created"`, "kind": `"group"`, "baseId": "null", "recordId": "null",
			"groupId": `"` + g.ID.String() + `"`, "details": `{"name":"Pricing"}`,
			"actor": `{"kind":"user","id":"` + editor.id.String() + `"}`,
		}
		if len(ev) != 9 {
			t.Errorf("an event has %d members, want 9: %s", len(ev), w.Body)
		}
		for name, value := range wantMembers {
			if string(ev[name]) != value {
				t.Errorf("%s is %s, want %s", name, ev[name], value)
			}
		}
		var at time.Time
		if err := json.Unmarshal(ev["at"], &at); err != nil || at.IsZero() {
			t.Errorf("at %s: %v", ev["at"], err)
		}

		all := byCallers(f.auditPage(t, admin, ""))
		published := all.Items[3]
		since := url.QueryEscape(published.At.Format(time.RFC3339Nano))
		filters := []struct {
			query string
			want  []service.AuditAction
		}{
			{"?action=published", []service.AuditAction{"published"}},
			{"?kind=group", []service.AuditAction{"created"}},
			{"?kind=policy&action=created", []service.AuditAction{"created"}},
			{"?baseId=" + pol.BaseID.String(), []service.AuditAction{"assigned", "executed", "published", "created"}},
			{"?actor=" + admin.id.String(), []service.AuditAction{"published"}},
			{"?actor=" + editor.id.String() + "&action=executed", []service.AuditAction{"executed"}},
			{"?since=" + since, []service.AuditAction{"assigned", "created", "executed", "published"}},
			{"?until=" + since, []service.AuditAction{"created"}},
			{"?since=2000-01-01T00:00:00Z&until=2000-01-02T00:00:00%2B01:00", nil},
			{"?limit=2", []service.AuditAction{"assigned", "created"}},
		}
		for _, tc := range filters {
			if got := auditActions(f.auditPage(t, auditor, tc.query)); !slices.Equal(got, tc.want) {
				t.Errorf("GET /audit%s: %v, want %v", tc.query, got, tc.want)
			}
		}

		// Pages follow the cursor, and events stored meanwhile, newer than
		// the first page, do not disturb them.
		whole := f.auditPage(t, admin, "?limit=200")
		var paged []uuid.UUID
		page := f.auditPage(t, admin, "?limit=2")
		for n := 0; ; n++ {
			for _, ev := range page.Items {
				paged = append(paged, ev.ID)
			}
			if page.NextCursor == "" {
				break
			}
			if n < 2 {
				f.createGroupAs(t, editor, `{"name": "meanwhile"}`)
			}
			page = f.auditPage(t, admin, "?limit=2&cursor="+page.NextCursor)
		}
		var ids []uuid.UUID
		for _, ev := range whole.Items {
			ids = append(ids, ev.ID)
		}
		if !slices.Equal(paged, ids) {
			t.Errorf("paged %v, want %v", paged, ids)
		}

		w = f.call(t, admin, http.MethodGet, "/admin/members?limit=1", nil)
		wantStatus(t, w, http.StatusOK)
		membersCursor := decodeStrict[service.Page[service.Member]](t, w).NextCursor
		for _, q := range []string{
			"?action=viewed", "?kind=organization", "?baseId=x", "?actor=" + uuid.NewString()[:8],
			"?since=yesterday", "?until=2030-01-01", "?since=2030-01-01T00:00:00Z&until=2029-01-01T00:00:00Z",
			"?limit=0", "?limit=201", "?limit=ten", "?cursor=nonsense", "?cursor=" + membersCursor,
			"?action=created&action=edited", "?q=x", "?groupId=" + g.ID.String(),
		} {
			t.Run("GET /audit"+q+" is refused", func(t *testing.T) {
				wantError(t, f.call(t, admin, http.MethodGet, "/audit"+q, nil), http.StatusBadRequest, service.CodeInvalidArgument)
			})
		}
	})
}

// The operator's changes of members and keys (verdict admin, the first
// start) are in the organization's log as the API's are, with the
// operator as their actor: kind operator, the nil UUID as id.
func TestTheOperatorsChangesAreListedOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		ctx := context.Background()
		op := f.svc.Operator()
		org := f.acme.Organization.ID
		if _, err := op.CreateUser(ctx, "olga@acme.test", "Olga"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, org, "olga@acme.test", authz.RoleViewer); err != nil {
			t.Fatal(err)
		}
		k, err := op.CreateKey(ctx, service.KeyInput{Organization: org, Scope: authz.ScopeView, Name: "reports"})
		if err != nil {
			t.Fatal(err)
		}
		if err := op.RevokeKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
		f.createGroupAs(t, member{adminKey, f.acme.User.ID}, `{"name": "Pricing"}`)

		// Newest first: the key revoked and created, Olga added, then the
		// bootstrap's key and admin.
		want := []string{"key revoked", "key created", "member added", "key created", "member added"}
		for _, query := range []string{"?kind=member", "?actor=" + uuid.Nil.String(), "?actor=" + uuid.Nil.String() + "&limit=2"} {
			t.Run("GET /audit"+query, func(t *testing.T) {
				w := f.call(t, member{key: adminKey}, http.MethodGet, "/audit"+query, nil)
				wantStatus(t, w, http.StatusOK)
				var page struct {
					Items []struct {
						Action  string          `json:"action"`
						Kind    string          `json:"kind"`
						Actor   json.RawMessage `json:"actor"`
						Details map[string]any  `json:"details"`
					} `json:"items"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, ev := range page.Items {
					got = append(got, ev.Kind+" "+ev.Details["change"].(string))
					if ev.Action != "edited" || string(ev.Actor) != `{"kind":"operator","id":"00000000-0000-0000-0000-000000000000"}` {
						t.Errorf("event %s %s by %s", ev.Action, ev.Kind, ev.Actor)
					}
				}
				wanted := want
				switch query {
				case "?kind=member":
					wanted = []string{"member added", "member added"}
				case "?actor=" + uuid.Nil.String() + "&limit=2":
					wanted = want[:2]
				}
				if !slices.Equal(got, wanted) {
					t.Errorf("events %v, want %v", got, wanted)
				}
			})
		}
		revoked := f.auditPage(t, member{key: adminKey}, "?kind=key&limit=1").Items[0]
		if !maps.Equal(revoked.Details, map[string]any{"change": "revoked", "keyId": k.ID.String(), "name": "reports"}) {
			t.Errorf("the revocation's details %v", revoked.Details)
		}
	})
}
