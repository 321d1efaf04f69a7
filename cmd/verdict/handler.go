package main

import (
	"log/slog"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/rest"
	"github.com/verdict/verdict/service"
)

// graphQLPath is where the GraphQL endpoint is mounted (rest mounts it).
const graphQLPath = "/graphql"

// newHandler is the API: REST with GraphQL and its playground mounted, and
// the service's, HTTP and runtime metrics on /metrics.
func newHandler(svc *service.Service, log *slog.Logger, reg *prometheus.Registry, cfg serveConfig) http.Handler {
	rateLimit := cfg.rateLimit
	if rateLimit <= 0 {
		rateLimit = -1 // rest: negative turns rate limiting off
	}
	return rest.New(svc, rest.Config{
		Logger:     log,
		Registerer: reg,
		Gatherer:   reg,
		BodyLimit:  cfg.bodyLimit,
		RateLimit:  rateLimit,
		RateBurst:  cfg.rateBurst,
		GraphQL:    graph.NewHandler(svc, graph.Config{Logger: log, Registerer: reg, RequestID: rest.RequestID}),
		Playground: graph.Playground(graphQLPath),
	})
}
