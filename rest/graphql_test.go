package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestGraphQLNeedsAKeyAndThePlaygroundDoesNot(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var seen *service.Principal
		graphQL := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen, _ = service.PrincipalFrom(r.Context())
			w.Write([]byte(`{"data":{}}`))
		})
		playground := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) })
		f := newFixture(t, db, withConfig(func(c *Config) { c.GraphQL, c.Playground = graphQL, playground }))

		wantError(t, f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{viewer{role}}"}`)), 401, service.CodeUnauthenticated)
		if seen != nil {
			t.Fatal("the GraphQL handler ran without a key")
		}
		wantStatus(t, f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{viewer{role}}"}`), key(adminKey)...), 200)
		wantStatus(t, f.do(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D", nil, key(adminKey)...), 200)
		if seen == nil || seen.KeyID != f.acme.Key.ID {
			t.Errorf("the GraphQL handler saw principal %+v, want the admin key's", seen)
		}
		wantStatus(t, f.do(http.MethodGet, "/playground", nil), 200)
		wantError(t, f.do(http.MethodPut, "/graphql", nil, key(adminKey)...), 405, service.CodeInvalidArgument)
	})
}
