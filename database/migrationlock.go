package database

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gofrs/flock"
	"github.com/pressly/goose/v3/lock"
)

// migrationLockPoll is how often an instance waiting for another's
// migration asks again. Short: the wait is usually under a second.
const migrationLockPoll = 250 * time.Millisecond

// postgresMigrationLock is the advisory lock every release has migrated
// PostgreSQL under (goose's own id, so an older binary migrating the same
// database waits for this one, and the other way round). It is tried
// again and again rather than waited for in one statement: a statement
// may take no longer than the connection's I/O bound, and a migration
// may take minutes. The wait has no bound of its own: replicas started
// together wait for the one that migrates, however long it takes.
type postgresMigrationLock struct {
	waiting   func()
	interrupt context.Context
}

func (l postgresMigrationLock) SessionLock(ctx context.Context, conn *sql.Conn) error {
	told := false
	for {
		var locked bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", lock.DefaultLockID).Scan(&locked); err != nil {
			return fmt.Errorf("taking the migration lock: %w", err)
		}
		if locked {
			return nil
		}
		if !told {
			l.waiting()
			told = true
		}
		select {
		case <-l.interrupt.Done():
			return fmt.Errorf("waiting for another instance's migration: %w", l.interrupt.Err())
		case <-time.After(migrationLockPoll):
		}
	}
}

func (postgresMigrationLock) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", lock.DefaultLockID)
	return err
}

// sqliteMigrationLock keeps two processes from migrating one SQLite file
// at once: each would plan the same migrations, and the second apply them
// again once the first had committed them. It is a lock on
// a file beside the database (its path and ".migrate-lock"), which the
// system lets go should the process die.
type sqliteMigrationLock struct {
	file      *flock.Flock
	waiting   func()
	interrupt context.Context
}

func (l sqliteMigrationLock) Lock(_ context.Context, _ *sql.DB) error {
	locked, err := l.file.TryLock()
	if err != nil {
		return fmt.Errorf("taking the migration lock %s: %w", l.file.Path(), err)
	}
	if locked {
		return nil
	}
	l.waiting()
	if _, err := l.file.TryLockContext(l.interrupt, migrationLockPoll); err != nil {
		return fmt.Errorf("waiting for another process's migration (%s): %w", l.file.Path(), err)
	}
	return nil
}

func (l sqliteMigrationLock) Unlock(context.Context, *sql.DB) error {
	return l.file.Unlock()
}
