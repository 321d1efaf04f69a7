package service

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/verdict/verdict/storage"
)

// inTx runs fn in a transaction of the store. What fn returns is returned
// as it is; the store's own failures (beginning, committing) become the
// service's errors.
func (s *Service) inTx(ctx context.Context, fn func(tx storage.Tx) error) error {
	err := s.store.InTx(ctx, fn)
	if _, ok := errors.AsType[*Error](err); ok {
		return err
	}
	return storeErr(err, "the change conflicts with another one")
}

// storeErr turns a storage error into the service's: a unique violation is
// a conflict with the given message; the rest is the database failing.
func storeErr(err error, conflict string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, storage.ErrConflict):
		return newError(CodeConflict, "%s", conflict)
	case errors.Is(err, storage.ErrNotFound):
		return newError(CodeNotFound, "not found")
	}
	return unavailable(err)
}

// lookupErr is the error of a failed lookup of one row by id in the
// caller's tenant: a row that is not there (another tenant's included) is
// not found, named what; any other failure is the database's.
func lookupErr(err error, what string, id uuid.UUID) error {
	if errors.Is(err, storage.ErrNotFound) {
		return newError(CodeNotFound, "no %s %s", what, id)
	}
	return unavailable(err)
}
