package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The console's paths and a browser's root are served beside the API, and
// logged and counted as its requests are.
func TestConsoleRoutesAndTheRootRedirect(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", "serve-test-bootstrap-key-0123456789")...)
	client := &http.Client{Transport: &http.Transport{}, Timeout: testTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections()
	const console, api = `<div id="root">`, `"error":`
	cases := []struct {
		method, target, accept string
		status                 int
		body, location         string
	}{
		{http.MethodGet, "/", "text/html,application/xhtml+xml", http.StatusFound, "", "/console/"},
		{http.MethodHead, "/", "text/html", http.StatusFound, "", "/console/"},
		{http.MethodGet, "/", "application/json", http.StatusNotFound, api, ""},
		{http.MethodPost, "/", "text/html", http.StatusNotFound, api, ""},
		{http.MethodGet, "/console", "", http.StatusMovedPermanently, "", "/console/"},
		{http.MethodGet, "/console/policies/x", "", http.StatusOK, console, ""},
		{http.MethodPost, "/console/", "", http.StatusMethodNotAllowed, "method not allowed", ""},
		{http.MethodGet, "/consoles", "text/html", http.StatusNotFound, api, ""},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, s.base+c.target, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != c.status || resp.Header.Get("Location") != c.location || !strings.Contains(string(body), c.body) {
			t.Errorf("%s %s (Accept %q): %d, Location %q, %.80q; want %d, %q, %q",
				c.method, c.target, c.accept, resp.StatusCode, resp.Header.Get("Location"), body, c.status, c.location, c.body)
		}
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s %s has no X-Request-Id", c.method, c.target)
		}
	}
	_, metrics := s.do(t, http.MethodGet, "/metrics", "", "")
	for _, want := range []string{
		`verdict_http_requests_total{route="/console/",status="200"} 1`,
		`verdict_http_requests_total{route="/console/",status="301"} 1`,
		`verdict_http_requests_total{route="/console/",status="405"} 1`,
		`verdict_http_requests_total{route="GET /",status="302"} 2`,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s:\n%s", want, metrics)
		}
	}
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	logged := s.stdout.String() + s.stderr.String()
	for _, want := range []string{"route=/console/ path=/console/policies/x status=200", `route="GET /" path=/ status=302`} {
		if !strings.Contains(logged, want) {
			t.Errorf("the log lacks %q:\n%s", want, logged)
		}
	}
}
