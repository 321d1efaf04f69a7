package service

import "github.com/prometheus/client_golang/prometheus"

type metrics struct {
	evaluations *prometheus.CounterVec   // by kind (rule, policy, flow) and outcome (true, false, error)
	decisions   *prometheus.CounterVec   // by action and decision (allow, deny, unavailable)
	engineTime  *prometheus.HistogramVec // by kind
	// decisionsExpired counts decision records deleted for their age.
	decisionsExpired prometheus.Counter
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
		decisionsExpired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_decision_records_expired_total",
			Help: "Decision records removed because they were older than the retention period: deleted on SQLite, counted as their day's partition is dropped on PostgreSQL.",
		}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.evaluations, m.decisions, m.engineTime, m.decisionsExpired} {
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

// auditMetrics describe the writer of `executed` events.
type auditMetrics struct {
	batchSize  prometheus.Histogram
	insertTime prometheus.Histogram
	stored     prometheus.Counter
	failures   prometheus.Counter
	refused    prometheus.Counter
	lost       prometheus.Counter
	// decisions counts the decision records stored with the events.
	decisions prometheus.Counter
}

func newAuditMetrics(reg prometheus.Registerer, queueDepth func() float64) (*auditMetrics, error) {
	m := &auditMetrics{
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "verdict_audit_batch_size",
			Help:    "Executed events per insert.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 10),
		}),
		insertTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "verdict_audit_insert_seconds",
			Help:    "Time one successful insert of executed events took.",
			Buckets: prometheus.ExponentialBuckets(1e-4, 2, 14),
		}),
		stored: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_events_stored_total",
			Help: "Executed events stored.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_insert_failures_total",
			Help: "Inserts of executed events that failed and are retried.",
		}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_refused_runs_total",
			Help: "Runs refused (503) because the audit queue stayed full.",
		}),
		lost: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_events_lost_total",
			Help: "Executed events given up at shutdown because the database did not take them.",
		}),
		decisions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_decision_records_stored_total",
			Help: "Decision records stored, each with its run's executed event.",
		}),
	}
	depth := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "verdict_audit_queue_depth",
		Help: "Executed events waiting for an insert: queued, or in a writer's next batch.",
	}, queueDepth)
	if reg != nil {
		for _, c := range []prometheus.Collector{m.batchSize, m.insertTime, m.stored, m.failures, m.refused, m.lost, m.decisions, depth} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// retentionMetrics describe audit retention and partition upkeep.
type retentionMetrics struct {
	partitionsDropped prometheus.Counter
	eventsExpired     prometheus.Counter
	lastRun           prometheus.Gauge
	failures          prometheus.Counter
}

func newRetentionMetrics(reg prometheus.Registerer) (*retentionMetrics, error) {
	m := &retentionMetrics{
		partitionsDropped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_partitions_dropped_total",
			Help: "Days of executed events dropped by retention (PostgreSQL).",
		}),
		eventsExpired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_events_expired_total",
			Help: "Executed events deleted by retention (SQLite).",
		}),
		lastRun: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "verdict_audit_retention_last_run_timestamp_seconds",
			Help: "When audit upkeep (partitions ahead, retention) last completed, in seconds since the epoch.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "verdict_audit_retention_failures_total",
			Help: "Runs of audit upkeep that failed; each is tried again at the next run.",
		}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.partitionsDropped, m.eventsExpired, m.lastRun, m.failures} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
