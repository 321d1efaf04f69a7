package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// GroupMember puts one base into one group.
type GroupMember struct {
	ent.Schema
}

func (GroupMember) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}}
}

func (GroupMember) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("group_id", uuid.UUID{}).Immutable(),
		field.UUID("base_id", uuid.UUID{}).Immutable(),
		// Copied from the base so that a membership, and the `assigned` events
		// of its coming and going, name their kind without reading the base.
		// (Group lists filter on the base's own kind.)
		field.Enum("kind").Values(resourceKinds...).Immutable(),
	}
}

func (GroupMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("group", Group.Type).Ref("members").Field("group_id").Unique().Required().Immutable(),
		edge.From("base", Base.Type).Ref("memberships").Field("base_id").Unique().Required().Immutable(),
	}
}

func (GroupMember) Indexes() []ent.Index {
	return []ent.Index{
		// A base is in a group at most once.
		index.Fields("group_id", "base_id").Unique(),
		// The groups a base belongs to.
		index.Fields("base_id"),
	}
}
