package graph_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/verdict/verdict/graph"
)

func playgroundMux() *http.ServeMux {
	mux := http.NewServeMux()
	pg := graph.Playground("/graphql")
	mux.Handle("GET /playground", pg)
	mux.Handle("GET /playground/{asset}", pg)
	return mux
}

func TestThePlaygroundPagePointsAtTheEndpointAndLoadsOnlyItsOwnFiles(t *testing.T) {
	mux := playgroundMux()
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/playground", nil))
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, content type %q", w.Code, w.Header().Get("Content-Type"))
	}
	page := w.Body.String()
	for _, want := range []string{`const endpoint = "/graphql";`, "x-api-key", "verdict.apiKey"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not contain %s", want)
		}
	}
	loads := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1)
	if len(loads) != 4 {
		t.Fatalf("the page loads %d files, want 4 (GraphiQL's script and style, React, ReactDOM): %v", len(loads), loads)
	}
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, m := range loads {
		path := m[1]
		if !strings.HasPrefix(path, "/playground/") {
			t.Errorf("the page loads %s, which is not the server's own", path)
			continue
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK || w.Body.Len() < 10000 {
			t.Errorf("%s: status %d, %d bytes", path, w.Code, w.Body.Len())
		}
		if ct := w.Header().Get("Content-Type"); ct != types[path[strings.LastIndex(path, "."):]] {
			t.Errorf("%s: content type %q", path, ct)
		}
		again := httptest.NewRequest(http.MethodGet, path, nil)
		again.Header.Set("If-None-Match", w.Header().Get("ETag"))
		w = httptest.NewRecorder()
		mux.ServeHTTP(w, again)
		if w.Code != http.StatusNotModified {
			t.Errorf("%s again with its ETag: status %d, want 304", path, w.Code)
		}
	}
}

func TestThePlaygroundHasNoOtherFiles(t *testing.T) {
	for _, path := range []string{"/playground/index.html", "/playground/nothing.js", "/playground/..%2fplayground.go"} {
		w := httptest.NewRecorder()
		playgroundMux().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, w.Code)
		}
	}
}

func TestThePlaygroundCannotBeFramedNorTellWhereItsRequestsComeFrom(t *testing.T) {
	mux := playgroundMux()
	for _, path := range []string{"/playground?key=vdk_secret", "/playground/graphiql.min.js"} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		for name, want := range map[string]string{
			"Referrer-Policy":         "no-referrer",
			"X-Frame-Options":         "DENY",
			"Content-Security-Policy": "frame-ancestors 'none'",
			"X-Content-Type-Options":  "nosniff",
		} {
			if got := w.Header().Get(name); got != want {
				t.Errorf("%s: %s is %q, want %q", path, name, got, want)
			}
		}
	}
}
