package storage

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
)

// The `executed` events are auditstore's: a narrow table of their own,
// partitioned by day on PostgreSQL, that Executions reads and writes.
type (
	// Execution is one `executed` event.
	Execution = auditstore.Event
	// ExecutionFilter selects a tenant's `executed` events, as
	// EventFilter selects the others.
	ExecutionFilter = auditstore.Filter
	// Expired is what one ExpireExecutions removed.
	Expired = auditstore.Expired
	// EventIDs makes the ids of audit events from their times: Execution
	// finds an `executed` event near the time its id holds, however the
	// clock moved, and the log orders events of one time by id, lifecycle
	// events among them (see AppendEvents).
	EventIDs = auditstore.IDs
)

// ErrMigrationsPending is what Ready returns when the database answers but
// lacks migrations.
var ErrMigrationsPending = errors.New("storage: database migrations are pending")

// Executions stores, reads and expires the `executed` events of runs. Each
// call stands alone, outside any transaction: events are written by the
// execution log's writers in batches, and expire in batches.
type Executions interface {
	// InsertExecutions stores batch at once, skipping events stored
	// already, so that a batch that is retried stores each once.
	InsertExecutions(ctx context.Context, batch []Execution) error
	// Execution is the event with id in tenant.
	Execution(ctx context.Context, tenant, id uuid.UUID) (*Execution, error)
	// Executions are up to limit of the events f selects, newest first
	// (by time, then id). A filter that no index serves examines at most
	// f.Scan events: scanned is then the last one examined, when that
	// stopped the list short (see auditstore's List).
	Executions(ctx context.Context, f ExecutionFilter, limit int) (events []Execution, scanned *Position, err error)
	// CountExecutions counts the events f selects, Before aside.
	CountExecutions(ctx context.Context, f ExecutionFilter) (int, error)
	// PrepareExecutions makes room for the events of the day of now and
	// the days ahead (their partitions, on PostgreSQL).
	PrepareExecutions(ctx context.Context, now time.Time) error
	// ExpireExecutions removes the events older than cutoff, as
	// auditstore's Expire does, and reports what it removed, also when it
	// fails part way.
	ExpireExecutions(ctx context.Context, cutoff time.Time) (Expired, error)
}

func (s *dbStore) InsertExecutions(ctx context.Context, batch []Execution) error {
	if err := s.db.CheckFile(); err != nil {
		return err
	}
	return s.executions.Insert(ctx, batch)
}

func (s *dbStore) Execution(ctx context.Context, tenant, id uuid.UUID) (*Execution, error) {
	ev, err := s.executions.Get(ctx, tenant, id)
	if err == nil && ev == nil {
		return nil, ErrNotFound
	}
	return ev, err
}

func (s *dbStore) Executions(ctx context.Context, f ExecutionFilter, limit int) ([]Execution, *Position, error) {
	return s.executions.List(ctx, f, limit)
}

func (s *dbStore) CountExecutions(ctx context.Context, f ExecutionFilter) (int, error) {
	return s.executions.Count(ctx, f)
}

func (s *dbStore) PrepareExecutions(ctx context.Context, now time.Time) error {
	return s.executions.Prepare(ctx, now)
}

func (s *dbStore) ExpireExecutions(ctx context.Context, cutoff time.Time) (Expired, error) {
	return s.executions.Expire(ctx, cutoff)
}

func (s *dbStore) Ready(ctx context.Context) error {
	if err := s.db.CheckFile(); err != nil {
		return err
	}
	if err := s.sql.PingContext(ctx); err != nil {
		return err
	}
	pending, err := database.Pending(ctx, s.db)
	if err != nil {
		return err
	}
	if pending {
		return ErrMigrationsPending
	}
	return nil
}
