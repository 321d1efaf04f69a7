package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// Membership gives a user exactly one role in one organization.
type Membership struct {
	ent.Schema
}

func (Membership) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}}
}

func (Membership) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuid.UUID{}).Immutable(),
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Enum("role").Values("viewer", "editor", "publisher", "admin", "auditor"),
		// The name the organization knows the member by, as its admin gave
		// it: a user added by email shows the organization nothing of what
		// other organizations or the user wrote.
		field.String("name").Default(""),
	}
}

func (Membership) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable(),
		edge.From("organization", Organization.Type).Ref("memberships").Field("organization_id").Unique().Required().Immutable(),
	}
}

func (Membership) Indexes() []ent.Index {
	return []ent.Index{
		// One role per user and tenant; also the lookup a user key makes on every request.
		index.Fields("user_id", "organization_id").Unique(),
		// Member lists per tenant, which page by id.
		index.Fields("organization_id", "id"),
	}
}
