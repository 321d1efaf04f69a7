package graph

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
)

// Operation labels that are not names a client gave.
const (
	// anonymousOperation labels operations without a name.
	anonymousOperation = "anonymous"
	// invalidOperation labels documents refused before an operation was
	// chosen: they did not parse or validate, or named no operation of
	// theirs.
	invalidOperation = "invalid"
	// otherOperation labels named operations once maxOperationNames names
	// have been seen, so that clients inventing names cannot grow the
	// label set without end.
	otherOperation = "other"
)

// maxOperationNames is how many operation names get a label of their own,
// on one handler, so for all the organizations it serves together; an
// application has a few dozen. maxOperationName is how much of a name
// is kept.
const (
	maxOperationNames = 200
	maxOperationName  = 64
)

// observer counts each operation and its latency by operation name and
// writes a log line for it, so that GraphQL traffic, which the HTTP
// metrics see as one route, shows what it is made of.
type observer struct {
	log      *slog.Logger
	total    *prometheus.CounterVec   // by operation and result
	duration *prometheus.HistogramVec // by operation

	mu    sync.Mutex
	names map[string]bool // names with a label of their own
}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = (*observer)(nil)

func newObserver(cfg Config) *observer {
	o := &observer{
		log: cfg.Logger,
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_graphql_operations_total",
			Help: "GraphQL operations by operation name and result (ok, or errors when the response lists any).",
		}, []string{"operation", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "verdict_graphql_operation_duration_seconds",
			Help: "Time from a GraphQL request's arrival to its response, by operation name.",
			// The buckets of the HTTP request durations: 100 µs to 26 s.
			Buckets: prometheus.ExponentialBuckets(1e-4, 4, 10),
		}, []string{"operation"}),
		names: map[string]bool{},
	}
	if cfg.Registerer != nil {
		cfg.Registerer.MustRegister(o.total, o.duration)
	}
	return o
}

func (*observer) ExtensionName() string { return "Observer" }

func (*observer) Validate(graphql.ExecutableSchema) error { return nil }

func (o *observer) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := next(ctx)
	if res == nil {
		return nil
	}
	op := o.label(ctx)
	result := "ok"
	if len(res.Errors) > 0 {
		result = "errors"
	}
	elapsed := time.Since(graphql.GetStartTime(ctx))
	o.total.WithLabelValues(op, result).Inc()
	o.duration.WithLabelValues(op).Observe(elapsed.Seconds())
	o.log.LogAttrs(ctx, slog.LevelInfo, "graphql operation",
		slog.String("operation", op),
		slog.String("result", result),
		slog.Int("errors", len(res.Errors)),
		slog.Duration("duration", elapsed),
	)
	return res
}

// label is the operation's name as its document gives it, once the
// document has validated; a name the client sent that the document does
// not hold labels nothing.
func (o *observer) label(ctx context.Context) string {
	if !graphql.HasOperationContext(ctx) {
		return invalidOperation
	}
	op := graphql.GetOperationContext(ctx)
	switch {
	case op.Doc == nil || op.Operation == nil:
		return invalidOperation
	case op.Operation.Name == "":
		return anonymousOperation
	}
	name := op.Operation.Name
	if len(name) > maxOperationName {
		name = name[:maxOperationName] // names are ASCII letters, digits and _
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.names[name] {
		if len(o.names) >= maxOperationNames {
			return otherOperation
		}
		o.names[name] = true
	}
	return name
}
