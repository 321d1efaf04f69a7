package database_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
)

// beforeExecutions is the version just before the migration that moved
// `executed` events out of audit_events (20261127081500): migrating up to
// it applies every earlier one, so the fixtures find the columns the
// current schema writes.
const beforeExecutions = 20261127081500 - 1

func TestMigratingMovesExecutedEventsIntoTheirOwnTable(t *testing.T) {
	dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		migrateUpTo(ctx, t, db, beforeExecutions)
		f := newFixture(ctx, t, db)
		lifecycle := f.auditEvent(ctx)
		// As the writer stored them: a published version run by a user, a
		// draft run by a key that failed, on two days; times in UTC.
		at := []time.Time{
			time.Date(2026, 11, 20, 23, 59, 59, 999999000, time.UTC),
			time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC),
		}
		rec, key := uuid.New(), uuid.New()
		legacy := []struct {
			actorKind auditevent.ActorKind
			actor     uuid.UUID
			details   map[string]any
			want      auditstore.Event
		}{
			{auditevent.ActorKindUser, f.user.ID,
				map[string]any{"result": true, "durationNs": 183412, "status": "published", "version": 3},
				auditstore.Event{ActorKind: "user", ActorID: f.user.ID, Result: true, Duration: 183412, Published: true, Version: new(3)}},
			{auditevent.ActorKindKey, key,
				map[string]any{"result": false, "durationNs": 9, "status": "draft", "error": "no age"},
				auditstore.Event{ActorKind: "key", ActorID: key, Duration: 9, Extra: map[string]any{"error": "no age"}}},
		}
		var want []auditstore.Event
		for i, l := range legacy {
			// The writer took the id (a UUIDv7) a moment before the time.
			ev := f.client.AuditEvent.Create().SetID(audittest.IDAt(at[i].Add(-3 * time.Microsecond))).
				SetOrganizationID(f.org.ID).SetAt(at[i]).
				SetAction(auditevent.ActionExecuted).SetKind(auditevent.KindPolicy).
				SetBaseID(f.base.ID).SetRecordID(rec).SetActorKind(l.actorKind).SetActorID(l.actor).
				SetDetails(l.details).SaveX(ctx)
			w := l.want
			w.ID, w.Tenant, w.At, w.Kind, w.BaseID, w.RecordID = ev.ID, f.org.ID, at[i], "policy", f.base.ID, rec
			want = append([]auditstore.Event{w}, want...)
		}

		if _, err := database.Migrate(ctx, db); err != nil {
			t.Fatalf("migrating: %v", err)
		}
		s := auditstore.New(db)
		got, _, err := s.List(ctx, auditstore.Filter{Tenant: f.org.ID}, 10)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("moved events:\n%+v, %v\nwant\n%+v", got, err, want)
		}
		for _, w := range want {
			if ev, err := s.Get(ctx, f.org.ID, w.ID); err != nil || ev == nil {
				t.Errorf("the moved event %s is not found by its id: %v", w.ID, err)
			}
		}
		left := f.client.AuditEvent.Query().AllX(ctx)
		if len(left) != 1 || left[0].ID != lifecycle.ID {
			t.Fatalf("audit_events holds %d events after the move, want only the lifecycle one", len(left))
		}
		unchanged(ctx, t, f, lifecycle)
	})
}
