// Package memstore is a storage.Store in memory, for the service's tests of
// business rules: they then run without a database, and see what was
// stored, announced and audited. It keeps the constraints the schema
// enforces that the service relies on (unique names, emails, keys, one
// draft and one record per version of a base). Import it from _test.go
// files only: storage's own behaviour is tested on both databases.
package memstore

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/storage"
)

// Store is the in-memory store. Transactions run one at a time, each on a
// copy of the state that replaces it when the transaction commits.
type Store struct {
	reads
	// tx serializes transactions; mu guards the committed state.
	tx        sync.Mutex
	mu        sync.Mutex
	committed *state
	announced []changefeed.Change
}

// New is an empty store.
func New() *Store {
	s := &Store{committed: newState()}
	s.reads = reads{state: s.snapshot}
	return s
}

var _ storage.Store = (*Store)(nil)

// Appended are the audit events committed, in the order they were
// appended.
func (s *Store) Appended() []*ent.AuditEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.committed.events)
}

// Announced are the changes committed transactions announced, in order.
func (s *Store) Announced() []changefeed.Change {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.announced)
}

// state is what the store holds. Entities in it are never changed in
// place: a write stores a new copy, so that a transaction's copy of the
// maps shares them safely, and reads hand out copies.
type state struct {
	orgs         map[uuid.UUID]*ent.Organization
	users        map[uuid.UUID]*ent.User
	memberships  map[uuid.UUID]*ent.Membership
	keys         map[uuid.UUID]*ent.APIKey
	bases        map[uuid.UUID]*ent.Base
	records      map[uuid.UUID]*ent.Record
	groups       map[uuid.UUID]*ent.Group
	groupMembers map[uuid.UUID]*ent.GroupMember
	events       []*ent.AuditEvent
	decisions    []*ent.DecisionRecord
	executions   []*storage.Execution
}

func newState() *state {
	return &state{
		orgs: map[uuid.UUID]*ent.Organization{}, users: map[uuid.UUID]*ent.User{},
		memberships: map[uuid.UUID]*ent.Membership{}, keys: map[uuid.UUID]*ent.APIKey{},
		bases: map[uuid.UUID]*ent.Base{}, records: map[uuid.UUID]*ent.Record{},
		groups: map[uuid.UUID]*ent.Group{}, groupMembers: map[uuid.UUID]*ent.GroupMember{},
	}
}

func (st *state) clone() *state {
	return &state{
		orgs: maps(st.orgs), users: maps(st.users), memberships: maps(st.memberships), keys: maps(st.keys),
		bases: maps(st.bases), records: maps(st.records), groups: maps(st.groups), groupMembers: maps(st.groupMembers),
		events: slices.Clone(st.events), decisions: slices.Clone(st.decisions), executions: slices.Clone(st.executions),
	}
}

func maps[V any](m map[uuid.UUID]V) map[uuid.UUID]V {
	out := make(map[uuid.UUID]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (s *Store) InTx(ctx context.Context, fn func(storage.Tx) error) error {
	s.tx.Lock()
	defer s.tx.Unlock()
	t := &tx{st: s.snapshot().clone()}
	t.reads = reads{state: func() *state { return t.st }}
	if err := fn(t); err != nil {
		return err
	}
	s.commit(t.st, t.announced...)
	for _, fn := range t.onCommit {
		fn()
	}
	return nil
}

// commit makes next the committed state; the caller holds s.tx.
func (s *Store) commit(next *state, announced ...changefeed.Change) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.committed = next
	s.announced = append(s.announced, announced...)
}

// tx is a transaction: its own copy of the state.
type tx struct {
	reads
	st        *state
	announced []changefeed.Change
	onCommit  []func()
}

func (t *tx) Announce(_ context.Context, c changefeed.Change) error {
	t.announced = append(t.announced, c)
	return nil
}

func (t *tx) OnCommit(fn func()) { t.onCommit = append(t.onCommit, fn) }

func (t *tx) AppendEvents(_ context.Context, evs ...*ent.AuditEvent) error {
	for _, ev := range evs {
		stored := *ev
		t.st.events = append(t.st.events, &stored)
	}
	return nil
}

func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// copyOf is a copy of e, or ErrNotFound when there is none.
func copyOf[E any](e *E, ok bool) (*E, error) {
	if !ok || e == nil {
		return nil, storage.ErrNotFound
	}
	c := *e
	return &c, nil
}

// only is the one entity of m that match selects, if any.
func only[E any](m map[uuid.UUID]*E, match func(*E) bool) (*E, error) {
	for _, e := range m {
		if match(e) {
			return copyOf(e, true)
		}
	}
	return nil, storage.ErrNotFound
}

// window reads w of the entities of m that match selects, newest first.
func window[E any](m map[uuid.UUID]*E, id func(*E) uuid.UUID, match func(*E) bool, w storage.Window) ([]*E, *int) {
	var rows []*E
	for _, e := range m {
		if match(e) {
			c := *e
			rows = append(rows, &c)
		}
	}
	slices.SortFunc(rows, func(a, b *E) int { return bytes.Compare(idBytes(id(b)), idBytes(id(a))) })
	var total *int
	if w.Count {
		n := len(rows)
		total = &n
	}
	if w.After != nil {
		after := *w.After
		rows = slices.DeleteFunc(rows, func(e *E) bool { return bytes.Compare(idBytes(id(e)), idBytes(after)) >= 0 })
	}
	return rows[:min(len(rows), w.Limit)], total
}

func idBytes(id uuid.UUID) []byte { return id[:] }

func containsFold(s, part string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(part))
}

// reads are the finders, on the committed state for the store and on its
// own copy for a transaction.
type reads struct {
	state func() *state
}

// snapshot is the committed state. A transaction that commits replaces
// it, never changes it, so it can be read unlocked.
func (s *Store) snapshot() *state {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.committed
}

func (r reads) Base(ctx context.Context, id uuid.UUID) (*ent.Base, error) {
	b, ok := r.state().bases[id]
	return copyOf(b, ok)
}

func (r reads) Record(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	rec, ok := r.state().records[id]
	return copyOf(rec, ok)
}

func (r reads) Versions(ctx context.Context, baseID uuid.UUID, before, limit int) ([]*ent.Record, error) {
	var out []*ent.Record
	for _, rec := range r.state().records {
		if rec.BaseID == baseID && rec.Status == record.StatusPublished && (before == 0 || version(rec) < before) {
			c := *rec
			out = append(out, &c)
		}
	}
	slices.SortFunc(out, func(a, b *ent.Record) int { return cmp.Compare(version(b), version(a)) })
	return out[:min(len(out), limit)], nil
}

func (r reads) RecordsIn(ctx context.Context, tenant uuid.UUID, kind record.Kind, ids []uuid.UUID) ([]*ent.Record, error) {
	var out []*ent.Record
	for _, id := range ids {
		if rec, ok := r.state().records[id]; ok && rec.OrganizationID == tenant && rec.Kind == kind {
			c := *rec
			out = append(out, &c)
		}
	}
	return out, nil
}

func version(r *ent.Record) int {
	if r.Version == nil {
		return 0
	}
	return *r.Version
}

func (r reads) Bases(ctx context.Context, f storage.BaseFilter, w storage.Window) ([]*ent.Base, *int, error) {
	st := r.state()
	bs, n := window(st.bases, func(b *ent.Base) uuid.UUID { return b.ID }, func(b *ent.Base) bool {
		return b.OrganizationID == f.Tenant && b.Kind == f.Kind && b.DeletedAt == nil && listed(b, f.OwnedBy) &&
			(f.Name == "" || containsFold(b.Name, f.Name)) &&
			(f.Group == nil || st.inGroup(*f.Group, b.ID))
	}, w)
	return bs, n, nil
}

// listed says whether lists show b: published (the organization's), or
// never published and owned by user.
func listed(b *ent.Base, user uuid.UUID) bool {
	return b.OwnerKind == base.OwnerKindOrganization ||
		user != uuid.Nil && b.OwnerKind == base.OwnerKindUser && b.OwnerID == user
}

func (st *state) inGroup(groupID, baseID uuid.UUID) bool {
	for _, m := range st.groupMembers {
		if m.GroupID == groupID && m.BaseID == baseID {
			return true
		}
	}
	return false
}

// The lifecycle's writes.

// CreateBase and CreateRecord fill in the defaults the schema gives.
func (t *tx) CreateBase(ctx context.Context, b *ent.Base) (*ent.Base, error) {
	stored := *b
	stored.DecisionsSampleRate = 1
	return store(t.st.bases, &stored, func(b *ent.Base) *uuid.UUID { return &b.ID })
}

func (t *tx) CreateRecord(ctx context.Context, r *ent.Record) (*ent.Record, error) {
	for _, other := range t.st.records {
		if other.BaseID == r.BaseID && (r.Status == record.StatusDraft && other.Status == record.StatusDraft ||
			r.Version != nil && other.Version != nil && *r.Version == *other.Version) {
			return nil, storage.ErrConflict
		}
	}
	stored := *r
	stored.Revision = 1
	return store(t.st.records, &stored, func(r *ent.Record) *uuid.UUID { return &r.ID })
}

// LockRecord reads the record: transactions here run one at a time.
func (t *tx) LockRecord(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	return t.Record(ctx, id)
}

func (t *tx) SaveDraft(ctx context.Context, r *ent.Record) (bool, error) {
	old, ok := t.st.records[r.ID]
	if !ok || old.Status != record.StatusDraft || old.Revision != r.Revision {
		return false, nil
	}
	next := *old
	next.Name, next.Description, next.Rule = r.Name, r.Description, r.Rule
	next.Definition, next.Schema, next.Tests = r.Definition, r.Schema, r.Tests
	next.Revision, next.UpdatedAt = r.Revision+1, r.UpdatedAt
	if r.Status == record.StatusPublished {
		for _, other := range t.st.records {
			if other.BaseID == r.BaseID && other.Version != nil && r.Version != nil && *other.Version == *r.Version {
				return false, storage.ErrConflict
			}
		}
		next.Status, next.Version, next.PublishedAt = r.Status, r.Version, r.PublishedAt
	}
	t.st.records[r.ID] = &next
	return true, nil
}

// updateBase stores change applied to a copy of the base b names, while
// it is not deleted, as the database's conditional updates do.
func (t *tx) updateBase(b *ent.Base, change func(*ent.Base)) (*ent.Base, error) {
	old, ok := t.st.bases[b.ID]
	if !ok || old.DeletedAt != nil {
		return nil, storage.ErrNotFound
	}
	next := *old
	change(&next)
	t.st.bases[b.ID] = &next
	return copyOf(&next, true)
}

func (t *tx) AttachDraft(ctx context.Context, b *ent.Base, draftID uuid.UUID, at time.Time) (*ent.Base, error) {
	return t.updateBase(b, func(n *ent.Base) { n.DraftRecordID, n.UpdatedAt = &draftID, at })
}

func (t *tx) RenameBase(ctx context.Context, b *ent.Base, name, description string, at time.Time) (*ent.Base, error) {
	return t.updateBase(b, func(n *ent.Base) { n.Name, n.Description, n.UpdatedAt = name, description, at })
}

func (t *tx) PublishDraft(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (*ent.Base, error) {
	return t.updateBase(b, func(n *ent.Base) {
		id := r.ID
		n.Name, n.Description, n.LatestVersion, n.LatestRecordID, n.DraftRecordID = r.Name, r.Description, *r.Version, &id, nil
		n.OwnerKind, n.OwnerID, n.UpdatedAt = base.OwnerKindOrganization, n.OrganizationID, at
	})
}

func (t *tx) AddVersion(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (bool, error) {
	if old, ok := t.st.bases[b.ID]; !ok || old.LatestVersion != b.LatestVersion || old.DeletedAt != nil {
		return false, nil
	}
	_, err := t.updateBase(b, func(n *ent.Base) {
		id := r.ID
		n.Name, n.Description, n.LatestVersion, n.LatestRecordID, n.UpdatedAt = r.Name, r.Description, *r.Version, &id, at
	})
	return err == nil, err
}

func (t *tx) DeleteBase(ctx context.Context, b *ent.Base, at time.Time) (bool, error) {
	if old, ok := t.st.bases[b.ID]; !ok || old.DeletedAt != nil {
		return false, nil
	}
	_, err := t.updateBase(b, func(n *ent.Base) { n.DeletedAt, n.UpdatedAt = &at, at })
	return err == nil, err
}

func (t *tx) SetDecisions(ctx context.Context, b *ent.Base, enabled bool, rate float64, mask []string, at time.Time) (*ent.Base, bool, error) {
	if old, ok := t.st.bases[b.ID]; ok && old.DeletedAt == nil &&
		old.DecisionsEnabled == enabled && old.DecisionsSampleRate == rate && slices.Equal(old.DecisionsMask, mask) {
		now, err := copyOf(old, true)
		return now, false, err
	}
	saved, err := t.updateBase(b, func(n *ent.Base) {
		n.DecisionsEnabled, n.DecisionsSampleRate, n.DecisionsMask, n.UpdatedAt = enabled, rate, mask, at
	})
	return saved, err == nil, err
}

// store keeps a copy of e under a new id, which id points at, and returns
// another copy.
func store[E any](m map[uuid.UUID]*E, e *E, id func(*E) *uuid.UUID) (*E, error) {
	stored := *e
	*id(&stored) = newID()
	m[*id(&stored)] = &stored
	return copyOf(&stored, true)
}

// sorted are copies of m's entities, oldest first.
func sorted[E any](m map[uuid.UUID]*E, id func(*E) uuid.UUID) []*E {
	out := make([]*E, 0, len(m))
	for _, e := range m {
		c := *e
		out = append(out, &c)
	}
	slices.SortFunc(out, func(a, b *E) int { return bytes.Compare(idBytes(id(a)), idBytes(id(b))) })
	return out
}

// The lifecycle audit events.

func (r reads) Event(ctx context.Context, tenant, id uuid.UUID) (*ent.AuditEvent, error) {
	return first(r.state().events, func(ev *ent.AuditEvent) bool { return ev.ID == id && ev.OrganizationID == tenant })
}

// first is a copy of the first of rows that match selects, if any.
func first[E any](rows []*E, match func(*E) bool) (*E, error) {
	i := slices.IndexFunc(rows, match)
	if i < 0 {
		return nil, storage.ErrNotFound
	}
	return copyOf(rows[i], true)
}

// Events examines every event: memory has no walk to bound.
func (r reads) Events(ctx context.Context, f storage.EventFilter, limit int) ([]*ent.AuditEvent, *storage.Position, error) {
	return newest(r.selected(f), func(ev *ent.AuditEvent) storage.Position { return storage.Position{At: ev.At, ID: ev.ID} },
		f.Before, limit), nil, nil
}

// newest are up to limit of rows, newest first (by time, then id), older
// than before when set.
func newest[E any](rows []*E, pos func(*E) storage.Position, before *storage.Position, limit int) []*E {
	slices.SortFunc(rows, func(a, b *E) int { return pos(a).Compare(pos(b)) })
	if before != nil {
		rows = slices.DeleteFunc(rows, func(e *E) bool { return pos(e).Compare(*before) <= 0 })
	}
	return rows[:min(len(rows), limit)]
}

// dropBefore removes from rows those made before cutoff, as expiry does
// on SQLite, and says how many it removed.
func dropBefore[E any](rows []*E, at func(*E) time.Time, cutoff time.Time) ([]*E, int) {
	kept := slices.DeleteFunc(rows, func(e *E) bool { return at(e).Before(cutoff) })
	return kept, len(rows) - len(kept)
}

func (r reads) CountEvents(ctx context.Context, f storage.EventFilter) (int, error) {
	return len(r.selected(f)), nil
}

// selected are copies of the events f selects, Before aside.
func (r reads) selected(f storage.EventFilter) []*ent.AuditEvent {
	var out []*ent.AuditEvent
	for _, ev := range r.state().events {
		if ev.OrganizationID == f.Tenant && (f.Action == "" || ev.Action == f.Action) && (f.Kind == "" || ev.Kind == f.Kind) &&
			(f.BaseID == nil || ev.BaseID != nil && *ev.BaseID == *f.BaseID) && (f.Actor == nil || ev.ActorID == *f.Actor) &&
			(f.Since == nil || !ev.At.Before(*f.Since)) && (f.Until == nil || ev.At.Before(*f.Until)) {
			c := *ev
			out = append(out, &c)
		}
	}
	return out
}
