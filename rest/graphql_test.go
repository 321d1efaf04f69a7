package rest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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

		wantGraphQLError(t, f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{viewer{role}}"}`)), 401, service.CodeUnauthenticated)
		if seen != nil {
			t.Fatal("the GraphQL handler ran without a key")
		}
		wantStatus(t, f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{viewer{role}}"}`), key(adminKey)...), 200)
		wantStatus(t, f.do(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D", nil, key(adminKey)...), 200)
		if seen == nil || seen.KeyID != f.acme.Key.ID {
			t.Errorf("the GraphQL handler saw principal %+v, want the admin key's", seen)
		}
		wantStatus(t, f.do(http.MethodGet, "/playground", nil), 200)
	})
}

func TestRefusalsOnTheGraphQLRoutesAreGraphQLErrors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		graphQL := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"data":{}}`)) })
		f := newFixture(t, db, withConfig(func(c *Config) { c.GraphQL, c.BodyLimit = graphQL, 100 }))
		query := func() *strings.Reader { return strings.NewReader(`{"query":"{viewer{role}}"}`) }

		for name, w := range map[string]*httptest.ResponseRecorder{
			"POST without a key":       f.do(http.MethodPost, "/graphql", query()),
			"POST with an unknown key": f.do(http.MethodPost, "/graphql", query(), key("not-a-key-of-anyone")...),
			"GET without a key":        f.do(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D", nil),
			"GET with a bearer token":  f.do(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D", nil, "Authorization", "Bearer nope"),
		} {
			t.Run(name, func(t *testing.T) {
				wantGraphQLError(t, w, 401, service.CodeUnauthenticated)
				if w.Header().Get("WWW-Authenticate") == "" {
					t.Error("no WWW-Authenticate header")
				}
			})
		}
		t.Run("a body over the limit", func(t *testing.T) {
			body := `{"query":"{viewer{role}}","variables":{"pad":"` + strings.Repeat("x", 200) + `"}}`
			wantGraphQLError(t, f.do(http.MethodPost, "/graphql", strings.NewReader(body), key(adminKey)...), 413, service.CodePayloadTooLarge)
		})
		t.Run("a query parameter the route does not read", func(t *testing.T) {
			w := f.do(http.MethodGet, "/graphql?query=%7Bviewer%7Brole%7D%7D&operation_name=x", nil, key(adminKey)...)
			wantGraphQLError(t, w, 400, service.CodeInvalidArgument)
			if want := `unknown query parameter \"operation_name\" (did you mean \"operationName\"?); GET /graphql reads query, operationName and variables`; !strings.Contains(w.Body.String(), want) {
				t.Errorf("%s; want the message %s", w.Body, want)
			}
		})
		// GraphQL is served by GET, HEAD (GET without the body) and POST;
		// another method is refused in GraphQL's shape too.
		for _, method := range []string{http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodPatch} {
			t.Run(method, func(t *testing.T) {
				w := f.do(method, "/graphql", nil, key(adminKey)...)
				wantGraphQLError(t, w, 405, service.CodeInvalidArgument)
				if want := method + ` is not allowed on /graphql; allowed: GET, HEAD, POST"`; !strings.Contains(w.Body.String(), want) {
					t.Errorf("%s; want the message %s", w.Body, want)
				}
				if allow := w.Header().Get("Allow"); allow != "GET, HEAD, POST" {
					t.Errorf("Allow: %q", allow)
				}
			})
		}
		t.Run("REST routes keep their shape", func(t *testing.T) {
			wantError(t, f.do(http.MethodGet, "/policies", nil), 401, service.CodeUnauthenticated)
		})
	})
}

// A body over the limit is refused alike whether its length is told
// (the router refuses it) or not (GraphQL's handler finds it reading).
func TestAGraphQLBodyOverTheLimitIsRefusedAlikeChunkedOrNot(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.limitedServer(Config{BodyLimit: 100})
		body := `{"query":"{viewer{role}}","variables":{"pad":"` + strings.Repeat("x", 200) + `"}}`
		told := f.do(http.MethodPost, "/graphql", strings.NewReader(body), key(adminKey)...)
		r := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(strings.NewReader(body)))
		r.ContentLength, r.TransferEncoding = -1, []string{"chunked"}
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-api-key", adminKey)
		chunked := f.send(r)
		for _, w := range []*httptest.ResponseRecorder{told, chunked} {
			wantGraphQLError(t, w, 413, service.CodePayloadTooLarge)
		}
		if strings.TrimSpace(told.Body.String()) != strings.TrimSpace(chunked.Body.String()) {
			t.Errorf("with Content-Length: %s\nchunked: %s", told.Body, chunked.Body)
		}
	})
}

// wantGraphQLError checks that w is a GraphQL response of one error, with
// this status and code and no data.
func wantGraphQLError(t *testing.T, w *httptest.ResponseRecorder, status int, code service.Code) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var body struct {
		Errors []struct {
			Message    string `json:"message"`
			Extensions struct {
				Code service.Code `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("body %s is not {\"errors\": [{\"message\", \"extensions\": {\"code\"}}]}: %v", w.Body, err)
	}
	if len(body.Errors) != 1 || body.Errors[0].Extensions.Code != code || body.Errors[0].Message == "" {
		t.Errorf("errors %+v, want one with code %s and a message", body.Errors, code)
	}
}
