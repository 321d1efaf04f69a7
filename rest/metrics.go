package rest

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// unmatchedRoute labels requests no route matched (404 and 405), so that
// scanning for random paths cannot grow the label set.
const unmatchedRoute = "unmatched"

type httpMetrics struct {
	requests *prometheus.CounterVec   // by route and status
	duration *prometheus.HistogramVec // by route
	// series holds the counter and histogram of each route and status
	// seen, so that a request does not hash its labels: routes are the
	// mounted patterns and statuses a few, so it stays small.
	series sync.Map // routeStatus → *routeSeries
}

type routeStatus struct {
	route  string
	status int
}

type routeSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_http_requests_total",
			Help: "HTTP requests by route pattern and status.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "verdict_http_request_duration_seconds",
			Help: "Time from a request's arrival to its response, by route pattern.",
			// 100 µs to 26 s: an ad hoc run takes tens of microseconds, a
			// stored run or a listing a few milliseconds.
			Buckets: prometheus.ExponentialBuckets(1e-4, 4, 10),
		}, []string{"route"}),
	}
	if reg != nil {
		m.requests = register(reg, m.requests)
		m.duration = register(reg, m.duration)
	}
	return m
}

// register registers c, or returns the collector registered already under
// its name, so that two handlers can share a registry. Any other failure
// is a programming error, as with prometheus.MustRegister.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	err := reg.Register(c)
	if err == nil {
		return c
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing
		}
	}
	panic(err)
}

func (m *httpMetrics) observe(route string, status int, elapsed time.Duration) {
	key := routeStatus{route, status}
	v, ok := m.series.Load(key)
	if !ok {
		v, _ = m.series.LoadOrStore(key, &routeSeries{
			requests: m.requests.WithLabelValues(route, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(route),
		})
	}
	series := v.(*routeSeries)
	series.requests.Inc()
	series.duration.Observe(elapsed.Seconds())
}

func routeLabel(pattern string) string {
	if pattern == "" || pattern == fallbackPattern {
		return unmatchedRoute
	}
	return pattern
}
