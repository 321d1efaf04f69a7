package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"github.com/google/uuid"
)

// DecisionRecord is one recorded run of a policy or flow base whose decision
// records are turned on (docs/decisions.md). It keeps the run's input, with
// the masked paths already replaced, and what the run answered; the trace is
// recomputed from the input and the record when it is read, so a row stays
// small. Rows expire after the retention period; no foreign key ties them
// to bases or records, which may be deleted meanwhile.
//
// On PostgreSQL the table is partitioned by day (UTC) on "at", so that
// retention drops whole days (package dayparts), and its primary key is
// (id, at), as a partitioned table's keys must hold the partition key.
// Ent cannot describe that, so the table is left out of the generated
// migrations: its migrations are written by hand, and a database test
// checks that the table has exactly the columns below on both databases.
// Its indexes, in the migrations too: (organization_id, at, id), the
// tenant's decisions newest first with (at, id) as the cursor;
// (organization_id, base_id, at, id), one base's decisions, for its list
// and its replays; and on SQLite (at), for expiry's deletes.
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
		// A flow run's policies: the policy record (and revision) each
		// reference of its nodes resolved to, as a JSON list, so that the
		// run can be recomputed with exactly those. Null for a policy run.
		field.Text("policies").Optional().Nillable().Immutable(),
		// The error the run stopped with, masked as the explanation is;
		// null when it stopped on none.
		field.Text("error").Optional().Nillable().Immutable(),
		// The outcome of the custom node a flow run ended on; null when it
		// ended on none, and for a policy run.
		field.Text("outcome").Optional().Nillable().Immutable(),
	}
}

func (DecisionRecord) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Skip()}
}
