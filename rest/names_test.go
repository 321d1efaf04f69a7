package rest

import (
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestAQueryParameterARouteDoesNotReadIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := member{key: adminKey}
		w := f.call(t, admin, http.MethodPost, "/policy", seniorPolicy)
		wantStatus(t, w, http.StatusCreated)
		var pol service.SavedPolicy
		decode(t, w.Body.Bytes(), &pol)

		for _, tc := range []struct{ path, message string }{
			{"/decisions?baseID=" + pol.BaseID.String(),
				`unknown query parameter "baseID" (did you mean "baseId"?); GET /decisions reads limit, cursor, baseId, result, since and until`},
			{"/policies?limt=5",
				`unknown query parameter "limt" (did you mean "limit"?); GET /policies reads limit, cursor, q, groupId and notInGroupId`},
			{"/audit?base_id=" + pol.BaseID.String(),
				`unknown query parameter "base_id" (did you mean "baseId"?); GET /audit reads limit, cursor, action, kind, baseId, actor, since and until`},
			// No suggestion of a short name for a name unlike it.
			{"/groups?x=1",
				`unknown query parameter "x"; GET /groups reads limit, cursor and q`},
			{"/groups?zebra=1&apple=2&q=a",
				`unknown query parameters "apple" and "zebra"; GET /groups reads limit, cursor and q`},
			{"/policy/" + pol.ID.String() + "?verbose=true",
				`unknown query parameter "verbose"; GET /policy/{policyId} reads no query parameters`},
		} {
			w := f.call(t, admin, http.MethodGet, tc.path, nil)
			wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
			if got := decodeStrict[errorBody](t, w).Error.Message; got != tc.message {
				t.Errorf("GET %s: %q, want %q", tc.path, got, tc.message)
			}
		}

		// A write with an unknown parameter changes nothing.
		before := rowCounts(t, db)
		w = f.call(t, admin, http.MethodPost, "/policy?dryRun=true", seniorPolicy)
		wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)
		if after := rowCounts(t, db); !maps.Equal(before, after) {
			t.Errorf("rows before %v, after %v", before, after)
		}
		w = f.call(t, admin, http.MethodPost, "/run/policy/"+pol.BaseID.String()+"?trace=false", seniorRun)
		wantError(t, w, http.StatusBadRequest, service.CodeInvalidArgument)

		// Authentication comes first: an unknown caller learns nothing of
		// the route.
		wantError(t, f.do(http.MethodGet, "/policies?limt=5", nil), http.StatusUnauthorized, service.CodeUnauthenticated)

		// What a route documents it reads.
		wantStatus(t, f.call(t, admin, http.MethodGet, "/groups?q=a&limit=5", nil), http.StatusOK)
		wantStatus(t, f.call(t, admin, http.MethodGet, "/admin/keys?q=a", nil), http.StatusOK)
		wantStatus(t, f.call(t, admin, http.MethodGet, "/admin/members?q=ada", nil), http.StatusOK)
		wantStatus(t, f.call(t, admin, http.MethodGet, "/decisions?baseId="+pol.BaseID.String()+"&result=true", nil), http.StatusOK)
		// The service routes are fetched by tools that add their own.
		wantStatus(t, f.do(http.MethodGet, "/healthz?probe=1", nil), http.StatusOK)
		wantStatus(t, f.do(http.MethodGet, "/openapi.json?v=2", nil), http.StatusOK)
	})
}

func TestQueryParametersAreReadFromTheDocument(t *testing.T) {
	doc := `{"paths": {"/things": {
		"get": {"parameters": [{"$ref": "#/components/parameters/Org"}, {"$ref": "#/components/parameters/Limit"}, {"name": "kind", "in": "query"}]},
		"post": {"parameters": [{"name": "thingId", "in": "path"}]}}},
		"components": {"parameters": {"Org": {"name": "x-org-id", "in": "header"}, "Limit": {"name": "limit", "in": "query"}}}}`
	got := queryParameters([]byte(doc))
	want := map[string][]string{"GET /things": {"limit", "kind"}, "POST /things": {}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("%v, want %v", got, want)
	}
	if got := documentedQueries["GET /policies"]; !slices.Equal(got, []string{"limit", "cursor", "q", "groupId", "notInGroupId"}) {
		t.Errorf("openapi.json: GET /policies reads %v", got)
	}
}

func TestDidYouMeanSuggestsOnlyANearName(t *testing.T) {
	names := []string{"limit", "cursor", "q", "baseId"}
	for name, want := range map[string]string{
		"baseID":  ` (did you mean "baseId"?)`,
		"base-id": ` (did you mean "baseId"?)`,
		"curser":  ` (did you mean "cursor"?)`,
		"limt":    ` (did you mean "limit"?)`,
		"lmt":     "",
		"Q":       ` (did you mean "q"?)`,
		"x":       "",
		"qq":      "",
		"range":   "",
	} {
		if got := didYouMean(name, names); got != want {
			t.Errorf("didYouMean(%q) = %q, want %q", name, got, want)
		}
	}
	if got := didYouMean("x", nil); got != "" {
		t.Errorf("with no names: %q", got)
	}
}

func TestListedNamesReadAsASentence(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := listed(tc.names); got != tc.want {
			t.Errorf("listed(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
