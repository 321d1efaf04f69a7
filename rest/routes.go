package rest

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// readyTimeout bounds a readiness check, so a hung database makes /readyz
// answer 503 rather than hang the probe.
const readyTimeout = 5 * time.Second

type statusBody struct {
	Status string `json:"status"`
}

// healthz says the process is up and serving; it checks nothing else.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	s.respond(w, r, http.StatusOK, statusBody{Status: "ok"})
}

// readyz says whether this instance can serve: the database answers and
// its migrations are applied.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.svc.Ready(ctx); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.respond(w, r, http.StatusOK, statusBody{Status: "ok"})
}

// probedMethods are the methods tried when a request matches no route, to
// tell a wrong method (405) from an unknown path (404).
var probedMethods = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
}

// unmatched answers requests no route matches.
func (s *server) unmatched(w http.ResponseWriter, r *http.Request) {
	if allowed := s.allowedMethods(r); len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		s.fail(w, r, http.StatusMethodNotAllowed, service.CodeInvalidArgument,
			engine.Quoted(r.Method)+" is not allowed on "+r.URL.Path+"; allowed: "+strings.Join(allowed, ", "))
		return
	}
	s.notFound(w, r)
}

func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, service.CodeNotFound, "there is no route "+r.URL.Path)
}

func (s *server) undecodableQuery(w http.ResponseWriter, r *http.Request) {
	_, err := url.ParseQuery(r.URL.RawQuery)
	s.writeError(w, r, invalid("the query string does not decode: %v", err))
}

// canonicalPath reports whether p is already in the form ServeMux matches
// routes in: rooted, without empty, "." or ".." elements.
func canonicalPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean == p
}

// allowedMethods lists the methods some route accepts on r's path.
func (s *server) allowedMethods(r *http.Request) []string {
	var allowed []string
	for _, m := range probedMethods {
		probe := &http.Request{Method: m, Host: r.Host, URL: r.URL}
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != fallbackPattern && !s.refusals[pattern] {
			allowed = append(allowed, m)
		}
	}
	return allowed
}
