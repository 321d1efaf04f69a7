package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/storage"
)

// This file is the administration of an organization: its members and
// their roles, and its API keys (docs/endpoints.md, "Members and keys").
// The Service's methods act for an admin of the caller's tenant, the
// Operator's for whoever holds the database; both go through the same
// functions, which write each change's `edited` audit event of kind member
// or key, naming the caller or, with no principal, the operator.

// Member is a user's membership of an organization. ID is the
// membership's own id: it lasts as long as the membership, whatever role
// changes, and orders the members list. REST names a member by user id and
// shows no other, so it is not encoded.
type Member struct {
	ID        uuid.UUID  `json:"-"`
	User      User       `json:"user"`
	Role      authz.Role `json:"role"`
	CreatedAt time.Time  `json:"createdAt"`
}

// MemberInput adds the user with Email to the organization with Role. The
// email is compared lower-cased; Name is the name of a user created for it.
type MemberInput struct {
	Email string
	Name  string
	Role  authz.Role
}

// KeyRequest is a key an admin creates: an organization key, or with
// UserID a key of that member. Name is required.
type KeyRequest struct {
	Name      string
	Scope     authz.Scope
	UserID    *uuid.UUID
	ExpiresAt *time.Time
}

func memberOf(m *ent.Membership) Member {
	return Member{ID: m.ID, User: *memberUser(m), Role: authz.Role(m.Role), CreatedAt: m.CreatedAt}
}

// memberUser is a member's user as the organization sees it: with the name
// the membership carries, not the user's own.
func memberUser(m *ent.Membership) *User {
	return &User{ID: m.Edges.User.ID, Email: m.Edges.User.Email, Name: m.Name}
}

// adminChange records an administrative change of the tenant in the
// transaction that makes it, as done by actor, or by the operator when
// actor is nil.
func (s *Service) adminChange(ctx context.Context, tx storage.Tx, tenant uuid.UUID, actor *Principal, kind auditevent.Kind, details map[string]any) error {
	return s.appendEvents(ctx, tx, event{tenant: tenant, action: auditevent.ActionEdited,
		kind: kind, actor: actor, details: details})
}

// Members lists the members of the caller's organization, newest first
// (GET /admin/members). Query filters by a part of the email or name.
func (s *Service) Members(ctx context.Context, o ListOptions) (*Page[Member], error) {
	p, err := s.allowed(ctx, authz.ActionManageMembers, authz.KindMember)
	if err != nil {
		return nil, err
	}
	return s.listMembers(ctx, p.TenantID, o)
}

// Member loads a membership of the caller's organization by its id, as
// those who may list the members may; another tenant's is not found.
func (s *Service) Member(ctx context.Context, id uuid.UUID) (*Member, error) {
	p, err := s.allowed(ctx, authz.ActionManageMembers, authz.KindMember)
	if err != nil {
		return nil, err
	}
	m, err := s.store.Membership(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "member", id)
	}
	out := memberOf(m)
	return &out, nil
}

// User loads a member of the caller's organization by user id, as those
// who may list the members may: an organization knows users only as its
// members, so another tenant's user, or a former member, is not found.
// Every caller may read their own user, as Viewer shows it; other members
// show the name their membership carries.
func (s *Service) User(ctx context.Context, id uuid.UUID) (*User, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	action, kind := authz.ActionManageMembers, authz.KindMember
	if p.UserID != uuid.Nil && id == p.UserID {
		action, kind = authz.ActionView, authz.KindOrganization
	}
	if err := s.authorizeOnTenant(ctx, p, action, kind); err != nil {
		return nil, err
	}
	m, err := tenantMember(ctx, s.store, p.TenantID, memberWithID(id))
	if err != nil {
		return nil, err
	}
	// Callers reading themselves too: an admin may hold a key made for a
	// member, and must not learn through it the name another organization,
	// or the user, gave.
	return memberUser(m), nil
}

// AddMember gives a user a role in the caller's organization, creating the
// user when no user has the email (POST /admin/members).
func (s *Service) AddMember(ctx context.Context, in MemberInput) (*Member, error) {
	if err := checkMember(&in); err != nil {
		return nil, err
	}
	p, err := s.allowed(ctx, authz.ActionManageMembers, authz.KindMember)
	if err != nil {
		return nil, err
	}
	return s.addMember(ctx, p, p.TenantID, in, true)
}

// SetMemberRole changes a member's role (PUT /admin/members/{userId}).
// The organization's last admin keeps the role.
func (s *Service) SetMemberRole(ctx context.Context, userID uuid.UUID, role authz.Role) (*Member, error) {
	if !validRole(role) {
		return nil, errBadRole
	}
	p, err := s.allowed(ctx, authz.ActionManageMembers, authz.KindMember)
	if err != nil {
		return nil, err
	}
	return s.setRole(ctx, p, p.TenantID, memberWithID(userID), role)
}

// RemoveMember takes a user out of the caller's organization (DELETE
// /admin/members/{userId}) and revokes the user's keys made in it, so they
// stop working at once (see Authenticate for other instances). The last
// admin cannot be removed.
func (s *Service) RemoveMember(ctx context.Context, userID uuid.UUID) error {
	p, err := s.allowed(ctx, authz.ActionManageMembers, authz.KindMember)
	if err != nil {
		return err
	}
	_, err = s.removeMember(ctx, p, p.TenantID, memberWithID(userID))
	return err
}

// Keys lists the keys of the caller's organization, revoked ones too,
// newest first (GET /admin/keys). Query filters by a part of the name.
func (s *Service) Keys(ctx context.Context, o ListOptions) (*Page[Key], error) {
	p, err := s.allowed(ctx, authz.ActionManageKeys, authz.KindKey)
	if err != nil {
		return nil, err
	}
	return s.listKeys(ctx, p.TenantID, o)
}

// Key loads a key of the caller's organization by its id, revoked or not,
// as those who may list the keys may; another tenant's is not found. Every
// caller may read the key they call with, as Viewer shows it.
func (s *Service) Key(ctx context.Context, id uuid.UUID) (*Key, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	action, kind := authz.ActionManageKeys, authz.KindKey
	if id == p.KeyID {
		action, kind = authz.ActionView, authz.KindOrganization
	}
	if err := s.authorizeOnTenant(ctx, p, action, kind); err != nil {
		return nil, err
	}
	k, err := s.store.Key(ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound) || err == nil && k.OrganizationID != p.TenantID:
		return nil, newError(CodeNotFound, "no key %s", id)
	case err != nil:
		return nil, unavailable(err)
	}
	out := keyOf(k)
	return &out, nil
}

// CreateKey creates a key of the caller's organization and returns its
// secret, shown this once (POST /admin/keys). A UserID that is not a member
// is not found.
func (s *Service) CreateKey(ctx context.Context, in KeyRequest) (*CreatedKey, error) {
	p, err := s.allowed(ctx, authz.ActionManageKeys, authz.KindKey)
	if err != nil {
		return nil, err
	}
	spec := keySpec{name: in.Name, scope: in.Scope, expiresAt: in.ExpiresAt}
	if in.UserID != nil {
		owner := memberWithID(*in.UserID)
		spec.owner = &owner
	}
	return s.createKey(ctx, p, p.TenantID, spec)
}

// RevokeKey revokes a key of the caller's organization (DELETE
// /admin/keys/{keyId}); it stays stored, and listed, for the audit trail.
func (s *Service) RevokeKey(ctx context.Context, id uuid.UUID) error {
	p, err := s.allowed(ctx, authz.ActionManageKeys, authz.KindKey)
	if err != nil {
		return err
	}
	return s.revokeKey(ctx, p, id, &p.TenantID)
}

var errBadRole = Invalid("role must be viewer, editor, publisher, admin or auditor")

func checkMember(in *MemberInput) error {
	if !validRole(in.Role) {
		return errBadRole
	}
	if err := checkName("name", in.Name); err != nil {
		return err
	}
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return err
	}
	in.Email = email
	return nil
}

func (s *Service) listMembers(ctx context.Context, tenant uuid.UUID, o ListOptions) (*Page[Member], error) {
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if name := o.groupFilter(); name != "" {
		return nil, Invalid("%s does not filter members", name)
	}
	read := func(w storage.Window) ([]*ent.Membership, *int, error) {
		return s.store.Members(ctx, tenant, o.Query, w)
	}
	return readPage(list{kind: memberList}, o, limit, read, memberOf, func(m Member) uuid.UUID { return m.ID })
}

// addMember gives the user with in.Email (checked by checkMember) a role
// in the tenant; with create, a missing user is created, else not found.
func (s *Service) addMember(ctx context.Context, actor *Principal, tenant uuid.UUID, in MemberInput, create bool) (*Member, error) {
	var out *ent.Membership
	err := s.inTx(ctx, func(tx storage.Tx) error {
		var err error
		out, err = s.addMemberTx(ctx, tx, actor, tenant, in, create)
		return err
	})
	if err != nil {
		return nil, err
	}
	m := memberOf(out)
	return &m, nil
}

// addMemberTx is addMember within tx, which also serves the bootstrap. A
// new membership changes no key: a user's keys act only in the
// organizations they were made in.
func (s *Service) addMemberTx(ctx context.Context, tx storage.Tx, actor *Principal, tenant uuid.UUID, in MemberInput, create bool) (*ent.Membership, error) {
	var u *ent.User
	var err error
	if create {
		// Another organization may be adding the same new user at this
		// moment: the user is then the one it creates.
		u, err = tx.FindOrCreateUser(ctx, in.Email, in.Name)
	} else {
		u, err = tx.UserByEmail(ctx, in.Email)
	}
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, newError(CodeNotFound, "no user has the email %s", engine.Quoted(in.Email))
	case err != nil:
		return nil, unavailable(err)
	}
	// An admin names the member as they like, and learns nothing of the
	// user's own name; the operator, who sees every user, passes it on.
	name := in.Name
	if actor == nil && name == "" {
		name = u.Name
	}
	now := s.timestamp()
	m, err := tx.CreateMembership(ctx, &ent.Membership{UserID: u.ID, OrganizationID: tenant,
		Role: membership.Role(in.Role), Name: name, CreatedAt: now})
	if err != nil {
		return nil, storeErr(err, "the user is a member of that organization already")
	}
	m.Edges.User = u
	return m, s.adminChange(ctx, tx, tenant, actor, auditevent.KindMember, map[string]any{
		"change": "added", "userId": u.ID, "email": u.Email, "role": in.Role})
}

// memberRef names a member of a tenant: by user id for the API, by email
// for the operator, and says so when there is no such member.
type memberRef struct {
	storage.MemberRef
	missing string
}

func memberWithID(userID uuid.UUID) memberRef {
	return memberRef{MemberRef: storage.MemberRef{UserID: userID},
		missing: fmt.Sprintf("user %s is not a member of this organization", userID)}
}

// memberWithEmail names a member by an email normalizeEmail gave.
func memberWithEmail(email string) memberRef {
	return memberRef{MemberRef: storage.MemberRef{Email: email},
		missing: email + " is not a member of that organization"}
}

// tenantMember finds a member of the tenant, with the user.
func tenantMember(ctx context.Context, in storage.Identity, tenant uuid.UUID, who memberRef) (*ent.Membership, error) {
	m, err := in.Member(ctx, tenant, who.MemberRef)
	if err != nil {
		return nil, memberErr(err, who)
	}
	return m, nil
}

// memberErr is the error of finding or changing who: a member who is not
// there (removed meanwhile) is not found.
func memberErr(err error, who memberRef) error {
	if errors.Is(err, storage.ErrNotFound) {
		return newError(CodeNotFound, "%s", who.missing)
	}
	return unavailable(err)
}

// keepsAnAdmin refuses to take the admin role from m when it is the
// tenant's last admin. m must have been read after tx.LockRoles, so that
// its role and the count are what the last change of role left.
func keepsAnAdmin(ctx context.Context, tx storage.Tx, m *ent.Membership) error {
	if m.Role != membership.RoleAdmin {
		return nil
	}
	admins, err := tx.CountAdmins(ctx, m.OrganizationID)
	if err != nil {
		return unavailable(err)
	}
	if admins <= 1 {
		return newError(CodeConflict, "%s is the organization's last admin; make another member admin first", m.Edges.User.Email)
	}
	return nil
}

// lockedMember takes the tenant's roles (see storage.Tx.LockRoles) and
// then reads who: the role read is the current one, and stays so until
// tx ends.
func lockedMember(ctx context.Context, tx storage.Tx, tenant uuid.UUID, who memberRef) (*ent.Membership, error) {
	if err := tx.LockRoles(ctx, tenant); err != nil {
		return nil, unavailable(err)
	}
	return tenantMember(ctx, tx, tenant, who)
}

func (s *Service) setRole(ctx context.Context, actor *Principal, tenant uuid.UUID, who memberRef, role authz.Role) (*Member, error) {
	var out *ent.Membership
	err := s.inRolesTx(ctx, func(tx storage.Tx) error {
		m, err := lockedMember(ctx, tx, tenant, who)
		if err != nil {
			return err
		}
		if role != authz.RoleAdmin {
			if err := keepsAnAdmin(ctx, tx, m); err != nil {
				return err
			}
		}
		from := m.Role
		u := m.Edges.User
		if from == membership.Role(role) {
			// Nothing changes, so nothing is announced or recorded.
			out = m
			return nil
		}
		if m, err = tx.SetRole(ctx, m, membership.Role(role)); err != nil {
			return memberErr(err, who)
		}
		out = m
		// Principals carry the role.
		if err := s.announce(ctx, tx, memberChange(tenant, u.ID)); err != nil {
			return err
		}
		return s.adminChange(ctx, tx, tenant, actor, auditevent.KindMember, map[string]any{
			"change": "role", "userId": u.ID, "email": u.Email, "from": from, "to": role})
	})
	if err != nil {
		return nil, err
	}
	m := memberOf(out)
	return &m, nil
}

// removeMember returns the membership as it was before its removal.
func (s *Service) removeMember(ctx context.Context, actor *Principal, tenant uuid.UUID, who memberRef) (*Member, error) {
	var out *ent.Membership
	err := s.inRolesTx(ctx, func(tx storage.Tx) error {
		m, err := lockedMember(ctx, tx, tenant, who)
		if err != nil {
			return err
		}
		if err := keepsAnAdmin(ctx, tx, m); err != nil {
			return err
		}
		if err := tx.DeleteMembership(ctx, m); err != nil {
			return memberErr(err, who)
		}
		now := s.timestamp()
		revoked, err := tx.RevokeUserKeys(ctx, tenant, m.UserID, now)
		if err != nil {
			return unavailable(err)
		}
		out = m
		if err := s.announce(ctx, tx, memberChange(tenant, m.UserID)); err != nil {
			return err
		}
		return s.adminChange(ctx, tx, tenant, actor, auditevent.KindMember, map[string]any{
			"change": "removed", "userId": m.UserID, "email": m.Edges.User.Email, "role": m.Role, "keysRevoked": revoked})
	})
	if err != nil {
		return nil, err
	}
	m := memberOf(out)
	return &m, nil
}

func (s *Service) listKeys(ctx context.Context, tenant uuid.UUID, o ListOptions) (*Page[Key], error) {
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if name := o.groupFilter(); name != "" {
		return nil, Invalid("%s does not filter keys", name)
	}
	read := func(w storage.Window) ([]*ent.APIKey, *int, error) { return s.store.Keys(ctx, tenant, o.Query, w) }
	return readPage(list{kind: keyList}, o, limit, read, keyOf, func(k Key) uuid.UUID { return k.ID })
}

// keySpec is a key to create in a tenant: an organization key, or with
// owner a key of that member.
type keySpec struct {
	name      string
	scope     authz.Scope
	expiresAt *time.Time
	owner     *memberRef
}

// createKey makes a key in the tenant, for the API and the operator alike:
// every key has a name, to tell it apart in lists, and a user's key needs
// the user to be a member there.
func (s *Service) createKey(ctx context.Context, actor *Principal, tenant uuid.UUID, in keySpec) (*CreatedKey, error) {
	if strings.TrimSpace(in.name) == "" {
		return nil, Invalid("name is required")
	}
	if err := checkName("name", in.name); err != nil {
		return nil, err
	}
	if !validScope(in.scope) {
		return nil, Invalid("scope must be view, edit, publish or admin")
	}
	var expires *time.Time
	if in.expiresAt != nil {
		if !in.expiresAt.After(s.now()) {
			return nil, Invalid("the expiry %s is not in the future", in.expiresAt.UTC().Format(time.RFC3339))
		}
		t := in.expiresAt.UTC().Truncate(time.Microsecond)
		// An offset can carry a time written in year 9999 into year 10000
		// in UTC, which the stored key and its event cannot write.
		if t.After(lastWrittenTime) {
			return nil, Invalid("the expiry %s is later than the last moment of year 9999 in UTC", in.expiresAt.Format(time.RFC3339Nano))
		}
		expires = &t
	}
	secret := newSecret()
	var key *ent.APIKey
	err := s.inTx(ctx, func(tx storage.Tx) error {
		var owner *uuid.UUID
		if in.owner != nil {
			// Locked, so that a removal of the member at this moment either
			// comes first (the member is not found) or revokes this key too.
			m, err := tx.LockMember(ctx, tenant, in.owner.MemberRef)
			if err != nil {
				return memberErr(err, *in.owner)
			}
			owner = &m.UserID
		}
		var err error
		if key, err = insertKey(ctx, tx, tenant, owner, in.name, in.scope, expires, secret); err != nil {
			return storeErr(err, "key collision; try again")
		}
		return s.keyCreated(ctx, tx, actor, key)
	})
	if err != nil {
		return nil, err
	}
	return &CreatedKey{Key: keyOf(key), Secret: secret}, nil
}

// keyCreated follows a key's insertion in tx, for createKey and the
// bootstrap alike: it announces the key, which may have been tried and
// remembered as unknown, and records its creation.
func (s *Service) keyCreated(ctx context.Context, tx storage.Tx, actor *Principal, key *ent.APIKey) error {
	if err := s.announce(ctx, tx, keyChange(key)); err != nil {
		return err
	}
	k := keyOf(key)
	return s.adminChange(ctx, tx, key.OrganizationID, actor, auditevent.KindKey, map[string]any{
		"change": "created", "keyId": k.ID, "name": k.Name, "scope": k.Scope, "owner": k.Owner, "expiresAt": k.ExpiresAt})
}

// revokeKey revokes the active key with the id, of the tenant unless nil.
func (s *Service) revokeKey(ctx context.Context, actor *Principal, id uuid.UUID, tenant *uuid.UUID) error {
	err := s.inRolesTx(ctx, func(tx storage.Tx) error {
		k, err := tx.Key(ctx, id)
		switch {
		case errors.Is(err, storage.ErrNotFound) || err == nil && (k.RevokedAt != nil || tenant != nil && k.OrganizationID != *tenant):
			return newError(CodeNotFound, "no active key %s", id)
		case err != nil:
			return unavailable(err)
		}
		// The operator names no tenant: the revocation still waits for
		// the changes the key's holder is making.
		if err := tx.LockRoles(ctx, k.OrganizationID); err != nil {
			return unavailable(err)
		}
		now := s.timestamp()
		revoked, err := tx.RevokeKey(ctx, k, now)
		switch {
		case err != nil:
			return unavailable(err)
		case !revoked:
			return newError(CodeNotFound, "no active key %s", id)
		}
		if err := s.announce(ctx, tx, keyChange(k)); err != nil {
			return err
		}
		return s.adminChange(ctx, tx, k.OrganizationID, actor, auditevent.KindKey, map[string]any{
			"change": "revoked", "keyId": k.ID, "name": k.Name})
	})
	return err
}

// memberChange is the announcement of a change to a user's membership of
// a tenant: its role, or its end.
func memberChange(tenant, userID uuid.UUID) changefeed.Change {
	return changefeed.Change{Kind: changefeed.KindMember, Tenant: tenant, ID: userID}
}

// keyChange is the announcement of a key created or revoked.
func keyChange(k *ent.APIKey) changefeed.Change {
	return changefeed.Change{Kind: changefeed.KindKey, Tenant: k.OrganizationID, ID: k.ID}
}
