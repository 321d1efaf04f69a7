package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// Base is a versioned resource, a policy or a flow: the identity that its
// records (one draft, numbered published versions) share. Policies and flows
// use the same tables so their lifecycle is written once.
type Base struct {
	ent.Schema
}

func (Base) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}, mutable{}}
}

func (Base) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Enum("kind").Values(resourceKinds...).Immutable(),
		field.String("name").NotEmpty(),
		field.Text("description").Default(""),
		// The creating user until the first publish, then the organization.
		field.Enum("owner_kind").Values(ownerKinds...),
		field.UUID("owner_id", uuid.UUID{}),
		// No edge: an organization key creates bases too, and its id is kept here.
		field.UUID("created_by", uuid.UUID{}).Immutable(),
		// Soft delete: the rows stay so records and audit events keep resolving.
		field.Time("deleted_at").Optional().Nillable(),
		// latest_version, latest_record_id and draft_record_id are maintained
		// in the transaction that writes the records, so lists and runs find
		// what to show or execute with one read of this row. They carry no
		// foreign key: bases and records would reference each other, and the
		// service sets both sides together anyway.
		field.Int("latest_version").Default(0).NonNegative(),
		field.UUID("latest_record_id", uuid.UUID{}).Optional().Nillable(),
		field.UUID("draft_record_id", uuid.UUID{}).Optional().Nillable(),
		// Decision records (docs/decisions.md): whether stored runs are
		// recorded, the share of runs that are, and the JSON paths whose
		// values are masked before a record is stored.
		field.Bool("decisions_enabled").Default(false),
		field.Float("decisions_sample_rate").Default(1),
		field.JSON("decisions_mask", []string{}).Optional(),
	}
}

func (Base) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("bases").Field("organization_id").Unique().Required().Immutable(),
		edge.To("records", Record.Type),
		edge.To("memberships", GroupMember.Type),
	}
}

func (Base) Indexes() []ent.Index {
	return []ent.Index{
		// Lists: the live policies (or flows) of a tenant, newest first, paged
		// by id (time-ordered).
		index.Fields("organization_id", "kind", "deleted_at", "id"),
		// The `q` name filter of lists.
		index.Fields("organization_id", "name"),
	}
}
