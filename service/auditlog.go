package service

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
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
// (docs/api.md), or, for administration, a member or a key.
type AuditKind string

const (
	AuditPolicy AuditKind = "policy"
	AuditFlow   AuditKind = "flow"
	AuditGroup  AuditKind = "group"
	AuditMember AuditKind = "member"
	AuditKey    AuditKind = "key"
)

// Actor is who caused an event: a user (for a user key), else the key.
type Actor struct {
	Kind string    `json:"kind"`
	ID   uuid.UUID `json:"id"`
}

// AuditEvent is one entry of the audit log (docs/api.md, "Audit log").
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
	// Actor is the id of the user or key that acted.
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

// AuditCursor is the cursor of the audit log resuming after this event
// (for Relay edges). The log is ordered by time, then id, newest first,
// and the cursor holds both: a page then never repeats or skips an event
// that was stored when the first page was read, however many are added
// meanwhile, since those are all newer.
func AuditCursor(ev AuditEvent) string {
	var b [8 + 16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(ev.At.UnixMicro()))
	copy(b[8:], ev.ID[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func decodeAuditCursor(c string) (time.Time, uuid.UUID, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) != 8+16 {
		return time.Time{}, uuid.Nil, Invalid("cursor is not one this server gave out")
	}
	at := time.UnixMicro(int64(binary.BigEndian.Uint64(b[:8]))).UTC()
	return at, uuid.UUID(b[8:]), nil
}

func (f AuditFilter) check() error {
	if f.Action != "" && auditevent.ActionValidator(auditevent.Action(f.Action)) != nil {
		return Invalid("action must be created, edited, published, assigned, executed or deleted, not %q", f.Action)
	}
	switch f.Kind {
	case "", AuditPolicy, AuditFlow, AuditGroup, AuditMember, AuditKey:
	default:
		return Invalid("kind must be policy, flow, group, member or key, not %q", f.Kind)
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
	ev, err := s.client.AuditEvent.Query().Where(auditevent.ID(id), auditevent.OrganizationID(p.TenantID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, newError(CodeNotFound, "no audit event %s", id)
	case err != nil:
		return nil, unavailable(err)
	}
	out := auditEventOf(ev)
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
	if o.Query != "" || o.GroupID != nil {
		return nil, Invalid("the audit log filters by action, kind, baseId, actor, since and until only")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionReadAudit, authz.KindAudit); err != nil {
		return nil, err
	}
	q := s.client.AuditEvent.Query().Where(auditevent.OrganizationID(p.TenantID))
	if f.Action != "" {
		q = q.Where(auditevent.ActionEQ(auditevent.Action(f.Action)))
	}
	if f.Kind != "" {
		q = q.Where(auditevent.KindEQ(auditevent.Kind(f.Kind)))
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
	n, err := total(ctx, o, q)
	if err != nil {
		return nil, err
	}
	if o.Cursor != "" {
		at, id, err := decodeAuditCursor(o.Cursor)
		if err != nil {
			return nil, err
		}
		// One row comparison, not "at < t or (at = t and id < i)": the
		// database then starts the index scan at the cursor instead of
		// filtering out every newer event, so a page costs the same at
		// any depth of the log.
		q = q.Where(func(s *sql.Selector) {
			s.Where(sql.CompositeLT([]string{s.C(auditevent.FieldAt), s.C(auditevent.FieldID)}, at, id))
		})
	}
	events, err := q.Order(ent.Desc(auditevent.FieldAt), ent.Desc(auditevent.FieldID)).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	return pageOf(events, limit, n, auditEventOf, AuditCursor), nil
}
