package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/service"
)

// testDecisionTimeout replaces the authorizer's 250 ms production deadline in
// tests: under the race detector on a loaded machine an embedded decision can
// take longer, and a test must not depend on that. The fail-closed timeout is
// tested with an unreachable remote authorizer instead.
const testDecisionTimeout = time.Minute

const adminKey = "graph-test-admin-key-0123456789abcdef"

// fixture is a service on a fresh database, bootstrapped with Acme and its
// admin, behind the GraphQL handler.
type fixture struct {
	svc   *service.Service
	boot  *service.Bootstrapped
	graph http.Handler
}

type option func(*options)

type options struct {
	authorizer authz.Authorizer
	config     graph.Config
	listScan   int
}

func withAuthorizer(az authz.Authorizer) option { return func(o *options) { o.authorizer = az } }

func withConfig(c graph.Config) option { return func(o *options) { o.config = c } }

// withListScan sets the service's ListScan.
func withListScan(n int) option { return func(o *options) { o.listScan = n } }

func newFixture(t testing.TB, db *database.DB, opts ...option) *fixture {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.authorizer == nil {
		az, err := authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout))
		if err != nil {
			t.Fatal(err)
		}
		o.authorizer = az
	}
	// One logger for the service and the handler, as a server has.
	svc, err := service.New(service.Config{DB: db, Authorizer: o.authorizer, Logger: o.config.Logger, ListScan: o.listScan})
	if err != nil {
		t.Fatal(err)
	}
	boot, err := svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Name: "Ada Admin", Key: adminKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, boot: boot, graph: authenticated(svc, graph.NewHandler(svc, o.config))}
}

// authenticated stands in for the REST router's request id and
// authentication: a request's X-Request-Id, when it has one, is its id in
// the context; a request with x-api-key reaches next with its principal in
// the context, one without with none.
func authenticated(svc *service.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("X-Request-Id"); id != "" {
			r = r.WithContext(requestid.With(r.Context(), id))
		}
		key := r.Header.Get("x-api-key")
		if key == "" {
			next.ServeHTTP(w, r)
			return
		}
		p, err := svc.Authenticate(r.Context(), key, "")
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(service.WithPrincipal(r.Context(), p)))
	})
}

// response is a GraphQL response.
type response struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// post sends an operation as the holder of key (none when empty).
func (f *fixture) post(t *testing.T, key, query string, variables map[string]any) response {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": variables})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return f.send(t, key, r)
}

// jsonRequest is a POST of body, a JSON object, as it is written.
func jsonRequest(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

// quote writes s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (f *fixture) send(t *testing.T, key string, r *http.Request) response {
	t.Helper()
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	w := httptest.NewRecorder()
	f.graph.ServeHTTP(w, r)
	res := response{Status: w.Code}
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatalf("the response is not JSON (%v): %s", err, w.Body)
	}
	return res
}

// decode reads the response's data into v, failing on any error.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected errors: %+v", r.Errors)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decoding data %s: %v", r.Data, err)
	}
}

// failure returns the only error of a response with no data, checking its
// code.
// noData tells whether data answers nothing: it is absent or null, or
// each of its fields is null, as a run field that failed on its own is.
func noData(data json.RawMessage) bool {
	if d := strings.TrimSpace(string(data)); d == "" || d == "null" {
		return true
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return false
	}
	for _, v := range fields {
		if string(v) != "null" {
			return false
		}
	}
	return true
}

// refused checks the answer to an operation refused before anything ran:
// 422, as for a document that does not validate, and invalid_argument.
func (r response) refused(t *testing.T) gqlError {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity {
		t.Errorf("status %d, want 422", r.Status)
	}
	return r.failure(t, service.CodeInvalidArgument)
}

func (r response) failure(t *testing.T, code service.Code) gqlError {
	t.Helper()
	if len(r.Errors) != 1 {
		t.Fatalf("want one error, got %d: %+v (data %s)", len(r.Errors), r.Errors, r.Data)
	}
	if !noData(r.Data) {
		t.Errorf("want no data, got %s", r.Data)
	}
	e := r.Errors[0]
	if got := e.Extensions["code"]; got != string(code) {
		t.Errorf("code = %v, want %s (message %q)", got, code, e.Message)
	}
	return e
}

// fieldFailure returns the only error of a response whose failing field
// is nullable, so that the data holds null in its place, checking its
// code.
func (r response) fieldFailure(t *testing.T, code service.Code) gqlError {
	t.Helper()
	if len(r.Errors) != 1 {
		t.Fatalf("want one error, got %d: %+v (data %s)", len(r.Errors), r.Errors, r.Data)
	}
	e := r.Errors[0]
	if got := e.Extensions["code"]; got != string(code) {
		t.Errorf("code = %v, want %s (message %q)", got, code, e.Message)
	}
	return e
}

// nullFailure checks the response of an operation whose one root field,
// field, is a lookup that failed: the data holds null in its place, and
// the only error has the code.
func (r response) nullFailure(t *testing.T, field string, code service.Code) gqlError {
	t.Helper()
	if string(r.Data) != `{"`+field+`":null}` {
		t.Errorf("data %s, want %s null", r.Data, field)
	}
	return r.fieldFailure(t, code)
}
