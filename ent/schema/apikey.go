package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// APIKey authenticates a request. Only the SHA-256 of the secret is stored, and
// a key is found by it; the prefix is the part of the key that may be shown
// again, in lists.
type APIKey struct {
	ent.Schema
}

func (APIKey) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}}
}

func (APIKey) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Enum("owner_kind").Values(ownerKinds...).Immutable(),
		// Set exactly when owner_kind is user.
		field.UUID("user_id", uuid.UUID{}).Optional().Nillable().Immutable(),
		field.String("name").Default(""),
		field.Enum("scope").Values("view", "edit", "publish", "admin").Immutable(),
		// For display only: keys an operator chose may share their first
		// characters, so the prefix tells keys apart but does not identify one.
		field.String("prefix").NotEmpty().Immutable(),
		field.String("hash").NotEmpty().Unique().Immutable().Sensitive(),
		field.Time("last_used_at").Optional().Nillable(),
		field.Time("expires_at").Optional().Nillable(),
		// Revoked keys stay for the audit trail.
		field.Time("revoked_at").Optional().Nillable(),
	}
}

func (APIKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("api_keys").Field("organization_id").Unique().Required().Immutable(),
		edge.From("user", User.Type).Ref("api_keys").Field("user_id").Unique().Immutable(),
	}
}

func (APIKey) Indexes() []ent.Index {
	return []ent.Index{
		// Key lists per tenant, which page by id.
		index.Fields("organization_id", "id"),
	}
}
