package schema

import (
	"context"
	"errors"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// AuditEvent records one lifecycle action in a tenant (runs' `executed`
// events are stored apart, narrower and with a retention, by package
// auditstore; the action keeps its value for filters and for the events
// stored before). Events are only ever inserted:
// every field is immutable, a hook refuses every update and delete that goes
// through ent, database triggers refuse those that do not (migration
// audit_events_append_only), and nothing here references other rows by
// foreign key, so an event outlives whatever it talks about.
type AuditEvent struct {
	ent.Schema
}

func (AuditEvent) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Default(newV7).Immutable(),
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Time("at").Default(now).Immutable(),
		field.Enum("action").Values("created", "edited", "published", "assigned", "executed", "deleted").Immutable(),
		field.Enum("kind").Values("policy", "flow", "group", "member", "key", "organization").Immutable(),
		field.UUID("base_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.UUID("record_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.UUID("group_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		// Who acted: a user (with one of their keys), an organization's
		// key, or the operator (`verdict admin`, and serve's first start),
		// who is neither and whose actor_id is the nil UUID.
		field.Enum("actor_kind").Values("user", "key", "operator").Immutable(),
		field.UUID("actor_id", uuid.UUID{}).Immutable(),
		field.JSON("details", map[string]any{}).Optional().Immutable(),
	}
}

func (AuditEvent) Indexes() []ent.Index {
	return []ent.Index{
		// The log, newest first, with (at, id) as the cursor.
		index.Fields("organization_id", "at", "id"),
		// The history of one base.
		index.Fields("organization_id", "base_id"),
	}
}

// ErrAuditAppendOnly is what changing or removing an audit event fails with.
var ErrAuditAppendOnly = errors.New("audit events are append-only: they are never updated or deleted")

func (AuditEvent) Hooks() []ent.Hook {
	return []ent.Hook{appendOnly}
}

// appendOnly lets creations through and refuses every other operation, bulk
// or single, before it reaches the database.
func appendOnly(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		if !m.Op().Is(ent.OpCreate) {
			return nil, ErrAuditAppendOnly
		}
		return next.Mutate(ctx, m)
	})
}
