package main

import (
	"net"
	"net/http"
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/verdict/verdict/database"
)

// processCollectors are the metrics of the running binary, beside the
// service's and HTTP's: the Go runtime, the process, the database
// connection pool (open, in use and idle connections, and the waits for
// one: go_sql_*, labelled with the database dialect) and
// verdict_build_info.
func processCollectors(db *database.DB) []prometheus.Collector {
	return []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(db.SQL(), db.Dialect()),
		buildInfo(),
	}
}

// buildInfo is the gauge verdict_build_info, always 1, whose labels tell
// which build is running: the module version, the commit it was built from
// (empty when the build recorded none) and the Go version.
func buildInfo() prometheus.Collector {
	version, revision := "(unknown)", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		version = info.Main.Version
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "verdict_build_info",
		Help:        "Always 1; the labels tell the module version, the commit and the Go version of the running build.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "go_version": runtime.Version()},
	})
	g.Set(1)
	return g
}

// connectionsGauge registers verdict_http_connections, the client
// connections open now, and returns the server's hook that keeps it: a
// value near --max-connections means new clients wait to be accepted.
func connectionsGauge(reg prometheus.Registerer) func(net.Conn, http.ConnState) {
	open := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "verdict_http_connections",
		Help: "Client connections open now; at --max-connections further ones wait to be accepted.",
	})
	reg.MustRegister(open)
	return func(_ net.Conn, state http.ConnState) {
		switch state {
		case http.StateNew:
			open.Inc()
		case http.StateClosed, http.StateHijacked:
			open.Dec()
		}
	}
}
