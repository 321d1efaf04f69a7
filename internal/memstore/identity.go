package memstore

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/storage"
)

func (r reads) Organization(ctx context.Context, id uuid.UUID) (*ent.Organization, error) {
	o, ok := r.state().orgs[id]
	return copyOf(o, ok)
}

func (r reads) Organizations(ctx context.Context, limit int) ([]*ent.Organization, error) {
	orgs := sorted(r.state().orgs, func(o *ent.Organization) uuid.UUID { return o.ID })
	if limit > 0 {
		orgs = orgs[:min(limit, len(orgs))]
	}
	return orgs, nil
}

func (r reads) OrganizationsNamed(ctx context.Context, id *uuid.UUID, name string) ([]*ent.Organization, error) {
	var out []*ent.Organization
	for _, o := range sorted(r.state().orgs, func(o *ent.Organization) uuid.UUID { return o.ID }) {
		if o.Name == name || id != nil && o.ID == *id {
			out = append(out, o)
		}
	}
	return out, nil
}

func (r reads) UserByEmail(ctx context.Context, email string) (*ent.User, error) {
	return only(r.state().users, func(u *ent.User) bool { return u.Email == email })
}

func (r reads) Membership(ctx context.Context, tenant, id uuid.UUID) (*ent.Membership, error) {
	return r.member(func(m *ent.Membership) bool { return m.OrganizationID == tenant && m.ID == id })
}

func (r reads) Member(ctx context.Context, tenant uuid.UUID, who storage.MemberRef) (*ent.Membership, error) {
	st := r.state()
	return r.member(func(m *ent.Membership) bool {
		return m.OrganizationID == tenant &&
			(who.UserID != uuid.Nil && m.UserID == who.UserID || who.UserID == uuid.Nil && st.users[m.UserID].Email == who.Email)
	})
}

// member is the membership match selects, with its user.
func (r reads) member(match func(*ent.Membership) bool) (*ent.Membership, error) {
	m, err := only(r.state().memberships, match)
	if err != nil {
		return nil, err
	}
	return r.withUser(m), nil
}

func (r reads) withUser(m *ent.Membership) *ent.Membership {
	u := *r.state().users[m.UserID]
	m.Edges.User = &u
	return m
}

func (r reads) MembershipOf(ctx context.Context, tenant, userID uuid.UUID) (*ent.Membership, error) {
	return only(r.state().memberships, func(m *ent.Membership) bool { return m.OrganizationID == tenant && m.UserID == userID })
}

func (r reads) Members(ctx context.Context, tenant uuid.UUID, query string, w storage.Window) ([]*ent.Membership, *int, error) {
	st := r.state()
	ms, n := window(st.memberships, func(m *ent.Membership) uuid.UUID { return m.ID }, func(m *ent.Membership) bool {
		return m.OrganizationID == tenant && (query == "" || containsFold(st.users[m.UserID].Email, query) || containsFold(m.Name, query))
	}, w)
	for _, m := range ms {
		r.withUser(m)
	}
	return ms, n, nil
}

func (r reads) Key(ctx context.Context, id uuid.UUID) (*ent.APIKey, error) {
	k, ok := r.state().keys[id]
	return copyOf(k, ok)
}

func (r reads) KeyByHash(ctx context.Context, hash string) (*ent.APIKey, error) {
	return only(r.state().keys, func(k *ent.APIKey) bool { return k.Hash == hash })
}

func (r reads) Keys(ctx context.Context, tenant uuid.UUID, query string, w storage.Window) ([]*ent.APIKey, *int, error) {
	ks, n := window(r.state().keys, func(k *ent.APIKey) uuid.UUID { return k.ID }, func(k *ent.APIKey) bool {
		return k.OrganizationID == tenant && (query == "" || containsFold(k.Name, query))
	}, w)
	return ks, n, nil
}

func (t *tx) CreateOrganization(ctx context.Context, name string) (*ent.Organization, error) {
	if _, err := only(t.st.orgs, func(o *ent.Organization) bool { return o.Name == name }); err == nil {
		return nil, storage.ErrConflict
	}
	return store(t.st.orgs, &ent.Organization{Name: name, CreatedAt: time.Now()}, func(o *ent.Organization) *uuid.UUID { return &o.ID })
}

func (t *tx) CreateUser(ctx context.Context, email, name string) (*ent.User, error) {
	if _, err := t.UserByEmail(ctx, email); err == nil {
		return nil, storage.ErrConflict
	}
	// Random, as the database's user ids are: a user's id tells nothing of
	// when the user was created.
	u := &ent.User{ID: uuid.New(), Email: email, Name: name, CreatedAt: time.Now()}
	t.st.users[u.ID] = u
	return copyOf(u, true)
}

func (t *tx) FindOrCreateUser(ctx context.Context, email, name string) (*ent.User, error) {
	if u, err := t.UserByEmail(ctx, email); err == nil {
		return u, nil
	}
	return t.CreateUser(ctx, email, name)
}

func (t *tx) CreateMembership(ctx context.Context, m *ent.Membership) (*ent.Membership, error) {
	if _, err := t.MembershipOf(ctx, m.OrganizationID, m.UserID); err == nil {
		return nil, storage.ErrConflict
	}
	return store(t.st.memberships, m, func(m *ent.Membership) *uuid.UUID { return &m.ID })
}

func (t *tx) SetRole(ctx context.Context, m *ent.Membership, role membership.Role) (*ent.Membership, error) {
	old, ok := t.st.memberships[m.ID]
	if !ok {
		return nil, storage.ErrNotFound
	}
	next := *old
	next.Role = role
	t.st.memberships[m.ID] = &next
	out := next
	out.Edges.User = m.Edges.User
	return &out, nil
}

func (t *tx) DeleteMembership(ctx context.Context, m *ent.Membership) error {
	delete(t.st.memberships, m.ID)
	return nil
}

// LockRoles does nothing: transactions here run one at a time.
func (t *tx) LockRoles(ctx context.Context, tenant uuid.UUID) error { return nil }

// ShareRoles does nothing, as LockRoles.
func (t *tx) ShareRoles(ctx context.Context, tenant uuid.UUID) error { return nil }

func (t *tx) CountAdmins(ctx context.Context, tenant uuid.UUID) (int, error) {
	n := 0
	for _, m := range t.st.memberships {
		if m.OrganizationID == tenant && m.Role == membership.RoleAdmin {
			n++
		}
	}
	return n, nil
}

// LockMember is Member: transactions here run one at a time.
func (t *tx) LockMember(ctx context.Context, tenant uuid.UUID, who storage.MemberRef) (*ent.Membership, error) {
	return t.Member(ctx, tenant, who)
}

func (t *tx) CreateKey(ctx context.Context, k *ent.APIKey) (*ent.APIKey, error) {
	if _, err := t.KeyByHash(ctx, k.Hash); err == nil {
		return nil, storage.ErrConflict
	}
	return store(t.st.keys, &ent.APIKey{OrganizationID: k.OrganizationID, OwnerKind: k.OwnerKind, UserID: k.UserID,
		Name: k.Name, Scope: k.Scope, Prefix: k.Prefix, Hash: k.Hash, ExpiresAt: k.ExpiresAt, CreatedAt: time.Now()},
		func(k *ent.APIKey) *uuid.UUID { return &k.ID })
}

func (t *tx) RevokeKey(ctx context.Context, k *ent.APIKey, at time.Time) (bool, error) {
	old, ok := t.st.keys[k.ID]
	if !ok || old.RevokedAt != nil {
		return false, nil
	}
	t.revoke(old, at)
	return true, nil
}

func (t *tx) revoke(k *ent.APIKey, at time.Time) {
	next := *k
	next.RevokedAt = &at
	t.st.keys[k.ID] = &next
}

func (t *tx) RevokeUserKeys(ctx context.Context, tenant, userID uuid.UUID, at time.Time) (int, error) {
	n := 0
	for _, k := range t.st.keys {
		if k.OrganizationID == tenant && k.UserID != nil && *k.UserID == userID && k.RevokedAt == nil {
			t.revoke(k, at)
			n++
		}
	}
	return n, nil
}

func (t *tx) KeyUsed(ctx context.Context, id uuid.UUID, at time.Time) error {
	old, ok := t.st.keys[id]
	if !ok {
		return storage.ErrNotFound
	}
	next := *old
	next.LastUsedAt = &at
	t.st.keys[id] = &next
	return nil
}
