package service

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/storage"
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
	// keyHash finds the key again (see Reauthenticate).
	keyHash string
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

func principalOf(ctx context.Context) (*Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return nil, newError(CodeUnauthenticated, "an API key is required")
	}
	return p, nil
}

var errBadKey = newError(CodeUnauthenticated, "the API key is missing, unknown, expired or revoked")

// Authenticate turns an API key, and the organization a request names
// (x-org-id, may be empty), into the request's principal. Every key acts
// in the organization it was created in and nowhere else, so x-org-id can
// only confirm that organization. A user key carries its user's current
// role there, which the authorizer caps at the key's scope; one whose
// user is no longer a member there is refused as a revoked key is, since
// removing a member revokes the member's keys.
//
// A key's principal is remembered for the cache expiry, so that its every
// request, whatever x-org-id it sends, does not cost two queries. Revoking
// a key, expiring it or removing its user takes effect at once on every
// instance that hears of the change (see cacheSet), and within the expiry
// on one that does not.
func (s *Service) Authenticate(ctx context.Context, secret, orgID string) (*Principal, error) {
	p, err := s.keyPrincipal(ctx, secret)
	if err != nil {
		return nil, err
	}
	if orgID != "" {
		requested, err := ParseID("x-org-id", orgID)
		if err != nil {
			return nil, Invalid("x-org-id is not an organization id")
		}
		if requested != p.TenantID {
			return nil, newError(CodePermissionDenied, "the API key belongs to another organization than x-org-id names")
		}
	}
	return p, nil
}

// Reauthenticate looks the key of ctx's caller up again, as Authenticate
// did when the request arrived, and returns ctx with the principal it
// finds now. A request that does several things in turn (a GraphQL
// document of several mutations) must not go on acting with a key that
// one of them revoked, or with a role that one of them lowered or removed.
func (s *Service) Reauthenticate(ctx context.Context) (context.Context, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return ctx, err
	}
	current, err := s.hashPrincipal(ctx, p.keyHash)
	if err != nil || current == p {
		return ctx, err
	}
	return WithPrincipal(ctx, current), nil
}

// keyPrincipal is the principal of a key, from the cache when it may be.
func (s *Service) keyPrincipal(ctx context.Context, secret string) (*Principal, error) {
	if secret == "" {
		return nil, errBadKey
	}
	return s.hashPrincipal(ctx, keyHash(secret))
}

// hashPrincipal is the principal of the key whose secret has hash.
func (s *Service) hashPrincipal(ctx context.Context, hash string) (*Principal, error) {
	now := s.now()
	pc := s.principals
	if p, known, err := pc.remembered(hash, now); known {
		s.cache.count("principal", true)
		return p, err
	}
	s.cache.count("principal", false)
	gen := pc.changes.current()
	return shared(ctx, &s.loads, flightKey("principal", hash, gen), func(ctx context.Context) (*Principal, error) {
		// A lookup that starts as another ends finds what that one kept.
		if p, known, err := pc.remembered(hash, now); known {
			return p, err
		}
		p, until, err := s.lookupPrincipal(ctx, hash, now)
		switch {
		case err == errBadKey:
			pc.changes.fill(gen, func() { pc.bad.Add(hash, now.Add(min(BadKeyTTL, s.cacheExpiry))) })
			return nil, err
		case err != nil:
			return nil, err
		}
		// A change to keys or memberships heard while the lookup ran may
		// have made it stale.
		pc.changes.fill(gen, func() { pc.good.Add(hash, cachedPrincipal{principal: p, until: until}) })
		return p, nil
	})
}

// BadKeyTTL is how long at most a key that is unknown, expired or revoked
// is refused without looking at the database again, so that a client
// repeating a bad key costs no queries. An unknown key can become a good
// one only when an operator creates a key with a secret of their choosing
// (generated secrets cannot have been tried before); creating a key
// forgets the refused ones on every instance that hears of it, and one
// that cannot hear of it (its notifications lost, or SQLite's other
// processes) looks again once the cache expiry has passed, when that is
// sooner, as for every other change.
const BadKeyTTL = 30 * time.Second

// principalCache remembers authentications by key hash: the principals of
// good keys, until the expiry or the key's own expiry, and the refusals of
// bad ones.
type principalCache struct {
	good    *lru.Cache[string, cachedPrincipal]
	bad     *lru.Cache[string, time.Time]
	changes changeGate
}

type cachedPrincipal struct {
	principal *Principal
	until     time.Time
}

// remembered is what the cache knows of the key with hash at now: its
// principal, or errBadKey; known is false when it knows nothing.
func (c *principalCache) remembered(hash string, now time.Time) (p *Principal, known bool, err error) {
	if good, ok := c.good.Get(hash); ok && now.Before(good.until) {
		return good.principal, true, nil
	}
	if until, ok := c.bad.Get(hash); ok && now.Before(until) {
		return nil, true, errBadKey
	}
	return nil, false, nil
}

func newPrincipalCache(size int) (*principalCache, error) {
	c := &principalCache{}
	var err error
	if c.good, err = lru.New[string, cachedPrincipal](size); err != nil {
		return nil, err
	}
	if c.bad, err = lru.New[string, time.Time](size); err != nil {
		return nil, err
	}
	return c, nil
}

// drop removes the principals of a changed key, or of a member whose role
// or membership changed. A created key may have a secret refused before,
// so refusals go with any key change.
func (c *principalCache) drop(ch changefeed.Change) {
	var stale func(*Principal) bool
	switch ch.Kind {
	case changefeed.KindKey:
		stale = func(p *Principal) bool { return p.KeyID == ch.ID }
	case changefeed.KindMember:
		stale = func(p *Principal) bool { return p.TenantID == ch.Tenant && p.UserID == ch.ID }
	default:
		return
	}
	c.changes.drop(func() {
		if ch.Kind == changefeed.KindKey {
			c.bad.Purge()
		}
		for _, hash := range c.good.Keys() {
			if e, ok := c.good.Peek(hash); ok && stale(e.principal) {
				c.good.Remove(hash)
			}
		}
	})
}

func (c *principalCache) clear() {
	c.changes.drop(func() {
		c.good.Purge()
		c.bad.Purge()
	})
}

// lookupPrincipal finds the key with the hash and the tenant it acts in
// (the one it was made in), and says until when that answer may be
// cached: the cache expiry, or less when the key expires sooner. The hash is
// unique and indexed, and comparing it in the database reveals nothing an
// attacker could use: the hash of a guess says nothing about the hashes of
// its neighbours.
func (s *Service) lookupPrincipal(ctx context.Context, hash string, now time.Time) (*Principal, time.Time, error) {
	key, err := s.store.KeyByHash(ctx, hash)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, time.Time{}, errBadKey
	case err != nil:
		return nil, time.Time{}, unavailable(err)
	}
	if key.RevokedAt != nil || key.ExpiresAt != nil && !now.Before(*key.ExpiresAt) {
		return nil, time.Time{}, errBadKey
	}
	p := newPrincipal(key, key.OrganizationID, roleOfScope(authz.Scope(key.Scope)))
	if key.OwnerKind == apikey.OwnerKindUser {
		m, err := s.store.MembershipOf(ctx, key.OrganizationID, *key.UserID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			// Removing a member revokes the member's keys with the
			// membership: a key read just before the removal committed,
			// whose membership is gone just after, is a revoked key.
			return nil, time.Time{}, errBadKey
		case err != nil:
			return nil, time.Time{}, unavailable(err)
		}
		p = newPrincipal(key, key.OrganizationID, authz.Role(m.Role))
	}
	p.keyHash = hash
	s.keyUse.record(ctx, s, key.ID, now)
	until := now.Add(s.cacheExpiry)
	if key.ExpiresAt != nil && key.ExpiresAt.Before(until) {
		until = *key.ExpiresAt
	}
	return p, until, nil
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
	// pending are the uses due to be written, by key, and writing tells
	// whether a writer is writing them.
	pending map[uuid.UUID]time.Time
	writing bool
	// closed is set by Close before it waits for the writer: no writer
	// may start once it waits.
	closed bool
}

const keyUseResolution = time.Minute

func newKeyUseRecorder() *keyUseRecorder {
	return &keyUseRecorder{last: make(map[uuid.UUID]time.Time), pending: make(map[uuid.UUID]time.Time)}
}

// record notes, when it is due, that the key was used at now, to be
// written in the background: a write that waits (another process holding
// SQLite's write lock, a locked row on PostgreSQL) would otherwise hold up
// the request being authenticated, and every request sharing its lookup,
// for as long as the database lets it wait. One writer writes the uses
// pending, one by one, until none is left.
func (r *keyUseRecorder) record(ctx context.Context, s *Service, id uuid.UUID, now time.Time) {
	if !r.due(id, now) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending[id] = now
	if r.writing || r.closed {
		return
	}
	r.writing = true
	ctx = context.WithoutCancel(ctx)
	s.periodic.Go(func() {
		for {
			id, at, ok := r.take()
			if !ok {
				return
			}
			at = at.UTC().Truncate(time.Microsecond)
			if err := s.store.InTx(ctx, func(tx storage.Tx) error { return tx.KeyUsed(ctx, id, at) }); err != nil {
				s.log.WarnContext(ctx, "recording key use", "key", id, "error", err)
			}
		}
	})
}

// close lets no writer start: the uses still pending are not written.
func (r *keyUseRecorder) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
}

// take removes a pending use, or ends the writer's turn when none is left.
func (r *keyUseRecorder) take() (uuid.UUID, time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, at := range r.pending {
		delete(r.pending, id)
		return id, at, true
	}
	r.writing = false
	return uuid.Nil, time.Time{}, false
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
