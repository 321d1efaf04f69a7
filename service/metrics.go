package service

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	evaluations *prometheus.CounterVec   // by kind (rule, policy, flow) and outcome (true, false, error)
	decisions   *prometheus.CounterVec   // by action and decision (allow, deny, unavailable)
	engineTime  *prometheus.HistogramVec // by kind
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		evaluations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_evaluations_total",
			Help: "Evaluations by kind of run and outcome.",
		}, []string{"kind", "outcome"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_authorization_decisions_total",
			Help: "Authorization decisions by action and decision (allow, deny, unavailable).",
		}, []string{"action", "decision"}),
		engineTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "verdict_engine_seconds",
			Help:    "Time spent parsing and evaluating, by kind of run.",
			Buckets: prometheus.ExponentialBuckets(1e-6, 4, 10),
		}, []string{"kind"}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.evaluations, m.decisions, m.engineTime} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

func outcomeLabel(result bool, failed bool) string {
	switch {
	case failed:
		return "error"
	case result:
		return "true"
	}
	return "false"
}
