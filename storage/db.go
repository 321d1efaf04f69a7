package storage

import (
	"context"
	"fmt"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
)

// New is the Store of a database.
func New(db *database.DB) Store {
	return &dbStore{reader: reader{c: db.Client()}, dialect: db.Dialect()}
}

// reader holds the queries, made on the database or in a transaction.
type reader struct {
	c *ent.Client
}

type dbStore struct {
	reader
	dialect string
}

func (s *dbStore) InTx(ctx context.Context, fn func(Tx) error) error {
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
	creates := make([]*ent.AuditEventCreate, len(evs))
	for i, ev := range evs {
		creates[i] = t.c.AuditEvent.Create().
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
	if len(creates) == 1 {
		return creates[0].Exec(ctx)
	}
	return t.c.AuditEvent.CreateBulk(creates...).Exec(ctx)
}

// classify gives the driver's errors the meaning callers act on:
// ErrNotFound, ErrConflict, or the error as it is (the database failed).
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case ent.IsNotFound(err):
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
