package graph_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestOperationsDeeperThanTheLimitAreRefusedBeforeRunning(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withConfig(graph.Config{MaxDepth: 3}))
		for _, tc := range []struct {
			name, query string
			refused     bool
		}{
			{"three fields deep is allowed", `{ viewer { key { prefix } } }`, false},
			{"four fields deep is refused", `{ viewer { key { owner { id } } } }`, true},
			{"fragments add no depth of their own", `{ viewer { ...K } } fragment K on Viewer { key { ... on APIKey { prefix } } }`, false},
			{"fields inside fragments count", `{ viewer { ...K } } fragment K on Viewer { key { ...O } } fragment O on APIKey { owner { id } }`, true},
			{"a deep mutation is refused before it runs", `mutation { runRule(input: {rule: "x", data: {}}) { trace { execution { result } } } }`, true},
			{"introspection counts its root field only", `{ __schema { types { fields { type { ofType { name } } } } } }`, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.post(t, adminKey, tc.query, nil)
				if !tc.refused {
					res.decode(t, &map[string]any{})
					return
				}
				e := res.failure(t, service.CodeInvalidArgument)
				if !strings.Contains(e.Message, "limit of 3") {
					t.Errorf("message %q does not name the limit", e.Message)
				}
			})
		}
	})
}

func TestOperationsCostlierThanTheLimitAreRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withConfig(graph.Config{MaxComplexity: 5}))
		f.post(t, adminKey, `{ viewer { role organization { name } } }`, nil).decode(t, &map[string]any{})
		f.post(t, adminKey, viewerQuery, nil).refused(t)
	})
}

func TestTheDefaultLimitsAdmitTheIntrospectionQueryOfGraphiQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		var got struct {
			Schema struct {
				QueryType struct{ Name string }
				Types     []struct{ Name string }
			} `json:"__schema"`
		}
		f.post(t, adminKey, introspectionQuery, nil).decode(t, &got)
		if got.Schema.QueryType.Name != "Query" || len(got.Schema.Types) < 20 {
			t.Errorf("schema: query type %q, %d types", got.Schema.QueryType.Name, len(got.Schema.Types))
		}
	})
}

func TestMalformedOperationsAreInvalidArguments(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for name, query := range map[string]string{
			"a document that does not parse": `{ viewer { `,
			"an unknown field":               `{ viewer { password } }`,
			"a missing argument":             `mutation { runRule(input: {data: {}}) { result } }`,
			"an argument of the wrong type":  `mutation { runRule(input: {rule: 5, data: {}}) { result } }`,
		} {
			t.Run(name, func(t *testing.T) {
				f.post(t, adminKey, query, nil).failure(t, service.CodeInvalidArgument)
			})
		}
		// A body gqlgen cannot decode is refused in plain words, without
		// quoting the body back (here a few hundred kilobytes of it).
		pad := strings.Repeat("x", 300_000)
		for body, want := range map[string]string{
			`{"query": "{ viewer { role } }", "pad": "` + pad + `"`: "the request body is not valid JSON: it ends too early",
			`{query`:                             "the request body is not valid JSON: invalid character 'q' looking for beginning of object key string (at byte 2)",
			`[{"query": "{ viewer { role } }"}]`: `the request body must be a JSON object: {"query": "...", "operationName": "...", "variables": {...}}`,
			`{"query": 5}`:                       "query must be a string",
			`{"query": "{ viewer { role } }", "operationName": 5, "pad": "` + pad + `"}`: "operationName must be a string",
			`{"query": "{ viewer { role } }", "variables": ["` + pad + `"]}`:             "variables must be a JSON object",
			`{"query": "{ viewer { role } }", "extensions": "x"}`:                        "extensions must be a JSON object",
			// A body is read as REST reads its bodies: one object, each
			// member once, no member it does not know.
			`{"query": "{ viewer { role } }"} {"query": "mutation { x }"}`:        "the request body has more after its JSON object",
			`{"query": "{ viewer { role } }"}]`:                                   "the request body has more after its JSON object",
			`{"query": "{ viewer { role } }", "query": "{ a: viewer { role } }"}`: `field "query" appears more than once`,
			`{"query": "{ viewer { role } }", "id": 1}`:                           `unknown field "id"; the fields are query, operationName, variables, extensions`,
			`{"Query": "{ viewer { role } }"}`:                                    `unknown field "Query" (did you mean "query"?); the fields are query, operationName, variables, extensions`,
		} {
			r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json; charset=utf-8")
			res := f.send(t, adminKey, r)
			if e := res.failure(t, service.CodeInvalidArgument); e.Message != want || res.Status != http.StatusBadRequest {
				t.Errorf("%.40s: %d %.200q; want 400 %q", body, res.Status, e.Message, want)
			}
		}
		// Nulls and extensions are read; spaces may follow the object.
		r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ viewer { role } }", "operationName": null, "variables": null, "extensions": {"persistedQuery": null}}`+" \r\n"))
		r.Header.Set("Content-Type", "application/json")
		var v struct{ Viewer struct{ Role string } }
		if f.send(t, adminKey, r).decode(t, &v); v.Viewer.Role != "ADMIN" {
			t.Errorf("viewer %+v", v.Viewer)
		}
	})
}

func TestABodyOverTheRoutersLimitIsPayloadTooLarge(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		limited := f.graph
		f.graph = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, 64)
			limited.ServeHTTP(w, r)
		})
		body := `{"query": "{ viewer { role } }", "variables": {"pad": "` + strings.Repeat("x", 100) + `"}}`
		r := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(bytes.NewReader([]byte(body))))
		r.Header.Set("Content-Type", "application/json")
		res := f.send(t, adminKey, r)
		res.failure(t, service.CodePayloadTooLarge)
		if res.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d, want 413", res.Status)
		}
	})
}

// A request refused before gqlgen reads it is answered as the router
// answers its refusals on /graphql: one error with its code, and no data,
// since no operation ran.
func TestRequestsRefusedBeforeGraphQLRunsHaveTheRoutersShape(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		serveBy := func(t *testing.T, h http.Handler, r *http.Request) (int, string, service.Code) {
			t.Helper()
			r.Header.Set("x-api-key", adminKey)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var body struct {
				Errors []struct {
					Message    string
					Extensions struct{ Code service.Code }
				}
			}
			dec := json.NewDecoder(w.Body)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&body); err != nil || len(body.Errors) != 1 {
				t.Fatalf("%d: the body is not {\"errors\": [{\"message\", \"extensions\": {\"code\"}}]} (%v)", w.Code, err)
			}
			return w.Code, body.Errors[0].Message, body.Errors[0].Extensions.Code
		}
		serve := func(t *testing.T, r *http.Request) (int, string, service.Code) {
			t.Helper()
			return serveBy(t, f.graph, r)
		}
		t.Run("a websocket upgrade", func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D", nil)
			r.Header.Set("Connection", "Upgrade")
			r.Header.Set("Upgrade", "websocket")
			r.Header.Set("Sec-WebSocket-Version", "13")
			r.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			r.Header.Set("Sec-WebSocket-Protocol", "graphql-transport-ws")
			status, msg, code := serve(t, r)
			want := "/graphql does not upgrade connections (Upgrade: websocket): it serves no subscriptions; send each operation by POST or GET"
			if status != http.StatusBadRequest || code != service.CodeInvalidArgument || msg != want {
				t.Errorf("%d %s %q; want 400 invalid_argument %q", status, code, msg, want)
			}
		})
		t.Run("a POST asking for an upgrade", func(t *testing.T) {
			r := jsonRequest(`{"query": "mutation { createGroup(input: {name: \"g\"}) { id } }"}`)
			r.Header.Set("Upgrade", "h2c")
			status, msg, code := serve(t, r)
			want := "/graphql does not upgrade connections (Upgrade: h2c): it serves no subscriptions; send each operation by POST or GET"
			if status != http.StatusBadRequest || code != service.CodeInvalidArgument || msg != want {
				t.Errorf("%d %s %q; want 400 invalid_argument %q", status, code, msg, want)
			}
			if n, err := db.Client().Group.Query().Count(t.Context()); err != nil || n != 0 {
				t.Errorf("%d groups (%v), want none", n, err)
			}
		})
		t.Run("a chunked body over the limit", func(t *testing.T) {
			body := `{"query": "{ viewer { role } }", "variables": {"pad": "` + strings.Repeat("x", 100) + `"}}`
			r := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(strings.NewReader(body)))
			r.Header.Set("Content-Type", "application/json")
			r.ContentLength, r.TransferEncoding = -1, []string{"chunked"}
			// As the router limits a body whose length it is not told.
			limited := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				r.Body = http.MaxBytesReader(w, r.Body, 64)
				f.graph.ServeHTTP(w, r)
			})
			status, msg, code := serveBy(t, limited, r)
			if want := "the request body is larger than the limit of 64 bytes"; status != http.StatusRequestEntityTooLarge || code != service.CodePayloadTooLarge || msg != want {
				t.Errorf("%d %s %q; want 413 payload_too_large %q", status, code, msg, want)
			}
		})
		t.Run("a method not allowed", func(t *testing.T) {
			status, _, code := serve(t, httptest.NewRequest(http.MethodPut, "/graphql", nil))
			if status != http.StatusMethodNotAllowed || code != service.CodeInvalidArgument {
				t.Errorf("%d %s; want 405 invalid_argument", status, code)
			}
		})
	})
}

func TestQueriesMayUseGetButMutationsMayNot(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		get := func(query string) response {
			return f.send(t, adminKey, httptest.NewRequest(http.MethodGet, "/graphql?query="+url.QueryEscape(query), nil))
		}
		var v viewerData
		get(viewerQuery).decode(t, &v)
		if v.Viewer.Organization.Name != "Acme" {
			t.Errorf("viewer by GET: %+v", v.Viewer)
		}
		res := get(`mutation { createPolicy(input: {name: "By GET", rule: "A **P** is ok if the __a__ of the **P** is 1."}) { policy { id } } }`)
		if e := res.refused(t); e.Message != "a mutation must be sent by POST: GET /graphql runs queries only" {
			t.Errorf("a mutation by GET is refused with %q", e.Message)
		}
		if n, err := db.Client().Base.Query().Count(context.Background()); err != nil || n != 0 {
			t.Errorf("a mutation by GET stored %d policies (%v)", n, err)
		}
	})
}

func TestIntrospectionIsLimitedToOneSchemaAndTenTypesAnOperation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		full := `__schema { types { description fields { description args { description type { description } } ` +
			`type { description ofType { description } } } inputFields { description } enumValues { description } } }`
		aliases := make([]string, 58)
		for i := range aliases {
			aliases[i] = fmt.Sprintf("a%d: %s", i, full)
		}
		types := func(n int) string {
			fields := make([]string, n)
			for i := range fields {
				fields[i] = fmt.Sprintf(`t%d: __type(name: "Query") { name fields { name } }`, i)
			}
			return "{ " + strings.Join(fields, " ") + " }"
		}
		for _, tc := range []struct{ name, query, want string }{
			{"58 aliases of __schema", "{ " + strings.Join(aliases, " ") + " }",
				"the operation selects __schema 58 times, more than the limit of 1: each answers from the whole schema; " +
					"introspect it with one __schema, or at most 10 __type, an operation"},
			{"__schema in two fragments", `{ ...A ...B } fragment A on Query { __schema { queryType { name } } } fragment B on Query { s: __schema { queryType { name } } }`,
				"the operation selects __schema 2 times, more than the limit of 1: each answers from the whole schema; " +
					"introspect it with one __schema, or at most 10 __type, an operation"},
			{"a fragment spread under two aliases", `{ ...A s: __schema { ...S } } fragment A on Query { __schema { ...S } } fragment S on __Schema { queryType { name } }`,
				"the operation selects __schema 2 times, more than the limit of 1: each answers from the whole schema; " +
					"introspect it with one __schema, or at most 10 __type, an operation"},
			{"eleven __type", types(11),
				"the operation selects __type 11 times, more than the limit of 10: each answers from the whole schema; " +
					"introspect it with one __schema, or at most 10 __type, an operation"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if e := f.post(t, adminKey, tc.query, nil).refused(t); e.Message != tc.want {
					t.Errorf("message %q, want %q", e.Message, tc.want)
				}
			})
		}
		t.Run("one __schema and ten __type", func(t *testing.T) {
			query := strings.Replace(types(10), "{ ", "{ "+full+" ", 1)
			var got map[string]json.RawMessage
			f.post(t, adminKey, query, nil).decode(t, &got)
			if len(got) != 11 {
				t.Errorf("answered %d fields, want 11", len(got))
			}
		})
		t.Run("fields under one key answer once", func(t *testing.T) {
			query := `{ ...A ... on Query { ...A __schema { mutationType { name } } } } fragment A on Query { __schema { queryType { name } } }`
			var got struct {
				Schema struct{ QueryType, MutationType struct{ Name string } } `json:"__schema"`
			}
			if f.post(t, adminKey, query, nil).decode(t, &got); got.Schema.QueryType.Name != "Query" || got.Schema.MutationType.Name != "Mutation" {
				t.Errorf("schema %+v", got.Schema)
			}
		})
		t.Run("each operation of a document has its own", func(t *testing.T) {
			doc := `query A { __schema { queryType { name } } } query B { __schema { mutationType { name } } }`
			body := `{"query": ` + quote(doc) + `, "operationName": "B"}`
			var got struct {
				Schema struct{ MutationType struct{ Name string } } `json:"__schema"`
			}
			if f.send(t, adminKey, jsonRequest(body)).decode(t, &got); got.Schema.MutationType.Name != "Mutation" {
				t.Errorf("schema %+v", got.Schema)
			}
		})
	})
}

// introspectionQuery is what GraphiQL (graphql-js getIntrospectionQuery)
// sends when it opens.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
}`

func TestPageSizesOutsideOneTo200AreRefusedBeforeAnythingRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, tc := range []struct {
			name, query string
			vars        map[string]any
		}{
			{"a root connection", `{ policies(first: 201) { pageInfo { hasNextPage } } }`, nil},
			{"a page size in a variable", `query Q($n: Int) { flows(first: $n) { pageInfo { hasNextPage } } }`, map[string]any{"n": 1000}},
			{"a nested connection in a fragment", `{ groups { edges { node { ...G } } } } fragment G on Group { policies(first: 500) { pageInfo { hasNextPage } } }`, nil},
			{"a page of none", `{ auditEvents(first: 0) { pageInfo { hasNextPage } } }`, nil},
			{"a negative page", `{ keys(first: -1) { pageInfo { hasNextPage } } }`, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := f.post(t, adminKey, tc.query, tc.vars).refused(t)
				if !strings.HasPrefix(e.Message, "first of ") || !strings.Contains(e.Message, "between 1 and 200") {
					t.Errorf("message %q does not name the bounds", e.Message)
				}
			})
		}
		t.Run("a mutation asking for too large a page changes nothing", func(t *testing.T) {
			f.post(t, adminKey, `mutation { createGroup(input: {name: "g"}) { id policies(first: 201) { pageInfo { hasNextPage } } } }`, nil).
				refused(t)
			var got struct{ Groups struct{ Edges []any } }
			f.post(t, adminKey, `{ groups { edges { cursor } } }`, nil).decode(t, &got)
			if len(got.Groups.Edges) != 0 {
				t.Errorf("the refused mutation created %d groups", len(got.Groups.Edges))
			}
		})
		t.Run("200 is allowed", func(t *testing.T) {
			f.post(t, adminKey, `{ policies(first: 200) { pageInfo { hasNextPage } } }`, nil).decode(t, &map[string]any{})
		})
	})
}

func TestAConnectionCostsItsPageSizeTimesWhatIsSelectedInIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		t.Run("by default", func(t *testing.T) {
			wide := `{ groups(first: 200) { edges { node { name policies(first: 200) { edges { node { baseId name } } } } } } }`
			e := f.post(t, adminKey, wide, nil).refused(t)
			if !strings.Contains(e.Message, "complexity") {
				t.Errorf("message %q does not say what is wrong", e.Message)
			}
			narrow := strings.ReplaceAll(wide, "200", "5")
			f.post(t, adminKey, narrow, nil).decode(t, &map[string]any{})
			full := `{ policies(first: 200) {
			  edges { cursor node { baseId name owner { kind id } latestVersion latestVersionId draftId hasDraft updatedAt } }
			  pageInfo { hasNextPage endCursor }
			} }`
			f.post(t, adminKey, full, nil).decode(t, &map[string]any{})
		})
		t.Run("at the limit", func(t *testing.T) {
			// policies(first: n) { edges { cursor } } costs 1 + n × 2.
			f.graph = authenticated(f.svc, graph.NewHandler(f.svc, graph.Config{MaxComplexity: 21}))
			const query = `query Q($n: Int) { policies(first: $n) { edges { cursor } } }`
			f.post(t, adminKey, query, map[string]any{"n": 10}).decode(t, &map[string]any{})
			f.post(t, adminKey, query, map[string]any{"n": 11}).refused(t)
			// An absent first counts as the default page size, 50.
			f.post(t, adminKey, query, nil).refused(t)
		})
	})
}

// A list's cursor and text filter are checked before anything runs, as
// its page size is: a mutation whose result selects a list with one the
// service refuses writes nothing, where it would have written and then
// answered null. The messages name the arguments as the schema does.
func TestListArgumentsAreRefusedBeforeAnythingRuns(t *testing.T) {
	// A cursor of the policies list (its kind, 1, and an id), which the
	// lists of a group refuse.
	policiesCursor := base64.RawURLEncoding.EncodeToString(append([]byte{1}, make([]byte, 16)...))
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		long := strings.Repeat("q", 201)
		for _, tc := range []struct {
			name, query, want string
		}{
			{"a long query under a mutation", `mutation { createGroup(input: {name: "WDE"}) { id policies(query: "` + long + `") { totalCount } } }`,
				"query of policies is 201 characters long; the limit is 200"},
			{"a cursor of nothing under a mutation", `mutation { createGroup(input: {name: "WDE"}) { id flows(after: "garbage") { totalCount } } }`,
				"after of flows is not a cursor this list gave out"},
			{"another list's cursor under a mutation", `mutation { createGroup(input: {name: "WDE"}) { id policies(after: "` + policiesCursor + `") { totalCount } } }`,
				"after of policies: the lists of a mutation's result start at their first page; page on with the group query"},
			{"a NUL in a query", `{ p: policies(query: "a\u0000b") { totalCount } }`, "query of p must not contain a NUL character (U+0000)"},
			{"a cursor of ids for the audit log", `{ auditEvents(after: "AAAAAAAAAAAAAAAAAAAAAA") { totalCount } }`,
				"after of auditEvents is not a cursor this list gave out"},
			{"a cursor of ids for a history", `{ policyVersions(id: "00000000-0000-0000-0000-000000000000", after: "AAAAAAAAAAAAAAAAAAAAAA") { nextCursor } }`,
				"after of policyVersions is not a cursor this list gave out"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if e := f.post(t, adminKey, tc.query, nil).refused(t); e.Message != tc.want {
					t.Errorf("message %q, want %q", e.Message, tc.want)
				}
			})
		}
		if n, err := db.Client().Group.Query().Count(context.Background()); err != nil || n != 0 {
			t.Errorf("the refused mutations created %d groups (%v)", n, err)
		}
		var created struct{ CreateGroup struct{ ID string } }
		f.post(t, adminKey, `mutation { createGroup(input: {name: "Kept"}) { id } }`, nil).decode(t, &created)
		rename := `mutation($id: ID!, $a: String) { updateGroup(input: {id: $id, name: "Renamed"}) { flows(after: $a) { totalCount } } }`
		if e := f.post(t, adminKey, rename, map[string]any{"id": created.CreateGroup.ID, "a": policiesCursor}).refused(t); !strings.HasPrefix(e.Message, "after of flows: ") {
			t.Errorf("updateGroup with a cursor: %q", e.Message)
		}
		if g := db.Client().Group.Query().OnlyX(context.Background()); g.Name != "Kept" {
			t.Errorf("the refused updateGroup renamed the group %q", g.Name)
		}
		var got struct{ Groups struct{ TotalCount int } }
		f.post(t, adminKey, `{ groups(query: "`+strings.Repeat("q", 200)+`", after: "") { totalCount } }`, nil).decode(t, &got)
	})
}

// What no transport of gqlgen serves, or serves without the API's error
// shape, is refused with it: a POST of another Content-Type than JSON, a
// GET whose variables are not a JSON object, a method GraphQL is not
// served by. HEAD answers what GET would.
func TestRequestsGraphQLCannotReadAreRefusedWithACode(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for contentType, want := range map[string]string{
			"text/plain":                        `Content-Type must be application/json, not "text/plain"`,
			"application/graphql":               `Content-Type must be application/json, not "application/graphql"`,
			"application/x-www-form-urlencoded": `Content-Type must be application/json, not "application/x-www-form-urlencoded"`,
			"multipart/form-data; boundary=x":   `Content-Type must be application/json, not "multipart/form-data; boundary=x"`,
			"":                                  "Content-Type must be application/json; the request has none",
			"application/json; charset=latin1":  `Content-Type must be JSON in UTF-8, not in charset "latin1"`,
		} {
			r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ viewer { role } }"}`))
			if contentType != "" {
				r.Header.Set("Content-Type", contentType)
			}
			res := f.send(t, adminKey, r)
			if e := res.failure(t, service.CodeInvalidArgument); e.Message != want || res.Status != http.StatusBadRequest {
				t.Errorf("%q: %d %q, want 400 %q", contentType, res.Status, e.Message, want)
			}
		}
		bom := jsonRequest("\xEF\xBB\xBF" + `{"query": "{ viewer { role } }"}`)
		if res := f.send(t, adminKey, bom); res.Status != http.StatusBadRequest || len(res.Errors) != 1 || res.Errors[0].Message != bodies.TextProblem([]byte("\xEF\xBB\xBF")) {
			t.Errorf("a byte order mark: %d %+v", res.Status, res.Errors)
		}
		// Neither run nor stored: the name would hold U+FFFD.
		notUTF8 := jsonRequest(`{"query": "mutation { createPolicy(input: {name: \"bad` + "\xff" + `name\", rule: \"A **P** is ok if the __a__ of the **P** is 1.\"}) { policy { id } } }"}`)
		if res := f.send(t, adminKey, notUTF8); res.Status != http.StatusBadRequest || len(res.Errors) != 1 || res.Errors[0].Message != "the request body is not valid UTF-8" {
			t.Errorf("a byte that is not UTF-8: %d %+v", res.Status, res.Errors)
		}
		var policies struct{ Policies struct{ TotalCount int } }
		if f.post(t, adminKey, `{ policies { totalCount } }`, nil).decode(t, &policies); policies.Policies.TotalCount != 0 {
			t.Errorf("the refused createPolicy stored a policy: %d", policies.Policies.TotalCount)
		}
		utf8 := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query": "{ viewer { role } }"}`))
		utf8.Header.Set("Content-Type", "application/json; charset=UTF-8")
		if res := f.send(t, adminKey, utf8); res.Status != http.StatusOK || len(res.Errors) > 0 {
			t.Errorf("charset=UTF-8: %d %+v", res.Status, res.Errors)
		}
		get := func(method, query string) (response, *httptest.ResponseRecorder) {
			r := httptest.NewRequest(method, "/graphql?"+query, nil)
			r.Header.Set("x-api-key", adminKey)
			w := httptest.NewRecorder()
			f.graph.ServeHTTP(w, r)
			res := response{Status: w.Code}
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
				t.Fatalf("%s %s: the response is not JSON (%v): %s", method, query, err, w.Body)
			}
			return res, w
		}
		viewer := "query=" + url.QueryEscape("{ viewer { role } }")
		for query, want := range map[string]string{
			viewer + "&" + viewer:                               "query is given 2 times; give it once",
			viewer + "&variables=%7B%7D&variables=":             "variables is given 2 times; give it once",
			viewer + "&variables=notjson":                       "variables is not valid JSON: invalid character 'o' in literal null (expecting 'u') (at byte 2)",
			viewer + "&variables=%5B1%5D":                       "variables must be a JSON object",
			viewer + "&extensions=%7B":                          "extensions is not valid JSON: it ends too early",
			viewer + "&variables=%22x%22":                       "variables must be a JSON object",
			viewer + "&variables=%7B%22n%22:%22%FF%22%7D":       "variables is not valid UTF-8",
			"query=%7B%20viewer%20%7B%20role%20%7D%20%7D%23%FF": "query is not valid UTF-8",
		} {
			res, w := get(http.MethodGet, query)
			if e := res.failure(t, service.CodeInvalidArgument); e.Message != want || res.Status != http.StatusBadRequest || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("GET ?%s: %d %s %q, want 400 %q", query, res.Status, w.Header().Get("Content-Type"), e.Message, want)
			}
		}
		res, w := get(http.MethodHead, viewer)
		if res.Status != http.StatusOK || string(res.Data) != `{"viewer":{"role":"ADMIN"}}` || w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("HEAD: %d %s %s", res.Status, w.Header().Get("Content-Type"), res.Data)
		}
		res, _ = get(http.MethodHead, "query="+url.QueryEscape(`mutation { deleteGroup(input: {id: "00000000-0000-0000-0000-000000000000"}) }`))
		if e := res.refused(t); e.Message != "a mutation must be sent by POST: GET /graphql runs queries only" {
			t.Errorf("a mutation by HEAD: %q", e.Message)
		}
		for _, method := range []string{http.MethodPut, http.MethodDelete, http.MethodOptions} {
			res, w := get(method, viewer)
			want := method + " is not allowed on /graphql; allowed: GET, HEAD, POST"
			if e := res.failure(t, service.CodeInvalidArgument); e.Message != want || res.Status != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD, POST" {
				t.Errorf("%s: %d %q (Allow %q), want 405 %q", method, res.Status, e.Message, w.Header().Get("Allow"), want)
			}
		}
	})
}

// An operation name the document does not hold, or none for a document
// of several operations, is refused naming the document's operations.
func TestTheOperationToRunIsChosenByName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		several := `query Q1 { viewer { role } } query Q2 { viewer { role } }`
		many := ""
		for i := range 12 {
			many += fmt.Sprintf("query Q%d { viewer { role } } ", i)
		}
		for _, tc := range []struct{ query, name, want string }{
			{several, "", "the document has 2 operations (Q1, Q2); choose one with operationName"},
			{several, "Q3", `the document has no operation named "Q3"; its operations are Q1, Q2`},
			{`query Q1 { viewer { role } }`, "Q2", `the document has no operation named "Q2"; its one operation is Q1`},
			{`{ viewer { role } }`, "Q", `the document has no operation named "Q": its one operation has no name; send no operationName`},
			{many, "", "the document has 12 operations (Q0, Q1, Q2, Q3, Q4, Q5, Q6, Q7, Q8, Q9 and 2 more); choose one with operationName"},
		} {
			body, _ := json.Marshal(map[string]any{"query": tc.query, "operationName": tc.name})
			if e := f.send(t, adminKey, jsonRequest(string(body))).refused(t); e.Message != tc.want {
				t.Errorf("%q of %s: %q, want %q", tc.name, tc.query, e.Message, tc.want)
			}
		}
		var v struct{ Viewer struct{ Role string } }
		body, _ := json.Marshal(map[string]any{"query": several, "operationName": "Q2"})
		if f.send(t, adminKey, jsonRequest(string(body))).decode(t, &v); v.Viewer.Role != "ADMIN" {
			t.Errorf("Q2: %+v", v)
		}
	})
}
