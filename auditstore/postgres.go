package auditstore

import (
	"context"
	"time"

	"github.com/lib/pq"

	"github.com/verdict/verdict/database"
)

// insertPostgres copies the batch in with COPY, the cheapest way into
// PostgreSQL: about 10 µs an event, against 17 µs for one INSERT of
// unnested arrays (batches of 512, measured side by side). COPY cannot
// skip a row already stored, so a batch that meets one, which only a retry
// of a batch whose commit was in doubt can, is inserted again by
// insertPostgresSkipping.
func (s *Store) insertPostgres(ctx context.Context, batch []Event) error {
	err := s.copyPostgres(ctx, batch)
	if database.IsUniqueViolation(err) {
		return s.insertPostgresSkipping(ctx, batch)
	}
	return err
}

// copyQuery streams rows into the table (lib/pq's COPY protocol).
const copyQuery = "COPY " + table + " (" + columns + ") FROM STDIN"

func (s *Store) copyPostgres(ctx context.Context, batch []Event) error {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	copying, err := tx.PrepareContext(ctx, copyQuery)
	if err != nil {
		return err
	}
	defer copying.Close()
	for i := range batch {
		ev := &batch[i]
		kind, actorKind, extra, err := ev.codes()
		if err != nil {
			return err
		}
		version, details := nullable(ev, extra)
		if _, err := copying.ExecContext(ctx, ev.At, int64(ev.Duration), ev.Tenant.String(), ev.ID.String(), ev.BaseID.String(),
			ev.RecordID.String(), ev.ActorID.String(), version, int64(kind), int64(actorKind), ev.Result, ev.Published, details); err != nil {
			return err
		}
	}
	// The copy ends, and PostgreSQL checks its rows, when it is executed
	// without values.
	if _, err := copying.ExecContext(ctx); err != nil {
		return err
	}
	if err := copying.Close(); err != nil {
		return err
	}
	return tx.Commit()
}

// insertPostgresSkipping inserts the events not stored yet, in one
// statement that sends each column as one array: the statement and its
// plan stay the same whatever the batch size.
func (s *Store) insertPostgresSkipping(ctx context.Context, batch []Event) error {
	n := len(batch)
	var (
		at                               = make([]string, n)
		durations                        = make([]int64, n)
		tenants, ids, bases, recs, actor = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		versions                         = make([]*int64, n)
		kinds, actorKinds                = make([]int64, n), make([]int64, n)
		results, published               = make([]bool, n), make([]bool, n)
		details                          = make([]*string, n)
	)
	for i := range batch {
		ev := &batch[i]
		kind, actorKind, extra, err := ev.codes()
		if err != nil {
			return err
		}
		at[i] = ev.At.UTC().Format(time.RFC3339Nano)
		durations[i] = int64(ev.Duration)
		tenants[i], ids[i], bases[i], recs[i], actor[i] = ev.Tenant.String(), ev.ID.String(), ev.BaseID.String(), ev.RecordID.String(), ev.ActorID.String()
		if ev.Version != nil {
			v := int64(*ev.Version)
			versions[i] = &v
		}
		kinds[i], actorKinds[i] = int64(kind), int64(actorKind)
		results[i], published[i] = ev.Result, ev.Published
		details[i] = extra
	}
	_, err := s.db.SQL().ExecContext(ctx, `INSERT INTO `+table+` (`+columns+`)
		SELECT * FROM unnest($1::timestamptz[], $2::bigint[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::uuid[],
			$8::integer[], $9::smallint[], $10::smallint[], $11::boolean[], $12::boolean[], $13::jsonb[])
		ON CONFLICT DO NOTHING`,
		pq.Array(at), pq.Array(durations), pq.Array(tenants), pq.Array(ids), pq.Array(bases), pq.Array(recs), pq.Array(actor),
		pq.GenericArray{A: versions}, pq.Array(kinds), pq.Array(actorKinds), pq.Array(results), pq.Array(published),
		pq.GenericArray{A: details})
	return err
}
