package rest

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const adultRun = `{"rule": "A **Person** is an adult if the __age__ of the **Person** is at least 18.", "data": {"Person": {"age": 30}}}`

func TestAuthenticationDecidesWhoMayRun(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		op := f.svc.Operator()
		acme := f.acme.Organization.ID

		revoked, err := op.CreateKey(ctx, service.KeyInput{Organization: acme, Name: "old", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if err := op.RevokeKey(ctx, revoked.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := op.CreateUser(ctx, "audit@acme.test", "Aud"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, acme, "audit@acme.test", authz.RoleAuditor); err != nil {
			t.Fatal(err)
		}
		auditor, err := op.CreateKey(ctx, service.KeyInput{Organization: acme, UserEmail: "audit@acme.test", Name: "audit", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		beta, err := op.CreateOrganization(ctx, "Beta")
		if err != nil {
			t.Fatal(err)
		}
		gamma, err := op.CreateOrganization(ctx, "Gamma")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := op.CreateUser(ctx, "two@example.test", "Two"); err != nil {
			t.Fatal(err)
		}
		for _, org := range []*service.Organization{f.acme.Organization, beta} {
			if err := op.AddMember(ctx, org.ID, "two@example.test", authz.RoleViewer); err != nil {
				t.Fatal(err)
			}
		}
		twoOrgs, err := op.CreateKey(ctx, service.KeyInput{Organization: acme, UserEmail: "two@example.test", Name: "two", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}

		for _, tc := range []struct {
			name   string
			header []string
			status int
			code   service.Code
		}{
			{"a request without a key is unauthenticated", nil, 401, service.CodeUnauthenticated},
			{"an unknown key is unauthenticated", key("rest-test-unknown-key-0123456789abcdef"), 401, service.CodeUnauthenticated},
			{"a revoked key is unauthenticated", key(revoked.Secret), 401, service.CodeUnauthenticated},
			{"a basic authorization is not a key", []string{"Authorization", "Basic " + adminKey}, 401, service.CodeUnauthenticated},
			{"a bearer token is a key", []string{"Authorization", "Bearer " + adminKey}, 200, ""},
			{"the bearer scheme is case-insensitive", []string{"Authorization", "bearer " + adminKey}, 200, ""},
			{"an x-api-key is a key", key(adminKey), 200, ""},
			{"an auditor may not run rules", key(auditor.Secret), 403, service.CodePermissionDenied},
			{"a user of two organizations acts in the key's without x-org-id", key(twoOrgs.Secret), 200, ""},
			{"x-org-id may name the key's organization", append(key(twoOrgs.Secret), "x-org-id", acme.String()), 200, ""},
			{"x-org-id naming the user's other organization is denied", append(key(twoOrgs.Secret), "x-org-id", beta.ID.String()), 403, service.CodePermissionDenied},
			{"x-org-id naming an organization the user is not in is denied", append(key(twoOrgs.Secret), "x-org-id", gamma.ID.String()), 403, service.CodePermissionDenied},
			{"an x-org-id that is not an id is invalid", append(key(twoOrgs.Secret), "x-org-id", "beta"), 400, service.CodeInvalidArgument},
			{"an x-org-id in braces is invalid", append(key(twoOrgs.Secret), "x-org-id", "{"+acme.String()+"}"), 400, service.CodeInvalidArgument},
			{"an x-org-id as a URN is invalid", append(key(twoOrgs.Secret), "x-org-id", "urn:uuid:"+acme.String()), 400, service.CodeInvalidArgument},
			{"an x-org-id without hyphens is invalid", append(key(twoOrgs.Secret), "x-org-id", strings.ReplaceAll(acme.String(), "-", "")), 400, service.CodeInvalidArgument},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := f.run(adultRun, tc.header...)
				if tc.code == "" {
					wantStatus(t, w, tc.status)
					return
				}
				wantError(t, w, tc.status, tc.code)
				if tc.status == 401 && w.Header().Get("WWW-Authenticate") == "" {
					t.Error("a 401 without WWW-Authenticate")
				}
			})
		}
	})
}

// The key of a member who is gone answers as a revoked key does: 401, and
// counted among the address's failed authentications. Removing a member
// revokes the member's keys, but an authentication reading the key just
// before the removal committed reads the membership after it.
func TestAKeyOfAMemberWhoIsGoneIsUnauthenticated(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.limitedServer(Config{RateLimit: -1, OrgRateLimit: -1, AuthFailureLimit: 0.001, AuthFailureBurst: 1})
		ctx := context.Background()
		op := f.svc.Operator()
		acme := f.acme.Organization.ID
		u, err := op.CreateUser(ctx, "gone@acme.test", "Gone")
		if err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, acme, "gone@acme.test", authz.RoleEditor); err != nil {
			t.Fatal(err)
		}
		gone, err := op.CreateKey(ctx, service.KeyInput{Organization: acme, UserEmail: "gone@acme.test", Name: "gone", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		db.Client().Membership.Delete().Where(membership.UserID(u.ID)).ExecX(ctx)

		wantError(t, f.run(adultRun, key(gone.Secret)...), 401, service.CodeUnauthenticated)
		// The one failure the address may make is spent.
		wantError(t, f.run(adultRun, key(adminKey)...), 429, service.CodeRateLimited)
	})
}

// TestARequestCarryingTwoKeysIsRefused: a request whose credentials
// could be read two ways is a 400 before any key is looked up, however
// the keys are sent; the same key in both headers is one key.
func TestARequestCarryingTwoKeysIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		viewer, err := f.svc.Operator().CreateKey(context.Background(), service.KeyInput{
			Organization: f.acme.Organization.ID, Name: "viewer", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		acme := f.acme.Organization.ID.String()
		for _, tc := range []struct {
			name    string
			header  http.Header
			status  int
			message string
		}{
			{"two x-api-key headers", http.Header{"X-Api-Key": {adminKey, viewer.Secret}}, 400,
				"the request carries 2 x-api-key headers; send one API key"},
			{"two x-api-key headers with the same key", http.Header{"X-Api-Key": {adminKey, adminKey}}, 400,
				"the request carries 2 x-api-key headers; send one API key"},
			{"two bearer tokens", http.Header{"Authorization": {"Bearer " + viewer.Secret, "Bearer " + adminKey}}, 400,
				"the request carries 2 authorization headers; send one API key"},
			{"different keys in x-api-key and Authorization", http.Header{"X-Api-Key": {viewer.Secret}, "Authorization": {"Bearer " + adminKey}}, 400,
				"the request carries two different API keys, in x-api-key and in Authorization; send one"},
			{"two x-org-id headers", http.Header{"X-Api-Key": {adminKey}, "X-Org-Id": {acme, acme}}, 400,
				"the request carries 2 x-org-id headers; send one"},
			{"the same key in x-api-key and Authorization", http.Header{"X-Api-Key": {adminKey}, "Authorization": {"Bearer " + adminKey}}, 201, ""},
			{"x-api-key beside an authorization of another scheme", http.Header{"X-Api-Key": {adminKey}, "Authorization": {"Basic " + viewer.Secret}}, 201, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := httptest.NewRequest(http.MethodPost, "/policy", strings.NewReader(`{"name": "Two keys", "rule": "A **Person** gets x if the __age__ of the **Person** is at least 1."}`))
				r.Header = tc.header
				r.Header.Set("Content-Type", "application/json")
				before := rowCounts(t, db)
				w := f.send(r)
				if tc.status == 201 {
					wantStatus(t, w, 201)
					return
				}
				wantError(t, w, tc.status, service.CodeInvalidArgument)
				var body struct{ Error struct{ Message string } }
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Message != tc.message {
					t.Errorf("message %q (%v), want %q", body.Error.Message, err, tc.message)
				}
				if after := rowCounts(t, db); !maps.Equal(before, after) {
					t.Errorf("a refused request changed the tables: %v, then %v", before, after)
				}
			})
		}
	})
}

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// counterTotal is the sum of the counter name's series in reg.
func counterTotal(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, mf := range families {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				n += m.GetCounter().GetValue()
			}
		}
	}
	return n
}

func TestRunFailsClosedWhenTheAuthorizerIsUnreachable(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		remote, err := authz.NewRemote("http://" + closedPort(t))
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, withAuthorizer(remote))
		before := rowCounts(t, db)
		w := f.run(adultRun, key(adminKey)...)
		wantError(t, w, 503, service.CodeAuthorizationUnavailable)
		if strings.Contains(w.Body.String(), `"result"`) {
			t.Errorf("a denied run returned a result: %s", w.Body)
		}
		if n := counterTotal(t, f.reg, "verdict_evaluations_total"); n != 0 {
			t.Errorf("%v evaluations counted; want none when authorization is unavailable", n)
		}
		if after := rowCounts(t, db); !equalCounts(before, after) {
			t.Errorf("rows changed from %v to %v", before, after)
		}
	})
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
