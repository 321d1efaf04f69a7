package service

import (
	"context"
	"crypto/subtle"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/membership"
)

// Principal is the authenticated caller of one request, acting in one
// tenant.
type Principal struct {
	KeyID     uuid.UUID
	KeyName   string
	KeyPrefix string
	KeyOwner  authz.OwnerKind
	Scope     authz.Scope
	// UserID is the key's owner for a user key, uuid.Nil for an
	// organization key.
	UserID   uuid.UUID
	TenantID uuid.UUID
	// Role is the user's role in the tenant; for an organization key, the
	// role its scope stands for.
	Role authz.Role

	expiresAt *time.Time // the key's expiry, which bounds how long it is cached
}

// ActorKind and ActorID are how audit events name the caller: the user
// behind a user key, else the key.
func (p *Principal) ActorKind() string {
	if p.KeyOwner == authz.OwnerUser {
		return "user"
	}
	return "key"
}

func (p *Principal) ActorID() uuid.UUID {
	if p.KeyOwner == authz.OwnerUser {
		return p.UserID
	}
	return p.KeyID
}

func (p *Principal) authz() authz.Principal {
	ap := authz.Principal{
		KeyID:    p.KeyID.String(),
		KeyOwner: p.KeyOwner,
		Role:     p.Role,
		Scope:    p.Scope,
		TenantID: p.TenantID.String(),
	}
	if p.UserID != uuid.Nil {
		ap.UserID = p.UserID.String()
	}
	return ap
}

type principalKey struct{}

// WithPrincipal returns a context carrying the caller.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller a context carries.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok
}

func principalOf(ctx context.Context) (*Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return nil, newError(CodeUnauthenticated, "an API key is required")
	}
	return p, nil
}

var errBadKey = newError(CodeUnauthenticated, "the API key is missing, unknown, expired or revoked")

// Authenticate turns an API key, and the organization a request names
// (x-org-id, may be empty), into the request's principal. An organization
// key fixes the tenant; a user key acts in the named organization, or in
// the user's only one (api.md, "Authentication and tenant").
//
// A successful answer is remembered for PrincipalTTL, so that a key's
// every request does not cost two queries: revoking a key, expiring it or
// removing its user takes effect within that time on other instances (at
// once on the instance that made the change).
func (s *Service) Authenticate(ctx context.Context, secret, orgID string) (*Principal, error) {
	if secret == "" {
		return nil, errBadKey
	}
	cacheKey := principalCacheKey{hash: keyHash(secret), org: orgID}
	now := s.now()
	if c, ok := s.principals.Get(cacheKey); ok && now.Before(c.until) {
		s.cache.count("principal", true)
		return c.principal, nil
	}
	s.cache.count("principal", false)
	gen := s.principalsGen.Load()
	p, until, err := s.authenticate(ctx, secret, orgID, now)
	if err != nil {
		return nil, err
	}
	s.principals.Add(cacheKey, cachedPrincipal{principal: p, until: until})
	// A change to keys or memberships committed while the lookup ran may
	// have made it stale. forgetPrincipals counts before it purges, so
	// either its purge removes this entry or this does.
	if s.principalsGen.Load() != gen {
		s.principals.Remove(cacheKey)
	}
	return p, nil
}

// PrincipalTTL is how long an authenticated key is trusted without
// looking at the database again.
const PrincipalTTL = 5 * time.Second

type principalCacheKey struct{ hash, org string }

type cachedPrincipal struct {
	principal *Principal
	until     time.Time
}

// forgetPrincipals drops every remembered authentication, after a change
// to keys or memberships.
func (s *Service) forgetPrincipals() {
	s.principalsGen.Add(1)
	s.principals.Purge()
}

func (s *Service) authenticate(ctx context.Context, secret, orgID string, now time.Time) (*Principal, time.Time, error) {
	p, err := s.lookupPrincipal(ctx, secret, orgID, now)
	if err != nil {
		return nil, time.Time{}, err
	}
	until := now.Add(PrincipalTTL)
	if exp := p.expiresAt; exp != nil && exp.Before(until) {
		until = *exp
	}
	return p, until, nil
}

func (s *Service) lookupPrincipal(ctx context.Context, secret, orgID string, now time.Time) (*Principal, error) {
	key, err := s.client.APIKey.Query().Where(apikey.Prefix(keyPrefix(secret))).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, errBadKey
	case err != nil:
		return nil, unavailable(err)
	}
	if subtle.ConstantTimeCompare([]byte(key.Hash), []byte(keyHash(secret))) != 1 {
		return nil, errBadKey
	}
	if key.RevokedAt != nil || key.ExpiresAt != nil && !now.Before(*key.ExpiresAt) {
		return nil, errBadKey
	}
	p := &Principal{
		expiresAt: key.ExpiresAt,
		KeyID:     key.ID,
		KeyName:   key.Name,
		KeyPrefix: key.Prefix,
		KeyOwner:  authz.OwnerKind(key.OwnerKind),
		Scope:     authz.Scope(key.Scope),
	}
	var requested uuid.UUID
	if orgID != "" {
		if requested, err = uuid.Parse(orgID); err != nil {
			return nil, Invalid("x-org-id is not an organization id")
		}
	}
	if key.OwnerKind == apikey.OwnerKindOrganization {
		if requested != uuid.Nil && requested != key.OrganizationID {
			return nil, newError(CodePermissionDenied, "an organization key acts only in its own organization")
		}
		p.TenantID, p.Role = key.OrganizationID, roleOfScope(p.Scope)
	} else {
		p.UserID = *key.UserID
		if err := s.resolveUserTenant(ctx, p, requested); err != nil {
			return nil, err
		}
	}
	s.keyUse.record(ctx, s, key.ID, now)
	return p, nil
}

func (s *Service) resolveUserTenant(ctx context.Context, p *Principal, requested uuid.UUID) error {
	q := s.client.Membership.Query().Where(membership.UserID(p.UserID))
	if requested != uuid.Nil {
		q = q.Where(membership.OrganizationID(requested))
	}
	ms, err := q.Limit(2).All(ctx)
	if err != nil {
		return unavailable(err)
	}
	switch {
	case len(ms) == 0 && requested != uuid.Nil:
		return newError(CodePermissionDenied, "the key's user is not a member of organization %s", requested)
	case len(ms) == 0:
		return newError(CodePermissionDenied, "the key's user is not a member of any organization")
	case len(ms) > 1:
		return newError(CodeTenantRequired, "the key's user belongs to several organizations: name one with x-org-id")
	}
	p.TenantID, p.Role = ms[0].OrganizationID, authz.Role(ms[0].Role)
	return nil
}

func roleOfScope(s authz.Scope) authz.Role {
	switch s {
	case authz.ScopeAdmin:
		return authz.RoleAdmin
	case authz.ScopePublish:
		return authz.RolePublisher
	case authz.ScopeEdit:
		return authz.RoleEditor
	}
	return authz.RoleViewer
}

// keyUseRecorder writes a key's last_used_at at most once a minute, so that
// authentication does not add a write to every request.
type keyUseRecorder struct {
	mu   sync.Mutex
	last map[uuid.UUID]time.Time
}

const keyUseResolution = time.Minute

func newKeyUseRecorder() *keyUseRecorder {
	return &keyUseRecorder{last: make(map[uuid.UUID]time.Time)}
}

func (r *keyUseRecorder) record(ctx context.Context, s *Service, id uuid.UUID, now time.Time) {
	r.mu.Lock()
	if now.Sub(r.last[id]) < keyUseResolution {
		r.mu.Unlock()
		return
	}
	r.last[id] = now
	r.mu.Unlock()
	at := now.UTC().Truncate(time.Microsecond)
	if err := s.client.APIKey.UpdateOneID(id).SetLastUsedAt(at).Exec(ctx); err != nil {
		s.log.WarnContext(ctx, "recording key use", "key", id, "error", err)
	}
}
