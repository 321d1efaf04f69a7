package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/organization"
	"github.com/verdict/verdict/ent/user"
)

// Operator performs administration for whoever holds the database itself:
// the `verdict admin` commands and the bootstrap at start. It has no
// principal and asks no authorizer; API callers go through the Service's
// own methods instead. Where both offer an operation they share its code
// (admin.go); the operator's changes write no audit events.
type Operator struct{ s *Service }

// Operator returns the operator's view of the service.
func (s *Service) Operator() *Operator { return &Operator{s: s} }

// BootstrapInput names the first organization, its admin and, optionally,
// the admin's key (at least MinKeyLength characters); empty makes one.
type BootstrapInput struct {
	Organization string
	Email        string
	Name         string
	Key          string
}

// Bootstrapped is what a bootstrap created. Secret is shown once.
type Bootstrapped struct {
	Organization *Organization
	User         *User
	Key          Key
	Secret       string
}

// Bootstrap creates an organization, its first admin (or makes an existing
// user its admin) and an admin-scoped key for that admin, in one
// transaction.
func (o *Operator) Bootstrap(ctx context.Context, in BootstrapInput) (*Bootstrapped, error) {
	if in.Organization == "" {
		return nil, Invalid("an organization name is required")
	}
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	secret := in.Key
	if secret == "" {
		secret = newSecret()
	} else if !validOperatorKey(secret) {
		return nil, Invalid("a key must be at least %d characters without surrounding spaces", MinKeyLength)
	}
	var out Bootstrapped
	err = o.s.withTx(ctx, func(tx *ent.Tx) error {
		org, err := tx.Organization.Create().SetName(in.Organization).Save(ctx)
		if err != nil {
			return storeErr(err, "an organization named "+in.Organization+" exists already")
		}
		u, err := findOrCreateUser(ctx, tx, email, in.Name)
		if err != nil {
			return err
		}
		if err := tx.Membership.Create().SetUserID(u.ID).SetOrganizationID(org.ID).
			SetRole(membership.RoleAdmin).Exec(ctx); err != nil {
			return storeErr(err, "the user is a member already")
		}
		key, err := insertKey(ctx, tx, org.ID, &u.ID, "bootstrap", authz.ScopeAdmin, nil, secret)
		if err != nil {
			return storeErr(err, "that key is in use already")
		}
		out = Bootstrapped{Organization: organizationOf(org), User: userOf(u), Key: keyOf(key), Secret: secret}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// BootstrapIfEmpty bootstraps a Default organization with admin@localhost
// when the database has no organization yet, and returns nil otherwise
// (also when another instance bootstrapped at the same moment).
func (o *Operator) BootstrapIfEmpty(ctx context.Context, key string) (*Bootstrapped, error) {
	exists, err := o.s.client.Organization.Query().Exist(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	if exists {
		return nil, nil
	}
	b, err := o.Bootstrap(ctx, BootstrapInput{Organization: "Default", Email: "admin@localhost", Name: "Administrator", Key: key})
	if CodeOf(err) == CodeConflict {
		return nil, nil
	}
	return b, err
}

func findOrCreateUser(ctx context.Context, tx *ent.Tx, email, name string) (*ent.User, error) {
	u, err := tx.User.Query().Where(user.Email(email)).Only(ctx)
	switch {
	case err == nil:
		return u, nil
	case !ent.IsNotFound(err):
		return nil, unavailable(err)
	}
	u, err = tx.User.Create().SetEmail(email).SetName(name).Save(ctx)
	return u, storeErr(err, "a user with that email exists already")
}

// CreateOrganization creates an empty organization.
func (o *Operator) CreateOrganization(ctx context.Context, name string) (*Organization, error) {
	if name == "" {
		return nil, Invalid("an organization name is required")
	}
	org, err := o.s.client.Organization.Create().SetName(name).Save(ctx)
	if err != nil {
		return nil, storeErr(err, "an organization named "+name+" exists already")
	}
	return organizationOf(org), nil
}

// Organizations lists every organization, oldest first.
func (o *Operator) Organizations(ctx context.Context) ([]*Organization, error) {
	orgs, err := o.s.client.Organization.Query().Order(ent.Asc(organization.FieldCreatedAt)).All(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	out := make([]*Organization, len(orgs))
	for i, org := range orgs {
		out[i] = organizationOf(org)
	}
	return out, nil
}

// CreateUser creates a user.
func (o *Operator) CreateUser(ctx context.Context, email, name string) (*User, error) {
	email, err := normalizeEmail(email)
	if err != nil {
		return nil, err
	}
	u, err := o.s.client.User.Create().SetEmail(email).SetName(name).Save(ctx)
	if err != nil {
		return nil, storeErr(err, "a user with that email exists already")
	}
	return userOf(u), nil
}

// AddMember gives the existing user with that email a role in an
// organization.
func (o *Operator) AddMember(ctx context.Context, org uuid.UUID, email string, role authz.Role) error {
	in := MemberInput{Email: email, Role: role}
	if err := checkMember(&in); err != nil {
		return err
	}
	_, err := o.s.addMember(ctx, nil, org, in, false)
	return err
}

// Members lists the members of an organization, newest first.
func (o *Operator) Members(ctx context.Context, org uuid.UUID, opts ListOptions) (*Page[Member], error) {
	return o.s.listMembers(ctx, org, opts)
}

// SetMemberRole changes the role of the member with that email; the last
// admin keeps the role.
func (o *Operator) SetMemberRole(ctx context.Context, org uuid.UUID, email string, role authz.Role) (*Member, error) {
	if !validRole(role) {
		return nil, errBadRole
	}
	id, err := o.memberID(ctx, org, email)
	if err != nil {
		return nil, err
	}
	return o.s.setRole(ctx, nil, org, id, role)
}

// RemoveMember takes the member with that email out of an organization
// and revokes the member's keys made there; the last admin stays.
func (o *Operator) RemoveMember(ctx context.Context, org uuid.UUID, email string) error {
	id, err := o.memberID(ctx, org, email)
	if err != nil {
		return err
	}
	return o.s.removeMember(ctx, nil, org, id)
}

// Keys lists the keys of an organization, revoked ones too, newest first.
func (o *Operator) Keys(ctx context.Context, org uuid.UUID, opts ListOptions) (*Page[Key], error) {
	return o.s.listKeys(ctx, org, opts)
}

// memberID is the user id of the member of org with that email.
func (o *Operator) memberID(ctx context.Context, org uuid.UUID, email string) (uuid.UUID, error) {
	email, err := normalizeEmail(email)
	if err != nil {
		return uuid.Nil, err
	}
	m, err := o.s.client.Membership.Query().
		Where(membership.OrganizationID(org), membership.HasUserWith(user.Email(email))).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return uuid.Nil, newError(CodeNotFound, "%s is not a member of that organization", email)
	case err != nil:
		return uuid.Nil, unavailable(err)
	}
	return m.UserID, nil
}

// KeyInput describes a key to create: an organization key, or a user key
// when UserEmail is set (the user must be a member of the organization).
type KeyInput struct {
	Organization uuid.UUID
	UserEmail    string
	Name         string
	Scope        authz.Scope
	ExpiresAt    *time.Time
}

// CreateKey creates a key and returns its secret, shown once. The expiry,
// when given, must be in the future.
func (o *Operator) CreateKey(ctx context.Context, in KeyInput) (*CreatedKey, error) {
	req := KeyRequest{Name: in.Name, Scope: in.Scope, ExpiresAt: in.ExpiresAt}
	if in.UserEmail != "" {
		id, err := o.memberID(ctx, in.Organization, in.UserEmail)
		if err != nil {
			return nil, err
		}
		req.UserID = &id
	}
	return o.s.createKey(ctx, nil, in.Organization, req)
}

// RevokeKey revokes a key of any organization; it stays stored for the
// audit trail.
func (o *Operator) RevokeKey(ctx context.Context, id uuid.UUID) error {
	return o.s.revokeKey(ctx, nil, id)
}
