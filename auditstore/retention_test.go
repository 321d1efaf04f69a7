package auditstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
)

// stored lists every event of the tenants, newest first.
func stored(ctx context.Context, t *testing.T, s *auditstore.Store, tenants ...uuid.UUID) []uuid.UUID {
	t.Helper()
	var all []uuid.UUID
	for _, tenant := range tenants {
		events, _, err := s.List(ctx, auditstore.Filter{Tenant: tenant}, 100_000)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ids(events)...)
	}
	slices.SortFunc(all, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
	return all
}

func TestExpireRemovesExactlyTheExpiredEvents(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		a, b := uuid.New(), uuid.New()
		cutoff := day0.Add(3 * time.Hour)
		var old, sameDay, kept []auditstore.Event
		// More old events than one batch deletes, for one tenant.
		for i := range auditstore.ExpireBatch*2 + 17 {
			old = append(old, event(a, day0.AddDate(0, 0, -2).Add(time.Duration(i)*time.Second)))
		}
		old = append(old, event(b, day0.AddDate(0, 0, -1)), event(b, day0.Add(-time.Microsecond)))
		sameDay = append(sameDay, event(a, day0), event(b, cutoff.Add(-time.Microsecond)))
		kept = append(kept, event(a, cutoff), event(b, cutoff.Add(time.Hour)), event(a, day0.AddDate(0, 0, 1)))
		for _, batch := range [][]auditstore.Event{old, sameDay, kept} {
			if err := s.Insert(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}

		expired, err := s.Expire(ctx, cutoff)
		if err != nil {
			t.Fatalf("Expire: %v", err)
		}
		want := auditstore.Expired{Events: int64(len(old) + len(sameDay))}
		remaining := kept
		if db.Dialect() == dialect.Postgres {
			// Two days dropped whole; the cutoff's day stays whole.
			want = auditstore.Expired{Partitions: 2}
			remaining = append(slices.Clone(sameDay), kept...)
		}
		if expired != want {
			t.Errorf("expired %+v, want %+v", expired, want)
		}
		wantIDs := ids(remaining)
		slices.SortFunc(wantIDs, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
		if got := stored(ctx, t, s, a, b); !slices.Equal(got, wantIDs) {
			t.Fatalf("%d events left, want exactly the %d not expired:\n%v\n%v", len(got), len(wantIDs), got, wantIDs)
		}
		if again, err := s.Expire(ctx, cutoff); err != nil || again != (auditstore.Expired{}) {
			t.Errorf("expiring again: %+v, %v; want nothing", again, err)
		}
		if db.Dialect() == dialect.SQLite {
			var open int
			if err := db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM audit_retention_gate").Scan(&open); err != nil || open != 0 {
				t.Fatalf("the retention gate holds %d rows (%v) after Expire, want 0", open, err)
			}
		}
	})
}

// A gate row that a statement outside Expire left behind does not stop
// retention, which closes the gate again.
func TestExpireClosesAGateLeftOpen(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.SQLite {
			t.Skip("PostgreSQL drops partitions, through no gate")
		}
		expireClosesAGateLeftOpen(t, db)
	})
}

func expireClosesAGateLeftOpen(t *testing.T, db *database.DB) {
	ctx := context.Background()
	s := auditstore.New(db)
	tenant := uuid.New()
	if err := s.Insert(ctx, []auditstore.Event{event(tenant, day0), event(tenant, day0.Add(time.Hour))}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "INSERT INTO audit_retention_gate (id, cutoff) VALUES (1, 0)"); err != nil {
		t.Fatal(err)
	}
	expired, err := s.Expire(ctx, day0.Add(time.Minute))
	if err != nil || expired != (auditstore.Expired{Events: 1}) {
		t.Fatalf("Expire: %+v, %v; want one event expired", expired, err)
	}
	var open int
	if err := db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM audit_retention_gate").Scan(&open); err != nil || open != 0 {
		t.Fatalf("the retention gate holds %d rows (%v) after Expire, want 0", open, err)
	}
}

func TestEventsAreRefusedChangesOutsideExpire(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := auditstore.New(db)
		tenant := uuid.New()
		ev := event(tenant, day0.Add(time.Hour))
		if err := s.Insert(ctx, []auditstore.Event{ev}); err != nil {
			t.Fatal(err)
		}
		statements := []string{
			"UPDATE audit_executions SET result = false",
			"DELETE FROM audit_executions",
			"DELETE FROM audit_executions WHERE at < " + map[bool]string{true: "now()", false: "9999999999999999"}[db.Dialect() == dialect.Postgres],
		}
		if db.Dialect() == dialect.Postgres {
			statements = append(statements,
				"DELETE FROM audit_executions WHERE false",
				"TRUNCATE audit_executions",
				"UPDATE audit_executions_20240310 SET result = false",
				"DELETE FROM audit_executions_20240310",
				"TRUNCATE audit_executions_20240310",
			)
		}
		for _, stmt := range statements {
			t.Run(stmt+" is refused", func(t *testing.T) {
				_, err := db.SQL().ExecContext(ctx, stmt)
				if err == nil || !strings.Contains(err.Error(), "audit events are append-only") {
					t.Fatalf("error %v, want the trigger's refusal", err)
				}
			})
		}
		if db.Dialect() == dialect.SQLite {
			// SQLite runs no delete trigger for the row a replace removes:
			// a replace of a stored event is skipped instead.
			const columns = "organization_id, at, id, base_id, record_id, actor_id, kind, actor_kind"
			for _, stmt := range []string{
				"REPLACE INTO audit_executions SELECT " + columns + ", 1 - result, published, duration_ns, version, details FROM audit_executions",
				"INSERT OR REPLACE INTO audit_executions SELECT " + columns + ", 1 - result, published, duration_ns, version, '{}' FROM audit_executions",
			} {
				if _, err := db.SQL().ExecContext(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			events, _, err := s.List(ctx, auditstore.Filter{Tenant: tenant}, 10)
			if err != nil || len(events) != 1 || !events[0].Result || events[0].Extra != nil {
				t.Fatalf("after replacing: %+v, %v; want the event as stored", events, err)
			}
			t.Run("the gate opens for events older than its cutoff only", func(t *testing.T) {
				tx, err := db.SQL().BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback()
				if _, err := tx.ExecContext(ctx, "INSERT INTO audit_retention_gate (id, cutoff) VALUES (1, ?)", ev.At.UnixMicro()); err != nil {
					t.Fatal(err)
				}
				_, err = tx.ExecContext(ctx, "DELETE FROM audit_executions")
				if err == nil || !strings.Contains(err.Error(), "audit events are append-only") {
					t.Fatalf("deleting an event as old as the cutoff: %v, want the trigger's refusal", err)
				}
			})
		}
		if got := stored(ctx, t, s, tenant); !slices.Equal(got, []uuid.UUID{ev.ID}) {
			t.Fatalf("events %v after the refused changes, want only %s", got, ev.ID)
		}
	})
}
