package service

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/dayparts"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/storage"
)

func TestTheUpkeepExpiresWhatTheRetentionNoLongerKeeps(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		store := storage.New(db)
		now := time.Date(2030, 1, 10, 12, 0, 0, 0, time.UTC)
		tenant := uuid.New()
		at := func(ts time.Time) storage.Execution {
			ev := testEvent(tenant)
			ev.ID, ev.At = audittest.IDAt(ts), ts
			return ev
		}
		// With two days' retention the cutoff is 2030-01-08 12:00.
		expired := at(time.Date(2030, 1, 7, 10, 0, 0, 0, time.UTC))
		cutoffDay := at(time.Date(2030, 1, 8, 11, 59, 59, 0, time.UTC))
		young := at(time.Date(2030, 1, 8, 12, 0, 0, 0, time.UTC))
		if err := store.InsertExecutions(ctx, []storage.Execution{expired, cutoffDay, young}); err != nil {
			t.Fatal(err)
		}

		// Without retention nothing expires, however late it is.
		reg := prometheus.NewRegistry()
		metrics, err := newRetentionMetrics(reg)
		if err != nil {
			t.Fatal(err)
		}
		keepAll := &auditUpkeep{store: store, now: func() time.Time { return now.AddDate(5, 0, 0) }, log: slog.New(slog.DiscardHandler), metrics: metrics}
		if err := keepAll.run(ctx); err != nil {
			t.Fatal(err)
		}
		if got := storedExecuted(t, db, tenant); got != 3 {
			t.Fatalf("%d events left without retention, want 3", got)
		}

		u := &auditUpkeep{store: store, retention: 48 * time.Hour, now: func() time.Time { return now },
			log: slog.New(slog.DiscardHandler), metrics: metrics}
		if err := u.run(ctx); err != nil {
			t.Fatal(err)
		}
		left := []uuid.UUID{young.ID}
		wantDropped, wantExpired := 0.0, 2.0
		if db.Dialect() == dialect.Postgres {
			// The cutoff's day stays whole.
			left = []uuid.UUID{young.ID, cutoffDay.ID}
			wantDropped, wantExpired = 1, 0
			days, err := auditstore.New(db).Partitions(ctx)
			// The day of the event kept, today and the three days ahead; and
			// those the first run prepared five years on.
			want := []time.Time{time.Date(2030, 1, 8, 0, 0, 0, 0, time.UTC)}
			for _, from := range []time.Time{now, now.AddDate(5, 0, 0)} {
				for i := range dayparts.DaysAhead + 1 {
					want = append(want, from.AddDate(0, 0, i).Truncate(24*time.Hour))
				}
			}
			if err != nil || !slices.EqualFunc(days, want, time.Time.Equal) {
				t.Errorf("partitions %v, %v; want %v", days, err, want)
			}
		}
		events, _, err := store.Executions(ctx, storage.ExecutionFilter{Tenant: tenant}, 10)
		if err != nil || !slices.Equal(ids(events), left) {
			t.Fatalf("events left %v, %v; want %v", ids(events), err, left)
		}
		if got := gathered(t, reg, "verdict_audit_partitions_dropped_total").GetCounter().GetValue(); got != wantDropped {
			t.Errorf("partitions dropped %v, want %v", got, wantDropped)
		}
		if got := gathered(t, reg, "verdict_audit_events_expired_total").GetCounter().GetValue(); got != wantExpired {
			t.Errorf("events expired %v, want %v", got, wantExpired)
		}
		if got := gathered(t, reg, "verdict_audit_retention_last_run_timestamp_seconds").GetGauge().GetValue(); got != float64(now.Unix()) {
			t.Errorf("last run %v, want %d", got, now.Unix())
		}
		if got := gathered(t, reg, "verdict_audit_retention_failures_total").GetCounter().GetValue(); got != 0 {
			t.Errorf("%v failed runs, want 0", got)
		}
	})
}

func ids(events []storage.Execution) []uuid.UUID {
	out := make([]uuid.UUID, len(events))
	for i, ev := range events {
		out[i] = ev.ID
	}
	return out
}

// gathered is the one metric named name in reg.
func gathered(t *testing.T, reg *prometheus.Registry, name string) *dto.Metric {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()[0]
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}
