package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// DecisionRecord is one recorded run of a policy or flow base whose decision
// records are turned on (docs/decisions.md). It keeps the run's input, with
// the masked paths already replaced, and what the run answered; the trace is
// recomputed from the input and the record when it is read, so a row stays
// small. Rows expire after the retention period and are then deleted; no
// foreign key ties them to bases or records, which may be deleted meanwhile.
type DecisionRecord struct {
	ent.Schema
}

func (DecisionRecord) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Default(newV7).Immutable(),
		field.UUID("organization_id", uuid.UUID{}).Immutable(),
		field.Enum("kind").Values(resourceKinds...).Immutable(),
		field.UUID("base_id", uuid.UUID{}).Immutable(),
		field.UUID("record_id", uuid.UUID{}).Immutable(),
		// Null when the draft ran; revision tells which state of it.
		field.Int("version").Optional().Nillable().Immutable(),
		field.Int("revision").Immutable(),
		field.Time("at").Default(now).Immutable(),
		field.Bool("result").Immutable(),
		field.Text("explanation").Immutable(),
		field.Int64("duration_ns").Immutable(),
		field.Enum("actor_kind").Values("user", "key").Immutable(),
		field.UUID("actor_id", uuid.UUID{}).Immutable(),
		// The run's data as JSON text, masked.
		field.Text("input").Immutable(),
	}
}

func (DecisionRecord) Indexes() []ent.Index {
	return []ent.Index{
		// The tenant's decisions, newest first, with (at, id) as the cursor.
		index.Fields("organization_id", "at", "id"),
		// One base's decisions: its list and its replays.
		index.Fields("organization_id", "base_id", "at", "id"),
		// Expiry deletes the oldest rows of every tenant.
		index.Fields("at"),
	}
}
