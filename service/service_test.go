package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/memstore"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

// testDecisionTimeout replaces the authorizer's 250 ms production deadline in
// tests: under the race detector on a loaded machine an embedded decision can
// take longer, and a test must not depend on that. The fail-closed timeout is
// tested with an unreachable remote authorizer instead.
const testDecisionTimeout = time.Minute

const adminKey = "bootstrap-key-for-tests-0123456789abcdef"

type fixture struct {
	svc *service.Service
	db  *database.DB
	// store is what svc stores in; mem too, when that is in memory.
	store storage.Store
	mem   *memstore.Store
	acme  *service.Bootstrapped
	clock *time.Time
}

func newFixture(t testing.TB, db *database.DB) *fixture {
	t.Helper()
	return newFixtureWith(t, db, func(*service.Config) {})
}

// newFixtureWith is newFixture with the service's configuration changed by
// configure.
func newFixtureWith(t testing.TB, db *database.DB, configure func(*service.Config)) *fixture {
	t.Helper()
	az, err := authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	f := &fixture{db: db, clock: &now}
	cfg := service.Config{DB: db, Authorizer: az, Now: func() time.Time { return *f.clock }}
	configure(&cfg)
	if f.store = cfg.Store; f.store == nil {
		f.store = storage.New(db)
	}
	f.svc, err = service.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.acme, err = f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "Admin@Acme.test", Name: "Ada", Key: adminKey})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// newMemFixture is newFixture on a store in memory, without a database,
// for the tests of business rules: what they check is the same on any
// store, and storage is tested on both databases.
func newMemFixture(t testing.TB) *fixture {
	t.Helper()
	mem := memstore.New()
	f := newFixtureWith(t, nil, func(cfg *service.Config) { cfg.Store = mem })
	f.mem = mem
	return f
}

func wantCode(t *testing.T, err error, code service.Code) {
	t.Helper()
	if got := service.CodeOf(err); err == nil || got != code {
		t.Fatalf("error %v (code %s), want code %s", err, got, code)
	}
}

func TestBootstrapCreatesAnAdminWithAKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		if f.acme.Secret != adminKey || f.acme.User.Email != "admin@acme.test" || f.acme.Key.Scope != authz.ScopeAdmin {
			t.Errorf("bootstrapped %+v", f.acme)
		}
		stored, err := db.Client().APIKey.Get(ctx, f.acme.Key.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Hash == adminKey || len(stored.Hash) != 64 || stored.Prefix != adminKey[:12] {
			t.Errorf("key stored as hash %q prefix %q; want a SHA-256 hex and the first characters", stored.Hash, stored.Prefix)
		}
		p, err := f.svc.Authenticate(ctx, adminKey, "")
		if err != nil {
			t.Fatal(err)
		}
		if p.TenantID != f.acme.Organization.ID || p.Role != authz.RoleAdmin || p.UserID != f.acme.User.ID {
			t.Errorf("principal %+v", p)
		}

		_, err = f.svc.Operator().Bootstrap(ctx, service.BootstrapInput{Organization: "Acme", Email: "b@acme.test"})
		wantCode(t, err, service.CodeConflict)
		_, err = f.svc.Operator().Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "b@beta.test", Key: "short"})
		wantCode(t, err, service.CodeInvalidArgument)
		if n, _ := db.Client().Organization.Query().Count(ctx); n != 1 {
			t.Errorf("%d organizations after refused bootstraps, want 1", n)
		}
		again, err := f.svc.Operator().BootstrapIfEmpty(ctx, "")
		if err != nil || again != nil {
			t.Errorf("BootstrapIfEmpty on a bootstrapped database = %v, %v; want nothing", again, err)
		}
	})
}

func TestGeneratedKeysAreLongAndDistinct(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		seen := map[string]bool{}
		for i := 0; i < 5; i++ {
			k, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeView})
			if err != nil {
				t.Fatal(err)
			}
			if len(k.Secret) < 40 || seen[k.Secret] || k.Prefix != k.Secret[:12] {
				t.Errorf("secret %q prefix %q", k.Secret, k.Prefix)
			}
			seen[k.Secret] = true
			if p, err := f.svc.Authenticate(ctx, k.Secret, ""); err != nil || p.KeyOwner != authz.OwnerOrganization || p.Role != authz.RoleViewer {
				t.Errorf("organization key authenticates as %+v, %v", p, err)
			}
		}
	})
}

func TestKeysSharingTheirFirstCharactersEachWork(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		// The same first 12 characters as adminKey, which is the prefix
		// shown in lists.
		twin := adminKey[:12] + "-another-key-for-another-org"
		beta, err := f.svc.Operator().Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test", Key: twin})
		if err != nil {
			t.Fatal(err)
		}
		if beta.Key.Prefix != f.acme.Key.Prefix {
			t.Fatalf("prefixes %q and %q, want the same", beta.Key.Prefix, f.acme.Key.Prefix)
		}
		for secret, want := range map[string]*service.Bootstrapped{adminKey: f.acme, twin: beta} {
			p, err := f.svc.Authenticate(ctx, secret, "")
			if err != nil || p.KeyID != want.Key.ID || p.TenantID != want.Organization.ID {
				t.Errorf("%s authenticates as %+v, %v; want its own key in %s", secret, p, err, want.Organization.Name)
			}
		}
	})
}

func TestAuthenticateRejectsBadKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		op := f.svc.Operator()
		expiring := f.clock.Add(time.Hour)
		exp, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeView, ExpiresAt: &expiring})
		if err != nil {
			t.Fatal(err)
		}
		revoked, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if err := op.RevokeKey(ctx, revoked.ID); err != nil {
			t.Fatal(err)
		}
		wantCode(t, op.RevokeKey(ctx, revoked.ID), service.CodeNotFound)

		for name, secret := range map[string]string{
			"empty":                      "",
			"unknown":                    "vdk_00000000_unknownunknownunknownunknownunknown",
			"right prefix, wrong secret": adminKey[:12] + "-tampered-tampered-tampered",
			"revoked":                    revoked.Secret,
		} {
			_, err := f.svc.Authenticate(ctx, secret, "")
			if service.CodeOf(err) != service.CodeUnauthenticated {
				t.Errorf("%s key: %v, want unauthenticated", name, err)
			}
		}
		if _, err := f.svc.Authenticate(ctx, exp.Secret, ""); err != nil {
			t.Errorf("a key before its expiry: %v", err)
		}
		*f.clock = expiring
		_, err = f.svc.Authenticate(ctx, exp.Secret, "")
		wantCode(t, err, service.CodeUnauthenticated)
		stored, _ := db.Client().APIKey.Query().Where(apikey.ID(revoked.ID)).Only(ctx)
		if stored.RevokedAt == nil {
			t.Error("the revoked key has no revoked_at")
		}
	})
}

func TestARefusedKeyIsLookedUpAgainOnceTheCacheExpiryHasPassed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		const chosen = "vdk_chosen_by_the_operator_0123456789abcdef"
		_, err := f.svc.Authenticate(ctx, chosen, "")
		wantCode(t, err, service.CodeUnauthenticated)
		// Another process, as `verdict admin bootstrap --key` is, makes
		// the key: on SQLite nothing tells this one.
		other, err := service.New(service.Config{DB: db})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if _, err := other.Operator().Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test", Key: chosen}); err != nil {
			t.Fatal(err)
		}
		*f.clock = f.clock.Add(service.DefaultCacheExpiry)
		if p, err := f.svc.Authenticate(ctx, chosen, ""); err != nil || p.Role != authz.RoleAdmin {
			t.Errorf("the key made by another process, once the cache expiry has passed: %+v, %v", p, err)
		}
	})
}

func TestTenantResolution(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		op := f.svc.Operator()
		beta, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		// The Acme admin also edits in Beta, with a key made there.
		if err := op.AddMember(ctx, beta.Organization.ID, "admin@acme.test", authz.RoleEditor); err != nil {
			t.Fatal(err)
		}
		wantCode(t, op.AddMember(ctx, beta.Organization.ID, "admin@acme.test", authz.RoleViewer), service.CodeConflict)
		inBeta, err := op.CreateKey(ctx, service.KeyInput{Organization: beta.Organization.ID, UserEmail: "admin@acme.test", Scope: authz.ScopeAdmin})
		if err != nil {
			t.Fatal(err)
		}

		// Each key acts in its own organization, with or without x-org-id,
		// and nowhere else: a second membership changes nothing for the
		// key made in the first.
		for _, org := range []string{"", f.acme.Organization.ID.String()} {
			if p, err := f.svc.Authenticate(ctx, adminKey, org); err != nil || p.TenantID != f.acme.Organization.ID || p.Role != authz.RoleAdmin {
				t.Errorf("the Acme key with x-org-id %q: %+v, %v", org, p, err)
			}
		}
		_, err = f.svc.Authenticate(ctx, adminKey, beta.Organization.ID.String())
		wantCode(t, err, service.CodePermissionDenied)
		for _, org := range []string{"", beta.Organization.ID.String()} {
			if p, err := f.svc.Authenticate(ctx, inBeta.Secret, org); err != nil || p.TenantID != beta.Organization.ID || p.Role != authz.RoleEditor {
				t.Errorf("the Beta key with x-org-id %q: %+v, %v", org, p, err)
			}
		}
		_, err = f.svc.Authenticate(ctx, inBeta.Secret, f.acme.Organization.ID.String())
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.Authenticate(ctx, beta.Secret, f.acme.Organization.ID.String())
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.Authenticate(ctx, adminKey, "not-a-uuid")
		wantCode(t, err, service.CodeInvalidArgument)

		orgKey, err := op.CreateKey(ctx, service.KeyInput{Organization: beta.Organization.ID, Scope: authz.ScopePublish})
		if err != nil {
			t.Fatal(err)
		}
		if p, err := f.svc.Authenticate(ctx, orgKey.Secret, ""); err != nil || p.TenantID != beta.Organization.ID || p.Role != authz.RolePublisher {
			t.Errorf("organization key: %+v, %v", p, err)
		}
		_, err = f.svc.Authenticate(ctx, orgKey.Secret, f.acme.Organization.ID.String())
		wantCode(t, err, service.CodePermissionDenied)
		_, err = op.CreateKey(ctx, service.KeyInput{Organization: beta.Organization.ID, UserEmail: "nobody@beta.test", Scope: authz.ScopeView})
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestRunRuleAsksTheAuthorizerFirst(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		op := f.svc.Operator()
		if _, err := op.CreateUser(ctx, "audit@acme.test", "Aud"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, f.acme.Organization.ID, "audit@acme.test", authz.RoleAuditor); err != nil {
			t.Fatal(err)
		}
		auditorKey, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: "audit@acme.test", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		rule := "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."
		data := json.RawMessage(`{"Person": {"age": 70}}`)

		admin, _ := f.svc.Authenticate(ctx, adminKey, "")
		res, err := f.svc.RunRule(service.WithPrincipal(ctx, admin), rule, data)
		if err != nil || !res.Result.Result || string(res.Data.(engine.DataText)) != string(data) {
			t.Fatalf("admin run: %+v, %v", res, err)
		}
		if res.Execution.Orchestrator.Database != 0 || res.Execution.Total < res.Execution.Engine {
			t.Errorf("execution %+v", res.Execution)
		}
		_, err = f.svc.RunRule(service.WithPrincipal(ctx, admin), rule, json.RawMessage(`null`))
		wantCode(t, err, service.CodeInvalidArgument)

		auditor, _ := f.svc.Authenticate(ctx, auditorKey.Secret, "")
		_, err = f.svc.RunRule(service.WithPrincipal(ctx, auditor), rule, data)
		wantCode(t, err, service.CodePermissionDenied)

		_, err = f.svc.RunRule(ctx, rule, data)
		wantCode(t, err, service.CodeUnauthenticated)

		dead, err := authz.NewRemote("http://127.0.0.1:1", authz.WithTimeout(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		closed, err := service.New(service.Config{DB: db, Authorizer: dead})
		if err != nil {
			t.Fatal(err)
		}
		_, err = closed.RunRule(service.WithPrincipal(ctx, admin), rule, data)
		wantCode(t, err, service.CodeAuthorizationUnavailable)
		if !errors.Is(err, authz.ErrUnavailable) {
			t.Errorf("the cause is not ErrUnavailable: %v", err)
		}
	})
}

func TestViewerDescribesTheCaller(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		p, _ := f.svc.Authenticate(ctx, adminKey, "")
		v, err := f.svc.Viewer(service.WithPrincipal(ctx, p))
		if err != nil {
			t.Fatal(err)
		}
		if v.User == nil || v.User.ID != f.acme.User.ID || v.Organization.Name != "Acme" || v.Role != authz.RoleAdmin || v.Key.Prefix != adminKey[:12] {
			t.Errorf("viewer %+v", v)
		}
		if v.Key.Owner.Kind != authz.OwnerUser || v.Key.Owner.ID != f.acme.User.ID || v.Key.Owner.ID == uuid.Nil {
			t.Errorf("key owner %+v", v.Key.Owner)
		}
	})
}

func TestARevokedKeyStopsWorkingAtOnceThoughAuthenticationIsCached(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		k, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if _, err := f.svc.Authenticate(ctx, k.Secret, ""); err != nil {
				t.Fatalf("authentication %d: %v", i, err)
			}
		}
		if err := f.svc.Operator().RevokeKey(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, k.Secret, "")
		wantCode(t, err, service.CodeUnauthenticated)
	})
}

func TestAServiceWithoutAnAuthorizerDeniesEverything(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		newFixture(t, db) // bootstraps Acme and its admin key
		bare, err := service.New(service.Config{DB: db})
		if err != nil {
			t.Fatal(err)
		}
		defer bare.Close()
		p, err := bare.Authenticate(context.Background(), adminKey, "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = bare.RunRule(service.WithPrincipal(context.Background(), p), seniorRule, json.RawMessage(`{"Person": {"age": 70}}`))
		wantCode(t, err, service.CodeAuthorizationUnavailable)
		if _, err := bare.Operator().CreateOrganization(context.Background(), "Gamma"); err != nil {
			t.Errorf("the operator needs no authorizer: %v", err)
		}
	})
}
