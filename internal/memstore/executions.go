package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/storage"
)

// The `executed` events, like decision records, are written outside
// transactions: each call is a transaction of its own.

func (s *Store) InsertExecutions(ctx context.Context, batch []storage.Execution) error {
	s.tx.Lock()
	defer s.tx.Unlock()
	next := s.snapshot().clone()
	for _, ev := range batch {
		if !slices.ContainsFunc(next.executions, func(stored *storage.Execution) bool { return stored.ID == ev.ID }) {
			next.executions = append(next.executions, executionCopy(&ev))
		}
	}
	s.commit(next)
	return nil
}

func (s *Store) Execution(ctx context.Context, tenant, id uuid.UUID) (*storage.Execution, error) {
	stored := s.snapshot().executions
	i := slices.IndexFunc(stored, func(ev *storage.Execution) bool { return ev.ID == id && ev.Tenant == tenant })
	if i < 0 {
		return nil, storage.ErrNotFound
	}
	return executionCopy(stored[i]), nil
}

// Executions examines every event: memory has no walk to bound.
func (s *Store) Executions(ctx context.Context, f storage.ExecutionFilter, limit int) ([]storage.Execution, *storage.Position, error) {
	selected := newest(s.executionsOf(f), func(ev *storage.Execution) storage.Position { return storage.Position{At: ev.At, ID: ev.ID} },
		f.Before, limit)
	out := make([]storage.Execution, len(selected))
	for i, ev := range selected {
		out[i] = *ev
	}
	return out, nil, nil
}

func (s *Store) CountExecutions(ctx context.Context, f storage.ExecutionFilter) (int, error) {
	return len(s.executionsOf(f)), nil
}

// executionsOf are copies of the events f selects, Before aside.
func (s *Store) executionsOf(f storage.ExecutionFilter) []*storage.Execution {
	var out []*storage.Execution
	for _, ev := range s.snapshot().executions {
		if ev.Tenant == f.Tenant && (f.Kind == "" || ev.Kind == f.Kind) && (f.BaseID == nil || ev.BaseID == *f.BaseID) &&
			(f.Actor == nil || ev.ActorID == *f.Actor) &&
			(f.Since == nil || !ev.At.Before(*f.Since)) && (f.Until == nil || ev.At.Before(*f.Until)) {
			out = append(out, executionCopy(ev))
		}
	}
	return out
}

// PrepareExecutions has nothing to prepare: memory has no partitions.
func (s *Store) PrepareExecutions(ctx context.Context, now time.Time) error { return nil }

// ExpireExecutions removes exactly the expired events, as SQLite does.
func (s *Store) ExpireExecutions(ctx context.Context, cutoff time.Time) (storage.Expired, error) {
	s.tx.Lock()
	defer s.tx.Unlock()
	next := s.snapshot().clone()
	var dropped int
	next.executions, dropped = dropBefore(next.executions, func(ev *storage.Execution) time.Time { return ev.At }, cutoff)
	s.commit(next)
	return storage.Expired{Events: int64(dropped)}, nil
}

// Ready: memory is always there.
func (s *Store) Ready(ctx context.Context) error { return nil }

// executionCopy copies ev with its details, which callers may change.
func executionCopy(ev *storage.Execution) *storage.Execution {
	c := *ev
	if ev.Extra != nil {
		c.Extra = make(map[string]any, len(ev.Extra))
		for k, v := range ev.Extra {
			c.Extra[k] = v
		}
	}
	return &c
}
