package storage

import (
	"context"
	stdsql "database/sql"
	"errors"
	"hash/fnv"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/organization"
	"github.com/verdict/verdict/ent/predicate"
	"github.com/verdict/verdict/ent/user"
)

func (r reader) Organization(ctx context.Context, id uuid.UUID) (*ent.Organization, error) {
	return found(r.c.Organization.Get(ctx, id))
}

func (r reader) Organizations(ctx context.Context, limit int) ([]*ent.Organization, error) {
	q := r.c.Organization.Query().Order(ent.Asc(organization.FieldCreatedAt))
	if limit > 0 {
		q = q.Limit(limit)
	}
	return found(q.All(ctx))
}

func (r reader) OrganizationsNamed(ctx context.Context, id *uuid.UUID, name string) ([]*ent.Organization, error) {
	where := organization.Name(name)
	if id != nil {
		where = organization.Or(organization.ID(*id), where)
	}
	return found(r.c.Organization.Query().Where(where).Limit(2).All(ctx))
}

func (r reader) UserByEmail(ctx context.Context, email string) (*ent.User, error) {
	return found(r.c.User.Query().Where(user.Email(email)).Only(ctx))
}

func (r reader) Membership(ctx context.Context, tenant, id uuid.UUID) (*ent.Membership, error) {
	return found(r.memberQuery(tenant, membership.ID(id)).Only(ctx))
}

func (r reader) Member(ctx context.Context, tenant uuid.UUID, who MemberRef) (*ent.Membership, error) {
	return found(r.memberQuery(tenant, who.named()).Only(ctx))
}

// memberQuery selects tenant's memberships that match where, with their
// users.
func (r reader) memberQuery(tenant uuid.UUID, where predicate.Membership) *ent.MembershipQuery {
	return r.c.Membership.Query().Where(membership.OrganizationID(tenant), where).WithUser()
}

// named matches the membership who names.
func (who MemberRef) named() predicate.Membership {
	if who.UserID != uuid.Nil {
		return membership.UserID(who.UserID)
	}
	return membership.HasUserWith(user.Email(who.Email))
}

func (r reader) MembershipOf(ctx context.Context, tenant, userID uuid.UUID) (*ent.Membership, error) {
	return found(r.c.Membership.Query().
		Where(membership.UserID(userID), membership.OrganizationID(tenant)).Only(ctx))
}

func (r reader) Members(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.Membership, *int, error) {
	q := r.c.Membership.Query().Where(membership.OrganizationID(tenant)).WithUser()
	if query != "" {
		q = q.Where(membership.Or(membership.HasUserWith(predicate.User(containsFold(user.FieldEmail, query))), predicate.Membership(containsFold(membership.FieldName, query))))
	}
	return newestFirst(ctx, w, q)
}

func (r reader) Key(ctx context.Context, id uuid.UUID) (*ent.APIKey, error) {
	return found(r.c.APIKey.Get(ctx, id))
}

func (r reader) KeyByHash(ctx context.Context, hash string) (*ent.APIKey, error) {
	return found(r.c.APIKey.Query().Where(apikey.Hash(hash)).Only(ctx))
}

func (r reader) Keys(ctx context.Context, tenant uuid.UUID, query string, w Window) ([]*ent.APIKey, *int, error) {
	q := r.c.APIKey.Query().Where(apikey.OrganizationID(tenant))
	if query != "" {
		q = q.Where(predicate.APIKey(containsFold(apikey.FieldName, query)))
	}
	return newestFirst(ctx, w, q)
}

func (t *dbTx) CreateOrganization(ctx context.Context, name string) (*ent.Organization, error) {
	return found(t.c.Organization.Create().SetName(name).Save(ctx))
}

func (t *dbTx) CreateUser(ctx context.Context, email, name string) (*ent.User, error) {
	return found(t.c.User.Create().SetEmail(email).SetName(name).Save(ctx))
}

func (t *dbTx) FindOrCreateUser(ctx context.Context, email, name string) (*ent.User, error) {
	err := t.c.User.Create().SetEmail(email).SetName(name).
		OnConflictColumns(user.FieldEmail).DoNothing().Exec(ctx)
	// An insertion that did nothing returns no id.
	if err != nil && !errors.Is(err, stdsql.ErrNoRows) {
		return nil, classify(err)
	}
	return t.UserByEmail(ctx, email)
}

func (t *dbTx) CreateMembership(ctx context.Context, m *ent.Membership) (*ent.Membership, error) {
	return found(t.c.Membership.Create().SetUserID(m.UserID).SetOrganizationID(m.OrganizationID).
		SetRole(m.Role).SetName(m.Name).SetCreatedAt(m.CreatedAt).Save(ctx))
}

func (t *dbTx) SetRole(ctx context.Context, m *ent.Membership, role membership.Role) (*ent.Membership, error) {
	u := m.Edges.User
	m, err := t.c.Membership.UpdateOne(m).SetRole(role).Save(ctx)
	if err != nil {
		return nil, classify(err)
	}
	m.Edges.User = u
	return m, nil
}

func (t *dbTx) DeleteMembership(ctx context.Context, m *ent.Membership) error {
	return classify(t.c.Membership.DeleteOne(m).Exec(ctx))
}

func (t *dbTx) LockRoles(ctx context.Context, tenant uuid.UUID) error {
	return t.rolesLock(ctx, "pg_advisory_xact_lock", tenant)
}

func (t *dbTx) ShareRoles(ctx context.Context, tenant uuid.UUID) error {
	return t.rolesLock(ctx, "pg_advisory_xact_lock_shared", tenant)
}

// rolesLockClass is the first key of the advisory locks that hold tenants'
// roles; the second is rolesLockID of the tenant.
const rolesLockClass = 0x76647263 // "vdrc"

// rolesLock takes the tenant's roles with a transaction's advisory lock,
// exclusive or shared as fn says, on PostgreSQL. Advisory locks queue:
// one that waits for holders makes later requests wait behind it. Row
// locks do not, so a FOR SHARE lock on the organization's row, which every
// write takes, let a stream of writes hold off a change of role, or the
// revocation of a key whose holder kept writing, until it timed out.
func (t *dbTx) rolesLock(ctx context.Context, fn string, tenant uuid.UUID) error {
	if t.dialect != dialect.Postgres {
		return nil
	}
	_, err := t.tx.ExecContext(ctx, "SELECT "+fn+"($1, $2)", rolesLockClass, rolesLockID(tenant))
	return classify(err)
}

// rolesLockID is a tenant's key among the roles' advisory locks: two tenants
// with the same key only wait for each other's changes of role.
func rolesLockID(tenant uuid.UUID) int32 {
	h := fnv.New32a()
	h.Write(tenant[:])
	return int32(h.Sum32())
}

func (t *dbTx) CountAdmins(ctx context.Context, tenant uuid.UUID) (int, error) {
	n, err := t.c.Membership.Query().
		Where(membership.OrganizationID(tenant), membership.RoleEQ(membership.RoleAdmin)).Count(ctx)
	return n, classify(err)
}

func (t *dbTx) LockMember(ctx context.Context, tenant uuid.UUID, who MemberRef) (*ent.Membership, error) {
	q := t.memberQuery(tenant, who.named())
	if t.dialect == dialect.Postgres {
		q = q.ForShare()
	}
	return found(q.Only(ctx))
}

func (t *dbTx) CreateKey(ctx context.Context, k *ent.APIKey) (*ent.APIKey, error) {
	return found(t.c.APIKey.Create().
		SetOrganizationID(k.OrganizationID).
		SetOwnerKind(k.OwnerKind).
		SetNillableUserID(k.UserID).
		SetName(k.Name).
		SetScope(k.Scope).
		SetPrefix(k.Prefix).
		SetHash(k.Hash).
		SetNillableExpiresAt(k.ExpiresAt).
		Save(ctx))
}

func (t *dbTx) RevokeKey(ctx context.Context, k *ent.APIKey, at time.Time) (bool, error) {
	return changed(t.c.APIKey.Update().Where(apikey.ID(k.ID), apikey.RevokedAtIsNil()).SetRevokedAt(at).Save(ctx))
}

func (t *dbTx) RevokeUserKeys(ctx context.Context, tenant, userID uuid.UUID, at time.Time) (int, error) {
	return found(t.c.APIKey.Update().
		Where(apikey.OrganizationID(tenant), apikey.UserID(userID), apikey.RevokedAtIsNil()).
		SetRevokedAt(at).Save(ctx))
}

func (t *dbTx) KeyUsed(ctx context.Context, id uuid.UUID, at time.Time) error {
	return classify(t.c.APIKey.UpdateOneID(id).SetLastUsedAt(at).Exec(ctx))
}
