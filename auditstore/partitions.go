package auditstore

import (
	"context"
	"time"
)

// Prepare creates the partitions of today (as of now) and of the
// dayparts.DaysAhead days after it that do not exist yet. SQLite has
// none. The database function that creates one (see the
// audit_executions migration) also gives it the append-only trigger.
func (s *Store) Prepare(ctx context.Context, now time.Time) error {
	if !s.pg {
		return nil
	}
	return s.days.Prepare(ctx, now)
}

// Partitions lists the days that have a partition, oldest first, as
// their first instants. SQLite has none.
func (s *Store) Partitions(ctx context.Context) ([]time.Time, error) {
	if !s.pg {
		return nil, nil
	}
	return s.days.Days(ctx)
}
