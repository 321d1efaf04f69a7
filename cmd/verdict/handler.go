package main

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/console"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/rest"
	"github.com/verdict/verdict/service"
)

// graphQLPath is where the GraphQL endpoint is mounted (rest mounts it).
const graphQLPath = "/graphql"

// newHandler is the console at /console/, and the API: REST with GraphQL and
// its playground mounted, and the service's, HTTP and runtime metrics on
// /metrics.
func newHandler(svc *service.Service, log *slog.Logger, reg *prometheus.Registry, cfg serveConfig) http.Handler {
	return withConsole(newAPIHandler(svc, log, reg, cfg), console.Handler())
}

// withConsole sends the console's paths to ui, and a browser asking for the
// root to the console; everything else, the root asked by an API client
// included, goes to api unchanged.
func withConsole(api, ui http.Handler) http.Handler {
	consoleRoot := strings.TrimSuffix(console.Prefix, "/")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == consoleRoot || strings.HasPrefix(p, console.Prefix):
			ui.ServeHTTP(w, r)
		case p == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) && strings.Contains(r.Header.Get("Accept"), "text/html"):
			http.Redirect(w, r, console.Prefix, http.StatusFound)
		default:
			api.ServeHTTP(w, r)
		}
	})
}

func newAPIHandler(svc *service.Service, log *slog.Logger, reg *prometheus.Registry, cfg serveConfig) http.Handler {
	return rest.New(svc, rest.Config{
		Logger:           log,
		Registerer:       reg,
		Gatherer:         reg,
		BodyLimit:        cfg.bodyLimit,
		BodiesInFlight:   cfg.bodiesInFlight,
		RateLimit:        limitOrOff(cfg.rateLimit),
		RateBurst:        cfg.rateBurst,
		OrgRateLimit:     limitOrOff(cfg.orgRateLimit),
		OrgRateBurst:     cfg.orgRateBurst,
		AuthFailureLimit: limitOrOff(cfg.authFailLimit),
		AuthFailureBurst: cfg.authFailBurst,
		GraphQL:          graph.NewHandler(svc, graph.Config{Logger: log, Registerer: reg, RequestID: rest.RequestID}),
		Playground:       graph.Playground(graphQLPath),
	})
}

// limitOrOff maps a flag's 0 (off) to rest's negative (off), rest's 0
// being its default.
func limitOrOff(perSecond float64) float64 {
	if perSecond <= 0 {
		return -1
	}
	return perSecond
}
