package database_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/schema"
	"github.com/verdict/verdict/internal/dbtest"
)

func (f *fixture) auditEvent(ctx context.Context) *ent.AuditEvent {
	return f.client.AuditEvent.Create().
		SetOrganizationID(f.org.ID).
		SetAction(auditevent.ActionCreated).
		SetKind(auditevent.KindPolicy).
		SetBaseID(f.base.ID).
		SetActorKind(auditevent.ActorKindUser).
		SetActorID(f.user.ID).
		SetDetails(map[string]any{"name": f.base.Name}).
		SaveX(ctx)
}

// unchanged checks that the event is stored exactly as it was created.
func unchanged(ctx context.Context, t *testing.T, f *fixture, want *ent.AuditEvent) {
	t.Helper()
	got, err := f.client.AuditEvent.Get(ctx, want.ID)
	if err != nil {
		t.Fatalf("the event is gone: %v", err)
	}
	if got.Action != want.Action || !got.At.Equal(want.At) || got.Details["name"] != want.Details["name"] {
		t.Fatalf("the event changed: %+v, want %+v", got, want)
	}
}

func TestAuditEventsAreRefusedChangesThroughEnt(t *testing.T) {
	changes := []struct {
		name string
		try  func(ctx context.Context, c *ent.Client, ev *ent.AuditEvent) error
	}{
		{"a bulk update", func(ctx context.Context, c *ent.Client, ev *ent.AuditEvent) error {
			return c.AuditEvent.Update().Where(auditevent.ID(ev.ID)).Exec(ctx)
		}},
		{"an update of one event", func(ctx context.Context, c *ent.Client, ev *ent.AuditEvent) error {
			return c.AuditEvent.UpdateOne(ev).Exec(ctx)
		}},
		{"a bulk delete", func(ctx context.Context, c *ent.Client, _ *ent.AuditEvent) error {
			_, err := c.AuditEvent.Delete().Exec(ctx)
			return err
		}},
		{"a delete of one event", func(ctx context.Context, c *ent.Client, ev *ent.AuditEvent) error {
			return c.AuditEvent.DeleteOneID(ev.ID).Exec(ctx)
		}},
	}
	for _, ch := range changes {
		t.Run(ch.name+" is refused, in a transaction too", func(t *testing.T) {
			dbtest.Each(t, func(t *testing.T, db *database.DB) {
				ctx := context.Background()
				f := newFixture(ctx, t, db)
				ev := f.auditEvent(ctx)
				if err := ch.try(ctx, f.client, ev); !errors.Is(err, schema.ErrAuditAppendOnly) {
					t.Fatalf("error %v, want ErrAuditAppendOnly", err)
				}
				tx, err := f.client.Tx(ctx)
				if err != nil {
					t.Fatal(err)
				}
				err = ch.try(ctx, tx.Client(), ev)
				tx.Rollback()
				if !errors.Is(err, schema.ErrAuditAppendOnly) {
					t.Fatalf("in a transaction: error %v, want ErrAuditAppendOnly", err)
				}
				unchanged(ctx, t, f, ev)
			})
		})
	}
}

func TestAuditEventsAreRefusedChangesInSQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newFixture(ctx, t, db)
		ev := f.auditEvent(ctx)
		statements := []string{
			"UPDATE audit_events SET action = 'deleted'",
			"UPDATE audit_events SET details = NULL WHERE organization_id = organization_id",
			"DELETE FROM audit_events",
		}
		if db.Dialect() == dialect.Postgres {
			statements = append(statements, "TRUNCATE audit_events", "DELETE FROM audit_events WHERE false")
		}
		for _, stmt := range statements {
			t.Run(stmt+" is refused", func(t *testing.T) {
				_, err := db.SQL().ExecContext(ctx, stmt)
				if err == nil || !strings.Contains(err.Error(), "audit events are append-only") {
					t.Fatalf("error %v, want the trigger's refusal", err)
				}
				unchanged(ctx, t, f, ev)
			})
		}
		if db.Dialect() == dialect.SQLite {
			// SQLite runs no delete trigger for the row a replace removes:
			// a replace of a stored event is skipped instead.
			const columns = "id, organization_id, at, action, kind, base_id, record_id, group_id, actor_kind, actor_id"
			for _, stmt := range []string{
				"INSERT OR REPLACE INTO audit_events (" + columns + ", details) SELECT " + columns + ", '{}' FROM audit_events",
				"REPLACE INTO audit_events (" + columns + ", details) SELECT " + columns + ", '{}' FROM audit_events",
			} {
				t.Run(stmt+" changes nothing", func(t *testing.T) {
					if _, err := db.SQL().ExecContext(ctx, stmt); err != nil {
						t.Fatal(err)
					}
					unchanged(ctx, t, f, ev)
				})
			}
		}
		t.Run("inserting is still allowed", func(t *testing.T) {
			f.auditEvent(ctx)
			if n := f.client.AuditEvent.Query().CountX(ctx); n != 2 {
				t.Fatalf("%d events stored, want 2", n)
			}
		})
	})
}

// beforeSkippedReplaces is the version of the SQLite migration whose first
// release made the no-replace triggers abort (20261130230000).
const beforeSkippedReplaces = 20261130230000

// A database migrated by that first release gets the triggers that skip a
// stored event's insert, on which the audit writer's retries rely.
func TestMigratingMakesTheNoReplaceTriggersSkip(t *testing.T) {
	ctx := context.Background()
	db := dbtest.Empty(t, dialect.SQLite)
	migrateUpTo(ctx, t, db, beforeSkippedReplaces)
	for _, stmt := range []string{
		"DROP TRIGGER audit_events_no_replace",
		"DROP TRIGGER audit_executions_no_replace",
		"CREATE TRIGGER audit_events_no_replace BEFORE INSERT ON audit_events " +
			"WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id) BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
		"CREATE TRIGGER audit_executions_no_replace BEFORE INSERT ON audit_executions " +
			"WHEN EXISTS (SELECT 1 FROM audit_executions WHERE organization_id = NEW.organization_id AND at = NEW.at AND id = NEW.id) " +
			"BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END",
	} {
		if _, err := db.SQL().ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := database.Migrate(ctx, db); err != nil {
		t.Fatalf("migrating: %v", err)
	}
	f := newFixture(ctx, t, db)
	ev := f.auditEvent(ctx)
	const columns = "id, organization_id, at, action, kind, base_id, record_id, group_id, actor_kind, actor_id, details"
	if _, err := db.SQL().ExecContext(ctx, "INSERT INTO audit_events ("+columns+") SELECT "+columns+" FROM audit_events"); err != nil {
		t.Fatalf("inserting a stored event again: %v, want it skipped", err)
	}
	unchanged(ctx, t, f, ev)
	for _, table := range []string{"audit_events", "audit_executions"} {
		var sql string
		if err := db.SQL().QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", table+"_no_replace").Scan(&sql); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sql, "RAISE(IGNORE)") {
			t.Errorf("%s_no_replace is %s, want it to skip with RAISE(IGNORE)", table, sql)
		}
	}
}
