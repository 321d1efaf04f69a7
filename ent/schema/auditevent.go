package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// AuditEvent records one action in a tenant. Events are only ever inserted:
// every field is immutable, and nothing here references other rows by foreign
// key, so an event outlives whatever it talks about.
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
		field.Enum("actor_kind").Values("user", "key").Immutable(),
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
