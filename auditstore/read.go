package auditstore

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Filter selects the events of one tenant; zero fields do not filter.
// Since includes its instant, Until excludes its own. Before resumes a
// list after the event at (At, ID), in the order of List.
type Filter struct {
	Tenant uuid.UUID
	Kind   string
	BaseID *uuid.UUID
	Actor  *uuid.UUID
	Since  *time.Time
	Until  *time.Time
	Before *Position
	// Scan bounds the events List examines for a filter that no index
	// serves (see List); 0 leaves it unbounded.
	Scan int
}

// Position is where an event stands in the log: its time, then its id.
type Position struct {
	At time.Time
	ID uuid.UUID
}

// Compare orders p and q as the log lists them, newest first: -1 when p
// comes first (it is newer: a later time, or at the same time a larger
// id), +1 when q does, 0 when they are the same place.
func (p Position) Compare(q Position) int {
	if c := q.At.Compare(p.At); c != 0 {
		return c
	}
	return bytes.Compare(q.ID[:], p.ID[:])
}

// List returns at most limit events of f, newest first: by time, then id,
// both descending.
//
// A kind without a base, or on SQLite an actor, is held by no index: the
// page is found by walking the tenant's log, past every event that does
// not match, which on a log of millions could read all of it. With f.Scan
// set, such a walk stops after f.Scan of the tenant's events, newest
// first from the cursor: when it stopped before finding limit events,
// scanned is the last event it examined. The list goes on after that
// event, whether or not anything before it matched.
func (s *Store) List(ctx context.Context, f Filter, limit int) (events []Event, scanned *Position, err error) {
	var edge *Position
	if f.Scan > 0 && s.unindexed(f) {
		if edge, err = s.scanEdge(ctx, f); err != nil {
			return nil, nil, err
		}
	}
	where, args := s.where(f)
	if edge != nil {
		// The time's own bound beside the row comparison is what
		// PostgreSQL's planner estimates (see storage's olderThan).
		args = append(args, s.at(edge.At), s.at(edge.At), s.id(edge.ID))
		where += " AND at >= " + s.placeholder(len(args)-2) + " AND (at, id) >= (" + s.placeholder(len(args)-1) + ", " + s.placeholder(len(args)) + ")"
	}
	args = append(args, limit)
	events, err = s.query(ctx, "SELECT "+columns+" FROM "+s.from(f)+" WHERE "+where+
		" ORDER BY at DESC, id DESC LIMIT "+s.placeholder(len(args)), args...)
	if err != nil || len(events) == limit {
		return events, nil, err
	}
	return events, edge, nil
}

// unindexed tells whether f selects by what none of the log's indexes
// leads with, beside the tenant and the time: a base's index holds its
// one kind and every actor of it, and PostgreSQL indexes actors.
func (s *Store) unindexed(f Filter) bool {
	return f.BaseID == nil && (f.Kind != "" || f.Actor != nil && !s.pg)
}

// scanEdge is the position of the f.Scan-th of the tenant's events in f's
// window (its times and cursor), newest first, whatever else f selects;
// nil when the window holds fewer.
func (s *Store) scanEdge(ctx context.Context, f Filter) (*Position, error) {
	where, args := s.where(Filter{Tenant: f.Tenant, Since: f.Since, Until: f.Until, Before: f.Before})
	args = append(args, f.Scan-1)
	var (
		at storedTime
		id uuid.UUID
	)
	err := s.db.SQL().QueryRowContext(ctx, "SELECT at, id FROM "+table+" WHERE "+where+
		" ORDER BY at DESC, id DESC LIMIT 1 OFFSET "+s.placeholder(len(args)), args...).Scan(&at, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Position{At: at.t, ID: id}, nil
}

// from is the table f reads, on SQLite with the index it should use: one
// base's events are read through the base's index. Without statistics
// SQLite chose the primary key, whose order the page wants, and walked
// every event of the organization to keep the base's (4 s among four
// million events, where the base's index takes milliseconds).
func (s *Store) from(f Filter) string {
	if !s.pg && f.BaseID != nil {
		return table + " INDEXED BY " + table + "_base"
	}
	return table
}

// Count is how many events f selects, Before aside.
func (s *Store) Count(ctx context.Context, f Filter) (int, error) {
	f.Before = nil
	where, args := s.where(f)
	var n int
	err := s.db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM "+s.from(f)+" WHERE "+where, args...).Scan(&n)
	return n, err
}

// idWindow is how far from the time in its id an event may be stored:
// IDs makes an event's id from its time, at most maxIDLead ahead.
const idWindow = time.Second

// Get returns the tenant's event with this id, or nil when it has none.
// It looks only near the time the id holds, so that an unknown id costs
// no more than a known one.
func (s *Store) Get(ctx context.Context, tenant, id uuid.UUID) (*Event, error) {
	t := idTime(id)
	since, until := t.Add(-idWindow), t.Add(idWindow)
	where, args := s.where(Filter{Tenant: tenant, Since: &since, Until: &until})
	args = append(args, s.id(id))
	events, err := s.query(ctx, "SELECT "+columns+" FROM "+table+" WHERE "+where+
		" AND id = "+s.placeholder(len(args)), args...)
	if err != nil || len(events) == 0 {
		return nil, err
	}
	return &events[0], nil
}

// where is f as a condition and its arguments.
func (s *Store) where(f Filter) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, vals ...any) {
		for _, v := range vals {
			args = append(args, v)
			cond = strings.Replace(cond, "?", s.placeholder(len(args)), 1)
		}
		conds = append(conds, cond)
	}
	add("organization_id = ?", s.id(f.Tenant))
	if f.Kind != "" {
		// An unknown kind has no events; the caller refuses it before.
		add("kind = ?", kindCodes[f.Kind])
	}
	if f.BaseID != nil {
		add("base_id = ?", s.id(*f.BaseID))
	}
	if f.Actor != nil {
		add("actor_id = ?", s.id(*f.Actor))
	}
	if f.Since != nil {
		add("at >= ?", s.at(*f.Since))
	}
	if f.Until != nil {
		add("at < ?", s.at(*f.Until))
	}
	if f.Before != nil {
		add("at <= ? AND (at, id) < (?, ?)", s.at(f.Before.At), s.at(f.Before.At), s.id(f.Before.ID))
	}
	return strings.Join(conds, " AND "), args
}

func (s *Store) placeholder(n int) string {
	if s.pg {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// at and id are the stored forms of a time and an id: SQLite keeps
// microseconds since the epoch and 16-byte blobs.
func (s *Store) at(t time.Time) any {
	if s.pg {
		return t.UTC()
	}
	return t.UnixMicro()
}

func (s *Store) id(id uuid.UUID) any {
	if s.pg {
		return id
	}
	return blob(id)
}

func (s *Store) query(ctx context.Context, query string, args ...any) ([]Event, error) {
	rows, err := s.db.SQL().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var events []Event
	for rows.Next() {
		var (
			ev              Event
			at              storedTime
			duration        int64
			version         sql.NullInt64
			kind, actorKind int16
			details         sql.NullString
		)
		if err := rows.Scan(&at, &duration, &ev.Tenant, &ev.ID, &ev.BaseID, &ev.RecordID, &ev.ActorID,
			&version, &kind, &actorKind, &ev.Result, &ev.Published, &details); err != nil {
			return nil, err
		}
		ev.At, ev.Duration = at.t, time.Duration(duration)
		if version.Valid {
			v := int(version.Int64)
			ev.Version = &v
		}
		var ok bool
		if ev.Kind, ok = kindNames[kind]; !ok {
			return nil, fmt.Errorf("auditstore: event %s has kind %d", ev.ID, kind)
		}
		if ev.ActorKind, ok = actorKindNames[actorKind]; !ok {
			return nil, fmt.Errorf("auditstore: event %s has actor kind %d", ev.ID, actorKind)
		}
		if details.Valid {
			if err := json.Unmarshal([]byte(details.String), &ev.Extra); err != nil {
				return nil, fmt.Errorf("auditstore: event %s: %w", ev.ID, err)
			}
		}
		events = append(events, ev)
	}
	return events, rows.Err()
}

// storedTime scans a time as either database stores it.
type storedTime struct{ t time.Time }

func (st *storedTime) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		st.t = v.UTC()
	case int64:
		st.t = time.UnixMicro(v).UTC()
	default:
		return fmt.Errorf("auditstore: a time stored as %T", src)
	}
	return nil
}
