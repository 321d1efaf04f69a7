// Package auditstore keeps the `executed` audit events: one narrow row per
// run, apart from the lifecycle events that ent stores in audit_events.
// Runs outnumber every other event by orders of magnitude, so their rows
// hold fixed columns instead of JSON (ids as uuid, kinds as small ints,
// the status as a flag), carry two indexes (three on PostgreSQL, where
// one actor's events are indexed too), and expire: on PostgreSQL the
// table is partitioned by day (UTC) and retention drops whole partitions;
// on SQLite retention deletes expired rows in small batches through the
// one path the append-only triggers open (see Expire). Rows are never
// updated, and never deleted otherwise.
package auditstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/dayparts"
)

// table is where the events live; on PostgreSQL the partitioned parent.
const table = "audit_executions"

// Event is one `executed` event.
type Event struct {
	ID       uuid.UUID
	Tenant   uuid.UUID
	At       time.Time
	Kind     string // "policy" or "flow"
	BaseID   uuid.UUID
	RecordID uuid.UUID
	// ActorKind is "user" or "key".
	ActorKind string
	ActorID   uuid.UUID
	Result    bool
	Duration  time.Duration
	// Published tells whether the record run was a published version
	// (Version) or the draft.
	Published bool
	Version   *int
	// Extra holds what else the event says, when anything: a failed run's
	// error or errors, a batch's counts, the decision record it names.
	Extra map[string]any
}

// Store reads and writes the events of one database.
type Store struct {
	db *database.DB
	pg bool
	// days are the table's day partitions on PostgreSQL.
	days *dayparts.Table
}

// New returns the store of db's events.
func New(db *database.DB) *Store {
	return &Store{db: db, pg: db.Dialect() == dialect.Postgres, days: dayparts.New(db.SQL(), table)}
}

// kinds and actor kinds are stored as small ints.
var (
	kindCodes      = map[string]int16{"policy": 1, "flow": 2}
	kindNames      = map[int16]string{1: "policy", 2: "flow"}
	actorKindCodes = map[string]int16{"user": 1, "key": 2}
	actorKindNames = map[int16]string{1: "user", 2: "key"}
)

// columns are in the order of the table's definition on PostgreSQL, which
// packs them without padding.
const columns = "at, duration_ns, organization_id, id, base_id, record_id, actor_id, version, kind, actor_kind, result, published, details"

// Insert stores a batch in one transaction, skipping events already stored
// (so a batch retried after an ambiguous failure is stored once). On
// PostgreSQL a day without a partition gets one and the insert is
// retried, so an insert never fails for lack of one.
func (s *Store) Insert(ctx context.Context, batch []Event) error {
	if len(batch) == 0 {
		return nil
	}
	if !s.pg {
		return s.insertSQLite(ctx, batch)
	}
	at := make([]time.Time, len(batch))
	for i := range batch {
		at[i] = batch[i].At
	}
	return s.days.Insert(ctx, at, func() error { return s.insertPostgres(ctx, batch) })
}

// sqliteChunks are the statements of SQLite inserts, the most rows first.
// A batch goes in one transaction as statements of these sizes, whose few
// texts every SQLite connection keeps prepared (see database.Open): a
// single statement for the whole batch changed its text with the batch
// size and was parsed anew for every insert.
var sqliteChunks = [...]struct {
	rows  int
	query string
}{{64, sqliteInsert(64)}, {8, sqliteInsert(8)}, {1, sqliteInsert(1)}}

func (s *Store) insertSQLite(ctx context.Context, batch []Event) error {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	args := make([]any, 0, 13*min(len(batch), sqliteChunks[0].rows))
	for _, c := range sqliteChunks {
		for ; len(batch) >= c.rows; batch = batch[c.rows:] {
			args = args[:0]
			for j := range batch[:c.rows] {
				ev := &batch[j]
				kind, actorKind, extra, err := ev.codes()
				if err != nil {
					return err
				}
				version, details := nullable(ev, extra)
				args = append(args, ev.At.UnixMicro(), int64(ev.Duration), blob(ev.Tenant), blob(ev.ID), blob(ev.BaseID),
					blob(ev.RecordID), blob(ev.ActorID), version, kind, actorKind, ev.Result, ev.Published, details)
			}
			if _, err := tx.ExecContext(ctx, c.query, args...); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// sqliteInsert is the SQLite insert of n rows.
func sqliteInsert(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + table + " (" + columns + ") VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?,?)")
	}
	b.WriteString(" ON CONFLICT DO NOTHING")
	return b.String()
}

// codes are the stored forms of the event's kinds and extra details.
func (ev *Event) codes() (kind, actorKind int16, extra *string, err error) {
	kind, ok := kindCodes[ev.Kind]
	if !ok {
		return 0, 0, nil, fmt.Errorf("auditstore: an event of kind %q", ev.Kind)
	}
	actorKind, ok = actorKindCodes[ev.ActorKind]
	if !ok {
		return 0, 0, nil, fmt.Errorf("auditstore: an event whose actor is a %q", ev.ActorKind)
	}
	if len(ev.Extra) > 0 {
		b, err := json.Marshal(ev.Extra)
		if err != nil {
			return 0, 0, nil, err
		}
		text := string(b)
		extra = &text
	}
	return kind, actorKind, extra, nil
}

// nullable are the event's version and extra details as SQL values:
// NULL when it has none.
func nullable(ev *Event, extra *string) (version, details any) {
	if ev.Version != nil {
		version = int64(*ev.Version)
	}
	if extra != nil {
		details = *extra
	}
	return version, details
}

// blob is how SQLite stores an id: 16 bytes rather than 36 characters.
func blob(id uuid.UUID) []byte { return id[:] }

// Details are the event's details as the audit log shows them, and as
// they read when events were JSON: result, durationNs, status (published
// or draft), the version of a published record, and whatever else the
// event says (Extra).
func (ev *Event) Details() map[string]any {
	details := make(map[string]any, 4+len(ev.Extra))
	for k, v := range ev.Extra {
		details[k] = v
	}
	details["result"] = ev.Result
	details["durationNs"] = float64(ev.Duration.Nanoseconds())
	details["status"] = "draft"
	if ev.Published {
		details["status"] = "published"
	}
	if ev.Version != nil {
		details["version"] = float64(*ev.Version)
	}
	return details
}
