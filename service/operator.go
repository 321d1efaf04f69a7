package service

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/storage"
)

// Operator performs administration for whoever holds the database itself:
// the `verdict admin` commands and the bootstrap at start. It has no
// principal and asks no authorizer; API callers go through the Service's
// own methods instead. Where both offer an operation they share its code
// (admin.go), and with it the audit event each change of a member or a key
// writes, whose actor is then the operator (ActorOperator, OperatorID).
// Organizations and users are not audited: an organization is created
// empty, its log starting with the members and keys given to it, and a
// user belongs to no organization's log until made a member.
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
// transaction, with the audit events of the member added and the key
// created.
func (o *Operator) Bootstrap(ctx context.Context, in BootstrapInput) (*Bootstrapped, error) {
	if err := checkOrganizationName(in.Organization); err != nil {
		return nil, err
	}
	admin := MemberInput{Email: in.Email, Name: in.Name, Role: authz.RoleAdmin}
	if err := checkMember(&admin); err != nil {
		return nil, err
	}
	secret := in.Key
	if secret == "" {
		secret = newSecret()
	} else if err := CheckOperatorKey(secret); err != nil {
		return nil, err
	}
	var out Bootstrapped
	err := o.s.inTx(ctx, func(tx storage.Tx) error {
		org, err := tx.CreateOrganization(ctx, in.Organization)
		if err != nil {
			return storeErr(err, "an organization named "+in.Organization+" exists already")
		}
		m, err := o.s.addMemberTx(ctx, tx, nil, org.ID, admin, true)
		if err != nil {
			return err
		}
		u := m.Edges.User
		key, err := insertKey(ctx, tx, org.ID, &u.ID, "bootstrap", authz.ScopeAdmin, nil, secret)
		if err != nil {
			return storeErr(err, "that key is in use already")
		}
		out = Bootstrapped{Organization: organizationOf(org), User: userOf(u), Key: keyOf(key), Secret: secret}
		return o.s.keyCreated(ctx, tx, nil, key)
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
	orgs, err := o.s.store.Organizations(ctx, 1)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(orgs) > 0 {
		return nil, nil
	}
	b, err := o.Bootstrap(ctx, BootstrapInput{Organization: "Default", Email: "admin@localhost", Name: "Administrator", Key: key})
	if CodeOf(err) == CodeConflict {
		return nil, nil
	}
	return b, err
}

// checkOrganizationName refuses a name the commands could not show or
// find it by: blank, holding control characters (a tab or a line break
// breaks the lists), or an id, which --org would read as another's.
func checkOrganizationName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return Invalid("an organization name is required")
	}
	if _, err := uuid.Parse(name); err == nil {
		return Invalid("the organization name must not be an id: an organization is found by its name or by its id")
	}
	return checkName("the organization name", name)
}

// CreateOrganization creates an empty organization.
func (o *Operator) CreateOrganization(ctx context.Context, name string) (*Organization, error) {
	if err := checkOrganizationName(name); err != nil {
		return nil, err
	}
	var org *ent.Organization
	err := o.s.inTx(ctx, func(tx storage.Tx) error {
		var err error
		org, err = tx.CreateOrganization(ctx, name)
		return storeErr(err, "an organization named "+name+" exists already")
	})
	if err != nil {
		return nil, err
	}
	return organizationOf(org), nil
}

// Organizations lists every organization, oldest first.
func (o *Operator) Organizations(ctx context.Context) ([]*Organization, error) {
	orgs, err := o.s.store.Organizations(ctx, 0)
	if err != nil {
		return nil, unavailable(err)
	}
	out := make([]*Organization, len(orgs))
	for i, org := range orgs {
		out[i] = organizationOf(org)
	}
	return out, nil
}

// Organization finds an organization by id or, failing that, by name, as
// an operator names one on the command line.
func (o *Operator) Organization(ctx context.Context, ref string) (*Organization, error) {
	var byID *uuid.UUID
	id, err := ParseID("", ref)
	if err == nil {
		byID = &id
	}
	orgs, err := o.s.store.OrganizationsNamed(ctx, byID, ref)
	if err != nil {
		return nil, unavailable(err)
	}
	for _, org := range orgs {
		// The id wins over another organization named like it.
		if org.ID == id {
			return organizationOf(org), nil
		}
	}
	if len(orgs) == 0 {
		return nil, newError(CodeNotFound, "no organization has the id or name %q", engine.Quoted(ref))
	}
	return organizationOf(orgs[0]), nil
}

// OnlyOrganization is the organization when the database has exactly one,
// else nil.
func (o *Operator) OnlyOrganization(ctx context.Context) (*Organization, error) {
	orgs, err := o.s.store.Organizations(ctx, 2)
	if err != nil {
		return nil, unavailable(err)
	}
	if len(orgs) != 1 {
		return nil, nil
	}
	return organizationOf(orgs[0]), nil
}

// CreateUser creates a user.
func (o *Operator) CreateUser(ctx context.Context, email, name string) (*User, error) {
	email, err := normalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if err := checkName("name", name); err != nil {
		return nil, err
	}
	var u *ent.User
	err = o.s.inTx(ctx, func(tx storage.Tx) error {
		u, err = tx.CreateUser(ctx, email, name)
		return storeErr(err, "a user with that email exists already")
	})
	if err != nil {
		return nil, err
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
	email, err := emailToFind(email)
	if err != nil {
		return nil, err
	}
	return o.s.setRole(ctx, nil, org, memberWithEmail(email), role)
}

// RemoveMember takes the member with that email out of an organization
// and revokes the member's keys made there; the last admin stays. It
// returns the membership that was removed.
func (o *Operator) RemoveMember(ctx context.Context, org uuid.UUID, email string) (*Member, error) {
	email, err := emailToFind(email)
	if err != nil {
		return nil, err
	}
	return o.s.removeMember(ctx, nil, org, memberWithEmail(email))
}

// Keys lists the keys of an organization, revoked ones too, newest first.
func (o *Operator) Keys(ctx context.Context, org uuid.UUID, opts ListOptions) (*Page[Key], error) {
	return o.s.listKeys(ctx, org, opts)
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

// operatorKeyName names an operator's organization key made without a name.
const operatorKeyName = "operator"

// CreateKey creates a key and returns its secret, shown once. The expiry,
// when given, must be in the future. A key made without a name is named
// after its owner: the user's email, else operatorKeyName.
func (o *Operator) CreateKey(ctx context.Context, in KeyInput) (*CreatedKey, error) {
	spec := keySpec{name: in.Name, scope: in.Scope, expiresAt: in.ExpiresAt}
	if in.UserEmail != "" {
		email, err := emailToFind(in.UserEmail)
		if err != nil {
			return nil, err
		}
		owner := memberWithEmail(email)
		spec.owner = &owner
		if spec.name == "" {
			spec.name = email
		}
	}
	if spec.name == "" {
		spec.name = operatorKeyName
	}
	return o.s.createKey(ctx, nil, in.Organization, spec)
}

// RevokeKey revokes a key of any organization; it stays stored for the
// audit trail.
func (o *Operator) RevokeKey(ctx context.Context, id uuid.UUID) error {
	return o.s.revokeKey(ctx, nil, id, nil)
}
