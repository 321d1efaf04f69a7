package rest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// bodyRoutes are the routes that take a JSON body, each with a body it
// accepts and the status that body gets. Every route added to the API
// belongs here: each gets every bad-input case below. A path names ids by
// the route's wildcards; the test fills in a policy it creates first.
var bodyRoutes = []struct {
	method, path string
	valid        string
	status       int
}{
	{http.MethodPost, "/run", adultRun, http.StatusOK},
	{http.MethodPost, "/policy", seniorPolicy, http.StatusCreated},
	{http.MethodPut, "/policy/{policyId}", `{"status": "draft", "description": "edited"}`, http.StatusOK},
	{http.MethodPost, "/run/policy/{baseId}", seniorRun, http.StatusOK},
	{http.MethodPost, "/run/policy_version/{policyId}", seniorRun, http.StatusOK},
}

// storedRuns counts the bodyRoutes that run a stored policy: each valid
// run stores an `executed` event, a little after it answers.
const storedRuns = 2

// badBody is a body that must be refused, made from a route's valid body.
type badBody struct {
	name        string
	body        func(valid string) string
	contentType string
	streamed    bool // sent without Content-Length
	status      int
	code        service.Code
}

func genericBadBodies() []badBody {
	invalid := func(name string, body func(string) string) badBody {
		return badBody{name: name, body: body, status: 400, code: service.CodeInvalidArgument}
	}
	oversized := func(valid string) string { return valid + strings.Repeat(" ", DefaultBodyLimit) }
	return []badBody{
		invalid("malformed JSON", func(v string) string { return v[:len(v)/2] }),
		invalid("a form instead of JSON", func(string) string { return "rule=x&data=y" }),
		invalid("an empty body", func(string) string { return "" }),
		invalid("an array instead of an object", func(v string) string { return "[" + v + "]" }),
		invalid("a string instead of an object", func(string) string { return `"text"` }),
		invalid("null instead of an object", func(string) string { return "null" }),
		invalid("an unknown field", func(v string) string { return `{"bogus": 1, ` + v[1:] }),
		invalid("trailing garbage", func(v string) string { return v + " x" }),
		invalid("a second object", func(v string) string { return v + " {}" }),
		invalid("invalid UTF-8", func(v string) string { return "{\"\xff\": 1, " + v[1:] }),
		{name: "a Content-Type that is not JSON", body: func(v string) string { return v }, contentType: "text/plain",
			status: 400, code: service.CodeInvalidArgument},
		{name: "a body over the limit", body: oversized, status: 413, code: service.CodePayloadTooLarge},
		{name: "a body over the limit without Content-Length", body: oversized, streamed: true,
			status: 413, code: service.CodePayloadTooLarge},
	}
}

// routeBadBodies are the bad bodies particular to a route.
var routeBadBodies = map[string][]badBody{
	"POST /run": {
		{name: "rule as a number", body: func(string) string { return `{"rule": 5, "data": {}}` }},
		{name: "rule as null", body: func(string) string { return `{"rule": null, "data": {}}` }},
		{name: "rule missing", body: func(string) string { return `{"data": {}}` }},
		{name: "data missing", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1."}` }},
		{name: "data null", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": null}` }},
		{name: "data an array", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": []}` }},
		{name: "data a string", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": "{}"}` }},
		{name: "data a number", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": 5}` }},
		{name: "data nested too deep", body: func(string) string {
			return `{"rule": "A **P** is x if __a__ is 1.", "data": ` + strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) + "}"
		}},
		{name: "a field named in another case", body: func(string) string { return `{"Rule": "A **P** is x if __a__ is 1.", "data": {}}` }},
		{name: "a field given twice", body: func(string) string { return `{"rule": "a", "rule": "b", "data": {}}` }},
	},
	"POST /policy":                        append(policyBadBodies(`"name": "x", "rule": "y"`), createPolicyBadBodies...),
	"PUT /policy/{policyId}":              append(policyBadBodies(`"status": "draft"`), updatePolicyBadBodies...),
	"POST /run/policy/{baseId}":           storedRunBadBodies,
	"POST /run/policy_version/{policyId}": storedRunBadBodies,
}

// policyBadBodies are bad members of a policy body; required holds the
// members the route needs besides them.
func policyBadBodies(required string) []badBody {
	with := func(name, members string) badBody {
		return badBody{name: name, body: func(string) string { return "{" + required + ", " + members + "}" }}
	}
	return []badBody{
		with("name as a number", `"name": 5`),
		with("name blank", `"name": "  "`),
		with("rule as a number", `"rule": 5`),
		with("rule as an object", `"rule": {"text": "y"}`),
		with("description as a boolean", `"description": true`),
		with("schema as a string", `"schema": "object"`),
		with("schema as a number", `"schema": 5`),
		with("schema as an array", `"schema": []`),
		with("tests as an object", `"tests": {"name": "t"}`),
		with("tests as a string", `"tests": "t"`),
		with("a test that is not an object", `"tests": [5]`),
		with("a test with an unknown member", `"tests": [{"name": "t", "data": {}, "expect": true, "expected": true}]`),
		with("a test without a name", `"tests": [{"data": {}, "expect": true}]`),
		with("a test named by a number", `"tests": [{"name": 5, "data": {}, "expect": true}]`),
		with("a test whose data is an array", `"tests": [{"name": "t", "data": [], "expect": true}]`),
		with("a test without data", `"tests": [{"name": "t", "expect": true}]`),
		with("a test without expect", `"tests": [{"name": "t", "data": {}}]`),
		with("a test expecting a string", `"tests": [{"name": "t", "data": {}, "expect": "yes"}]`),
		with("two tests of one name", `"tests": [{"name": "t", "data": {}, "expect": true}, {"name": "t", "data": {}, "expect": false}]`),
		{name: "a field named in another case", body: func(string) string { return "{" + required + `, "Name": "x"}` }},
		{name: "a field given twice", body: func(string) string { return "{" + required + `, "description": "a", "description": "b"}` }},
	}
}

var createPolicyBadBodies = []badBody{
	{name: "name missing", body: func(string) string { return `{"rule": "y"}` }},
	{name: "rule missing", body: func(string) string { return `{"name": "x"}` }},
	{name: "rule null", body: func(string) string { return `{"name": "x", "rule": null}` }},
	{name: "a status", body: func(string) string { return `{"name": "x", "rule": "y", "status": "draft"}` }},
}

var updatePolicyBadBodies = []badBody{
	{name: "status missing", body: func(string) string { return `{"name": "x"}` }},
	{name: "status null", body: func(string) string { return `{"status": null}` }},
	{name: "status unknown", body: func(string) string { return `{"status": "archived"}` }},
	{name: "status as a boolean", body: func(string) string { return `{"status": true}` }},
	{name: "status empty", body: func(string) string { return `{"status": ""}` }},
}

var storedRunBadBodies = []badBody{
	{name: "data missing", body: func(string) string { return `{}` }},
	{name: "data null", body: func(string) string { return `{"data": null}` }},
	{name: "data an array", body: func(string) string { return `{"data": []}` }},
	{name: "data a string", body: func(string) string { return `{"data": "{}"}` }},
	{name: "data a number", body: func(string) string { return `{"data": 5}` }},
	{name: "data nested too deep", body: func(string) string {
		return `{"data": ` + strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100) + "}"
	}},
	{name: "a rule beside the data", body: func(string) string { return `{"rule": "A **P** is x if __a__ is 1.", "data": {}}` }},
	{name: "a field named in another case", body: func(string) string { return `{"Data": {}}` }},
	{name: "a field given twice", body: func(string) string { return `{"data": {}, "data": {}}` }},
}

// streamedBody hides its length, so the request goes without
// Content-Length and the limit must be caught while reading.
type streamedBody struct{ io.Reader }

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		// The valid bodies first: they prove the routes work, and the
		// first is the request that records the key's first use.
		wantStatus(t, f.run(adultRun, key(adminKey)...), http.StatusOK)
		w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusCreated)
		var pol service.Policy
		if err := json.Unmarshal(w.Body.Bytes(), &pol); err != nil {
			t.Fatal(err)
		}
		ids := strings.NewReplacer("{policyId}", pol.ID.String(), "{baseId}", pol.BaseID.String())
		for _, rt := range bodyRoutes {
			w := f.do(rt.method, ids.Replace(rt.path), strings.NewReader(rt.valid), append(key(adminKey), "Content-Type", "application/json")...)
			wantStatus(t, w, rt.status)
		}
		waitForExecuted(t, db, storedRuns)
		before := rowCounts(t, db)
		unchanged := func(t *testing.T) {
			t.Helper()
			if after := rowCounts(t, db); !equalCounts(before, after) {
				t.Errorf("rows changed from %v to %v", before, after)
			}
		}

		for _, rt := range bodyRoutes {
			route := rt.method + " " + rt.path
			cases := append(genericBadBodies(), routeBadBodies[route]...)
			for _, bc := range cases {
				if bc.status == 0 {
					bc.status, bc.code = 400, service.CodeInvalidArgument
				}
				t.Run(route+" refuses "+bc.name, func(t *testing.T) {
					var body io.Reader = strings.NewReader(bc.body(rt.valid))
					if bc.streamed {
						body = streamedBody{body}
					}
					contentType := bc.contentType
					if contentType == "" {
						contentType = "application/json"
					}
					w := f.do(rt.method, ids.Replace(rt.path), body, append(key(adminKey), "Content-Type", contentType)...)
					wantError(t, w, bc.status, bc.code)
					unchanged(t)
				})
			}
		}

		for _, tc := range []struct {
			name         string
			method, path string
			header       []string
			status       int
			code         service.Code
			allow        string
		}{
			{"an unknown route is not found", "GET", "/nope", key(adminKey), 404, service.CodeNotFound, ""},
			{"an unknown route is not found without a key either", "POST", "/nope/1", nil, 404, service.CodeNotFound, ""},
			{"a near miss of a route is not found", "POST", "/runs", key(adminKey), 404, service.CodeNotFound, ""},
			{"a trailing slash is another route", "POST", "/run/", key(adminKey), 404, service.CodeNotFound, ""},
			{"a path that is not canonical is not found", "GET", "/run/../healthz", nil, 404, service.CodeNotFound, ""},
			{"a path with an empty element is not found", "POST", "//run", key(adminKey), 404, service.CodeNotFound, ""},
			{"GET on /run is not allowed", "GET", "/run", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"PUT on /run is not allowed", "PUT", "/run", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"DELETE on /run is not allowed without a key either", "DELETE", "/run", nil, 405, service.CodeInvalidArgument, "POST"},
			{"POST on /healthz is not allowed", "POST", "/healthz", nil, 405, service.CodeInvalidArgument, "GET, HEAD"},
			{"PATCH on a policy is not allowed", "PATCH", "/policy/" + pol.ID.String(), key(adminKey), 405, service.CodeInvalidArgument, "GET, HEAD, PUT, DELETE"},
			{"GET on /policy is not allowed", "GET", "/policy", key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"POST on /policies is not allowed", "POST", "/policies", key(adminKey), 405, service.CodeInvalidArgument, "GET, HEAD"},
			{"GET on a stored run is not allowed", "GET", "/run/policy/" + pol.BaseID.String(), key(adminKey), 405, service.CodeInvalidArgument, "POST"},
			{"a policy path with a trailing slash is not found", "GET", "/policy/" + pol.ID.String() + "/", key(adminKey), 404, service.CodeNotFound, ""},
			{"a run without an id is not found", "POST", "/run/policy/", key(adminKey), 404, service.CodeNotFound, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				w := f.do(tc.method, tc.path, strings.NewReader(adultRun), tc.header...)
				wantError(t, w, tc.status, tc.code)
				if got := w.Header().Get("Allow"); got != tc.allow {
					t.Errorf("Allow %q, want %q", got, tc.allow)
				}
				unchanged(t)
			})
		}
	})
}
