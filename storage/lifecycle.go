package storage

import (
	"context"
	"slices"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/ent/predicate"
	"github.com/verdict/verdict/ent/record"
)

func (r reader) Base(ctx context.Context, id uuid.UUID) (*ent.Base, error) {
	return found(r.c.Base.Get(ctx, id))
}

func (r reader) Record(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	return found(r.c.Record.Get(ctx, id))
}

func (r reader) Versions(ctx context.Context, baseID uuid.UUID, before, limit int) ([]*ent.Record, error) {
	q := r.c.Record.Query().Where(record.BaseID(baseID), record.StatusEQ(record.StatusPublished))
	if before != 0 {
		q = q.Where(record.VersionLT(before))
	}
	return found(q.Order(ent.Desc(record.FieldVersion)).Limit(limit).All(ctx))
}

func (r reader) RecordsIn(ctx context.Context, tenant uuid.UUID, kind record.Kind, ids []uuid.UUID) ([]*ent.Record, error) {
	return found(r.c.Record.Query().Where(record.IDIn(ids...), record.OrganizationID(tenant), record.KindEQ(kind)).All(ctx))
}

func (r reader) Bases(ctx context.Context, f BaseFilter, w Window) ([]*ent.Base, *int, error) {
	q := r.c.Base.Query().Where(base.OrganizationID(f.Tenant), base.KindEQ(f.Kind), base.DeletedAtIsNil(), listed(f.OwnedBy))
	if f.Name != "" {
		q = q.Where(predicate.Base(containsFold(base.FieldName, f.Name)))
	}
	if f.Group != nil {
		q = q.Where(inGroup(*f.Group))
	}
	if f.NotInGroup != nil {
		q = q.Where(base.Not(inGroup(*f.NotInGroup)))
	}
	return newestFirst(ctx, w, q)
}

// inGroup keeps the bases in group, as a list the group's index gives:
// written as EXISTS per base (ent's HasMembershipsWith), SQLite walked
// every base of the organization to keep a small group's, 1 s among
// 100,000 policies where this takes milliseconds.
func inGroup(group uuid.UUID) predicate.Base {
	return func(s *sql.Selector) {
		members := sql.Select(groupmember.FieldBaseID).From(sql.Table(groupmember.Table)).
			Where(sql.EQ(groupmember.FieldGroupID, group))
		s.Where(sql.In(s.C(base.FieldID), members))
	}
}

func (t *dbTx) CreateBase(ctx context.Context, b *ent.Base) (*ent.Base, error) {
	return found(t.c.Base.Create().
		SetOrganizationID(b.OrganizationID).SetKind(b.Kind).SetName(b.Name).SetDescription(b.Description).
		SetOwnerKind(b.OwnerKind).SetOwnerID(b.OwnerID).SetCreatedBy(b.CreatedBy).
		SetCreatedAt(b.CreatedAt).SetUpdatedAt(b.UpdatedAt).Save(ctx))
}

func (t *dbTx) CreateRecord(ctx context.Context, r *ent.Record) (*ent.Record, error) {
	return found(t.c.Record.Create().
		SetBaseID(r.BaseID).SetOrganizationID(r.OrganizationID).SetKind(r.Kind).SetStatus(r.Status).
		SetNillableVersion(r.Version).SetNillablePublishedAt(r.PublishedAt).
		SetName(r.Name).SetDescription(r.Description).SetRule(r.Rule).
		SetDefinition(r.Definition).SetSchema(r.Schema).SetTests(r.Tests).
		SetCreatedBy(r.CreatedBy).SetCreatedAt(r.CreatedAt).SetUpdatedAt(r.UpdatedAt).Save(ctx))
}

func (t *dbTx) LockRecord(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	q := t.c.Record.Query().Where(record.ID(id))
	if t.dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	return found(q.Only(ctx))
}

func (t *dbTx) SaveDraft(ctx context.Context, r *ent.Record) (bool, error) {
	u := t.c.Record.Update().
		Where(record.ID(r.ID), record.StatusEQ(record.StatusDraft), record.Revision(r.Revision)).
		SetName(r.Name).SetDescription(r.Description).SetRule(r.Rule).
		SetDefinition(r.Definition).SetSchema(r.Schema).SetTests(r.Tests).
		SetRevision(r.Revision + 1).SetUpdatedAt(r.UpdatedAt)
	if r.Status == record.StatusPublished {
		u.SetStatus(r.Status).SetNillableVersion(r.Version).SetNillablePublishedAt(r.PublishedAt)
	}
	return changed(u.Save(ctx))
}

func (t *dbTx) AttachDraft(ctx context.Context, b *ent.Base, draftID uuid.UUID, at time.Time) (*ent.Base, error) {
	return found(t.c.Base.UpdateOne(b).Where(base.DeletedAtIsNil()).SetDraftRecordID(draftID).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) RenameBase(ctx context.Context, b *ent.Base, name, description string, at time.Time) (*ent.Base, error) {
	return found(t.c.Base.UpdateOne(b).Where(base.DeletedAtIsNil()).SetName(name).SetDescription(description).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) PublishDraft(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (*ent.Base, error) {
	return found(t.c.Base.UpdateOne(b).Where(base.DeletedAtIsNil()).
		SetName(r.Name).SetDescription(r.Description).
		SetLatestVersion(*r.Version).SetLatestRecordID(r.ID).ClearDraftRecordID().
		SetOwnerKind(base.OwnerKindOrganization).SetOwnerID(b.OrganizationID).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) AddVersion(ctx context.Context, b *ent.Base, r *ent.Record, at time.Time) (bool, error) {
	return changed(t.c.Base.Update().Where(base.ID(b.ID), base.LatestVersion(b.LatestVersion), base.DeletedAtIsNil()).
		SetName(r.Name).SetDescription(r.Description).
		SetLatestVersion(*r.Version).SetLatestRecordID(r.ID).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) DeleteBase(ctx context.Context, b *ent.Base, at time.Time) (bool, error) {
	return changed(t.c.Base.Update().Where(base.ID(b.ID), base.DeletedAtIsNil()).
		SetDeletedAt(at).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) SetDecisions(ctx context.Context, b *ent.Base, enabled bool, rate float64, mask []string, at time.Time) (*ent.Base, bool, error) {
	// The live base is read under lock, so that the comparison holds until
	// the commit and a deletion under way is waited for.
	q := t.c.Base.Query().Where(base.ID(b.ID), base.DeletedAtIsNil())
	if t.dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	now, err := found(q.Only(ctx))
	if err != nil {
		return nil, false, err
	}
	if now.DecisionsEnabled == enabled && now.DecisionsSampleRate == rate && slices.Equal(now.DecisionsMask, mask) {
		return now, false, nil
	}
	saved, err := found(t.c.Base.UpdateOne(now).SetDecisionsEnabled(enabled).SetDecisionsSampleRate(rate).
		SetDecisionsMask(mask).SetUpdatedAt(at).Save(ctx))
	return saved, err == nil, err
}

// listed keeps the bases lists show: published ones (owned by the
// organization) and the never-published ones of user, unless uuid.Nil.
func listed(user uuid.UUID) predicate.Base {
	visible := base.OwnerKindEQ(base.OwnerKindOrganization)
	if user != uuid.Nil {
		visible = base.Or(visible, base.And(base.OwnerKindEQ(base.OwnerKindUser), base.OwnerID(user)))
	}
	return visible
}
