package graph_test

import (
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const viewerQuery = `{
  viewer {
    user { id email name }
    organization { id name }
    role
    key { id name prefix scope owner { kind id } }
  }
}`

type viewerData struct {
	Viewer struct {
		User *struct {
			ID, Email, Name string
		}
		Organization struct{ ID, Name string }
		Role         string
		Key          struct {
			ID, Name, Prefix, Scope string
			Owner                   struct{ Kind, ID string }
		}
	}
}

func TestViewerDescribesTheCallerTheirOrganizationRoleAndKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		var got viewerData
		f.post(t, adminKey, viewerQuery, nil).decode(t, &got)
		v, b := got.Viewer, f.boot
		if v.User == nil || v.User.ID != b.User.ID.String() || v.User.Email != "admin@acme.test" || v.User.Name != "Ada Admin" {
			t.Errorf("user = %+v, want %+v", v.User, b.User)
		}
		if v.Organization.ID != b.Organization.ID.String() || v.Organization.Name != "Acme" {
			t.Errorf("organization = %+v, want %+v", v.Organization, b.Organization)
		}
		if v.Role != "ADMIN" {
			t.Errorf("role = %s, want ADMIN", v.Role)
		}
		k := v.Key
		if k.ID != b.Key.ID.String() || k.Name != "bootstrap" || k.Prefix != b.Key.Prefix || k.Scope != "ADMIN" {
			t.Errorf("key = %+v, want %+v", k, b.Key)
		}
		if k.Prefix == "" || len(k.Prefix) >= len(adminKey) {
			t.Errorf("key prefix %q is not a prefix of the secret", k.Prefix)
		}
		if k.Owner.Kind != "USER" || k.Owner.ID != b.User.ID.String() {
			t.Errorf("key owner = %+v, want the user %s", k.Owner, b.User.ID)
		}
	})
}

func TestAnOrganizationKeyHasNoUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		key, err := f.svc.Operator().CreateKey(t.Context(), service.KeyInput{
			Organization: f.boot.Organization.ID, Name: "ci", Scope: authz.ScopePublish,
		})
		if err != nil {
			t.Fatal(err)
		}
		var got viewerData
		f.post(t, key.Secret, viewerQuery, nil).decode(t, &got)
		v := got.Viewer
		if v.User != nil {
			t.Errorf("user = %+v, want null", v.User)
		}
		if v.Role != "PUBLISHER" || v.Key.Scope != "PUBLISH" {
			t.Errorf("role %s, scope %s; want PUBLISHER, PUBLISH", v.Role, v.Key.Scope)
		}
		if v.Key.Owner.Kind != "ORGANIZATION" || v.Key.Owner.ID != f.boot.Organization.ID.String() {
			t.Errorf("key owner = %+v, want the organization", v.Key.Owner)
		}
	})
}

func TestARequestWithoutACallerIsUnauthenticated(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for name, query := range map[string]string{
			"viewer":  viewerQuery,
			"runRule": `mutation { runRule(input: {rule: "A **P** is ok if the __a__ of the **P** is 1.", data: {P: {a: 1}}}) { result } }`,
		} {
			t.Run(name, func(t *testing.T) {
				f.post(t, "", query, nil).failure(t, service.CodeUnauthenticated)
			})
		}
	})
}
