package storage

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/decisionrecord"
)

func (r reader) Decision(ctx context.Context, tenant, id uuid.UUID) (*ent.DecisionRecord, error) {
	return found(r.c.DecisionRecord.Query().Where(decisionrecord.ID(id), decisionrecord.OrganizationID(tenant)).Only(ctx))
}

func (r reader) Decisions(ctx context.Context, f DecisionFilter, limit int) ([]*ent.DecisionRecord, *Position, error) {
	var edge *Position
	if f.Scan > 0 && f.Result != nil {
		window := DecisionFilter{Tenant: f.Tenant, BaseID: f.BaseID, Since: f.Since, Until: f.Until, Before: f.Before}
		last, err := r.newestDecisions(window, 1).Offset(f.Scan-1).Select(decisionrecord.FieldID, decisionrecord.FieldAt).All(ctx)
		if err != nil {
			return nil, nil, err
		}
		if len(last) == 1 {
			edge = &Position{At: last[0].At, ID: last[0].ID}
		}
	}
	q := r.newestDecisions(f, limit)
	if edge != nil {
		q = q.Where(notOlderThan(*edge))
	}
	rows, err := found(q.All(ctx))
	if err != nil || len(rows) == limit {
		return rows, nil, err
	}
	return rows, edge, nil
}

func (r reader) DecisionInputs(ctx context.Context, f DecisionFilter, limit int) ([]*ent.DecisionRecord, error) {
	return found(r.newestDecisions(f, limit).Select(decisionrecord.FieldID, decisionrecord.FieldAt,
		decisionrecord.FieldResult, decisionrecord.FieldExplanation, decisionrecord.FieldError, decisionrecord.FieldOutcome,
		decisionrecord.FieldInput).All(ctx))
}

func (r reader) CountDecisions(ctx context.Context, f DecisionFilter) (int, error) {
	return found(r.decisions(f).Count(ctx))
}

// newestDecisions is the query of up to limit of the records f selects,
// newest first.
func (r reader) newestDecisions(f DecisionFilter, limit int) *ent.DecisionRecordQuery {
	q := r.decisions(f)
	if f.Before != nil {
		q = q.Where(olderThan(*f.Before))
	}
	return q.Order(ent.Desc(decisionrecord.FieldAt), ent.Desc(decisionrecord.FieldID)).Limit(limit)
}

// decisions is the query of the records f selects, Before aside.
func (r reader) decisions(f DecisionFilter) *ent.DecisionRecordQuery {
	q := r.c.DecisionRecord.Query().Where(decisionrecord.OrganizationID(f.Tenant))
	if f.BaseID != nil {
		q = q.Where(decisionrecord.BaseID(*f.BaseID))
	}
	if f.Kind != "" {
		q = q.Where(decisionrecord.KindEQ(f.Kind))
	}
	if f.Result != nil {
		q = q.Where(decisionrecord.Result(*f.Result))
	}
	// Stored times are UTC, and SQLite compares them as text.
	if f.Since != nil {
		q = q.Where(decisionrecord.AtGTE(f.Since.UTC()))
	}
	if f.Until != nil {
		q = q.Where(decisionrecord.AtLT(f.Until.UTC()))
	}
	return q
}

// InsertDecisions gives a day without a partition one, on PostgreSQL.
func (s *dbStore) InsertDecisions(ctx context.Context, rows []*ent.DecisionRecord) error {
	if len(rows) == 0 {
		return nil
	}
	if err := s.db.CheckFile(); err != nil {
		return err
	}
	ins := entsql.Dialect(s.dialect).Insert(decisionrecord.Table).Columns(
		decisionrecord.FieldID, decisionrecord.FieldOrganizationID, decisionrecord.FieldKind,
		decisionrecord.FieldBaseID, decisionrecord.FieldRecordID, decisionrecord.FieldVersion,
		decisionrecord.FieldRevision, decisionrecord.FieldAt, decisionrecord.FieldResult,
		decisionrecord.FieldExplanation, decisionrecord.FieldDurationNs, decisionrecord.FieldActorKind,
		decisionrecord.FieldActorID, decisionrecord.FieldInput, decisionrecord.FieldPolicies, decisionrecord.FieldError,
		decisionrecord.FieldOutcome)
	at := make([]time.Time, len(rows))
	for i, d := range rows {
		var version, policies, failure, outcome any
		if d.Version != nil {
			version = *d.Version
		}
		if d.Policies != nil {
			policies = *d.Policies
		}
		if d.Error != nil {
			failure = *d.Error
		}
		if d.Outcome != nil {
			outcome = *d.Outcome
		}
		ins.Values(d.ID, d.OrganizationID, d.Kind, d.BaseID, d.RecordID, version,
			d.Revision, d.At, d.Result, d.Explanation, d.DurationNs, d.ActorKind,
			d.ActorID, d.Input, policies, failure, outcome)
		at[i] = d.At
	}
	// No conflict target: the key is (id) on SQLite, (id, at) on
	// PostgreSQL, where the table is partitioned on at.
	query, args := ins.OnConflict(entsql.DoNothing()).Query()
	insert := func() error {
		_, err := s.sql.ExecContext(ctx, query, args...)
		return err
	}
	if s.dialect != dialect.Postgres {
		return insert()
	}
	return s.decisionDays.Insert(ctx, at, insert)
}

func (s *dbStore) Recordings(ctx context.Context, bases []uuid.UUID) (map[uuid.UUID]Recording, error) {
	rows, err := s.c.Base.Query().Where(base.IDIn(bases...)).
		Select(base.FieldID, base.FieldDecisionsEnabled, base.FieldDecisionsMask).All(ctx)
	if err != nil {
		return nil, classify(err)
	}
	out := make(map[uuid.UUID]Recording, len(rows))
	for _, b := range rows {
		out[b.ID] = Recording{Enabled: b.DecisionsEnabled, Mask: b.DecisionsMask}
	}
	return out, nil
}

// expireBatch is how many decision records one statement deletes on
// SQLite.
const expireBatch = 500

func (s *dbStore) ExpireDecisions(ctx context.Context, now, cutoff time.Time) (int, error) {
	if s.dialect == dialect.Postgres {
		days := s.decisionDays
		if err := days.Prepare(ctx, now); err != nil {
			return 0, err
		}
		expired, err := days.Expire(ctx, cutoff)
		return int(expired.Rows), err
	}
	deleted := 0
	for {
		ids, err := s.c.DecisionRecord.Query().Where(decisionrecord.AtLT(cutoff)).
			Order(ent.Asc(decisionrecord.FieldAt)).Limit(expireBatch).IDs(ctx)
		if err != nil || len(ids) == 0 {
			return deleted, err
		}
		n, err := s.c.DecisionRecord.Delete().Where(decisionrecord.IDIn(ids...)).Exec(ctx)
		deleted += n
		if err != nil || len(ids) < expireBatch {
			return deleted, err
		}
	}
}
