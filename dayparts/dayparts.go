// Package dayparts keeps the day partitions of a PostgreSQL table that is
// partitioned by range on a timestamp, one partition per UTC day, so that
// retention drops whole days instead of deleting rows. The audit log's
// `executed` events and the decision records live in such tables.
//
// A table's partitions are named after it and their day (table_YYYYMMDD)
// and are created by a database function its migration defines,
// table_partition(day date), which takes a lock so that replicas creating
// the same day at once create it once, and gives each partition what the
// parent cannot pass on (such as statement triggers).
package dayparts

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/lib/pq"
	"github.com/lib/pq/pqerror"
)

// DaysAhead is how many days after today get their partition before they
// begin, so that inserts do not wait for one at midnight.
const DaysAhead = 3

// dropLockTimeout bounds the wait for the lock a partition's drop takes
// on the whole table, which every insert and read meanwhile queues
// behind: a drop that cannot have it at once (a long read holds it) gives
// up and is tried again on the next run.
const dropLockTimeout = "100ms"

// Table is one partitioned table of a PostgreSQL database.
type Table struct {
	db   *sql.DB
	name string
	// countRows makes Expire count the rows of each partition it drops.
	countRows bool
}

// Option changes how a Table expires its partitions.
type Option func(*Table)

// CountingRows makes Expire count the rows of each partition before it
// drops it: one read of the partition's smallest index, for a count that
// metrics can show where rows rather than days are the unit.
func CountingRows() Option {
	return func(t *Table) { t.countRows = true }
}

// New returns the partitioned table name of db.
func New(db *sql.DB, name string, opts ...Option) *Table {
	t := &Table{db: db, name: name}
	for _, o := range opts {
		o(t)
	}
	return t
}

// Day is the UTC day at falls in, as its first instant.
func Day(at time.Time) time.Time {
	return at.UTC().Truncate(24 * time.Hour)
}

// Prepare creates the partitions of today (as of now) and of the
// DaysAhead days after it that do not exist yet.
func (t *Table) Prepare(ctx context.Context, now time.Time) error {
	for i := range DaysAhead + 1 {
		if err := t.Create(ctx, Day(now).AddDate(0, 0, i)); err != nil {
			return err
		}
	}
	return nil
}

// Create creates the partition of the day that begins at d, unless it
// exists.
func (t *Table) Create(ctx context.Context, d time.Time) error {
	if _, err := t.db.ExecContext(ctx, "SELECT "+pq.QuoteIdentifier(t.name+"_partition")+"($1::date)", d.Format(time.DateOnly)); err != nil {
		return fmt.Errorf("dayparts: creating the partition of %s for %s: %w", d.Format(time.DateOnly), t.name, err)
	}
	return nil
}

// Missing tells whether err is PostgreSQL's refusal of a row that no
// partition takes: known by the server routine that raises it, since the
// message is in the server's language (lc_messages).
func Missing(err error) bool {
	pqErr := pq.As(err, pqerror.CheckViolation)
	return pqErr != nil && pqErr.Routine == "ExecFindPartition"
}

// Insert runs insert, which stores rows of the times at; when a day of
// them has no partition, it creates the partitions of their days and runs
// insert again, so that an insert never fails for lack of one. insert
// must be safe to run twice (the first run stored nothing).
func (t *Table) Insert(ctx context.Context, at []time.Time, insert func() error) error {
	err := insert()
	if !Missing(err) {
		return err
	}
	days := map[time.Time]bool{}
	for _, a := range at {
		days[Day(a)] = true
	}
	for d := range days {
		if err := t.Create(ctx, d); err != nil {
			return err
		}
	}
	return insert()
}

// partitionName is the name the database function gives the partition of
// the day that begins at d.
func (t *Table) partitionName(d time.Time) string {
	return t.name + "_" + d.Format("20060102")
}

// Days lists the days that have a partition, oldest first, as their first
// instants.
func (t *Table) Days(ctx context.Context) ([]time.Time, error) {
	rows, err := t.db.QueryContext(ctx, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = $1::regclass ORDER BY c.relname`, pq.QuoteIdentifier(t.name))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var days []time.Time
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		suffix, _ := strings.CutPrefix(name, t.name+"_")
		d, err := time.Parse("20060102", suffix)
		if err != nil || t.partitionName(d) != name {
			return nil, fmt.Errorf("dayparts: a partition of %s named %q is not one of a day", t.name, name)
		}
		days = append(days, d)
	}
	return days, rows.Err()
}

// Expired is what one Expire removed.
type Expired struct {
	Partitions int
	// Rows is how many rows the dropped partitions held, when the table
	// counts them (CountingRows).
	Rows int64
}

// Expire drops the partitions whose whole day ended by cutoff: the rows
// of the day cutoff falls in stay until that day has expired too.
func (t *Table) Expire(ctx context.Context, cutoff time.Time) (Expired, error) {
	var done Expired
	days, err := t.Days(ctx)
	if err != nil {
		return done, err
	}
	for _, d := range days {
		if d.AddDate(0, 0, 1).After(cutoff) {
			break
		}
		dropped, rows, err := t.drop(ctx, t.partitionName(d))
		if err != nil {
			return done, err
		}
		if dropped {
			done.Partitions++
			done.Rows += rows
		}
	}
	return done, nil
}

// drop drops one partition, counting its rows first when the table
// counts them. Replicas expiring at once each take the partition's
// advisory lock without waiting: the one that has it drops the partition,
// the others leave it, so that each partition and its rows are counted
// once.
func (t *Table) drop(ctx context.Context, name string) (dropped bool, rows int64, err error) {
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return false, 0, err
	}
	defer tx.Rollback()
	var mine bool
	if err := tx.QueryRowContext(ctx, "SELECT pg_try_advisory_xact_lock(hashtext($1))", "dayparts "+name).Scan(&mine); err != nil {
		return false, 0, err
	}
	var exists bool
	if mine {
		if err := tx.QueryRowContext(ctx, "SELECT to_regclass($1) IS NOT NULL", pq.QuoteIdentifier(name)).Scan(&exists); err != nil {
			return false, 0, err
		}
	}
	if !exists {
		return false, 0, nil
	}
	if t.countRows {
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM "+pq.QuoteIdentifier(name)).Scan(&rows); err != nil {
			return false, 0, fmt.Errorf("dayparts: counting the rows of %s: %w", name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = '"+dropLockTimeout+"'"); err != nil {
		return false, 0, err
	}
	if _, err := tx.ExecContext(ctx, "DROP TABLE "+pq.QuoteIdentifier(name)); err != nil {
		return false, 0, fmt.Errorf("dayparts: dropping %s: %w", name, err)
	}
	return true, rows, tx.Commit()
}
