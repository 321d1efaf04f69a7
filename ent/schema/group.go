package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// Group collects policy and flow bases through GroupMember rows.
type Group struct {
	ent.Schema
}

func (Group) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}, mutable{}}
}

func (Group) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.String("name").NotEmpty(),
		field.Text("description").Default(""),
	}
}

func (Group) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("groups").Field("organization_id").Unique().Required().Immutable(),
		// Deleting a group deletes its memberships in the database itself, so
		// no code path can leave orphans behind.
		edge.To("members", GroupMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Group) Indexes() []ent.Index {
	return []ent.Index{
		// Group lists per tenant, which page by id.
		index.Fields("organization_id", "id"),
	}
}
