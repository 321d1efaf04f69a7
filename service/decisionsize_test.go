package service

import (
	"context"
	"strconv"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/storage"
)

// BenchmarkDecisionRecordStorage stores 20,000 decision records through
// the writer's insert, in batches of the writer's size, and reports what
// one record costs: bytes on disk (PostgreSQL: the partitions with their
// indexes and TOAST; SQLite: the database file's growth) and the
// database's time per record. docs/decisions.md quotes its numbers:
//
//	go test ./service -run '^$' -bench DecisionRecordStorage -benchtime 1x
func BenchmarkDecisionRecordStorage(b *testing.B) {
	const records = 20_000
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		ctx := context.Background()
		for range b.N {
			before := decisionBytes(ctx, b, db)
			batch := defaultExecLogConfig.batch
			tenants := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
			at := time.Now().UTC().Truncate(time.Microsecond)
			var took time.Duration
			for i := 0; i < records; i += batch {
				qs := make([]queued, 0, batch)
				for j := i; j < min(i+batch, records); j++ {
					qs = append(qs, storageCostDecision(tenants[j%len(tenants)], at.Add(time.Duration(j)*time.Microsecond), j))
				}
				began := time.Now()
				if err := insertDecisions(ctx, storage.New(db), qs); err != nil {
					b.Fatal(err)
				}
				took += time.Since(began)
			}
			after := decisionBytes(ctx, b, db)
			b.ReportMetric(float64(after-before)/records, "bytes/record")
			b.ReportMetric(float64(took.Microseconds())/records, "µs/record")
		}
	})
}

// storageCostDecision is a typical decision record: a published policy's
// version run by an organization key on a small input, with a one-line
// explanation.
func storageCostDecision(tenant uuid.UUID, at time.Time, i int) queued {
	version := 3
	return queued{
		Execution: storage.Execution{ID: uuid.Must(uuid.NewV7()), Tenant: tenant, At: at, Kind: "policy",
			BaseID: uuid.Must(uuid.NewV7()), RecordID: uuid.Must(uuid.NewV7()), ActorKind: "key", ActorID: uuid.Must(uuid.NewV7())},
		recorded: recorded{decision: &decisionRow{id: uuid.Must(uuid.NewV7()), version: &version, revision: 1, result: true,
			explanation: "Person gets senior_discount: yes — the age of the Person is 70, which is at least 65.",
			duration:    183_412, input: `{"Person":{"age":70,"name":"Ann Example","ssn":"[masked]","country":"NL"},"order":{"total":` + strconv.Itoa(i) + `}}`}},
	}
}

// decisionBytes is what the decision records take on disk: on PostgreSQL
// every partition of decision_records with its indexes and TOAST, on
// SQLite the whole database, WAL included.
func decisionBytes(ctx context.Context, b *testing.B, db *database.DB) int64 {
	b.Helper()
	query := `SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size())`
	if db.Dialect() == dialect.Postgres {
		query = `SELECT COALESCE(sum(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits
			WHERE inhparent = 'decision_records'::regclass`
	}
	var n int64
	if err := db.SQL().QueryRowContext(ctx, query).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}
