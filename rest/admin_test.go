package rest

import (
	"context"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/verdict/verdict/graph"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/user"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func memberEmails(page service.Page[service.Member]) []string {
	var out []string
	for _, m := range page.Items {
		out = append(out, m.User.Email+"="+string(m.Role))
	}
	return out
}

// adminEvents reads the `edited` events of a kind from GET /audit.
func (f *fixture) adminEvents(t *testing.T, kind string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, ev := range byCallers(f.auditPage(t, member{key: adminKey}, "?action=edited&kind="+kind)).Items {
		out = append(out, ev.Details)
	}
	return out
}

func TestMembersOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin := as["admin"]
		auditor := f.auditor(t)
		ctx := context.Background()

		for _, m := range []member{as["viewer"], as["editor"], as["publisher"], auditor} {
			wantError(t, f.call(t, m, http.MethodGet, "/admin/members", nil), http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, f.call(t, m, http.MethodPost, "/admin/members", `{"email": "x@acme.test", "role": "viewer"}`), http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, f.call(t, m, http.MethodPut, "/admin/members/"+as["viewer"].id.String(), `{"role": "admin"}`), http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, f.call(t, m, http.MethodDelete, "/admin/members/"+as["viewer"].id.String(), nil), http.StatusForbidden, service.CodePermissionDenied)
		}

		w := f.call(t, admin, http.MethodGet, "/admin/members?limit=4", nil)
		wantStatus(t, w, http.StatusOK)
		page := decodeStrict[service.Page[service.Member]](t, w)
		if got := strings.Join(memberEmails(page), " "); got != "auditor@acme.test=auditor viewer@acme.test=viewer publisher@acme.test=publisher editor2@acme.test=editor" || page.NextCursor == "" {
			t.Errorf("first page %s", got)
		}
		w = f.call(t, admin, http.MethodGet, "/admin/members?limit=4&cursor="+page.NextCursor, nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Page[service.Member]](t, w); strings.Join(memberEmails(page), " ") != "editor@acme.test=editor admin@acme.test=admin" || page.NextCursor != "" {
			t.Errorf("second page %v", memberEmails(page))
		}
		if page.Items[0].User.ID != auditor.id || page.Items[0].User.Name != "Aud" || page.Items[0].CreatedAt.IsZero() {
			t.Errorf("a member %+v", page.Items[0])
		}

		// Adding.
		w = f.call(t, admin, http.MethodPost, "/admin/members", `{"email": "New@Acme.test", "name": "Nina", "role": "publisher"}`)
		wantStatus(t, w, http.StatusCreated)
		nina := decodeStrict[service.Member](t, w)
		stored := db.Client().User.Query().Where(user.Email("new@acme.test")).OnlyX(ctx)
		if nina.User != (service.User{ID: stored.ID, Email: "new@acme.test", Name: "Nina"}) || nina.Role != authz.RolePublisher {
			t.Errorf("added %+v", nina)
		}
		for _, tc := range []struct {
			name, body string
			status     int
			code       service.Code
		}{
			{"a member already, by another case of the email", `{"email": "NEW@acme.test", "role": "viewer"}`, 409, service.CodeConflict},
			{"an unknown role", `{"email": "z@acme.test", "role": "owner"}`, 400, service.CodeInvalidArgument},
			{"no role", `{"email": "z@acme.test"}`, 400, service.CodeInvalidArgument},
			{"no email", `{"role": "viewer"}`, 400, service.CodeInvalidArgument},
			{"an invalid email", `{"email": "z", "role": "viewer"}`, 400, service.CodeInvalidArgument},
		} {
			t.Run("adding refuses "+tc.name, func(t *testing.T) {
				wantError(t, f.call(t, admin, http.MethodPost, "/admin/members", tc.body), tc.status, tc.code)
			})
		}

		// Changing a role.
		ninaPath := "/admin/members/" + nina.User.ID.String()
		w = f.call(t, admin, http.MethodPut, ninaPath, `{"role": "editor"}`)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.Member](t, w); got.Role != authz.RoleEditor || got.User != nina.User {
			t.Errorf("changed %+v", got)
		}
		if m := db.Client().Membership.Query().Where(membership.UserID(nina.User.ID)).OnlyX(ctx); m.Role != membership.RoleEditor {
			t.Errorf("stored role %s", m.Role)
		}
		adminPath := "/admin/members/" + f.acme.User.ID.String()
		for _, tc := range []struct {
			name, path, body string
			status           int
			code             service.Code
		}{
			{"demoting the last admin", adminPath, `{"role": "publisher"}`, 409, service.CodeConflict},
			{"an unknown user", "/admin/members/" + uuid.NewString(), `{"role": "viewer"}`, 404, service.CodeNotFound},
			{"another tenant's user", "/admin/members/" + as["other tenant"].id.String(), `{"role": "viewer"}`, 404, service.CodeNotFound},
			{"an id that is not one", "/admin/members/nina", `{"role": "viewer"}`, 400, service.CodeInvalidArgument},
			{"an unknown role", ninaPath, `{"role": "owner"}`, 400, service.CodeInvalidArgument},
		} {
			t.Run("changing a role refuses "+tc.name, func(t *testing.T) {
				wantError(t, f.call(t, admin, http.MethodPut, tc.path, tc.body), tc.status, tc.code)
			})
		}
		wantError(t, f.call(t, admin, http.MethodDelete, adminPath, nil), http.StatusConflict, service.CodeConflict)
		wantError(t, f.call(t, as["other tenant"], http.MethodDelete, ninaPath, nil), http.StatusNotFound, service.CodeNotFound)

		// Removing: the member's key fails at once with 401, its key being
		// revoked with the membership.
		k, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: "new@acme.test", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		ninaKey := member{k.Secret, nina.User.ID}
		wantStatus(t, f.call(t, ninaKey, http.MethodGet, "/policies", nil), http.StatusOK)
		w = f.call(t, admin, http.MethodDelete, ninaPath, nil)
		wantStatus(t, w, http.StatusNoContent)
		if w.Body.Len() != 0 {
			t.Errorf("204 with a body %s", w.Body)
		}
		wantError(t, f.call(t, ninaKey, http.MethodGet, "/policies", nil), http.StatusUnauthorized, service.CodeUnauthenticated)
		if db.Client().Membership.Query().Where(membership.UserID(nina.User.ID)).ExistX(ctx) {
			t.Error("the membership is still stored")
		}
		if key := db.Client().APIKey.GetX(ctx, k.ID); key.RevokedAt == nil {
			t.Error("the member's key is not revoked")
		}
		wantError(t, f.call(t, admin, http.MethodDelete, ninaPath, nil), http.StatusNotFound, service.CodeNotFound)

		events := f.adminEvents(t, "member")
		var changes []string
		for _, d := range events {
			changes = append(changes, d["change"].(string))
		}
		if strings.Join(changes, ",") != "removed,role,added" {
			t.Fatalf("member events %v", events)
		}
		if role := events[1]; role["from"] != "publisher" || role["to"] != "editor" || role["userId"] != nina.User.ID.String() {
			t.Errorf("role event %v", role)
		}
		if removed := events[0]; removed["keysRevoked"] != float64(1) || removed["role"] != "editor" {
			t.Errorf("removal event %v", removed)
		}
	})
}

func TestKeysOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin := as["admin"]
		auditor := f.auditor(t)
		ctx := context.Background()

		for _, m := range []member{as["viewer"], as["editor"], as["publisher"], auditor} {
			wantError(t, f.call(t, m, http.MethodGet, "/admin/keys", nil), http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, f.call(t, m, http.MethodPost, "/admin/keys", `{"name": "k", "scope": "view"}`), http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, f.call(t, m, http.MethodDelete, "/admin/keys/"+f.acme.Key.ID.String(), nil), http.StatusForbidden, service.CodePermissionDenied)
		}

		expires := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		w := f.call(t, admin, http.MethodPost, "/admin/keys", `{"name": "reports", "scope": "view", "expiresAt": "`+expires.Format(time.RFC3339)+`"}`)
		wantStatus(t, w, http.StatusCreated)
		orgKey := decodeStrict[service.CreatedKey](t, w)
		if orgKey.Owner != (service.Owner{Kind: authz.OwnerOrganization, ID: f.acme.Organization.ID}) || orgKey.Name != "reports" ||
			orgKey.Scope != authz.ScopeView || orgKey.ExpiresAt == nil || !orgKey.ExpiresAt.Equal(expires) ||
			orgKey.RevokedAt != nil || orgKey.LastUsedAt != nil || !strings.HasPrefix(orgKey.Secret, orgKey.Prefix) {
			t.Errorf("organization key %+v", orgKey)
		}
		w = f.call(t, admin, http.MethodPost, "/admin/keys", `{"name": "ci", "scope": "publish", "userId": "`+as["editor"].id.String()+`"}`)
		wantStatus(t, w, http.StatusCreated)
		userKey := decodeStrict[service.CreatedKey](t, w)
		if userKey.Owner != (service.Owner{Kind: authz.OwnerUser, ID: as["editor"].id}) || userKey.ExpiresAt != nil {
			t.Errorf("user key %+v", userKey)
		}
		// The new keys work, each within its owner's permissions.
		wantStatus(t, f.call(t, member{key: orgKey.Secret}, http.MethodGet, "/policies", nil), http.StatusOK)
		w = f.call(t, member{key: orgKey.Secret}, http.MethodPost, "/policy", seniorPolicy)
		wantError(t, w, http.StatusForbidden, service.CodePermissionDenied)
		// The refusal says whether the key's scope or its owner's role refused.
		if got := decodeStrict[errorWithDetails](t, w).Error.Message; got != "not allowed to create (scope_forbids_action)" {
			t.Errorf("organization view key creating: %q", got)
		}
		w = f.call(t, as["viewer"], http.MethodPost, "/admin/keys", `{"name": "k", "scope": "view"}`)
		if got := decodeStrict[errorWithDetails](t, w).Error.Message; got != "not allowed to manage_keys (role_forbids_action)" {
			t.Errorf("viewer creating a key: %q", got)
		}
		wantStatus(t, f.call(t, member{key: userKey.Secret}, http.MethodPost, "/policy", seniorPolicy), http.StatusCreated)

		past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
		for _, tc := range []struct {
			name, body string
			status     int
			code       service.Code
		}{
			{"a user who is not a member", `{"name": "k", "scope": "view", "userId": "` + as["other tenant"].id.String() + `"}`, 404, service.CodeNotFound},
			{"an unknown user", `{"name": "k", "scope": "view", "userId": "` + uuid.NewString() + `"}`, 404, service.CodeNotFound},
			{"an expiry in the past", `{"name": "k", "scope": "view", "expiresAt": "` + past + `"}`, 400, service.CodeInvalidArgument},
			{"an expiry that is not RFC 3339", `{"name": "k", "scope": "view", "expiresAt": "tomorrow"}`, 400, service.CodeInvalidArgument},
			{"an unknown scope", `{"name": "k", "scope": "root"}`, 400, service.CodeInvalidArgument},
			{"no name", `{"scope": "view"}`, 400, service.CodeInvalidArgument},
			{"a blank name", `{"name": " ", "scope": "view"}`, 400, service.CodeInvalidArgument},
			{"no scope", `{"name": "k"}`, 400, service.CodeInvalidArgument},
			{"a user id that is not one", `{"name": "k", "scope": "view", "userId": "ed"}`, 400, service.CodeInvalidArgument},
		} {
			t.Run("creating refuses "+tc.name, func(t *testing.T) {
				before := rowCounts(t, db)
				wantError(t, f.call(t, admin, http.MethodPost, "/admin/keys", tc.body), tc.status, tc.code)
				if after := rowCounts(t, db); !equalCounts(before, after) {
					t.Errorf("rows changed from %v to %v", before, after)
				}
			})
		}

		w = f.call(t, admin, http.MethodGet, "/admin/keys?limit=2", nil)
		wantStatus(t, w, http.StatusOK)
		body := w.Body.String()
		page := decodeStrict[service.Page[service.Key]](t, w)
		if len(page.Items) != 2 || page.Items[0].ID != userKey.ID || page.Items[1].ID != orgKey.ID || page.NextCursor == "" {
			t.Errorf("first page %+v", page)
		}
		hash := db.Client().APIKey.GetX(ctx, orgKey.ID).Hash
		for _, secret := range []string{orgKey.Secret, userKey.Secret, hash, `"secret"`, `"hash"`} {
			if strings.Contains(body, secret) {
				t.Errorf("the key list shows %s", secret)
			}
		}
		w = f.call(t, admin, http.MethodGet, "/admin/keys?limit=200", nil)
		wantStatus(t, w, http.StatusOK)
		acmeKeys := db.Client().APIKey.Query().Where(apikey.OrganizationID(f.acme.Organization.ID)).CountX(ctx)
		if page := decodeStrict[service.Page[service.Key]](t, w); len(page.Items) != acmeKeys {
			t.Errorf("%d keys listed, want Acme's %d", len(page.Items), acmeKeys)
		}

		// Revoking.
		path := "/admin/keys/" + orgKey.ID.String()
		wantError(t, f.call(t, as["other tenant"], http.MethodDelete, path, nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, admin, http.MethodDelete, "/admin/keys/"+uuid.NewString(), nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, f.call(t, admin, http.MethodDelete, "/admin/keys/reports", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		w = f.call(t, admin, http.MethodDelete, path, nil)
		wantStatus(t, w, http.StatusNoContent)
		wantError(t, f.call(t, member{key: orgKey.Secret}, http.MethodGet, "/policies", nil), http.StatusUnauthorized, service.CodeUnauthenticated)
		wantError(t, f.call(t, admin, http.MethodDelete, path, nil), http.StatusNotFound, service.CodeNotFound)
		w = f.call(t, admin, http.MethodGet, "/admin/keys?q=reports", nil)
		wantStatus(t, w, http.StatusOK)
		if page := decodeStrict[service.Page[service.Key]](t, w); len(page.Items) != 1 || page.Items[0].RevokedAt == nil {
			t.Errorf("the revoked key is listed as %+v", page)
		}

		events := f.adminEvents(t, "key")
		var changes []string
		for _, d := range events {
			changes = append(changes, d["change"].(string)+" "+d["name"].(string))
		}
		if strings.Join(changes, ",") != "revoked reports,created ci,created reports" {
			t.Errorf("key events %v", events)
		}
	})
}

func TestValuesTheServiceChecksAreRefusedInItsWords(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		as := f.team(t)
		admin, editor := as["admin"], as["editor"]
		groupPath := "/group/" + f.createGroupAs(t, editor, `{"name": "Pricing"}`).ID.String() + "/member"
		for _, tc := range []struct {
			name         string
			m            member
			method, path string
			body, want   string
		}{
			{"a member without a role", admin, http.MethodPost, "/admin/members", `{"email": "x@acme.test"}`,
				"role must be viewer, editor, publisher, admin or auditor"},
			{"a member with a null email", admin, http.MethodPost, "/admin/members", `{"email": null, "role": "viewer"}`, "email is required"},
			{"a member without an email", admin, http.MethodPost, "/admin/members", `{"role": "viewer"}`, "email is required"},
			{"a member with a blank email", admin, http.MethodPost, "/admin/members", `{"email": "  ", "role": "viewer"}`, "email is required"},
			{"a member with an email that is not one", admin, http.MethodPost, "/admin/members", `{"email": "x", "role": "viewer"}`,
				`"x" is not an email address`},
			{"a role that is not one", admin, http.MethodPut, "/admin/members/" + as["viewer"].id.String(), `{"role": "root"}`,
				"role must be viewer, editor, publisher, admin or auditor"},
			{"a key without a name", admin, http.MethodPost, "/admin/keys", `{"scope": "view"}`, "name is required"},
			{"a key without a scope", admin, http.MethodPost, "/admin/keys", `{"name": "k"}`, "scope must be view, edit, publish or admin"},
			{"a group member without a kind", editor, http.MethodPost, groupPath, `{"baseId": "` + uuid.NewString() + `"}`,
				`kind must be "policy" or "flow"`},
			{"a page of none", admin, http.MethodGet, "/admin/keys?limit=0", "", "limit must be between 1 and 200, not 0"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var body any
				if tc.body != "" {
					body = tc.body
				}
				w := f.call(t, tc.m, tc.method, tc.path, body)
				wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
				if got := decodeStrict[errorWithDetails](t, w).Error.Message; got != tc.want {
					t.Errorf("message %q, want %q", got, tc.want)
				}
			})
		}
	})
}

func TestAnswersToAKeyAreNotToBeStored(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.srv = newServer(f.svc, Config{Registerer: prometheus.NewRegistry(), GraphQL: graph.NewHandler(f.svc, graph.Config{})})
		for _, w := range []*httptest.ResponseRecorder{
			f.do(http.MethodPost, "/admin/keys", strings.NewReader(`{"name": "reports", "scope": "view"}`), append(key(adminKey), "Content-Type", "application/json")...),
			f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query": "mutation { createKey(input: {name: \"ci\", scope: VIEW}) { secret } }"}`), append(key(adminKey), "Content-Type", "application/json")...),
		} {
			if w.Code != http.StatusOK && w.Code != http.StatusCreated {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if !strings.Contains(w.Body.String(), `"secret"`) {
				t.Fatalf("no secret in %s", w.Body)
			}
			if cc, ns := w.Header().Get("Cache-Control"), w.Header().Get("X-Content-Type-Options"); cc != "no-store" || ns != "nosniff" {
				t.Errorf("Cache-Control %q, X-Content-Type-Options %q on %s", cc, ns, w.Body)
			}
		}
	})
}
