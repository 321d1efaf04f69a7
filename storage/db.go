package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/dayparts"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/decisionrecord"
)

// New is the Store of a database.
func New(db *database.DB) Store {
	return &dbStore{reader: reader{c: db.Client()}, db: db, sql: db.SQL(), dialect: db.Dialect(), executions: auditstore.New(db),
		// The rows of decision_records' days are counted as they are
		// dropped, so that expired records are counted alike on either
		// database.
		decisionDays: dayparts.New(db.SQL(), decisionrecord.Table, dayparts.CountingRows())}
}

// reader holds the queries, made on the database or in a transaction.
type reader struct {
	c *ent.Client
}

type dbStore struct {
	reader
	db         *database.DB
	sql        *sql.DB
	dialect    string
	executions *auditstore.Store
	// decisionDays are the day partitions of decision_records on
	// PostgreSQL.
	decisionDays *dayparts.Table
}

func (s *dbStore) InTx(ctx context.Context, fn func(Tx) error) error {
	// A write to a SQLite file that was removed or replaced would be
	// acknowledged and lost.
	if err := s.db.CheckFile(); err != nil {
		return err
	}
	tx, err := s.c.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if v := recover(); v != nil {
			tx.Rollback()
			panic(v)
		}
	}()
	if err := fn(&dbTx{reader: reader{c: tx.Client()}, tx: tx, dialect: s.dialect}); err != nil {
		tx.Rollback()
		return err
	}
	return classify(tx.Commit())
}

// dbTx is a transaction of a database: its reads are the reader's, made in
// the transaction, and its writes are its own.
type dbTx struct {
	reader
	tx      *ent.Tx
	dialect string
}

func (t *dbTx) Announce(ctx context.Context, c changefeed.Change) error {
	return changefeed.Announce(ctx, t.dialect, t.tx, c)
}

func (t *dbTx) OnCommit(fn func()) {
	t.tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			fn()
			return err
		})
	})
}

func (t *dbTx) AppendEvents(ctx context.Context, evs ...*ent.AuditEvent) error {
	for batch := range slices.Chunk(evs, eventsPerInsert) {
		creates := make([]*ent.AuditEventCreate, len(batch))
		for i, ev := range batch {
			creates[i] = t.c.AuditEvent.Create().
				SetID(ev.ID).
				SetOrganizationID(ev.OrganizationID).
				SetAt(ev.At).
				SetAction(ev.Action).
				SetKind(ev.Kind).
				SetNillableBaseID(ev.BaseID).
				SetNillableRecordID(ev.RecordID).
				SetNillableGroupID(ev.GroupID).
				SetActorKind(ev.ActorKind).
				SetActorID(ev.ActorID).
				SetDetails(ev.Details)
		}
		if err := t.c.AuditEvent.CreateBulk(creates...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// eventsPerInsert bounds the rows of one INSERT of audit events, well
// below the bind parameters either database takes in one statement.
const eventsPerInsert = 256

// classify gives the driver's errors the meaning callers act on:
// ErrNotFound, ErrConflict, or the error as it is (the database failed).
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case ent.IsNotFound(err), database.IsForeignKeyViolation(err):
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	case database.IsUniqueViolation(err):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// found is a query's result with its error classified.
func found[E any](e E, err error) (E, error) {
	return e, classify(err)
}

// changed is whether a conditional update changed a row.
func changed(n int, err error) (bool, error) {
	return n > 0, classify(err)
}
