package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestConsoleRoutesAndTheRootRedirect(t *testing.T) {
	named := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(name)) })
	}
	h := withConsole(named("api"), named("console"))
	cases := []struct {
		method, target, accept string
		status                 int
		body, location         string
	}{
		{http.MethodGet, "/", "text/html,application/xhtml+xml", http.StatusFound, "", "/console/"},
		{http.MethodHead, "/", "text/html", http.StatusFound, "", "/console/"},
		{http.MethodGet, "/", "application/json", http.StatusOK, "api", ""},
		{http.MethodPost, "/", "text/html", http.StatusOK, "api", ""},
		{http.MethodGet, "/console", "", http.StatusOK, "console", ""},
		{http.MethodGet, "/console/policies/x", "", http.StatusOK, "console", ""},
		{http.MethodGet, "/consoles", "text/html", http.StatusOK, "api", ""},
		{http.MethodPost, "/graphql", "", http.StatusOK, "api", ""},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.target, nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.status || w.Header().Get("Location") != c.location {
			t.Errorf("%s %s (Accept %q): status %d, Location %q; want %d, %q", c.method, c.target, c.accept, w.Code, w.Header().Get("Location"), c.status, c.location)
		}
		if c.body != "" && w.Body.String() != c.body {
			t.Errorf("%s %s: served by %q, want %q", c.method, c.target, w.Body.String(), c.body)
		}
	}
}
