package rest

import (
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
// belongs here: each gets every bad-input case below.
var bodyRoutes = []struct {
	method, path string
	valid        string
	status       int
}{
	{http.MethodPost, "/run", adultRun, http.StatusOK},
}

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
}

// streamedBody hides its length, so the request goes without
// Content-Length and the limit must be caught while reading.
type streamedBody struct{ io.Reader }

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, rt := range bodyRoutes {
			// The valid body first: it proves the route works, and it is
			// the request that records the key's first use.
			w := f.do(rt.method, rt.path, strings.NewReader(rt.valid), append(key(adminKey), "Content-Type", "application/json")...)
			wantStatus(t, w, rt.status)
		}
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
					w := f.do(rt.method, rt.path, body, append(key(adminKey), "Content-Type", contentType)...)
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
