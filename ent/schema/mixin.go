package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
	"github.com/google/uuid"
)

// newV7 gives time-ordered ids, so primary-key order follows creation order and
// id-based cursors page in a stable, chronological way. uuid.NewV7 fails only
// when the system's random source does, and nothing can be stored then anyway.
func newV7() uuid.UUID {
	return uuid.Must(uuid.NewV7())
}

// now is the default for every timestamp. UTC and microseconds, because that
// is what PostgreSQL keeps: a value reads back equal to what was written, and
// compares and serializes the same whichever database stored it.
func now() time.Time {
	return time.Now().UTC().Truncate(time.Microsecond)
}

// entity gives every schema a UUIDv7 primary key and an immutable creation time.
type entity struct {
	mixin.Schema
	// randomID makes the primary key a random UUIDv4 instead, for rows whose
	// id is shown to those who must not learn when the row was made: a v7
	// id's first 48 bits are its creation time.
	randomID bool
}

func (e entity) Fields() []ent.Field {
	newID := newV7
	if e.randomID {
		newID = uuid.New
	}
	return []ent.Field{
		field.UUID("id", uuid.UUID{}).Default(newID).Immutable(),
		field.Time("created_at").Default(now).Immutable(),
	}
}

// mutable adds updated_at, refreshed by ent on every update.
type mutable struct {
	mixin.Schema
}

func (mutable) Fields() []ent.Field {
	return []ent.Field{
		field.Time("updated_at").Default(now).UpdateDefault(now),
	}
}

// resourceKinds are the two kinds of versioned resource sharing Base and Record.
var resourceKinds = []string{"policy", "flow"}

// ownerKinds say whether an owner_id or a key's owner is a user or the organization.
var ownerKinds = []string{"user", "organization"}
