package storage

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/group"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/ent/predicate"
)

func (r reader) Group(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error) {
	return found(r.group(tenant, id).Only(ctx))
}

// group is the query of tenant's group with id.
func (r reader) group(tenant, id uuid.UUID) *ent.GroupQuery {
	return r.c.Group.Query().Where(group.ID(id), group.OrganizationID(tenant))
}

func (r reader) Groups(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.Group, *int, error) {
	q := r.c.Group.Query().Where(group.OrganizationID(tenant))
	if query != "" {
		q = q.Where(predicate.Group(containsFold(group.FieldName, query)))
	}
	return newestFirst(ctx, w, q)
}

func (r reader) GroupMember(ctx context.Context, tenant, id uuid.UUID) (*ent.GroupMember, error) {
	return found(r.c.GroupMember.Query().
		Where(groupmember.ID(id), groupmember.HasGroupWith(group.OrganizationID(tenant))).Only(ctx))
}

func (r reader) MemberOfGroup(ctx context.Context, groupID, id uuid.UUID) (*ent.GroupMember, error) {
	return found(r.c.GroupMember.Query().Where(groupmember.ID(id), groupmember.GroupID(groupID)).Only(ctx))
}

func (r reader) GroupMembers(ctx context.Context, groupID uuid.UUID) ([]*ent.GroupMember, error) {
	return found(r.c.GroupMember.Query().Where(groupmember.GroupID(groupID)).Order(groupmember.ByID()).All(ctx))
}

func (r reader) GroupMembership(ctx context.Context, g *ent.Group, kind base.Kind, baseID, ownedBy uuid.UUID) (*ent.GroupMember, error) {
	return found(r.c.GroupMember.Query().Where(groupmember.GroupID(g.ID), groupmember.KindEQ(groupmember.Kind(kind)),
		groupmember.HasBaseWith(base.ID(baseID), base.OrganizationID(g.OrganizationID), base.DeletedAtIsNil(), listed(ownedBy))).
		Only(ctx))
}

func (t *dbTx) CreateGroup(ctx context.Context, g *ent.Group) (*ent.Group, error) {
	return found(t.c.Group.Create().SetOrganizationID(g.OrganizationID).SetName(g.Name).SetDescription(g.Description).
		SetCreatedAt(g.CreatedAt).SetUpdatedAt(g.UpdatedAt).Save(ctx))
}

func (t *dbTx) UpdateGroup(ctx context.Context, g *ent.Group, name, description *string, at time.Time) (*ent.Group, error) {
	return found(t.c.Group.UpdateOne(g).SetNillableName(name).SetNillableDescription(description).SetUpdatedAt(at).Save(ctx))
}

func (t *dbTx) LockGroup(ctx context.Context, tenant, id uuid.UUID) (*ent.Group, error) {
	q := t.group(tenant, id)
	if t.dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	return found(q.Only(ctx))
}

func (t *dbTx) DeleteGroup(ctx context.Context, g *ent.Group) error {
	return classify(t.c.Group.DeleteOne(g).Exec(ctx))
}

func (t *dbTx) AddToGroup(ctx context.Context, m *ent.GroupMember) (*ent.GroupMember, error) {
	return found(t.c.GroupMember.Create().SetGroupID(m.GroupID).SetBaseID(m.BaseID).SetKind(m.Kind).
		SetCreatedAt(m.CreatedAt).Save(ctx))
}

func (t *dbTx) RemoveFromGroup(ctx context.Context, m *ent.GroupMember) error {
	return classify(t.c.GroupMember.DeleteOne(m).Exec(ctx))
}

func (t *dbTx) KeepLive(ctx context.Context, baseID uuid.UUID) (bool, error) {
	q := t.c.Base.Query().Where(base.ID(baseID), base.DeletedAtIsNil())
	if t.dialect == dialect.Postgres {
		q = q.ForShare()
	}
	return found(q.Exist(ctx))
}
