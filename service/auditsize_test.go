package service

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
)

// BenchmarkExecutedEventStorage stores 100,000 `executed` events through
// the writer's insert, in batches of the writer's size, and reports what
// one event costs: bytes on disk (PostgreSQL: every audit relation with
// its indexes and TOAST; SQLite: the database file's growth) and the
// database's time per event. docs/operations.md quotes its numbers:
//
//	go test ./service -run '^$' -bench ExecutedEventStorage -benchtime 1x
func BenchmarkExecutedEventStorage(b *testing.B) {
	const events = 100_000
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		ctx := context.Background()
		for range b.N {
			store := auditstore.New(db)
			before := auditBytes(ctx, b, db)
			batch := defaultExecLogConfig.batch
			tenants := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
			at := time.Now().UTC().Truncate(time.Microsecond)
			var took time.Duration
			for i := 0; i < events; i += batch {
				evs := make([]auditstore.Event, 0, batch)
				for j := i; j < min(i+batch, events); j++ {
					evs = append(evs, storageCostEvent(tenants[j%len(tenants)], at.Add(time.Duration(j)*time.Microsecond)))
				}
				began := time.Now()
				if err := store.Insert(ctx, evs); err != nil {
					b.Fatal(err)
				}
				took += time.Since(began)
			}
			after := auditBytes(ctx, b, db)
			b.ReportMetric(float64(after-before)/events, "bytes/event")
			b.ReportMetric(float64(took.Microseconds())/events, "µs/event")
		}
	})
}

// storageCostEvent is a typical `executed` event: a published policy's
// version run by an organization key.
func storageCostEvent(tenant uuid.UUID, at time.Time) auditstore.Event {
	version := 3
	return auditstore.Event{ID: audittest.IDAt(at), Tenant: tenant, At: at, Kind: "policy",
		BaseID: uuid.Must(uuid.NewV7()), RecordID: uuid.Must(uuid.NewV7()), ActorKind: "key", ActorID: uuid.Must(uuid.NewV7()),
		Result: true, Duration: 183_412, Published: true, Version: &version}
}

// auditBytes is what the audit log takes on disk: on PostgreSQL every
// audit relation (partitions included) with its indexes and TOAST, on
// SQLite the whole database, WAL included.
func auditBytes(ctx context.Context, b *testing.B, db *database.DB) int64 {
	b.Helper()
	query := `SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size())`
	if db.Dialect() == dialect.Postgres {
		query = `SELECT COALESCE(sum(pg_total_relation_size(oid)), 0) FROM pg_class
			WHERE relkind = 'r' AND relname LIKE 'audit\_%'`
	}
	var n int64
	if err := db.SQL().QueryRowContext(ctx, query).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}
