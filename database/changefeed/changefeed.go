// Package changefeed tells every Verdict instance on one PostgreSQL database
// what the others changed, so that each can drop what it caches about it.
//
// A change is announced with pg_notify in the transaction that makes it:
// PostgreSQL delivers it to every listening connection when, and only when,
// that transaction commits. Each instance keeps one listening connection
// (a pq.Listener, which reconnects by itself) and hands every change to its
// subscribers; when notifications may have been missed (the connection was
// lost), it tells them so, and they must drop everything.
//
// SQLite is one process: nothing is announced and nothing arrives.
package changefeed

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
)

// Channel is the PostgreSQL notification channel of the feed.
const Channel = "verdict_changes"

// Kind is what a change is about.
type Kind string

const (
	// KindBase is a policy or flow base: a draft edited or started from a
	// version, a publish, a delete. ID is the base, Record the record that
	// changed with it, if any.
	KindBase Kind = "base"
	// KindKey is an API key created or revoked. ID is the key.
	KindKey Kind = "key"
	// KindMember is a membership changed in role or removed. ID is the
	// user. An added one is not announced: nothing cached stands for a
	// user who is not a member.
	KindMember Kind = "member"
	// KindGroup is a group created, changed or deleted, or a base added to
	// or removed from it. ID is the group.
	KindGroup Kind = "group"
)

// Change names what one committed change touched, in the tenant
// (organization) it belongs to.
type Change struct {
	Kind   Kind      `json:"kind"`
	Tenant uuid.UUID `json:"tenant"`
	ID     uuid.UUID `json:"id"`
	Record uuid.UUID `json:"record,omitzero"`
}

// Execer runs a statement; a transaction (ent's or database/sql's) is one.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Announce has c delivered to every listener once the transaction that ex
// runs in commits, and never if it rolls back. dialectName is the
// database's (ent's dialect name); on SQLite it sends nothing.
func Announce(ctx context.Context, dialectName string, ex Execer, c Change) error {
	if dialectName != dialect.Postgres {
		return nil
	}
	payload, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if _, err := ex.ExecContext(ctx, "SELECT pg_notify($1, $2)", Channel, string(payload)); err != nil {
		return fmt.Errorf("changefeed: announcing a %s change: %w", c.Kind, err)
	}
	return nil
}

// parse reads a notification's payload.
func parse(payload string) (Change, error) {
	var c Change
	if err := json.Unmarshal([]byte(payload), &c); err != nil {
		return Change{}, err
	}
	switch c.Kind {
	case KindBase, KindKey, KindMember, KindGroup:
		return c, nil
	}
	return Change{}, fmt.Errorf("unknown kind %q", c.Kind)
}
