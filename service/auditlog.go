package service

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/storage"
)

// AuditAction is what an audit event records.
type AuditAction string

const (
	AuditCreated   AuditAction = "created"
	AuditEdited    AuditAction = "edited"
	AuditPublished AuditAction = "published"
	AuditAssigned  AuditAction = "assigned"
	AuditExecuted  AuditAction = "executed"
	AuditDeleted   AuditAction = "deleted"
)

// AuditKind is what an audit event is about: a policy, flow or group
// (docs/endpoints.md), or, for administration, a member or a key.
type AuditKind string

const (
	AuditPolicy AuditKind = "policy"
	AuditFlow   AuditKind = "flow"
	AuditGroup  AuditKind = "group"
	AuditMember AuditKind = "member"
	AuditKey    AuditKind = "key"
)

// Actor is who caused an event: a user (for a user key), else the key;
// for an audit event, also the operator.
type Actor struct {
	Kind string    `json:"kind"`
	ID   uuid.UUID `json:"id"`
}

// ActorOperator is the kind of actor of the changes made by whoever holds
// the database (Operator), who is neither a user nor a key. Its id is
// OperatorID, the nil UUID, which no user or key has: filtering the log by
// it lists the operator's events.
const ActorOperator = string(auditevent.ActorKindOperator)

// OperatorID is the actor id of the operator's events.
var OperatorID = uuid.Nil

// AuditEvent is one entry of the audit log (docs/endpoints.md, "Audit log").
type AuditEvent struct {
	ID       uuid.UUID      `json:"id"`
	At       time.Time      `json:"at"`
	Action   AuditAction    `json:"action"`
	Kind     AuditKind      `json:"kind"`
	BaseID   *uuid.UUID     `json:"baseId"`
	RecordID *uuid.UUID     `json:"recordId"`
	GroupID  *uuid.UUID     `json:"groupId"`
	Actor    Actor          `json:"actor"`
	Details  map[string]any `json:"details"`
}

// AuditFilter narrows the audit log; zero fields do not filter. Since
// includes its instant and Until excludes its own.
type AuditFilter struct {
	Action AuditAction
	Kind   AuditKind
	BaseID *uuid.UUID
	// Actor is the id of the user or key that acted, or OperatorID.
	Actor *uuid.UUID
	Since *time.Time
	Until *time.Time
}

func auditEventOf(ev *ent.AuditEvent) AuditEvent {
	details := ev.Details
	if details == nil {
		details = map[string]any{}
	}
	return AuditEvent{
		ID: ev.ID, At: ev.At, Action: AuditAction(ev.Action), Kind: AuditKind(ev.Kind),
		BaseID: ev.BaseID, RecordID: ev.RecordID, GroupID: ev.GroupID,
		Actor:   Actor{Kind: string(ev.ActorKind), ID: ev.ActorID},
		Details: details,
	}
}

// auditCursor is the cursor of the audit log resuming after this event
// (for Relay edges). The log is ordered by time, then id, newest first,
// and the cursor holds both: a page then never repeats or skips an event
// that was stored when the first page was read, however many are added
// meanwhile, since those are all newer.
func auditCursor(ev AuditEvent) string { return list{kind: auditList}.timeCursor(ev.At, ev.ID) }

// toStoredPrecision is a bound of a time filter in the whole microseconds
// events and decisions are stored in (Service.timestamp), rounded up: an
// event at a whole microsecond is at or after a finer t exactly when it is
// at or after t rounded up, and before t exactly when before it rounded
// up, so both since and until keep their meaning. The databases would
// truncate or round it, taking or leaving an event on the wrong side.
func toStoredPrecision(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	up := t.Truncate(time.Microsecond)
	if up.Before(*t) {
		up = up.Add(time.Microsecond)
	}
	// A bound past the last time RFC 3339 writes (year 10000 in UTC, from
	// a late time with a negative offset or rounded up) would compare as
	// text before every stored time on SQLite, turning the filter around;
	// no event is stored that late, so the last such time means the same.
	if up.After(lastWrittenTime) {
		up = lastWrittenTime
	}
	return &up
}

// lastWrittenTime is the latest time RFC 3339 writes, in whole microseconds.
var lastWrittenTime = time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC)

func (f AuditFilter) check() error {
	if f.Action != "" && auditevent.ActionValidator(auditevent.Action(f.Action)) != nil {
		return Invalid("action must be created, edited, published, assigned, executed or deleted, not %q", engine.Quoted(string(f.Action)))
	}
	switch f.Kind {
	case "", AuditPolicy, AuditFlow, AuditGroup, AuditMember, AuditKey:
	default:
		return Invalid("kind must be policy, flow, group, member or key, not %q", engine.Quoted(string(f.Kind)))
	}
	if f.Since != nil && f.Until != nil && !f.Until.After(*f.Since) {
		return Invalid("until must be later than since")
	}
	return nil
}

// AuditEvent reads one event of the tenant's log by its id, as those who
// may read the log may; another tenant's event is not found.
func (s *Service) AuditEvent(ctx context.Context, id uuid.UUID) (*AuditEvent, error) {
	p, err := s.allowed(ctx, authz.ActionReadAudit, authz.KindAudit)
	if err != nil {
		return nil, err
	}
	ev, err := s.store.Event(ctx, p.TenantID, id)
	switch {
	case err == nil:
		out := auditEventOf(ev)
		return &out, nil
	case !errors.Is(err, storage.ErrNotFound):
		return nil, unavailable(err)
	}
	exec, err := s.store.Execution(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "audit event", id)
	}
	out := auditEventOfExecution(*exec)
	return &out, nil
}

// AuditEvents reads the tenant's audit log, newest first (GET /audit):
// admins and auditors only. The list options are Limit and Cursor; the log
// has no name or group to filter by.
func (s *Service) AuditEvents(ctx context.Context, f AuditFilter, o ListOptions) (*Page[AuditEvent], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if o.Query != "" || o.groupFilter() != "" {
		return nil, Invalid("the audit log filters by action, kind, baseId, actor, since and until only")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	f.Since, f.Until = toStoredPrecision(f.Since), toStoredPrecision(f.Until)
	if err := s.authorizeOnTenant(ctx, p, authz.ActionReadAudit, authz.KindAudit); err != nil {
		return nil, err
	}
	if err := s.recordIDAsBase(ctx, p, f.BaseID); err != nil {
		return nil, err
	}
	var before *storage.Position
	if o.Cursor != "" {
		at, id, err := list{kind: auditList}.decodeTime(o.Cursor)
		if err != nil {
			return nil, err
		}
		before = &storage.Position{At: at, ID: id}
	}
	lifecycle, err := s.lifecycleEvents(ctx, p.TenantID, f, o, before, limit)
	if err != nil {
		return nil, err
	}
	executed, err := s.executedEvents(ctx, p.TenantID, f, o, before, limit)
	if err != nil {
		return nil, err
	}
	events := mergeNewestFirst(lifecycle.events, executed.events)
	// A page ends where the first of the two walks stopped short: what is
	// older comes on the next pages, from both stores in their order.
	edge := nearer(lifecycle.scanned, executed.scanned)
	if edge != nil {
		events = events[:notOlderThan(events, *edge)]
	}
	// An event answers its ids and times, as any stored row, and its
	// details, which hold a failed run's error, up to 16 KiB a text.
	answer := 0
	for _, ev := range events[:min(len(events), limit)] {
		answer += rowAnswerBytes + textBytes(ev.Details)
	}
	if err := s.spendAnswer(ctx, answer); err != nil {
		return nil, err
	}
	var n *int
	if o.WithTotal {
		n = new(lifecycle.total + executed.total)
	}
	page := pageOf(events, limit, n, func(ev AuditEvent) AuditEvent { return ev }, auditCursor)
	if edge != nil && page.NextCursor == "" {
		page.NextCursor = list{kind: auditList}.timeCursor(edge.At, edge.ID)
	}
	return page, nil
}

// DefaultListScan is how many rows a page of the audit log filtered by a
// kind or an actor, or of decision records filtered by result, examines at
// most when no index holds them: a few milliseconds of reading on either
// database.
const DefaultListScan = 10_000

// nearer is the newer of two positions that may be nil: the one a list,
// newest first, reaches first.
func nearer(a, b *storage.Position) *storage.Position {
	if a == nil || b != nil && b.Compare(*a) < 0 {
		return b
	}
	return a
}

// notOlderThan is how many of events, newest first, stand at edge or
// before it in the log's order.
func notOlderThan(events []AuditEvent, edge storage.Position) int {
	for i, ev := range events {
		if edge.Compare(ev.position()) < 0 {
			return i
		}
	}
	return len(events)
}

// auditPart is what one of the two stores holds of a page: at most
// limit+1 events after the cursor, and its part of the total when asked;
// scanned is where a bounded walk stopped short (see storage.Executions).
type auditPart struct {
	events  []AuditEvent
	total   int
	scanned *storage.Position
}

// lifecycleEvents reads the part of a page that ent's audit_events holds:
// every event but `executed` ones.
func (s *Service) lifecycleEvents(ctx context.Context, tenant uuid.UUID, f AuditFilter, o ListOptions, before *storage.Position, limit int) (auditPart, error) {
	if f.Action == AuditExecuted {
		return auditPart{}, nil
	}
	filter := storage.EventFilter{Tenant: tenant, Action: auditevent.Action(f.Action), Kind: auditevent.Kind(f.Kind),
		BaseID: f.BaseID, Actor: f.Actor, Since: f.Since, Until: f.Until}
	var part auditPart
	if o.WithTotal {
		n, err := s.store.CountEvents(ctx, filter)
		if err != nil {
			return part, unavailable(err)
		}
		part.total = n
	}
	if before != nil {
		filter.Before = before
	}
	filter.Scan = s.listScan
	events, scanned, err := s.store.Events(ctx, filter, limit+1)
	if err != nil {
		return part, unavailable(err)
	}
	part.scanned = scanned
	part.events = make([]AuditEvent, len(events))
	for i, ev := range events {
		part.events[i] = auditEventOf(ev)
	}
	return part, nil
}

// executedEvents reads the part of a page that the store of `executed`
// events holds.
func (s *Service) executedEvents(ctx context.Context, tenant uuid.UUID, f AuditFilter, o ListOptions, before *storage.Position, limit int) (auditPart, error) {
	var part auditPart
	if f.Action != "" && f.Action != AuditExecuted {
		return part, nil
	}
	if f.Kind != "" && f.Kind != AuditPolicy && f.Kind != AuditFlow {
		return part, nil
	}
	filter := storage.ExecutionFilter{Tenant: tenant, Kind: string(f.Kind), BaseID: f.BaseID, Actor: f.Actor, Since: f.Since, Until: f.Until}
	if o.WithTotal {
		n, err := s.store.CountExecutions(ctx, filter)
		if err != nil {
			return part, unavailable(err)
		}
		part.total = n
	}
	filter.Before = before
	filter.Scan = s.listScan
	events, scanned, err := s.store.Executions(ctx, filter, limit+1)
	if err != nil {
		return part, unavailable(err)
	}
	part.scanned = scanned
	part.events = make([]AuditEvent, len(events))
	for i, ev := range events {
		part.events[i] = auditEventOfExecution(ev)
	}
	return part, nil
}

// mergeNewestFirst merges two lists ordered newest first (by time, then
// id) into one in the same order.
func mergeNewestFirst(a, b []AuditEvent) []AuditEvent {
	out := make([]AuditEvent, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].position().Compare(b[0].position()) < 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// position is where ev stands in the log.
func (ev AuditEvent) position() storage.Position { return storage.Position{At: ev.At, ID: ev.ID} }

// auditEventOfExecution is an `executed` event as the log shows it.
func auditEventOfExecution(ev storage.Execution) AuditEvent {
	base, record := ev.BaseID, ev.RecordID
	return AuditEvent{
		ID: ev.ID, At: ev.At, Action: AuditExecuted, Kind: AuditKind(ev.Kind),
		BaseID: &base, RecordID: &record,
		Actor:   Actor{Kind: ev.ActorKind, ID: ev.ActorID},
		Details: ev.Details(),
	}
}

// textBytes is how many bytes the texts of details take written as JSON
// strings, escapes included (a quotation mark takes two): what an event's
// answer grows with beside its fixed members.
func textBytes(v any) int {
	switch v := v.(type) {
	case string:
		return engine.QuotedLength(v)
	case []string:
		n := 0
		for _, s := range v {
			n += engine.QuotedLength(s)
		}
		return n
	case []any:
		n := 0
		for _, e := range v {
			n += textBytes(e)
		}
		return n
	case map[string]any:
		n := 0
		for k, e := range v {
			n += engine.QuotedLength(k) + textBytes(e)
		}
		return n
	}
	return 0
}

// recordIDAsBase refuses a baseId filter that is the id of one of the
// tenant's records, which no event or decision names as its base: the
// list would come back empty without a word of why.
func (s *Service) recordIDAsBase(ctx context.Context, p *Principal, id *uuid.UUID) error {
	if id == nil {
		return nil
	}
	r, err := s.store.Record(ctx, *id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || err == nil && r.OrganizationID != p.TenantID:
		return nil
	case err != nil:
		return unavailable(err)
	}
	return Invalid("baseId %s is the id of a record of %s %s; give the base id", *id, r.Kind, r.BaseID)
}
