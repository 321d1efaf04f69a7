package auditstore

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// DaysAhead is how many days after today get their partition before
// they begin, so that inserts do not wait for one at midnight.
const DaysAhead = 3

// Prepare creates the partitions of today (as of now) and of the
// DaysAhead days after it that do not exist yet. SQLite has none.
func (s *Store) Prepare(ctx context.Context, now time.Time) error {
	if !s.pg {
		return nil
	}
	for i := range DaysAhead + 1 {
		if err := s.createPartition(ctx, day(now).AddDate(0, 0, i)); err != nil {
			return err
		}
	}
	return nil
}

// createPartition creates the partition of the day that begins at d,
// unless it exists. The database function (see the audit_executions
// migration) takes a lock, so that replicas creating the same day at
// once create it once.
func (s *Store) createPartition(ctx context.Context, d time.Time) error {
	if _, err := s.db.SQL().ExecContext(ctx, "SELECT audit_executions_partition($1::date)", d.Format(time.DateOnly)); err != nil {
		return fmt.Errorf("auditstore: creating the partition of %s: %w", d.Format(time.DateOnly), err)
	}
	return nil
}

// partitionName is the name the database function gives the partition
// of the day that begins at d.
func partitionName(d time.Time) string {
	return table + "_" + d.Format("20060102")
}

// Partitions lists the days that have a partition, oldest first, as
// their first instants. SQLite has none.
func (s *Store) Partitions(ctx context.Context) ([]time.Time, error) {
	if !s.pg {
		return nil, nil
	}
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = '`+table+`'::regclass ORDER BY c.relname`)
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
		suffix, _ := strings.CutPrefix(name, table+"_")
		d, err := time.Parse("20060102", suffix)
		if err != nil || partitionName(d) != name {
			return nil, fmt.Errorf("auditstore: a partition named %q is not one of a day", name)
		}
		days = append(days, d)
	}
	return days, rows.Err()
}
