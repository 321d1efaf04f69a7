// Package audittest reads the whole audit log of a test database, both
// of its stores (lifecycle events in audit_events, `executed` events in
// the auditstore), as one list. Import it from _test.go files only.
package audittest

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
)

// Filter selects events; zero fields do not filter.
type Filter struct {
	Tenant *uuid.UUID
	Base   *uuid.UUID
	Action auditevent.Action
	// ExceptOperator leaves out the operator's events: those of the
	// members and keys a test's setup makes with service.Operator.
	ExceptOperator bool
}

// Events are the stored events f selects, oldest first (by time, then
// id), every one as ent reads a lifecycle event.
func Events(t testing.TB, db *database.DB, f Filter) []*ent.AuditEvent {
	t.Helper()
	ctx := context.Background()
	var events []*ent.AuditEvent
	if f.Action != auditevent.ActionExecuted {
		q := db.Client().AuditEvent.Query()
		if f.Tenant != nil {
			q = q.Where(auditevent.OrganizationID(*f.Tenant))
		}
		if f.Base != nil {
			q = q.Where(auditevent.BaseID(*f.Base))
		}
		if f.Action != "" {
			q = q.Where(auditevent.ActionEQ(f.Action))
		}
		if f.ExceptOperator {
			q = q.Where(auditevent.ActorKindNEQ(auditevent.ActorKindOperator))
		}
		var err error
		if events, err = q.All(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if f.Action == "" || f.Action == auditevent.ActionExecuted {
		store := auditstore.New(db)
		for _, tenant := range tenants(t, db, f.Tenant) {
			executed, _, err := store.List(ctx, auditstore.Filter{Tenant: tenant, BaseID: f.Base}, 1_000_000)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range executed {
				events = append(events, &ent.AuditEvent{
					ID: ev.ID, OrganizationID: ev.Tenant, At: ev.At, Action: auditevent.ActionExecuted,
					Kind: auditevent.Kind(ev.Kind), BaseID: &ev.BaseID, RecordID: &ev.RecordID,
					ActorKind: auditevent.ActorKind(ev.ActorKind), ActorID: ev.ActorID, Details: ev.Details(),
				})
			}
		}
	}
	slices.SortFunc(events, func(a, b *ent.AuditEvent) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return bytes.Compare(a.ID[:], b.ID[:])
	})
	return events
}

// Count is how many stored events f selects.
func Count(t testing.TB, db *database.DB, f Filter) int {
	t.Helper()
	return len(Events(t, db, f))
}

// tenants are the one asked for, or every tenant with executed events.
func tenants(t testing.TB, db *database.DB, tenant *uuid.UUID) []uuid.UUID {
	t.Helper()
	if tenant != nil {
		return []uuid.UUID{*tenant}
	}
	rows, err := db.SQL().QueryContext(context.Background(), "SELECT DISTINCT organization_id FROM audit_executions")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var all []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		all = append(all, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return all
}

// IDAt is a UUIDv7 made at the millisecond of at, as the id of an event
// recorded at at would be.
func IDAt(at time.Time) uuid.UUID {
	return new(auditstore.IDs).At(at)
}
