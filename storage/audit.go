package storage

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
)

func (r reader) Event(ctx context.Context, tenant, id uuid.UUID) (*ent.AuditEvent, error) {
	return found(r.c.AuditEvent.Query().Where(auditevent.ID(id), auditevent.OrganizationID(tenant)).Only(ctx))
}

func (r reader) Events(ctx context.Context, f EventFilter, limit int) ([]*ent.AuditEvent, *Position, error) {
	var edge *Position
	if f.Scan > 0 && f.BaseID == nil && (f.Action != "" || f.Kind != "" || f.Actor != nil) {
		window := EventFilter{Tenant: f.Tenant, Since: f.Since, Until: f.Until, Before: f.Before}
		last, err := r.newestEvents(window, 1).Offset(f.Scan-1).Select(auditevent.FieldID, auditevent.FieldAt).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		if len(last) == 1 {
			edge = &Position{At: last[0].At, ID: last[0].ID}
		}
	}
	q := r.newestEvents(f, limit)
	if edge != nil {
		q = q.Where(notOlderThan(*edge))
	}
	events, err := found(q.All(ctx))
	if err != nil || len(events) == limit {
		return events, nil, err
	}
	return events, edge, nil
}

// newestEvents is the query of up to limit of the events f selects,
// newest first.
func (r reader) newestEvents(f EventFilter, limit int) *ent.AuditEventQuery {
	q := r.events(f)
	if f.Before != nil {
		q = q.Where(olderThan(*f.Before))
	}
	return q.Order(ent.Desc(auditevent.FieldAt), ent.Desc(auditevent.FieldID)).Limit(limit)
}

// olderThan and notOlderThan bound a list by a position, of a table whose
// rows have an at and an id, as one row comparison, not "at < t or (at = t
// and id < i)": the database then starts or ends its walk of the index of
// the two at the position, instead of filtering every row it passes, so a
// page costs the same at any depth of the list. The time's own bound
// beside it is what PostgreSQL's planner estimates: with row comparisons
// alone, a page between two positions looked large enough to read a whole
// partition for.
func olderThan(p Position) func(*sql.Selector) {
	return func(s *sql.Selector) {
		s.Where(sql.And(sql.LTE(s.C("at"), p.At), sql.CompositeLT([]string{s.C("at"), s.C("id")}, p.At, p.ID)))
	}
}

func notOlderThan(p Position) func(*sql.Selector) {
	return func(s *sql.Selector) {
		s.Where(sql.And(sql.GTE(s.C("at"), p.At), sql.P(func(b *sql.Builder) {
			b.Wrap(func(nb *sql.Builder) { nb.IdentComma(s.C("at"), s.C("id")) })
			b.WriteString(" >= (").Args(p.At, p.ID).WriteString(")")
		})))
	}
}

func (r reader) CountEvents(ctx context.Context, f EventFilter) (int, error) {
	return found(r.events(f).Count(ctx))
}

// events is the query of the events f selects, Before aside.
func (r reader) events(f EventFilter) *ent.AuditEventQuery {
	q := r.c.AuditEvent.Query().Where(auditevent.OrganizationID(f.Tenant))
	if f.Action != "" {
		q = q.Where(auditevent.ActionEQ(f.Action))
	}
	if f.Kind != "" {
		q = q.Where(auditevent.KindEQ(f.Kind))
	}
	if f.BaseID != nil {
		q = q.Where(auditevent.BaseID(*f.BaseID))
	}
	if f.Actor != nil {
		q = q.Where(auditevent.ActorID(*f.Actor))
	}
	// Stored times are UTC, and SQLite compares them as text.
	if f.Since != nil {
		q = q.Where(auditevent.AtGTE(f.Since.UTC()))
	}
	if f.Until != nil {
		q = q.Where(auditevent.AtLT(f.Until.UTC()))
	}
	return q
}
