package service

import (
	"context"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/storage"
)

// Organization is a tenant.
type Organization struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// User is a person who belongs to organizations.
type User struct {
	ID    uuid.UUID `json:"id"`
	Email string    `json:"email"`
	Name  string    `json:"name"`
}

// Owner names a user or an organization.
type Owner struct {
	Kind authz.OwnerKind `json:"kind"`
	ID   uuid.UUID       `json:"id"`
}

// Key describes an API key; never its secret or hash.
type Key struct {
	ID         uuid.UUID   `json:"id"`
	Name       string      `json:"name"`
	Prefix     string      `json:"prefix"`
	Scope      authz.Scope `json:"scope"`
	Owner      Owner       `json:"owner"`
	CreatedAt  time.Time   `json:"createdAt"`
	LastUsedAt *time.Time  `json:"lastUsedAt"`
	ExpiresAt  *time.Time  `json:"expiresAt"`
	RevokedAt  *time.Time  `json:"revokedAt"`
}

// CreatedKey is a new key with its secret, which is shown this once.
type CreatedKey struct {
	Key
	Secret string `json:"secret"`
}

func organizationOf(o *ent.Organization) *Organization {
	return &Organization{ID: o.ID, Name: o.Name, CreatedAt: o.CreatedAt}
}

func userOf(u *ent.User) *User { return &User{ID: u.ID, Email: u.Email, Name: u.Name} }

func keyOf(k *ent.APIKey) Key {
	owner := Owner{Kind: authz.OwnerKind(k.OwnerKind), ID: k.OrganizationID}
	if k.UserID != nil {
		owner.ID = *k.UserID
	}
	return Key{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Scope: authz.Scope(k.Scope), Owner: owner,
		CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, ExpiresAt: k.ExpiresAt, RevokedAt: k.RevokedAt}
}

// Viewer is who the caller is: the user (nil for an organization key), the
// tenant, the role and the key.
type Viewer struct {
	User         *User         `json:"user"`
	Organization *Organization `json:"organization"`
	Role         authz.Role    `json:"role"`
	Key          Key           `json:"key"`
}

// Viewer describes the caller.
func (s *Service) Viewer(ctx context.Context) (*Viewer, error) {
	p, err := s.allowed(ctx, authz.ActionView, authz.KindOrganization)
	if err != nil {
		return nil, err
	}
	org, err := s.store.Organization(ctx, p.TenantID)
	if err != nil {
		return nil, unavailable(err)
	}
	key, err := s.store.Key(ctx, p.KeyID)
	if err != nil {
		return nil, unavailable(err)
	}
	v := &Viewer{Organization: organizationOf(org), Role: p.Role, Key: keyOf(key)}
	if p.UserID != uuid.Nil {
		m, err := tenantMember(ctx, s.store, p.TenantID, memberWithID(p.UserID))
		if err != nil {
			return nil, err
		}
		v.User = memberUser(m)
	}
	return v, nil
}

// Organization loads the caller's organization by its id, as Viewer shows
// it; any other organization is not found.
func (s *Service) Organization(ctx context.Context, id uuid.UUID) (*Organization, error) {
	p, err := s.allowed(ctx, authz.ActionView, authz.KindOrganization)
	if err != nil {
		return nil, err
	}
	if id != p.TenantID {
		return nil, newError(CodeNotFound, "no organization %s", id)
	}
	org, err := s.store.Organization(ctx, id)
	if err != nil {
		return nil, unavailable(err)
	}
	return organizationOf(org), nil
}

// normalizeEmail checks an address and gives the form users are stored
// under.
func normalizeEmail(email string) (string, error) {
	email, err := emailToFind(email)
	if err != nil {
		return "", err
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email {
		return "", Invalid("%q is not an email address", engine.Quoted(email))
	}
	// An address shows as another when it holds a character that shows
	// as nothing or as a space: none has a place in one, not even the
	// joiners and selectors a name may hold.
	if i := strings.IndexFunc(email, func(r rune) bool {
		return refusedInName(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) || unicode.IsSpace(r)
	}); i >= 0 {
		r, _ := utf8.DecodeRuneInString(email[i:])
		return "", Invalid("email must not hold invisible characters or direction marks (it holds %U)", r)
	}
	return email, nil
}

// emailToFind is the form an address of an existing user is looked up
// by: an address stored before a check of today refused it must still be
// found, to be demoted, removed or given a key.
func emailToFind(email string) (string, error) {
	if err := checkText("email", email, MaxEmailLength); err != nil {
		return "", err
	}
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return "", Invalid("email is required")
	}
	return email, nil
}

func validRole(r authz.Role) bool {
	switch r {
	case authz.RoleViewer, authz.RoleEditor, authz.RolePublisher, authz.RoleAdmin, authz.RoleAuditor:
		return true
	}
	return false
}

func validScope(sc authz.Scope) bool {
	switch sc {
	case authz.ScopeView, authz.ScopeEdit, authz.ScopePublish, authz.ScopeAdmin:
		return true
	}
	return false
}

// insertKey stores a key for the given secret.
func insertKey(ctx context.Context, tx storage.Tx, org uuid.UUID, user *uuid.UUID, name string, scope authz.Scope, expires *time.Time, secret string) (*ent.APIKey, error) {
	k := &ent.APIKey{OrganizationID: org, OwnerKind: apikey.OwnerKindOrganization, Name: name, Scope: apikey.Scope(scope),
		Prefix: keyPrefix(secret), Hash: keyHash(secret), ExpiresAt: expires}
	if user != nil {
		k.OwnerKind, k.UserID = apikey.OwnerKindUser, user
	}
	return tx.CreateKey(ctx, k)
}
