package service

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/membership"
)

// Principal is the authenticated caller of one request, acting in one
// tenant. It is built once per authentication and shared by the requests
// that reuse it from the cache, so it must not be changed.
type Principal struct {
	KeyID    uuid.UUID
	KeyOwner authz.OwnerKind
	Scope    authz.Scope
	// UserID is the key's owner for a user key, uuid.Nil for an
	// organization key.
	UserID   uuid.UUID
	TenantID uuid.UUID
	// Role is the user's role in the tenant; for an organization key, the
	// role its scope stands for.
	Role authz.Role

	// az is the caller as the authorizer takes it, built with the
	// principal because every action of a request asks the authorizer.
	az authz.Principal
}

func newPrincipal(key *ent.APIKey, tenant uuid.UUID, role authz.Role) *Principal {
	p := &Principal{
		KeyID:    key.ID,
		KeyOwner: authz.OwnerKind(key.OwnerKind),
		Scope:    authz.Scope(key.Scope),
		TenantID: tenant,
		Role:     role,
	}
	p.az = authz.Principal{
		KeyID:    p.KeyID.String(),
		KeyOwner: p.KeyOwner,
		Role:     p.Role,
		Scope:    p.Scope,
		TenantID: p.TenantID.String(),
	}
	if key.UserID != nil {
		p.UserID = *key.UserID
		p.az.UserID = p.UserID.String()
	}
	return p
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
// the user's only one.
//
// A successful answer is remembered for PrincipalTTL, so that a key's
// every request does not cost two queries: revoking a key, expiring it or
// removing its user takes effect within that time on other instances (at
// once on the instance that made the change).
func (s *Service) Authenticate(ctx context.Context, secret, orgID string) (*Principal, error) {
	if secret == "" {
		return nil, errBadKey
	}
	hash := keyHash(secret)
	cacheKey := principalCacheKey{hash: hash, org: orgID}
	now := s.now()
	if c, ok := s.principals.Get(cacheKey); ok && now.Before(c.until) {
		s.cache.count("principal", true)
		return c.principal, nil
	}
	s.cache.count("principal", false)
	gen := s.principalsGen.Load()
	p, until, err := s.lookupPrincipal(ctx, hash, orgID, now)
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

// lookupPrincipal finds the key with the hash and the tenant it acts in,
// and says until when that answer may be cached: PrincipalTTL, or less
// when the key expires sooner. The hash is unique and indexed, and
// comparing it in the database reveals nothing an attacker could use: the
// hash of a guess says nothing about the hashes of its neighbours.
func (s *Service) lookupPrincipal(ctx context.Context, hash, orgID string, now time.Time) (*Principal, time.Time, error) {
	key, err := s.client.APIKey.Query().Where(apikey.Hash(hash)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return nil, time.Time{}, errBadKey
	case err != nil:
		return nil, time.Time{}, unavailable(err)
	}
	if key.RevokedAt != nil || key.ExpiresAt != nil && !now.Before(*key.ExpiresAt) {
		return nil, time.Time{}, errBadKey
	}
	var requested uuid.UUID
	if orgID != "" {
		if requested, err = uuid.Parse(orgID); err != nil {
			return nil, time.Time{}, Invalid("x-org-id is not an organization id")
		}
	}
	var p *Principal
	if key.OwnerKind == apikey.OwnerKindOrganization {
		if requested != uuid.Nil && requested != key.OrganizationID {
			return nil, time.Time{}, newError(CodePermissionDenied, "an organization key acts only in its own organization")
		}
		p = newPrincipal(key, key.OrganizationID, roleOfScope(authz.Scope(key.Scope)))
	} else {
		m, err := s.userMembership(ctx, *key.UserID, requested)
		if err != nil {
			return nil, time.Time{}, err
		}
		p = newPrincipal(key, m.OrganizationID, authz.Role(m.Role))
	}
	s.keyUse.record(ctx, s, key.ID, now)
	until := now.Add(PrincipalTTL)
	if key.ExpiresAt != nil && key.ExpiresAt.Before(until) {
		until = *key.ExpiresAt
	}
	return p, until, nil
}

// userMembership is the membership a user key acts through: in the
// requested organization, else the user's only one.
func (s *Service) userMembership(ctx context.Context, userID, requested uuid.UUID) (*ent.Membership, error) {
	q := s.client.Membership.Query().Where(membership.UserID(userID))
	if requested != uuid.Nil {
		q = q.Where(membership.OrganizationID(requested))
	}
	ms, err := q.Limit(2).All(ctx)
	if err != nil {
		return nil, unavailable(err)
	}
	switch {
	case len(ms) == 0 && requested != uuid.Nil:
		return nil, newError(CodePermissionDenied, "the key's user is not a member of organization %s", requested)
	case len(ms) == 0:
		return nil, newError(CodePermissionDenied, "the key's user is not a member of any organization")
	case len(ms) > 1:
		return nil, newError(CodeTenantRequired, "the key's user belongs to several organizations: name one with x-org-id")
	}
	return ms[0], nil
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
	// swept is when entries older than keyUseResolution were last dropped:
	// they throttle nothing any more, and without the sweep every key ever
	// used would stay in the map.
	swept time.Time
}

const keyUseResolution = time.Minute

func newKeyUseRecorder() *keyUseRecorder {
	return &keyUseRecorder{last: make(map[uuid.UUID]time.Time)}
}

func (r *keyUseRecorder) record(ctx context.Context, s *Service, id uuid.UUID, now time.Time) {
	if !r.due(id, now) {
		return
	}
	at := now.UTC().Truncate(time.Microsecond)
	if err := s.client.APIKey.UpdateOneID(id).SetLastUsedAt(at).Exec(ctx); err != nil {
		s.log.WarnContext(ctx, "recording key use", "key", id, "error", err)
	}
}

// due reports whether the key's use is to be written now, and if so notes
// that it was.
func (r *keyUseRecorder) due(id uuid.UUID, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now.Sub(r.swept) >= keyUseResolution {
		for k, t := range r.last {
			if now.Sub(t) >= keyUseResolution {
				delete(r.last, k)
			}
		}
		r.swept = now
	}
	if now.Sub(r.last[id]) < keyUseResolution {
		return false
	}
	r.last[id] = now
	return true
}
