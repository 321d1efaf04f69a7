package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// The cross-tenant administration paths of the authorization matrix: an
// admin of one organization adding another organization's admin as a
// member, minting keys for users, juggling x-org-id, removing and
// re-adding members, a user in two organizations. Each path is walked over
// REST and over GraphQL, allowed and denied. The rule they check: every
// key acts only in the organization it was created in, with the lower of
// its scope and its user's current role there.

// adminOp is one administration call, the same over both transports.
type adminOp struct {
	method, path, body string // REST
	query              string // GraphQL; its one root field's value is the result
	vars               map[string]any
}

// tenancyTransport sends adminOps one way.
type tenancyTransport struct {
	name string
	send func(f *fixture, secret, org string, op adminOp) (map[string]any, service.Code, string)
}

var tenancyTransports = []tenancyTransport{
	{"REST", func(f *fixture, secret, org string, op adminOp) (map[string]any, service.Code, string) {
		header := append(key(secret), "Content-Type", "application/json")
		if org != "" {
			header = append(header, "x-org-id", org)
		}
		w := f.do(op.method, op.path, strings.NewReader(op.body), header...)
		return decodeAnswer(w.Body.String(), "")
	}},
	{"GraphQL", func(f *fixture, secret, org string, op adminOp) (map[string]any, service.Code, string) {
		header := append(key(secret), "Content-Type", "application/json")
		if org != "" {
			header = append(header, "x-org-id", org)
		}
		doc, _ := json.Marshal(map[string]any{"query": op.query, "variables": op.vars})
		w := f.do(http.MethodPost, "/graphql", strings.NewReader(string(doc)), header...)
		return decodeAnswer(w.Body.String(), "graphql")
	}},
}

// decodeAnswer reads a REST or GraphQL answer into its value and its
// error code ("" on success).
func decodeAnswer(body, transport string) (map[string]any, service.Code, string) {
	var v struct {
		Error  *struct{ Code service.Code } `json:"error"`
		Errors []struct {
			Extensions struct{ Code service.Code } `json:"extensions"`
		} `json:"errors"`
		Data map[string]json.RawMessage `json:"data"`
	}
	var all map[string]any
	json.Unmarshal([]byte(body), &v)
	json.Unmarshal([]byte(body), &all)
	switch {
	case v.Error != nil:
		return nil, v.Error.Code, body
	case len(v.Errors) > 0:
		return nil, v.Errors[0].Extensions.Code, body
	case transport == "graphql":
		for _, raw := range v.Data {
			var field map[string]any
			json.Unmarshal(raw, &field)
			if field == nil { // a Boolean root field, such as removeMember
				field = map[string]any{}
			}
			return field, "", body
		}
	}
	return all, "", body
}

func addMemberOp(email, name string, role authz.Role) adminOp {
	return adminOp{
		method: http.MethodPost, path: "/admin/members",
		body:  fmt.Sprintf(`{"email": %q, "name": %q, "role": %q}`, email, name, role),
		query: `mutation($in: AddMemberInput!) { addMember(input: $in) { user { id email name } role } }`,
		vars:  map[string]any{"in": map[string]any{"email": email, "name": name, "role": strings.ToUpper(string(role))}},
	}
}

func createUserKeyOp(userID string, scope authz.Scope) adminOp {
	return adminOp{
		method: http.MethodPost, path: "/admin/keys",
		body:  fmt.Sprintf(`{"name": "minted", "scope": %q, "userId": %q}`, scope, userID),
		query: `mutation($in: CreateKeyInput!) { createKey(input: $in) { secret key { id } } }`,
		vars:  map[string]any{"in": map[string]any{"name": "minted", "scope": strings.ToUpper(string(scope)), "userId": userID}},
	}
}

func removeMemberOp(userID string) adminOp {
	return adminOp{
		method: http.MethodDelete, path: "/admin/members/" + userID,
		query: `mutation($u: ID!) { removeMember(input: {userId: $u}) }`,
		vars:  map[string]any{"u": userID},
	}
}

func changeRoleOp(userID string, role authz.Role) adminOp {
	return adminOp{
		method: http.MethodPut, path: "/admin/members/" + userID,
		body:  fmt.Sprintf(`{"role": %q}`, role),
		query: `mutation($u: ID!, $r: Role!) { changeMemberRole(input: {userId: $u, role: $r}) { role } }`,
		vars:  map[string]any{"u": userID, "r": strings.ToUpper(string(role))},
	}
}

var listMembersOp = adminOp{
	method: http.MethodGet, path: "/admin/members",
	query: `{ members { edges { node { user { id email name } } } } }`,
}

var createPolicyOp = adminOp{
	method: http.MethodPost, path: "/policy",
	body:  `{"name": "tenancy", "rule": "A **P** is ok if __a__ is empty."}`,
	query: `mutation { createPolicy(input: {name: "tenancy", rule: "A **P** is ok if __a__ is empty."}) { policy { id } } }`,
}

func TestAuthorizationMatrixAcrossTenants(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.srv = newServer(f.svc, Config{
			Registerer: prometheus.NewRegistry(), RateLimit: -1, OrgRateLimit: -1, AuthFailureLimit: -1,
			GraphQL: graph.NewHandler(f.svc, graph.Config{}),
		})
		ctx := context.Background()
		op := f.svc.Operator()
		acme := f.acme.Organization.ID.String()
		ada := f.acme.User.ID.String() // Acme's admin, named Ada
		if _, err := op.CreateUser(ctx, "only@acme.test", "Olive"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, f.acme.Organization.ID, "only@acme.test", authz.RoleEditor); err != nil {
			t.Fatal(err)
		}
		olive := memberID(t, f, "only@acme.test")

		for i, tr := range tenancyTransports {
			t.Run(tr.name, func(t *testing.T) {
				// Each transport gets an organization of its own, whose
				// admin attacks Acme.
				other, err := op.Bootstrap(ctx, service.BootstrapInput{
					Organization: fmt.Sprintf("Other %d", i), Email: fmt.Sprintf("boss@other%d.test", i), Name: "Boss"})
				if err != nil {
					t.Fatal(err)
				}
				otherID := other.Organization.ID.String()
				if _, err := op.CreateUser(ctx, fmt.Sprintf("viewer@other%d.test", i), "Vic"); err != nil {
					t.Fatal(err)
				}
				if err := op.AddMember(ctx, other.Organization.ID, fmt.Sprintf("viewer@other%d.test", i), authz.RoleViewer); err != nil {
					t.Fatal(err)
				}
				viewer, err := op.CreateKey(ctx, service.KeyInput{Organization: other.Organization.ID,
					UserEmail: fmt.Sprintf("viewer@other%d.test", i), Scope: authz.ScopeAdmin})
				if err != nil {
					t.Fatal(err)
				}
				want := func(what string, got service.Code, body string, code service.Code) {
					t.Helper()
					if got != code {
						t.Errorf("%s: code %q, want %q; answer %s", what, got, code, body)
					}
				}
				call := func(secret, org string, o adminOp) (map[string]any, service.Code, string) {
					return tr.send(f, secret, org, o)
				}

				// Adding a member across organizations: a viewer of the
				// other organization may not; its admin may, and learns
				// nothing of the user but what was sent.
				_, code, body := call(viewer.Secret, "", addMemberOp("admin@acme.test", "Guest", authz.RoleViewer))
				want("a viewer adds Acme's admin", code, body, service.CodePermissionDenied)
				added, code, body := call(other.Secret, "", addMemberOp("admin@acme.test", "Guest", authz.RoleViewer))
				want("the other admin adds Acme's admin", code, body, "")
				if user, _ := added["user"].(map[string]any); user["id"] != ada || user["name"] != "Guest" || strings.Contains(body, "Ada") || strings.Contains(body, acme) {
					t.Errorf("adding an existing user answered %s; want the user id and the name sent, nothing of Ada or Acme", body)
				}
				listed, code, body := call(other.Secret, "", listMembersOp)
				want("the other admin lists members", code, body, "")
				if strings.Contains(body, "Ada") || listed == nil {
					t.Errorf("the other organization's member list shows Ada's own name: %s", body)
				}

				// Adding the member changed nothing for Ada's key in Acme,
				// which acts there, with or without x-org-id, and not in the
				// other organization.
				for _, org := range []string{"", acme} {
					_, code, body = call(adminKey, org, createPolicyOp)
					want("Ada's Acme key in Acme with x-org-id "+org, code, body, "")
				}
				_, code, body = call(adminKey, otherID, listMembersOp)
				want("Ada's Acme key naming the other organization", code, body, service.CodePermissionDenied)

				// Minting keys for users: only for members of the minting
				// organization.
				_, code, body = call(other.Secret, "", createUserKeyOp(olive, authz.ScopeAdmin))
				want("the other admin mints a key for an Acme-only user", code, body, service.CodeNotFound)
				_, code, body = call(viewer.Secret, "", createUserKeyOp(ada, authz.ScopeAdmin))
				want("a viewer mints a key", code, body, service.CodePermissionDenied)
				minted, code, body := call(other.Secret, "", createUserKeyOp(ada, authz.ScopeAdmin))
				want("the other admin mints a key for Ada, now its member", code, body, "")
				secret, _ := minted["secret"].(string)

				// x-org-id juggling: the minted key acts in the other
				// organization only, as a viewer there (Ada's role), however
				// admin its scope.
				for _, o := range []adminOp{listMembersOp, createPolicyOp, createUserKeyOp(ada, authz.ScopeAdmin)} {
					_, code, body = call(secret, acme, o)
					want("the minted key naming Acme: "+o.path, code, body, service.CodePermissionDenied)
				}
				_, code, body = call(secret, "", listMembersOp)
				want("the minted key, as a viewer, lists members", code, body, service.CodePermissionDenied)
				_, code, body = call(secret, otherID, createPolicyOp)
				want("the minted key, as a viewer, creates a policy", code, body, service.CodePermissionDenied)
				f.wantViewer(t, secret, otherID, "viewer")
				f.wantViewer(t, adminKey, acme, "admin")

				// A role change in the other organization moves the minted
				// key, and only it: Ada's Acme key stays admin in Acme.
				_, code, body = call(other.Secret, "", changeRoleOp(ada, authz.RoleEditor))
				want("the other admin makes Ada an editor", code, body, "")
				_, code, body = call(secret, "", createPolicyOp)
				want("the minted key, as an editor, creates a policy", code, body, "")
				_, code, body = call(secret, "", createUserKeyOp(ada, authz.ScopeAdmin))
				want("the minted key, as an editor, mints a key", code, body, service.CodePermissionDenied)
				f.wantViewer(t, adminKey, acme, "admin")
				_, code, body = call(other.Secret, acme, changeRoleOp(ada, authz.RoleViewer))
				want("the other admin's key changing a role in Acme", code, body, service.CodePermissionDenied)

				// Removing and re-adding: the minted key stops at once and
				// stays stopped; Ada's Acme key goes on; a new key works.
				_, code, body = call(viewer.Secret, "", removeMemberOp(ada))
				want("a viewer removes Ada", code, body, service.CodePermissionDenied)
				_, code, body = call(other.Secret, acme, removeMemberOp(olive))
				want("the other admin removes an Acme member by naming Acme", code, body, service.CodePermissionDenied)
				_, code, body = call(other.Secret, "", removeMemberOp(olive))
				want("the other admin removes an Acme-only member", code, body, service.CodeNotFound)
				_, code, body = call(other.Secret, "", removeMemberOp(ada))
				want("the other admin removes Ada", code, body, "")
				_, code, body = call(secret, "", createPolicyOp)
				want("the minted key after Ada left", code, body, service.CodeUnauthenticated)
				_, code, body = call(adminKey, "", createPolicyOp)
				want("Ada's Acme key after she left the other organization", code, body, "")
				_, code, body = call(other.Secret, "", addMemberOp("admin@acme.test", "", authz.RoleAdmin))
				want("the other admin adds Ada again", code, body, "")
				_, code, body = call(secret, "", createPolicyOp)
				want("the old minted key after Ada came back", code, body, service.CodeUnauthenticated)
				again, code, body := call(other.Secret, "", createUserKeyOp(ada, authz.ScopeView))
				want("the other admin mints Ada a new key", code, body, "")
				renewed, _ := again["secret"].(string)
				_, code, body = call(renewed, "", createPolicyOp)
				want("the new view-scoped key of an admin creates a policy", code, body, service.CodePermissionDenied)
				f.wantViewer(t, renewed, otherID, "admin")
				_, code, body = call(renewed, acme, listMembersOp)
				want("the new key naming Acme", code, body, service.CodePermissionDenied)

				// Acme never saw any of it.
				_, code, body = call(adminKey, "", listMembersOp)
				want("Ada lists Acme's members", code, body, "")
				if strings.Contains(body, "Boss") || strings.Contains(body, otherID) || strings.Contains(body, "other") {
					t.Errorf("Acme's member list shows the other organization: %s", body)
				}
			})
		}
	})
}

// wantViewer checks, over GraphQL, the organization and role a key acts
// in (the role the key's user has, whatever the scope caps it at).
func (f *fixture) wantViewer(t *testing.T, secret, org, role string) {
	t.Helper()
	w := f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ viewer { organization { id } role } }"}`),
		append(key(secret), "Content-Type", "application/json")...)
	want := fmt.Sprintf(`{"data":{"viewer":{"organization":{"id":%q},"role":%q}}}`, org, strings.ToUpper(role))
	if got := strings.TrimSpace(w.Body.String()); got != want {
		t.Errorf("viewer %s, want %s", got, want)
	}
}

// memberID is the user id of a member of Acme.
func memberID(t *testing.T, f *fixture, email string) string {
	t.Helper()
	page, err := f.svc.Operator().Members(context.Background(), f.acme.Organization.ID, service.ListOptions{Query: email})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("member %s: %v, %v", email, page, err)
	}
	return page.Items[0].User.ID.String()
}
