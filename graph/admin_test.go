package graph_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const membersQuery = `query M($first: Int, $after: String, $query: String) {
  members(first: $first, after: $after, query: $query) {
    edges { node { user { id email name } role createdAt } }
    pageInfo { hasNextPage endCursor }
  }
}`

const addMemberMutation = `mutation A($input: AddMemberInput!) { addMember(input: $input) { user { id email name } role createdAt } }`

const changeRoleMutation = `mutation C($userId: ID!, $role: Role!) { changeMemberRole(input: {userId: $userId, role: $role}) { user { id email } role } }`

const removeMemberMutation = `mutation R($userId: ID!) { removeMember(input: {userId: $userId}) }`

const keysQuery = `query K($first: Int, $after: String, $query: String) {
  keys(first: $first, after: $after, query: $query) {
    edges { cursor node { id name prefix scope owner { kind id } createdAt lastUsedAt expiresAt revokedAt } }
    pageInfo { hasNextPage endCursor }
  }
}`

const createKeyMutation = `mutation K($input: CreateKeyInput!) {
  createKey(input: $input) { secret key { id name prefix scope owner { kind id } createdAt expiresAt revokedAt } }
}`

const revokeKeyMutation = `mutation R($id: ID!) { revokeKey(input: {id: $id}) }`

type memberData struct {
	User      struct{ ID, Email, Name string }
	Role      string
	CreatedAt string
}

type keyData struct {
	ID, Name, Prefix, Scope string
	Owner                   struct{ Kind, ID string }
	CreatedAt               string
	LastUsedAt              *string
	ExpiresAt, RevokedAt    *string
}

func TestAdminsManageMembersAndTheirRoles(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)

		var added struct{ AddMember memberData }
		f.post(t, adminKey, addMemberMutation, map[string]any{"input": map[string]any{"email": "Nora@Acme.test", "name": "Nora", "role": "VIEWER"}}).
			decode(t, &added)
		nora := added.AddMember
		if nora.User.ID == "" || nora.User.Email != "nora@acme.test" || nora.User.Name != "Nora" || nora.Role != "VIEWER" || nora.CreatedAt == "" {
			t.Fatalf("added %+v", nora)
		}
		f.post(t, adminKey, addMemberMutation, map[string]any{"input": map[string]any{"email": "nora@acme.test", "role": "EDITOR"}}).
			failure(t, service.CodeConflict)
		f.post(t, adminKey, addMemberMutation, map[string]any{"input": map[string]any{"email": "not an address", "role": "EDITOR"}}).
			failure(t, service.CodeInvalidArgument)
		f.post(t, editor, addMemberMutation, map[string]any{"input": map[string]any{"email": "x@acme.test", "role": "ADMIN"}}).
			failure(t, service.CodePermissionDenied)

		var members struct {
			Members struct {
				Edges    []struct{ Node memberData }
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		f.post(t, adminKey, membersQuery, map[string]any{"first": 2}).decode(t, &members)
		if c := members.Members; len(c.Edges) != 2 || c.Edges[0].Node.User.Email != "nora@acme.test" || c.Edges[1].Node.User.Email != "edith@acme.test" ||
			!c.PageInfo.HasNextPage || c.PageInfo.EndCursor == nil {
			t.Fatalf("first page %+v", c)
		}
		f.post(t, adminKey, membersQuery, map[string]any{"after": *members.Members.PageInfo.EndCursor}).decode(t, &members)
		if c := members.Members; len(c.Edges) != 1 || c.Edges[0].Node.User.ID != f.boot.User.ID.String() || c.Edges[0].Node.Role != "ADMIN" || c.PageInfo.HasNextPage {
			t.Errorf("second page %+v", c)
		}
		f.post(t, adminKey, membersQuery, map[string]any{"query": "NORA"}).decode(t, &members)
		if len(members.Members.Edges) != 1 {
			t.Errorf("query NORA: %+v", members.Members)
		}
		f.post(t, editor, membersQuery, nil).failure(t, service.CodePermissionDenied)

		var changed struct{ ChangeMemberRole memberData }
		f.post(t, adminKey, changeRoleMutation, map[string]any{"userId": nora.User.ID, "role": "PUBLISHER"}).decode(t, &changed)
		if changed.ChangeMemberRole.Role != "PUBLISHER" || changed.ChangeMemberRole.User.ID != nora.User.ID {
			t.Errorf("changed %+v", changed.ChangeMemberRole)
		}
		admin := f.boot.User.ID.String()
		f.post(t, adminKey, changeRoleMutation, map[string]any{"userId": admin, "role": "EDITOR"}).failure(t, service.CodeConflict)
		f.post(t, adminKey, removeMemberMutation, map[string]any{"userId": admin}).failure(t, service.CodeConflict)
		f.post(t, adminKey, changeRoleMutation, map[string]any{"userId": "00000000-0000-0000-0000-000000000000", "role": "EDITOR"}).
			failure(t, service.CodeNotFound)

		var removed struct{ RemoveMember bool }
		f.post(t, adminKey, removeMemberMutation, map[string]any{"userId": nora.User.ID}).decode(t, &removed)
		if !removed.RemoveMember {
			t.Fatal("removeMember = false, want true")
		}
		f.post(t, adminKey, removeMemberMutation, map[string]any{"userId": nora.User.ID}).failure(t, service.CodeNotFound)
		f.post(t, editor, removeMemberMutation, map[string]any{"userId": admin}).failure(t, service.CodePermissionDenied)
	})
}

func TestAdminsCreateListAndRevokeKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)
		expires := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)

		var created struct {
			CreateKey struct {
				Secret string
				Key    keyData
			}
		}
		f.post(t, adminKey, createKeyMutation, map[string]any{"input": map[string]any{
			"name": "ci", "scope": "PUBLISH", "expiresAt": expires.Format(time.RFC3339),
		}}).decode(t, &created)
		k := created.CreateKey
		if k.Secret == "" || k.Key.Prefix == "" || k.Secret[:len(k.Key.Prefix)] != k.Key.Prefix || k.Key.Name != "ci" || k.Key.Scope != "PUBLISH" ||
			k.Key.Owner.Kind != "ORGANIZATION" || k.Key.Owner.ID != f.boot.Organization.ID.String() ||
			k.Key.ExpiresAt == nil || *k.Key.ExpiresAt != expires.Format(time.RFC3339) || k.Key.RevokedAt != nil {
			t.Fatalf("created %+v", k)
		}
		var v viewerData
		f.post(t, k.Secret, viewerQuery, nil).decode(t, &v)
		if v.Viewer.Key.ID != k.Key.ID || v.Viewer.Role != "PUBLISHER" {
			t.Errorf("the new key acts as %+v", v.Viewer)
		}

		var userKey struct {
			CreateKey struct {
				Secret string
				Key    keyData
			}
		}
		f.post(t, adminKey, createKeyMutation, map[string]any{"input": map[string]any{
			"name": "ada's", "scope": "VIEW", "userId": f.boot.User.ID.String(),
		}}).decode(t, &userKey)
		if o := userKey.CreateKey.Key.Owner; o.Kind != "USER" || o.ID != f.boot.User.ID.String() {
			t.Errorf("a user's key is owned by %+v", o)
		}

		for name, input := range map[string]map[string]any{
			"a blank name":          {"name": " ", "scope": "VIEW"},
			"an expiry in the past": {"name": "old", "scope": "VIEW", "expiresAt": "2020-01-01T00:00:00Z"},
		} {
			t.Run(name+" is an invalid argument", func(t *testing.T) {
				f.post(t, adminKey, createKeyMutation, map[string]any{"input": input}).failure(t, service.CodeInvalidArgument)
			})
		}
		f.post(t, adminKey, createKeyMutation, map[string]any{"input": map[string]any{
			"name": "stranger's", "scope": "VIEW", "userId": "00000000-0000-0000-0000-000000000000",
		}}).failure(t, service.CodeNotFound)
		f.post(t, editor, createKeyMutation, map[string]any{"input": map[string]any{"name": "x", "scope": "VIEW"}}).
			failure(t, service.CodePermissionDenied)

		var keys struct {
			Keys struct {
				Edges []struct {
					Cursor string
					Node   keyData
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		// A key's use is written in the background, after its request.
		for waited := time.Duration(0); ; waited += 10 * time.Millisecond {
			f.post(t, adminKey, keysQuery, map[string]any{"first": 2}).decode(t, &keys)
			if c := keys.Keys; len(c.Edges) != 2 || c.Edges[1].Node.LastUsedAt != nil || waited > 30*time.Second {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if c := keys.Keys; len(c.Edges) != 2 || c.Edges[0].Node.ID != userKey.CreateKey.Key.ID || c.Edges[1].Node.ID != k.Key.ID ||
			!c.PageInfo.HasNextPage || *c.PageInfo.EndCursor != c.Edges[1].Cursor || c.Edges[1].Node.LastUsedAt == nil {
			t.Fatalf("first page %+v", c)
		}
		f.post(t, adminKey, keysQuery, map[string]any{"query": "CI"}).decode(t, &keys)
		if len(keys.Keys.Edges) != 1 || keys.Keys.Edges[0].Node.ID != k.Key.ID {
			t.Errorf("query CI: %+v", keys.Keys)
		}
		f.post(t, editor, keysQuery, nil).failure(t, service.CodePermissionDenied)

		var revoked struct{ RevokeKey bool }
		f.post(t, adminKey, revokeKeyMutation, map[string]any{"id": k.Key.ID}).decode(t, &revoked)
		if !revoked.RevokeKey {
			t.Fatal("revokeKey = false, want true")
		}
		if _, err := f.svc.Authenticate(t.Context(), k.Secret, ""); service.CodeOf(err) != service.CodeUnauthenticated {
			t.Errorf("the revoked key authenticates: %v", err)
		}
		f.post(t, adminKey, revokeKeyMutation, map[string]any{"id": k.Key.ID}).failure(t, service.CodeNotFound)
		f.post(t, adminKey, keysQuery, map[string]any{"query": "CI"}).decode(t, &keys)
		if len(keys.Keys.Edges) != 1 || keys.Keys.Edges[0].Node.RevokedAt == nil {
			t.Errorf("the revoked key is listed as %+v", keys.Keys.Edges)
		}

		beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		f.post(t, beta.Secret, revokeKeyMutation, map[string]any{"id": userKey.CreateKey.Key.ID}).failure(t, service.CodeNotFound)
	})
}

// TestEachMutationActsWithWhatTheKeyMayDoWhenItRuns: the mutations of one
// document run in turn, and one that revokes the caller's key, removes
// them or lowers their role holds for the mutations after it.
func TestEachMutationActsWithWhatTheKeyMayDoWhenItRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx, op := t.Context(), f.svc.Operator()
		admin := func(name string) (userID, keyID, secret string) {
			t.Helper()
			u, err := op.CreateUser(ctx, name+"@acme.test", name)
			if err != nil {
				t.Fatal(err)
			}
			if err := op.AddMember(ctx, f.boot.Organization.ID, name+"@acme.test", authz.RoleAdmin); err != nil {
				t.Fatal(err)
			}
			k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.boot.Organization.ID, UserEmail: name + "@acme.test", Name: name, Scope: authz.ScopeAdmin})
			if err != nil {
				t.Fatal(err)
			}
			return u.ID.String(), k.ID.String(), k.Secret
		}
		lateKey := ` late: createKey(input: {name: "late", scope: ADMIN}) { secret } }`

		// Allowed: nothing changes between the mutations.
		_, _, secret := admin("ann")
		var both struct{ First, Late *struct{ Secret string } }
		f.post(t, secret, `mutation { first: createKey(input: {name: "first", scope: VIEW}) { secret }`+lateKey, nil).decode(t, &both)
		if both.First == nil || both.Late == nil || both.Late.Secret == "" {
			t.Fatalf("two mutations of an admin: %+v", both)
		}

		// Each first mutation is given the caller's user id, or with
		// ofKey their key's id.
		cases := []struct {
			name, mutation string
			ofKey          bool
			code           service.Code
		}{
			{"a lowered role", `d: changeMemberRole(input: {userId: $id, role: VIEWER}) { role }`, false, service.CodePermissionDenied},
			{"a revoked key", `r: revokeKey(input: {id: $id})`, true, service.CodeUnauthenticated},
			{"a removed member", `m: removeMember(input: {userId: $id})`, false, service.CodeUnauthenticated},
		}
		for i, tc := range cases {
			id, key, secret := admin(fmt.Sprintf("bea%d", i))
			if tc.ofKey {
				id = key
			}
			res := f.post(t, secret, `mutation($id: ID!) { `+tc.mutation+lateKey, map[string]any{"id": id})
			if e := res.fieldFailure(t, tc.code); len(e.Path) != 1 || e.Path[0] != "late" {
				t.Errorf("%s: the error is at %v, want late", tc.name, e.Path)
			}
		}
		var keys struct {
			Keys struct{ Edges []struct{ Node keyData } }
		}
		f.post(t, adminKey, keysQuery, map[string]any{"first": 100}).decode(t, &keys)
		late := 0
		for _, e := range keys.Keys.Edges {
			if e.Node.Name == "late" {
				late++
			}
		}
		if late != 1 {
			t.Errorf("%d keys named late, want the one the allowed document created", late)
		}
	})
}
