package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/organization"
	"github.com/verdict/verdict/ent/user"
)

// Operator performs administration for whoever holds the database itself:
// the `verdict admin` commands and the bootstrap at start. It has no
// principal and asks no authorizer; API callers go through the Service's
// own methods instead.
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

// AddMember gives the user with that email a role in an organization.
func (o *Operator) AddMember(ctx context.Context, org uuid.UUID, email string, role authz.Role) error {
	if !validRole(role) {
		return Invalid("role must be viewer, editor, publisher, admin or auditor")
	}
	email, err := normalizeEmail(email)
	if err != nil {
		return err
	}
	u, err := o.s.client.User.Query().Where(user.Email(email)).Only(ctx)
	if err != nil {
		return storeErr(err, "")
	}
	err = o.s.client.Membership.Create().SetUserID(u.ID).SetOrganizationID(org).
		SetRole(membership.Role(role)).Exec(ctx)
	o.s.forgetPrincipals()
	return storeErr(err, "the user is a member of that organization already")
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

// CreateKey creates a key and returns its secret, shown once.
func (o *Operator) CreateKey(ctx context.Context, in KeyInput) (*CreatedKey, error) {
	if !validScope(in.Scope) {
		return nil, Invalid("scope must be view, edit, publish or admin")
	}
	var userID *uuid.UUID
	if in.UserEmail != "" {
		email, err := normalizeEmail(in.UserEmail)
		if err != nil {
			return nil, err
		}
		m, err := o.s.client.Membership.Query().
			Where(membership.OrganizationID(in.Organization), membership.HasUserWith(user.Email(email))).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, newError(CodeNotFound, "%s is not a member of that organization", email)
		} else if err != nil {
			return nil, unavailable(err)
		}
		userID = &m.UserID
	}
	secret := newSecret()
	var key *ent.APIKey
	err := o.s.withTx(ctx, func(tx *ent.Tx) error {
		var err error
		key, err = insertKey(ctx, tx, in.Organization, userID, in.Name, in.Scope, in.ExpiresAt, secret)
		return storeErr(err, "key collision; try again")
	})
	if err != nil {
		return nil, err
	}
	return &CreatedKey{Key: keyOf(key), Secret: secret}, nil
}

// RevokeKey revokes a key; it stays stored for the audit trail.
func (o *Operator) RevokeKey(ctx context.Context, id uuid.UUID) error {
	n, err := o.s.client.APIKey.Update().Where(apikey.ID(id), apikey.RevokedAtIsNil()).
		SetRevokedAt(o.s.timestamp()).Save(ctx)
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return newError(CodeNotFound, "no active key %s", id)
	}
	o.s.forgetPrincipals()
	return nil
}
