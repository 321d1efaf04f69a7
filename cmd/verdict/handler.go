package main

import (
	"log/slog"
	"net/http"

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
	return newAPIHandler(svc, log, reg, cfg, console.Handler())
}

func newAPIHandler(svc *service.Service, log *slog.Logger, reg *prometheus.Registry, cfg serveConfig, ui http.Handler) http.Handler {
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
		GraphQL:          graph.NewHandler(svc, graph.Config{Logger: log, Registerer: reg}),
		Playground:       graph.Playground(graphQLPath),
		Console:          ui,
		ConsolePrefix:    console.Prefix,
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
