package memstore

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/storage"
)

func (r reads) Decision(ctx context.Context, tenant, id uuid.UUID) (*ent.DecisionRecord, error) {
	return first(r.state().decisions, func(d *ent.DecisionRecord) bool { return d.ID == id && d.OrganizationID == tenant })
}

// Decisions examines every record: memory has no walk to bound.
func (r reads) Decisions(ctx context.Context, f storage.DecisionFilter, limit int) ([]*ent.DecisionRecord, *storage.Position, error) {
	rows, err := r.DecisionInputs(ctx, f, limit)
	return rows, nil, err
}

// DecisionInputs reads whole records: a replay reads no more of them.
func (r reads) DecisionInputs(ctx context.Context, f storage.DecisionFilter, limit int) ([]*ent.DecisionRecord, error) {
	return newest(r.decisionsOf(f), func(d *ent.DecisionRecord) storage.Position { return storage.Position{At: d.At, ID: d.ID} },
		f.Before, limit), nil
}

func (r reads) CountDecisions(ctx context.Context, f storage.DecisionFilter) (int, error) {
	return len(r.decisionsOf(f)), nil
}

// decisionsOf are copies of the records f selects, Before aside.
func (r reads) decisionsOf(f storage.DecisionFilter) []*ent.DecisionRecord {
	var out []*ent.DecisionRecord
	for _, d := range r.state().decisions {
		if d.OrganizationID == f.Tenant && (f.BaseID == nil || d.BaseID == *f.BaseID) && (f.Kind == "" || d.Kind == f.Kind) &&
			(f.Result == nil || d.Result == *f.Result) &&
			(f.Since == nil || !d.At.Before(*f.Since)) && (f.Until == nil || d.At.Before(*f.Until)) {
			c := *d
			out = append(out, &c)
		}
	}
	return out
}

func (s *Store) Recordings(ctx context.Context, bases []uuid.UUID) (map[uuid.UUID]storage.Recording, error) {
	st := s.snapshot()
	out := make(map[uuid.UUID]storage.Recording, len(bases))
	for _, id := range bases {
		if b, ok := st.bases[id]; ok {
			out[id] = storage.Recording{Enabled: b.DecisionsEnabled, Mask: slices.Clone(b.DecisionsMask)}
		}
	}
	return out, nil
}

// InsertDecisions and ExpireDecisions are transactions of their own.
func (s *Store) InsertDecisions(ctx context.Context, rows []*ent.DecisionRecord) error {
	s.tx.Lock()
	defer s.tx.Unlock()
	next := s.snapshot().clone()
	for _, d := range rows {
		if !slices.ContainsFunc(next.decisions, func(stored *ent.DecisionRecord) bool { return stored.ID == d.ID }) {
			c := *d
			next.decisions = append(next.decisions, &c)
		}
	}
	s.commit(next)
	return nil
}

// ExpireDecisions removes exactly the expired records, as SQLite does.
func (s *Store) ExpireDecisions(ctx context.Context, now, cutoff time.Time) (int, error) {
	s.tx.Lock()
	defer s.tx.Unlock()
	next := s.snapshot().clone()
	var dropped int
	next.decisions, dropped = dropBefore(next.decisions, func(d *ent.DecisionRecord) time.Time { return d.At }, cutoff)
	s.commit(next)
	return dropped, nil
}
