package service

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/dbtest"
)

// BenchmarkExecutedEventStorage stores 100,000 `executed` events through
// the writers' insert, in batches of the writers' size, and reports what
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
			before := auditBytes(ctx, b, db)
			batch := defaultExecLogConfig.batch
			tenants := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
			at := time.Now().UTC().Truncate(time.Microsecond)
			var took time.Duration
			for i := 0; i < events; i += batch {
				evs := make([]event, 0, batch)
				for j := i; j < min(i+batch, events); j++ {
					evs = append(evs, storageCostEvent(tenants[j%len(tenants)], at.Add(time.Duration(j)*time.Microsecond)))
				}
				began := time.Now()
				if err := insertEvents(ctx, db, evs); err != nil {
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
func storageCostEvent(tenant uuid.UUID, at time.Time) event {
	base, record := uuid.Must(uuid.NewV7()), uuid.Must(uuid.NewV7())
	actor := &Principal{KeyID: uuid.Must(uuid.NewV7()), KeyOwner: authz.OwnerOrganization, TenantID: tenant}
	return event{id: uuid.Must(uuid.NewV7()), tenant: tenant, at: at,
		action: auditevent.ActionExecuted, kind: auditevent.KindPolicy, base: &base, record: &record, actor: actor,
		details: map[string]any{"result": true, "durationNs": int64(183_412), "status": "published", "version": 3}}
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
