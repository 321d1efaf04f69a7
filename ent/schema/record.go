package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/schema/testcase"
)

// Record is one state of a base: its draft, or a published version, which is
// never changed again.
type Record struct {
	ent.Schema
}

func (Record) Mixin() []ent.Mixin {
	return []ent.Mixin{entity{}, mutable{}}
}

func (Record) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("base_id", uuid.UUID{}).Immutable(),
		// Copied from the base so tenant checks and kind filters need no join.
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Enum("kind").Values(resourceKinds...).Immutable(),
		field.Enum("status").Values("draft", "published"),
		// Null for the draft; 1, 2, 3, ... per base once published.
		field.Int("version").Optional().Nillable().Positive(),
		// Bumped on every draft update, so caches keyed by (id, revision) never
		// serve a stale draft.
		field.Int("revision").Default(1).Positive(),
		field.String("name").NotEmpty(),
		field.Text("description").Default(""),
		// The rule text of a policy; empty for flows.
		field.Text("rule").Default(""),
		// The definition of a flow; absent for policies.
		field.JSON("definition", json.RawMessage{}).Optional(),
		field.JSON("schema", json.RawMessage{}).Optional(),
		field.JSON("tests", []testcase.Case{}).Optional(),
		field.UUID("created_by", uuid.UUID{}).Immutable(),
		field.Time("published_at").Optional().Nillable(),
	}
}

func (Record) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("base", Base.Type).Ref("records").Field("base_id").Unique().Required().Immutable(),
		edge.From("organization", Organization.Type).Ref("records").Field("organization_id").Unique().Required().Immutable(),
	}
}

func (Record) Indexes() []ent.Index {
	return []ent.Index{
		// Version numbers are unique per base. Drafts have a null version,
		// and nulls never collide, so drafts are not constrained here.
		index.Fields("base_id", "version").Unique(),
		// At most one draft per base, even when two requests race to create it.
		index.Fields("base_id").Unique().
			StorageKey("record_one_draft_per_base").
			Annotations(entsql.IndexWhere("status = 'draft'")),
	}
}
