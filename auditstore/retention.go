package auditstore

import (
	"context"
	"database/sql"
	"time"
)

// Expired is what one Expire removed.
type Expired struct {
	// Partitions is how many days' partitions PostgreSQL dropped.
	Partitions int
	// Events is how many events SQLite deleted (PostgreSQL drops
	// partitions without counting their rows).
	Events int64
}

// ExpireBatch is how many events SQLite deletes in one transaction, so
// that retention never holds the database's one writer for long.
const ExpireBatch = 500

// Expire removes the events older than cutoff. It is the only way events
// ever leave the store, and it removes none younger than cutoff.
//
// PostgreSQL drops the partitions whose whole day ended by cutoff: the
// events of the day cutoff falls in stay until that day has expired
// too. SQLite deletes exactly the events before cutoff, ExpireBatch at a
// time, each batch in a transaction that first records cutoff in the
// one-row table audit_retention_gate and empties it before committing:
// the append-only trigger lets a delete through only for events older
// than the cutoff recorded there, so outside this path the table is
// empty and every delete is refused.
func (s *Store) Expire(ctx context.Context, cutoff time.Time) (Expired, error) {
	if s.pg {
		return s.dropPartitions(ctx, cutoff)
	}
	return s.deleteExpired(ctx, cutoff)
}

func (s *Store) dropPartitions(ctx context.Context, cutoff time.Time) (Expired, error) {
	dropped, err := s.days.Expire(ctx, cutoff)
	return Expired{Partitions: dropped.Partitions}, err
}

// deleteExpired walks the tenants in the table (each found by one index
// seek) and deletes each one's expired events, oldest first, in batches.
func (s *Store) deleteExpired(ctx context.Context, cutoff time.Time) (Expired, error) {
	var done Expired
	tenant := []byte{}
	for {
		var next []byte
		err := s.db.SQL().QueryRowContext(ctx, "SELECT organization_id FROM "+table+
			" WHERE organization_id > ? ORDER BY organization_id LIMIT 1", tenant).Scan(&next)
		if err == sql.ErrNoRows {
			return done, nil
		}
		if err != nil {
			return done, err
		}
		tenant = next
		for {
			n, err := s.deleteBatch(ctx, tenant, cutoff.UnixMicro())
			done.Events += n
			if err != nil {
				return done, err
			}
			if n < ExpireBatch {
				break
			}
		}
	}
}

func (s *Store) deleteBatch(ctx context.Context, tenant []byte, cutoff int64) (int64, error) {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// A row left by a statement outside this path would refuse a plain
	// insert, and retention with it, for good; this one takes its place.
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO audit_retention_gate (id, cutoff) VALUES (1, ?)", cutoff); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE organization_id = ?1 AND (at, id) IN (SELECT at, id FROM "+table+
		" WHERE organization_id = ?1 AND at < ?2 ORDER BY at LIMIT ?3)", tenant, cutoff, ExpireBatch)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM audit_retention_gate"); err != nil {
		return 0, err
	}
	return n, tx.Commit()
}
