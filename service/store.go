package service

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/storage"
)

// inTx runs fn in a transaction of the store. What fn returns is returned
// as it is; the store's own failures (beginning, committing) become the
// service's errors.
func (s *Service) inTx(ctx context.Context, fn func(tx storage.Tx) error) error {
	return s.inTxHolding(ctx, storage.Tx.ShareRoles, fn)
}

// inRolesTx is inTx for a change of roles, memberships or keys, which
// takes the tenant's roles (storage.Tx.LockRoles) before anything else:
// taking them after sharing them would wait for another such change that
// waits for this one.
func (s *Service) inRolesTx(ctx context.Context, fn func(tx storage.Tx) error) error {
	return s.inTxHolding(ctx, storage.Tx.LockRoles, fn)
}

func (s *Service) inTxHolding(ctx context.Context, hold func(storage.Tx, context.Context, uuid.UUID) error, fn func(tx storage.Tx) error) error {
	err := s.store.InTx(ctx, func(tx storage.Tx) error {
		if err := s.stillActs(ctx, tx, hold); err != nil {
			return err
		}
		return fn(tx)
	})
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

// stillActs refuses a change by a caller whose key was revoked or expired,
// whose membership ended or whose role changed since the request was
// authenticated, from the cache or before a change on another instance:
// a change authorized a moment before another committed would otherwise
// commit after it, made by someone who no longer may. It first holds the
// caller's tenant's roles with hold, so that on PostgreSQL a change of
// them waits for this transaction, or this one for it and then reads what
// it left (SQLite runs write transactions one at a time). A principal
// found stale is dropped from the cache, so that the request sent again
// is authenticated afresh. The operator acts without a key.
func (s *Service) stillActs(ctx context.Context, tx storage.Tx, hold func(storage.Tx, context.Context, uuid.UUID) error) error {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return nil
	}
	if err := hold(tx, ctx, p.TenantID); err != nil {
		return unavailable(err)
	}
	key, err := tx.Key(ctx, p.KeyID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return errBadKey
	case err != nil:
		return unavailable(err)
	case key.RevokedAt != nil || key.ExpiresAt != nil && !s.now().Before(*key.ExpiresAt):
		s.principals.drop(changefeed.Change{Kind: changefeed.KindKey, Tenant: p.TenantID, ID: p.KeyID})
		return errBadKey
	case key.UserID == nil:
		return nil
	}
	m, err := tx.MembershipOf(ctx, p.TenantID, *key.UserID)
	stale := changefeed.Change{Kind: changefeed.KindMember, Tenant: p.TenantID, ID: *key.UserID}
	switch {
	case errors.Is(err, storage.ErrNotFound):
		s.principals.drop(stale)
		return errBadKey
	case err != nil:
		return unavailable(err)
	case authz.Role(m.Role) != p.Role:
		s.principals.drop(stale)
		return newError(CodeConflict, "your role in the organization changed from %s to %s while this request was on its way; nothing was changed: send it again", p.Role, m.Role)
	}
	return nil
}
