package service

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/storage"
)

// target is the base and record a caller reached (see reach).
type target struct {
	base   *ent.Base
	record *ent.Record
	// recording is how the base records its runs; nil when it does not.
	recording *recording
}

// finder is where reach reads: the store itself (storeFinder) or the run
// cache in front of it (runFinder).
type finder interface {
	base(ctx context.Context, id uuid.UUID) (*cachedBase, error)
	record(ctx context.Context, id uuid.UUID) (*ent.Record, error)
	// knowsBase says, without reading, whether id is known to be a base's.
	knowsBase(id uuid.UUID) bool
}

// reach is the one way from an id to what a caller acts on: the record
// the id names (byRecord), else the base it names with its current record
// (the latest version, else the draft). The base must be the caller's
// tenant's and of kind (another tenant's ids are not found), not deleted
// (else gone), and the caller allowed the action on it.
func reach[F finder](ctx context.Context, s *Service, p *Principal, kind base.Kind, id uuid.UUID, byRecord bool, action authz.Action, f F) (*target, error) {
	var rec *ent.Record
	baseID := id
	if byRecord {
		r, err := f.record(ctx, id)
		if err != nil || !p.owns(r.OrganizationID, kind, base.Kind(r.Kind)) {
			return nil, notFoundOr(err, kind, id)
		}
		rec, baseID = r, r.BaseID
	}
	cb, err := f.base(ctx, baseID)
	if err != nil || !p.owns(cb.base.OrganizationID, kind, cb.base.Kind) {
		return nil, notFoundOr(err, kind, baseID)
	}
	b := cb.base
	if b.DeletedAt != nil {
		return nil, errBaseDeleted(b)
	}
	if err := s.authorize(ctx, p, action, cb.resource); err != nil {
		return nil, err
	}
	if rec == nil {
		current := currentRecord(b)
		if current == nil {
			return nil, newError(CodeNotFound, "%s %s has no record", kind, b.ID)
		}
		if rec, err = f.record(ctx, *current); err != nil {
			return nil, notFoundOr(err, kind, *current)
		}
	}
	return &target{base: b, record: rec, recording: cb.recording}, nil
}

// reachEither is reach for an id that names a record, else a base. Ids of
// the two never collide, so a base the finder knows is taken directly.
func reachEither[F finder](ctx context.Context, s *Service, p *Principal, kind base.Kind, id uuid.UUID, action authz.Action, f F) (*target, error) {
	if !f.knowsBase(id) {
		t, err := reach(ctx, s, p, kind, id, true, action, f)
		if err == nil || CodeOf(err) != CodeNotFound {
			return t, err
		}
	}
	return reach(ctx, s, p, kind, id, false, action, f)
}

// owns says whether what a finder found, of tenant and of kind has, is
// what the caller asked for: another tenant's, or another kind's, is not
// found.
func (p *Principal) owns(tenant uuid.UUID, kind, has base.Kind) bool {
	return tenant == p.TenantID && has == kind
}

// errBaseDeleted refuses what is asked of a deleted base.
func errBaseDeleted(b *ent.Base) error {
	return newError(CodeDeleted, "%s %s was deleted", b.Kind, b.ID)
}

func notFoundOr(err error, kind base.Kind, id uuid.UUID) error {
	if err == nil || errors.Is(err, storage.ErrNotFound) {
		return newError(CodeNotFound, "no %s %s", kind, id)
	}
	return unavailable(err)
}

// currentRecord is what a base stands for when no record is named: its
// latest version, else its draft.
func currentRecord(b *ent.Base) *uuid.UUID {
	if b.LatestRecordID != nil {
		return b.LatestRecordID
	}
	return b.DraftRecordID
}

// load finds a record, or a base (whose latest version, else draft, is
// then meant), in the store, as reach does.
func (s *Service) load(ctx context.Context, p *Principal, k *kindRules, id uuid.UUID, action authz.Action) (*target, error) {
	return reachEither(ctx, s, p, k.kind, id, action, storeFinder{s.store})
}

// runTarget resolves what to run through the run cache, as reach does: a
// base id means its latest version, else its draft; a record id means
// that record. An id of the other kind is not found, with a hint.
func (s *Service) runTarget(ctx context.Context, t *timings, p *Principal, kind base.Kind, baseID, recordID uuid.UUID) (*target, error) {
	target, err := s.cachedTarget(ctx, t, p, kind, baseID, recordID, authz.ActionRun)
	if recordID != uuid.Nil {
		return target, s.misnamed(ctx, p, kind, recordID, true, err)
	}
	return target, s.misnamed(ctx, p, kind, baseID, false, err)
}

// misnamed is err, the answer to id given where a record id (byRecord) or
// a base id goes, with a hint when err is not found because id is the
// other kind of id, of a base the caller may view, and deleted when it is
// the other kind of id of a deleted base. Ids of other tenants,
// and of bases the caller may not view, keep the plain answer: the hint
// tells nothing a caller could not read already.
func (s *Service) misnamed(ctx context.Context, p *Principal, kind base.Kind, id uuid.UUID, byRecord bool, err error) error {
	if CodeOf(err) != CodeNotFound {
		return err
	}
	other, e := reach(ctx, s, p, kind, id, !byRecord, authz.ActionView, storeFinder{s.store})
	switch {
	case CodeOf(e) == CodeDeleted:
		// A deleted policy or flow answers 410 by any of its ids.
		return e
	case e != nil:
		return err
	case byRecord:
		return newError(CodeNotFound, "no %s record %s: that is the id of a %s base; here a record id goes", kind, id, kind)
	}
	return newError(CodeNotFound, "no %s %s: that is the id of a record of %s %s; here a base id goes", kind, id, kind, other.base.ID)
}

// cachedTarget is runTarget for another action.
func (s *Service) cachedTarget(ctx context.Context, t *timings, p *Principal, kind base.Kind, baseID, recordID uuid.UUID,
	action authz.Action) (*target, error) {
	f := runFinder{s: s, t: t}
	if recordID != uuid.Nil {
		return reach(ctx, s, p, kind, recordID, true, action, f)
	}
	return reach(ctx, s, p, kind, baseID, false, action, f)
}

// storeFinder reads the store, uncached.
type storeFinder struct{ store storage.Lifecycle }

func (f storeFinder) base(ctx context.Context, id uuid.UUID) (*cachedBase, error) {
	b, err := f.store.Base(ctx, id)
	if err != nil {
		return nil, err
	}
	return newCachedBase(b), nil
}

func (f storeFinder) record(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	return f.store.Record(ctx, id)
}

func (storeFinder) knowsBase(uuid.UUID) bool { return false }
