package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// contract is the OpenAPI document, loaded once per test binary, and what
// checks responses against it.
type contract struct {
	doc libopenapi.Document
	// full checks a response's status, headers and body; statusOnly its
	// status and headers, for responses whose body this package does not
	// write (GraphQL and its playground are mounted handlers, stubbed in
	// these tests) or that have none (HEAD).
	full, statusOnly validator.Validator
	// operations are the document's operations as ServeMux patterns
	// ("POST /run/policy/{baseId}").
	operations map[string]bool
	errorShape *base.Schema
	// graphQLErrorShape is the shape of the errors on GraphQL's path.
	graphQLErrorShape *base.Schema
	// mu serializes checks: tests send requests concurrently, and the
	// validator's caches are not documented as safe for concurrent use.
	mu sync.Mutex
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	doc, err := libopenapi.NewDocument(openAPIDocument)
	if err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	c := &contract{doc: doc, operations: map[string]bool{}}
	var errs []error
	c.full, errs = validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi.json: %v", errs)
	}
	c.statusOnly, errs = validator.NewValidator(doc, config.WithFormatAssertions(), config.WithoutResponseBodyValidation())
	if len(errs) > 0 {
		return nil, fmt.Errorf("openapi.json: %v", errs)
	}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method := range item.GetOperations().FromOldest() {
			c.operations[strings.ToUpper(method)+" "+path] = true
		}
	}
	proxy, ok := model.Model.Components.Schemas.Get("Error")
	if !ok {
		return nil, fmt.Errorf("openapi.json: no schema Error in components")
	}
	c.errorShape = proxy.Schema()
	if proxy, ok = model.Model.Components.Schemas.Get("GraphQLResponse"); !ok {
		return nil, fmt.Errorf("openapi.json: no schema GraphQLResponse in components")
	}
	c.graphQLErrorShape = proxy.Schema()
	return c, nil
})

func contractOf(t testing.TB) *contract {
	t.Helper()
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	c := contractOf(t)
	if v := c.doc.GetVersion(); v != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", v)
	}
	if ok, errs := c.full.ValidateDocument(); !ok {
		t.Errorf("openapi.json is not a valid OpenAPI 3.1 document:\n%s", describe(errs))
	}
	// The OpenAPI meta-schema leaves schema objects unchecked: compile each
	// against JSON Schema 2020-12, the dialect of OpenAPI 3.1.
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPIDocument))
	if err != nil {
		t.Fatalf("openapi.json is not JSON: %v", err)
	}
	const url = "file:///openapi.json"
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	if err := compiler.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	pointers := schemaPointers(doc, "")
	if len(pointers) == 0 {
		t.Fatal("openapi.json has no schemas")
	}
	for _, ptr := range pointers {
		if _, err := compiler.Compile(url + "#" + ptr); err != nil {
			t.Errorf("%s is not a valid JSON Schema: %v", ptr, err)
		}
	}
}

// schemaPointers lists the JSON pointers of v's schema objects: the
// members named schema and the entries of components.schemas.
func schemaPointers(v any, ptr string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for name, member := range v {
			p := ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
			switch {
			case name == "schema" || ptr == "/components/schemas":
				out = append(out, p)
			default:
				out = append(out, schemaPointers(member, p)...)
			}
		}
	case []any:
		for i, item := range v {
			out = append(out, schemaPointers(item, fmt.Sprintf("%s/%d", ptr, i))...)
		}
	}
	return out
}

// TestOpenAPIDocumentsExactlyTheRoutes compares the routes a fully
// configured server mounts with the document's operations, both ways.
func TestOpenAPIDocumentsExactlyTheRoutes(t *testing.T) {
	c := contractOf(t)
	stub := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	reg := prometheus.NewRegistry()
	// Building the routes touches nothing of the service.
	srv := newServer(nil, Config{Registerer: reg, GraphQL: stub, Playground: stub})
	mounted := map[string]bool{}
	for _, p := range srv.patterns {
		if p != fallbackPattern {
			mounted[p] = true
		}
	}
	var undocumented, unmounted []string
	for p := range mounted {
		if !c.operations[p] {
			undocumented = append(undocumented, p)
		}
	}
	for op := range c.operations {
		if !mounted[op] {
			unmounted = append(unmounted, op)
		}
	}
	slices.Sort(undocumented)
	slices.Sort(unmounted)
	if len(undocumented) > 0 {
		t.Errorf("routes mounted but not in openapi.json:\n\t%s", strings.Join(undocumented, "\n\t"))
	}
	if len(unmounted) > 0 {
		t.Errorf("operations in openapi.json that no route serves:\n\t%s", strings.Join(unmounted, "\n\t"))
	}
}

func TestOpenAPIIsServedWithoutAKey(t *testing.T) {
	srv := newServer(nil, Config{})
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("GET /openapi.json: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	if !json.Valid(w.Body.Bytes()) || w.Body.Len() != len(openAPIDocument) {
		t.Errorf("GET /openapi.json served %d bytes, not the %d of the document", w.Body.Len(), len(openAPIDocument))
	}
}

// TestOpenAPIContractCatchesDepartures shows the check the fixture runs on
// every response is not vacuous.
func TestOpenAPIContractCatchesDepartures(t *testing.T) {
	c := contractOf(t)
	srv := newServer(nil, Config{})
	answer := func(status int, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(requestIDHeader, "test")
		w.WriteHeader(status)
		w.WriteString(body)
		return w
	}
	const record = `"id":"01a2014b-cfe4-76ec-a585-3427f43935f0","baseId":"01a2014b-cfe4-76ec-a585-3427f43935f1",
		"name":"n","description":"","rule":"r","schema":null,"tests":[],"status":"draft","version":null,
		"owner":{"kind":"user","id":"01a2014b-cfe4-76ec-a585-3427f43935f2"},"createdBy":"01a2014b-cfe4-76ec-a585-3427f43935f2",
		"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z","publishedAt":null,"revision":1`
	draft := "/policy/01a2014b-cfe4-76ec-a585-3427f43935f0"
	for _, tc := range []struct {
		name, method, path string
		w                  *httptest.ResponseRecorder
		ok                 bool
	}{
		{"a documented answer passes", "GET", "/healthz", answer(200, `{"status":"ok"}`), true},
		{"an undocumented member fails", "GET", "/healthz", answer(200, `{"status":"ok","extra":1}`), false},
		{"an undocumented status fails", "GET", "/healthz", answer(418, `{"status":"ok"}`), false},
		{"an error code of another status fails", "POST", "/run", answer(401, `{"error":{"code":"not_found","message":"m"}}`), false},
		{"a missing request id fails", "GET", "/healthz", func() *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			w.Header().Set("Content-Type", "application/json")
			w.WriteString(`{"status":"ok"}`)
			return w
		}(), false},
		{"a saved draft passes", "PUT", draft, answer(200, `{`+record+`,"validation":{"errors":[],"diagnostics":[]}}`), true},
		{"a record with an undocumented member fails", "GET", draft, answer(200, `{`+record+`,"validation":{"errors":[]}}`), false},
		{"a record without a member fails", "GET", draft, answer(200, `{`+strings.Replace(record, `"revision":1`, `"x":null`, 1)+`}`), false},
		{"an unknown path answers 404 in the error shape", "GET", "/nowhere", answer(404, `{"error":{"code":"not_found","message":"m"}}`), true},
		{"an unknown path in another shape fails", "GET", "/nowhere", answer(404, `{"message":"m"}`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := c.check(srv, httptest.NewRequest(tc.method, tc.path, nil), tc.w)
			if (len(problems) == 0) != tc.ok {
				t.Errorf("problems %q, want ok=%v", problems, tc.ok)
			}
		})
	}
}

// mountedHandlers are the routes whose handlers come from Config rather
// than from this package.
var mountedHandlers = map[string]bool{"POST /graphql": true, "GET /graphql": true, "GET /playground": true, "GET /playground/{asset}": true}

// check reports how the response w that srv gave to r departs from the
// document; nil when it does not.
func (c *contract) check(srv *server, r *http.Request, w *httptest.ResponseRecorder) []string {
	res := w.Result()
	_, pattern := srv.mux.Handler(r)
	if !canonicalPath(r.URL.EscapedPath()) || pattern == fallbackPattern || pattern == "" || srv.refusals[pattern] {
		return c.checkUnrouted(r, res)
	}
	if !c.operations[pattern] {
		return []string{fmt.Sprintf("route %q is not in openapi.json", pattern)}
	}
	v := c.full
	req := r.Clone(r.Context())
	if r.Method == http.MethodHead || mountedHandlers[pattern] {
		req.Method = strings.Fields(pattern)[0]
		v = c.statusOnly
	}
	c.mu.Lock()
	ok, errs := v.ValidateHttpResponse(req, res)
	c.mu.Unlock()
	if ok {
		return nil
	}
	return []string{describe(errs)}
}

// checkUnrouted checks the answer to a request no route takes: a 404 or
// 405 in the error shape, GraphQL's on GraphQL's path.
func (c *contract) checkUnrouted(r *http.Request, res *http.Response) []string {
	shape := c.errorShape
	if r.URL.Path == "/graphql" {
		shape = c.graphQLErrorShape
	}
	var problems []string
	if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed {
		problems = append(problems, fmt.Sprintf("status %d for a request no route takes; want 404 or 405", res.StatusCode))
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return append(problems, err.Error())
	}
	c.mu.Lock()
	ok, errs := schema_validation.NewSchemaValidator(config.WithFormatAssertions()).
		ValidateSchemaBytesWithVersion(shape, body, 3.1)
	c.mu.Unlock()
	if !ok {
		problems = append(problems, describe(errs))
	}
	return problems
}

func describe(errs []*liberrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s: %s", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n\t\tat %s: %s", f.FieldPath, f.Reason)
		}
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String())
}

// openAPIMap is the document as plain JSON values, for the checks that walk
// it.
func openAPIMap(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(openAPIDocument, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// An object schema that names no members is free-form (run data, a JSON
// Schema, an audit event's details): it must say that it allows any
// member, or generators read it as an object with no members at all.
func TestOpenAPIFreeFormObjectsAllowAnyMember(t *testing.T) {
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch v := v.(type) {
		case map[string]any:
			// A type is a name or a list of names; a member named type
			// (of a properties map) is a schema, not a type.
			isObject := v["type"] == "object"
			if types, ok := v["type"].([]any); ok {
				isObject = slices.Contains(types, any("object"))
			}
			if isObject {
				named := false
				for _, k := range []string{"properties", "patternProperties", "$ref", "oneOf", "anyOf", "allOf"} {
					_, ok := v[k]
					named = named || ok
				}
				if ap, ok := v["additionalProperties"]; !named && (!ok || ap == false) {
					t.Errorf("%s is a free-form object without additionalProperties: true", ptr)
				}
			}
			for k, member := range v {
				walk(member, ptr+"/"+k)
			}
		case []any:
			for i, item := range v {
				walk(item, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(openAPIMap(t), "#")
}

// Every operation that takes a key lists the refusals every request may
// meet; one with a body, a body too large; one with an id in its path, an
// id that names nothing.
func TestOpenAPIOperationsListTheir4xxResponses(t *testing.T) {
	doc := openAPIMap(t)
	for path, item := range doc["paths"].(map[string]any) {
		for method, v := range item.(map[string]any) {
			op, ok := v.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			if sec, ok := op["security"].([]any); ok && len(sec) == 0 {
				continue // public: no key, nothing to refuse
			}
			want := []string{"400", "401", "403", "413", "429"}
			if strings.Contains(path, "{") && path != "/graphql" {
				want = append(want, "404")
			}
			responses := op["responses"].(map[string]any)
			for _, code := range want {
				if _, ok := responses[code]; !ok {
					t.Errorf("%s %s lacks a %s response", strings.ToUpper(method), path, code)
				}
			}
		}
	}
}

// The run routes show a request and its result; each example must be valid
// against its own schema.
func TestOpenAPIRunExamplesMatchTheirSchemas(t *testing.T) {
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(openAPIDocument))
	if err != nil {
		t.Fatal(err)
	}
	const url = "file:///openapi.json"
	compiler := jsonschema.NewCompiler()
	compiler.DefaultDraft(jsonschema.Draft2020)
	if err := compiler.AddResource(url, raw); err != nil {
		t.Fatal(err)
	}
	paths := openAPIMap(t)["paths"].(map[string]any)
	for _, route := range []string{
		"/run", "/run/policy/{baseId}", "/run/policy_version/{policyId}",
		"/run/policy/{baseId}/batch", "/run/policy_version/{policyId}/batch",
		"/run/flow/{baseId}", "/run/flow_version/{flowId}", "/flow/test",
		"/run/flow/{baseId}/batch", "/run/flow_version/{flowId}/batch",
	} {
		esc := strings.NewReplacer("~", "~0", "/", "~1").Replace(route)
		op := paths[route].(map[string]any)["post"].(map[string]any)
		media := map[string]map[string]any{
			"/paths/" + esc + "/post/requestBody/content/application~1json":   op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any),
			"/paths/" + esc + "/post/responses/200/content/application~1json": op["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any),
		}
		for ptr, m := range media {
			examples, _ := m["examples"].(map[string]any)
			if len(examples) == 0 {
				t.Errorf("%s has no examples", ptr)
				continue
			}
			schema, err := compiler.Compile(url + "#" + ptr + "/schema")
			if err != nil {
				t.Fatal(err)
			}
			for name, ex := range examples {
				text, err := json.Marshal(ex.(map[string]any)["value"])
				if err != nil {
					t.Fatal(err)
				}
				value, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
				if err != nil {
					t.Fatal(err)
				}
				if err := schema.Validate(value); err != nil {
					t.Errorf("%s example %s does not match its schema: %v", ptr, name, err)
				}
			}
		}
	}
}
