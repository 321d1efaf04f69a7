package service_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/internal/memstore"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

// gatedStore counts the reads of one key (by its secret's hash) and of one
// base, and holds them until released, so that a test can have several
// requests miss the same cache entry at once.
type gatedStore struct {
	storage.Store
	mu        sync.Mutex
	keyHash   string
	base      uuid.UUID
	gate      chan struct{}
	keyReads  atomic.Int64
	baseReads atomic.Int64
}

func (s *gatedStore) hold(secret string, base uuid.UUID) {
	sum := sha256.Sum256([]byte(secret))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keyHash, s.base, s.gate = hex.EncodeToString(sum[:]), base, make(chan struct{})
}

func (s *gatedStore) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.gate)
}

// pass counts a read of what is held, in reads, and holds it until
// release; other reads pass at once.
func (s *gatedStore) pass(isHeld func() bool, reads *atomic.Int64) {
	s.mu.Lock()
	held, gate := isHeld(), s.gate
	s.mu.Unlock()
	if held {
		reads.Add(1)
		<-gate
	}
}

func (s *gatedStore) KeyByHash(ctx context.Context, hash string) (*ent.APIKey, error) {
	s.pass(func() bool { return hash == s.keyHash }, &s.keyReads)
	return s.Store.KeyByHash(ctx, hash)
}

func (s *gatedStore) Base(ctx context.Context, id uuid.UUID) (*ent.Base, error) {
	s.pass(func() bool { return id == s.base }, &s.baseReads)
	return s.Store.Base(ctx, id)
}

func newGatedFixture(t *testing.T) (*fixture, *gatedStore, *prometheus.Registry) {
	gs := &gatedStore{Store: memstore.New()}
	reg := prometheus.NewRegistry()
	f := newFixtureWith(t, nil, func(cfg *service.Config) { cfg.Store, cfg.Registerer = gs, reg })
	return f, gs, reg
}

// count is n as eventually compares it.
func count(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }

// When a cached entry is missing or has expired, the requests that need it
// at once read it from the store once, not each.
func TestRequestsThatMissTheSameKeyAtOnceShareOneLookup(t *testing.T) {
	f, gs, reg := newGatedFixture(t)
	const callers = 8
	gs.hold(adminKey, uuid.Nil)
	errs := make(chan error, callers)
	for range callers {
		go func() {
			_, err := f.svc.Authenticate(context.Background(), adminKey, "")
			errs <- err
		}()
	}
	eventually(t, "callers that missed the key", count(callers), func() string { return count(lookups(t, reg, "principal", "miss")) })
	gs.release()
	for range callers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := gs.keyReads.Load(); n != 1 {
		t.Errorf("the key was read %d times, want once", n)
	}
}

func TestRunsThatMissTheSameBaseAtOnceShareOneRead(t *testing.T) {
	f, gs, reg := newGatedFixture(t)
	admin := f.as(t, adminKey, "")
	policy := f.publishedPolicy(t, "senior", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
	misses := lookups(t, reg, "base", "miss")
	const callers = 8
	gs.hold("", policy.BaseID)
	type answer struct {
		run *service.RunResult
		err error
	}
	answers := make(chan answer, callers)
	for range callers {
		go func() {
			run, err := f.svc.RunPolicy(admin, policy.BaseID, []byte(`{"Person": {"age": 70}}`))
			answers <- answer{run, err}
		}()
	}
	eventually(t, "runs that missed the base", count(misses+callers), func() string { return count(lookups(t, reg, "base", "miss")) })
	gs.release()
	for range callers {
		a := <-answers
		if a.err != nil {
			t.Fatal(a.err)
		}
		if !a.run.Result.Result {
			t.Errorf("run: %+v, want true", a.run.Result)
		}
		a.run.Release()
	}
	if n := gs.baseReads.Load(); n != 1 {
		t.Errorf("the base was read %d times, want once", n)
	}
}

// A request that misses after a change does not take what a read begun
// before the change finds: it reads again.
func TestALookupAfterAChangeDoesNotShareOneBegunBeforeIt(t *testing.T) {
	f, gs, _ := newGatedFixture(t)
	admin := f.as(t, adminKey, "")
	reader, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "reader", Scope: authz.ScopeView})
	if err != nil {
		t.Fatal(err)
	}
	gs.hold(reader.Secret, uuid.Nil)
	errs := make(chan error, 2)
	authenticate := func() {
		_, err := f.svc.Authenticate(context.Background(), reader.Secret, "")
		errs <- err
	}
	go authenticate()
	eventually(t, "reads of the key", "1", func() string { return count(float64(gs.keyReads.Load())) })
	// Any change to keys drops what the cache knows of keys.
	if _, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "another", Scope: authz.ScopeView}); err != nil {
		t.Fatal(err)
	}
	go authenticate()
	eventually(t, "reads of the key", "2", func() string { return count(float64(gs.keyReads.Load())) })
	gs.release()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
