package service_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// These tests run several services on one PostgreSQL database, as replicas
// behind a load balancer. Their caches never expire within a test
// (replicaCacheExpiry), so a replica that answers a change made on another
// can only have heard of it through the change feed.

const replicaCacheExpiry = time.Hour

// replicaWait bounds every wait for a replica to obey a change; none is
// expected to come close.
const replicaWait = 30 * time.Second

const (
	at65 = "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."
	at75 = "A **Person** gets senior_discount if the __age__ of the **Person** is at least 75."
)

// age70 is true under at65 and false under at75.
var age70 = json.RawMessage(`{"Person": {"age": 70}}`)

type replica struct {
	svc *service.Service
	db  *database.DB
	reg *prometheus.Registry
	// heard are the changes a listening replica's caches have been told
	// of; nil when it does not listen.
	heard *heardChanges
}

// heardChanges subscribes after the service's caches: a change it has
// heard, the caches have too, and every change committed before it, since
// notifications arrive in commit order.
type heardChanges struct {
	mu  sync.Mutex
	ids map[uuid.UUID]bool
}

func (h *heardChanges) Changed(c changefeed.Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ids[c.ID] = true
}

func (h *heardChanges) Missed() {}

func (h *heardChanges) has(id uuid.UUID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ids[id]
}

// settle waits until r has heard every change committed so far, so that a
// notification of an earlier change cannot arrive in the middle of what a
// test looks at: it announces a change that concerns nothing cached, and
// waits for it.
func (r *replica) settle(t *testing.T, through *replica) {
	t.Helper()
	marker := changefeed.Change{Kind: changefeed.KindGroup, ID: uuid.New()}
	tx, err := through.db.Client().Tx(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := changefeed.Announce(context.Background(), through.db.Dialect(), tx, marker); err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the replica hears the marker change", "true", func() string { return fmt.Sprint(r.heard.has(marker.ID)) })
}

// newReplica starts a service on its own pool to the database at url,
// listening to the change feed when listens.
func newReplica(t testing.TB, url string, listens bool) *replica {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), replicaWait)
	defer cancel()
	db, err := database.Open(ctx, url, database.WithMaxOpenConns(4), database.WithIOTimeout(replicaWait))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := &replica{db: db, reg: prometheus.NewRegistry()}
	cfg := service.Config{DB: db, Registerer: r.reg, CacheExpiry: replicaCacheExpiry}
	if cfg.Authorizer, err = authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout)); err != nil {
		t.Fatal(err)
	}
	if listens {
		l, err := changefeed.Listen(ctx, db, nil, r.reg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close)
		cfg.Changes = l
	}
	if r.svc, err = service.New(cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.svc.Close)
	if listens {
		r.heard = &heardChanges{ids: map[uuid.UUID]bool{}}
		cfg.Changes.Subscribe(r.heard)
	}
	return r
}

// cluster is replica a, where changes are made; b, which listens to the
// change feed; and c, which does not, and so shows what b would answer
// without it.
type cluster struct {
	a, b, c *replica
	boot    *service.Bootstrapped
}

func newCluster(t testing.TB) *cluster {
	t.Helper()
	url := dbtest.URL(t, dialect.Postgres, true)
	cl := &cluster{a: newReplica(t, url, true), b: newReplica(t, url, true), c: newReplica(t, url, false)}
	var err error
	cl.boot, err = cl.a.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Key: adminKey})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func (r *replica) as(t testing.TB, key string) context.Context {
	t.Helper()
	p, err := r.svc.Authenticate(context.Background(), key, "")
	if err != nil {
		t.Fatal(err)
	}
	return service.WithPrincipal(context.Background(), p)
}

// run runs a policy base as the admin: its result, or the error's code.
func (r *replica) run(t testing.TB, base uuid.UUID) string {
	t.Helper()
	res, err := r.svc.RunPolicy(r.as(t, adminKey), base, age70)
	if err != nil {
		return string(service.CodeOf(err))
	}
	defer res.Release()
	return fmt.Sprint(res.Result.Result)
}

// authenticated is how a replica takes a key: its role, or the error's
// code.
func (r *replica) authenticated(key string) string {
	p, err := r.svc.Authenticate(context.Background(), key, "")
	if err != nil {
		return string(service.CodeOf(err))
	}
	return string(p.Role)
}

// eventually waits until answer gives want, failing t if it still does
// not after replicaWait.
func eventually(t *testing.T, what, want string, answer func() string) {
	t.Helper()
	before(t, what, want, time.Now().Add(replicaWait), answer)
}

// before waits until answer gives want, failing t if it does not before
// deadline: an answer given at or after deadline does not count.
func before(t *testing.T, what, want string, deadline time.Time, answer func() string) {
	t.Helper()
	for {
		got := answer()
		if got == want && time.Now().Before(deadline) {
			return
		}
		if !time.Now().Before(deadline) {
			t.Fatalf("%s: %s when %s passed, want %s before", what, got, deadline.Format(time.StampMilli), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (cl *cluster) policy(t *testing.T, rule string, publish bool) uuid.UUID {
	t.Helper()
	admin := cl.a.as(t, adminKey)
	p, err := cl.a.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: &rule})
	if err != nil {
		t.Fatal(err)
	}
	if publish {
		if _, err := cl.a.svc.PublishPolicy(admin, p.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
	}
	return p.BaseID
}

// seen has b and c answer a base's run, so both cache it, and checks the
// answer.
func (cl *cluster) seen(t *testing.T, base uuid.UUID, want string) {
	t.Helper()
	for name, r := range map[string]*replica{"b": cl.b, "c": cl.c} {
		if got := r.run(t, base); got != want {
			t.Fatalf("replica %s runs the base: %s, want %s", name, got, want)
		}
	}
}

func TestAReplicaObeysLifecycleChangesMadeOnAnother(t *testing.T) {
	cl := newCluster(t)
	cases := []struct {
		name      string
		published bool
		// change is made on replica a, turning the base's run from true
		// to want.
		change func(t *testing.T, admin context.Context, base uuid.UUID)
		want   string
	}{
		{"a draft edit", false, func(t *testing.T, admin context.Context, base uuid.UUID) {
			if _, err := cl.a.svc.UpdatePolicyDraft(admin, base, service.Changes{Rule: ptr(at75)}); err != nil {
				t.Fatal(err)
			}
		}, "false"},
		{"a publish", true, func(t *testing.T, admin context.Context, base uuid.UUID) {
			draft, err := cl.a.svc.PolicyDraftFromVersion(admin, base, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cl.a.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: ptr(at75)}); err != nil {
				t.Fatal(err)
			}
			// A new draft changes nothing a run of the base reads.
			if got := cl.b.run(t, base); got != "true" {
				t.Fatalf("with a new draft, b runs the base: %s, want version 1's true", got)
			}
			if _, err := cl.a.svc.PublishPolicy(admin, draft.ID, service.Changes{}); err != nil {
				t.Fatal(err)
			}
		}, "false"},
		{"a soft delete", true, func(t *testing.T, admin context.Context, base uuid.UUID) {
			if err := cl.a.svc.DeletePolicy(admin, base); err != nil {
				t.Fatal(err)
			}
		}, string(service.CodeDeleted)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := cl.policy(t, at65, tc.published)
			cl.seen(t, base, "true")
			tc.change(t, cl.a.as(t, adminKey), base)
			eventually(t, "b runs the base", tc.want, func() string { return cl.b.run(t, base) })
			if got := cl.c.run(t, base); got != "true" {
				t.Errorf("c, which does not listen, runs the base: %s; want its cached true", got)
			}
		})
	}
}

// runRecord runs one record of a policy as the admin, as run does a base.
func (r *replica) runRecord(t testing.TB, record uuid.UUID) string {
	t.Helper()
	res, err := r.svc.RunPolicyVersion(r.as(t, adminKey), record, age70)
	if err != nil {
		return string(service.CodeOf(err))
	}
	defer res.Release()
	return fmt.Sprint(res.Result.Result)
}

// version publishes rule on replica a as a base's next version, through a
// draft made from its latest, and returns the version's record id.
func (cl *cluster) version(t *testing.T, base uuid.UUID, rule string) uuid.UUID {
	t.Helper()
	admin := cl.a.as(t, adminKey)
	draft, err := cl.a.svc.PolicyDraftFromVersion(admin, base, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.a.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: &rule}); err != nil {
		t.Fatal(err)
	}
	published, err := cl.a.svc.PublishPolicy(admin, draft.ID, service.Changes{})
	if err != nil {
		t.Fatal(err)
	}
	return published.ID
}

// TestAReplicaObeysVersionAndSettingChangesMadeOnAnother covers the
// changes that leave a base's draft and deletion alone. Each case lets b
// hear every change made before it (settle) before b caches what the case
// changes, so that only the case's own notification can make b obey.
func TestAReplicaObeysVersionAndSettingChangesMadeOnAnother(t *testing.T) {
	cl := newCluster(t)
	admin := cl.a.as(t, adminKey)

	t.Run("a rollback", func(t *testing.T) {
		base := cl.policy(t, at65, true)
		v1, err := cl.a.svc.Policy(admin, base)
		if err != nil {
			t.Fatal(err)
		}
		cl.version(t, base, at75)
		cl.b.settle(t, cl.a)
		cl.seen(t, base, "false")
		if _, err := cl.a.svc.RollbackPolicy(admin, v1.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b runs the base rolled back to version 1", "true", func() string { return cl.b.run(t, base) })
		if got := cl.c.run(t, base); got != "false" {
			t.Errorf("c, which does not listen, runs the base: %s; want its cached false", got)
		}
	})
	t.Run("a draft replaced by a version", func(t *testing.T) {
		base := cl.policy(t, at75, true)
		draft, err := cl.a.svc.PolicyDraftFromVersion(admin, base, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cl.a.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: ptr(at65)}); err != nil {
			t.Fatal(err)
		}
		cl.b.settle(t, cl.a)
		for name, r := range map[string]*replica{"b": cl.b, "c": cl.c} {
			if got := r.runRecord(t, draft.ID); got != "true" {
				t.Fatalf("replica %s runs the draft: %s, want true", name, got)
			}
		}
		replaced, err := cl.a.svc.PolicyDraftFromVersion(admin, base, true)
		if err != nil {
			t.Fatal(err)
		}
		if replaced.ID != draft.ID {
			t.Fatalf("the replaced draft is record %s, want %s", replaced.ID, draft.ID)
		}
		eventually(t, "b runs the replaced draft", "false", func() string { return cl.b.runRecord(t, draft.ID) })
		if got := cl.c.runRecord(t, draft.ID); got != "true" {
			t.Errorf("c, which does not listen, runs the replaced draft: %s; want its cached true", got)
		}
	})
	t.Run("decision records turned on", func(t *testing.T) {
		base := cl.policy(t, at65, true)
		cl.b.settle(t, cl.a)
		cl.seen(t, base, "true")
		if _, err := cl.a.svc.SetPolicyDecisionSettings(admin, base, service.DecisionSettingsInput{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		// Records are written after the run answers: b runs until one of
		// its runs shows up.
		eventually(t, "b's runs recorded", "recorded", func() string {
			if got := cl.b.run(t, base); got != "true" {
				return "run " + got
			}
			page, err := cl.a.svc.Decisions(admin, service.DecisionFilter{BaseID: &base}, service.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) == 0 {
				return "none recorded"
			}
			return "recorded"
		})
	})
}

func TestAReplicaObeysKeyAndMemberChangesMadeOnAnother(t *testing.T) {
	cl := newCluster(t)
	ctx := context.Background()
	admin := cl.a.as(t, adminKey)
	op := cl.a.svc.Operator()
	org := cl.boot.Organization.ID

	key, err := cl.a.svc.CreateKey(admin, service.KeyRequest{Name: "ci", Scope: authz.ScopeView})
	if err != nil {
		t.Fatal(err)
	}
	u, err := op.CreateUser(ctx, "ed@acme.test", "Ed")
	if err != nil {
		t.Fatal(err)
	}
	if err := op.AddMember(ctx, org, "ed@acme.test", authz.RoleEditor); err != nil {
		t.Fatal(err)
	}
	edKey, err := op.CreateKey(ctx, service.KeyInput{Organization: org, UserEmail: "ed@acme.test", Scope: authz.ScopeAdmin})
	if err != nil {
		t.Fatal(err)
	}
	// b caches the keys only once it has heard of their making: a late
	// notification would drop them in the middle of a case.
	cl.b.settle(t, cl.a)
	for _, r := range []*replica{cl.b, cl.c} {
		if got := r.authenticated(key.Secret); got != string(authz.RoleViewer) {
			t.Fatalf("the organization key authenticates as %s", got)
		}
		if got := r.authenticated(edKey.Secret); got != string(authz.RoleEditor) {
			t.Fatalf("Ed's key authenticates as %s", got)
		}
	}

	t.Run("a key revocation", func(t *testing.T) {
		if err := cl.a.svc.RevokeKey(admin, key.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b takes the revoked key", string(service.CodeUnauthenticated), func() string { return cl.b.authenticated(key.Secret) })
		if got := cl.c.authenticated(key.Secret); got != string(authz.RoleViewer) {
			t.Errorf("c, which does not listen, takes the revoked key as %s; want its cached viewer", got)
		}
		// Ed's key concerns another change: b still has it.
		hits := lookups(t, cl.b.reg, "principal", "hit")
		if got := cl.b.authenticated(edKey.Secret); got != string(authz.RoleEditor) || lookups(t, cl.b.reg, "principal", "hit") != hits+1 {
			t.Errorf("Ed's key after another key's revocation: %s, from the cache: %v", got, lookups(t, cl.b.reg, "principal", "hit") == hits+1)
		}
	})
	t.Run("a role change", func(t *testing.T) {
		if _, err := cl.a.svc.SetMemberRole(admin, u.ID, authz.RoleViewer); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b takes Ed's key", string(authz.RoleViewer), func() string { return cl.b.authenticated(edKey.Secret) })
		if got := cl.c.authenticated(edKey.Secret); got != string(authz.RoleEditor) {
			t.Errorf("c, which does not listen, takes Ed's key as %s; want its cached editor", got)
		}
	})
	t.Run("a member removal", func(t *testing.T) {
		if err := cl.a.svc.RemoveMember(admin, u.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b takes the removed member's key", string(service.CodeUnauthenticated), func() string { return cl.b.authenticated(edKey.Secret) })
		if got := cl.c.authenticated(edKey.Secret); got != string(authz.RoleEditor) {
			t.Errorf("c, which does not listen, takes the removed member's key as %s; want its cached editor", got)
		}
	})
}

func TestAReplicaTakesAKeyCreatedOnAnotherAfterRefusingIt(t *testing.T) {
	cl := newCluster(t)
	// An operator may give a new organization's first key its secret, so
	// that it can have been tried, and refused, before it existed.
	const chosen = "globex-bootstrap-key-0123456789abcdef"
	cl.b.settle(t, cl.a)
	// b remembers its refusal for BadKeyTTL from a moment after refused:
	// taking the key before refused+BadKeyTTL, it was told of the key.
	refused := time.Now()
	for _, r := range []*replica{cl.b, cl.c} {
		if got := r.authenticated(chosen); got != string(service.CodeUnauthenticated) {
			t.Fatalf("a replica takes a key that does not exist yet: %s", got)
		}
	}
	if _, err := cl.a.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Globex", Email: "admin@globex.test", Key: chosen}); err != nil {
		t.Fatal(err)
	}
	before(t, "b takes the key created on a", string(authz.RoleAdmin), refused.Add(service.BadKeyTTL),
		func() string { return cl.b.authenticated(chosen) })
	if got := cl.c.authenticated(chosen); got != string(service.CodeUnauthenticated) {
		t.Errorf("c, which does not listen, takes the new key: %s; want its remembered refusal", got)
	}
}

// TestAReplicaKeepsOneOrganizationsKeysThroughAMembersChangeInAnother:
// a user belongs to two organizations, with a key in each; a role change
// in one leaves the principal of the other's key cached, and as it was.
func TestAReplicaKeepsOneOrganizationsKeysThroughAMembersChangeInAnother(t *testing.T) {
	cl := newCluster(t)
	ctx := context.Background()
	op := cl.a.svc.Operator()
	globex, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: "Globex", Email: "admin@globex.test"})
	if err != nil {
		t.Fatal(err)
	}
	ed, err := op.CreateUser(ctx, "ed@acme.test", "Ed")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for name, org := range map[string]uuid.UUID{"acme": cl.boot.Organization.ID, "globex": globex.Organization.ID} {
		if err := op.AddMember(ctx, org, "ed@acme.test", authz.RoleEditor); err != nil {
			t.Fatal(err)
		}
		k, err := op.CreateKey(ctx, service.KeyInput{Organization: org, UserEmail: "ed@acme.test", Scope: authz.ScopeAdmin})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = k.Secret
	}
	cl.b.settle(t, cl.a)
	for name, secret := range keys {
		if got := cl.b.authenticated(secret); got != string(authz.RoleEditor) {
			t.Fatalf("b takes Ed's %s key as %s", name, got)
		}
	}
	globexAdmin := service.WithPrincipal(ctx, mustAuthenticate(t, cl.a, globex.Secret))
	if _, err := cl.a.svc.SetMemberRole(globexAdmin, ed.ID, authz.RoleViewer); err != nil {
		t.Fatal(err)
	}
	eventually(t, "b takes Ed's Globex key", string(authz.RoleViewer), func() string { return cl.b.authenticated(keys["globex"]) })
	hits := lookups(t, cl.b.reg, "principal", "hit")
	if got := cl.b.authenticated(keys["acme"]); got != string(authz.RoleEditor) {
		t.Errorf("b takes Ed's Acme key as %s, want editor", got)
	}
	if got := lookups(t, cl.b.reg, "principal", "hit"); got != hits+1 {
		t.Errorf("Ed's Acme key was read again (%v cache hits, want %v): a change in Globex dropped it", got, hits+1)
	}
}

func mustAuthenticate(t *testing.T, r *replica, secret string) *service.Principal {
	t.Helper()
	p, err := r.svc.Authenticate(context.Background(), secret, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// deleteUnannounced deletes the policy base, which b runs, behind every
// replica's back, and checks that b still runs what it cached.
func (cl *cluster) deleteUnannounced(t *testing.T, base uuid.UUID) {
	t.Helper()
	if err := cl.a.db.Client().Base.UpdateOneID(base).SetDeletedAt(time.Now()).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := cl.b.run(t, base); got != "true" {
		t.Fatalf("b runs a policy deleted without an announcement: %s; want its cached true", got)
	}
}

// TestAReplicaDropsEverythingOnAnUnreadableNotification: what a
// notification that no instance sent meant is unknown, so b drops what
// it cached, as when it lost its listener, and reads a change made behind
// every replica's back.
func TestAReplicaDropsEverythingOnAnUnreadableNotification(t *testing.T) {
	cl := newCluster(t)
	base := cl.policy(t, at65, true)
	cl.b.settle(t, cl.a)
	if got := cl.b.run(t, base); got != "true" {
		t.Fatalf("b runs the policy: %s", got)
	}
	cl.deleteUnannounced(t, base)
	for i, payload := range []string{"not json", `{"kind": "planet", "id": "` + uuid.NewString() + `"}`} {
		if _, err := cl.a.db.SQL().Exec("SELECT pg_notify($1, $2)", changefeed.Channel, payload); err != nil {
			t.Fatal(err)
		}
		eventually(t, "b's cache clears", fmt.Sprint(i+1), func() string { return fmt.Sprint(counter(t, cl.b.reg, "verdict_cache_clears_total")) })
	}
	if got := cl.b.run(t, base); got != string(service.CodeDeleted) {
		t.Errorf("after unreadable notifications, b runs the deleted policy: %s; want deleted", got)
	}
}

// TestAReplicaThatLostItsListenerDropsItsCachesAndRecovers changes the
// database behind every replica's back, then kills the listening
// connection of b: b must drop what it cached (and so see the change),
// reconnect, and obey the changes made after.
func TestAReplicaThatLostItsListenerDropsItsCachesAndRecovers(t *testing.T) {
	url := dbtest.URL(t, dialect.Postgres, true)
	// a does not listen, so that b's is the database's only listening
	// connection.
	cl := &cluster{a: newReplica(t, url, false), b: newReplica(t, url, true)}
	if _, err := cl.a.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Key: adminKey}); err != nil {
		t.Fatal(err)
	}
	unannounced := cl.policy(t, at65, true)
	// b caches the policy only once it has heard of its publishing.
	cl.b.settle(t, cl.a)
	if got := cl.b.run(t, unannounced); got != "true" {
		t.Fatalf("b runs the policy: %s", got)
	}
	cl.deleteUnannounced(t, unannounced)

	terminateListener(t, cl.a.db.SQL())
	eventually(t, "b's reconnections", "1", func() string { return fmt.Sprint(counter(t, cl.b.reg, "verdict_change_listener_reconnects_total")) })
	// Once when the connection was lost, once when it was back.
	eventually(t, "b's cache clears", "2", func() string { return fmt.Sprint(counter(t, cl.b.reg, "verdict_cache_clears_total")) })
	if got := cl.b.run(t, unannounced); got != string(service.CodeDeleted) {
		t.Errorf("after losing its listener, b runs the deleted policy: %s; want deleted", got)
	}

	later := cl.policy(t, at65, true)
	if got := cl.b.run(t, later); got != "true" {
		t.Fatalf("b runs a new policy: %s", got)
	}
	if err := cl.a.svc.DeletePolicy(cl.a.as(t, adminKey), later); err != nil {
		t.Fatal(err)
	}
	eventually(t, "b, reconnected, runs a policy deleted on a", string(service.CodeDeleted), func() string { return cl.b.run(t, later) })
}

// terminateListener ends the one listening connection to the database of
// pool.
func terminateListener(t *testing.T, pool *sql.DB) {
	t.Helper()
	var n int
	err := pool.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, changefeed.ApplicationName(os.Getpid())).Scan(&n)
	if err != nil || n != 1 {
		t.Fatalf("terminated %d listening connections (%v), want 1", n, err)
	}
}

func counter(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}

func lookups(t testing.TB, reg *prometheus.Registry, cache, result string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "verdict_cache_lookups_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			var c, r string
			for _, l := range m.GetLabel() {
				switch l.GetName() {
				case "cache":
					c = l.GetValue()
				case "result":
					r = l.GetValue()
				}
			}
			if c == cache && r == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// BenchmarkChangePropagation measures how long a draft edit committed on
// one replica takes to be obeyed by another: from the edit's return to the
// first run on the other replica that gives the new result. Run it with
// -benchtime=200x; it reports the median and the 99th percentile.
func BenchmarkChangePropagation(b *testing.B) {
	url := dbtest.URL(b, dialect.Postgres, true)
	a, other := newReplica(b, url, true), newReplica(b, url, true)
	if _, err := a.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Key: adminKey}); err != nil {
		b.Fatal(err)
	}
	admin := a.as(b, adminKey)
	p, err := a.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(at65)})
	if err != nil {
		b.Fatal(err)
	}
	want := "true"
	if got := other.run(b, p.BaseID); got != want {
		b.Fatalf("the other replica runs the policy: %s", got)
	}
	var took []time.Duration
	for b.Loop() {
		rule := at75
		if want = "false"; len(took)%2 == 1 {
			rule, want = at65, "true"
		}
		if _, err := a.svc.UpdatePolicyDraft(admin, p.BaseID, service.Changes{Rule: &rule}); err != nil {
			b.Fatal(err)
		}
		committed := time.Now()
		for other.run(b, p.BaseID) != want {
			if time.Since(committed) > replicaWait {
				b.Fatalf("the other replica did not obey within %s", replicaWait)
			}
			time.Sleep(100 * time.Microsecond)
		}
		took = append(took, time.Since(committed))
	}
	slices.Sort(took)
	ms := func(q float64) float64 {
		return float64(took[int(q*float64(len(took)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// TestARunRecordedWithSettingsChangedSinceIsStoredUnderTheNewOnes: c,
// which does not listen, runs with the decision-record settings it cached
// before a changed them, as any replica does until the change reaches it.
// What c records must obey the settings of when it is stored: the mask set
// on a hides the values of c's runs after it, in the record and in its
// event's error; with recording turned off, c stores no record and its
// event names none.
func TestARunRecordedWithSettingsChangedSinceIsStoredUnderTheNewOnes(t *testing.T) {
	cl := newCluster(t)
	admin := cl.a.as(t, adminKey)
	base := cl.policy(t, ssnRule, true)
	if _, err := cl.a.svc.SetPolicyDecisionSettings(admin, base, service.DecisionSettingsInput{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	db := cl.a.db.SQL()
	count := func(table string) string {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM `+table+` WHERE base_id = $1`, base).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(n)
	}
	runOnC := func(data string) {
		t.Helper()
		res, err := cl.c.svc.RunPolicy(cl.c.as(t, adminKey), base, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
	}
	// c caches the settings, recording and masking nothing.
	runOnC(`{"Person": {"age": 70, "ssn": "000-00-0000"}}`)
	eventually(t, "c's first run recorded", "1", func() string { return count("decision_records") })

	if _, err := cl.a.svc.SetPolicyDecisionSettings(admin, base, service.DecisionSettingsInput{
		Enabled: true, Mask: []string{"$.Person.ssn", "$.Person.cards.number"}}); err != nil {
		t.Fatal(err)
	}
	const secret = "SECRET-4711-0815"
	runOnC(secretData)
	quoting := `{"Person": {"age": 70, "ssn": {"code": "` + secret + `"}}}`
	runOnC(quoting)
	eventually(t, "c's runs after the mask recorded", "3", func() string { return count("decision_records") })
	eventually(t, "c's events stored", "3", func() string { return count("audit_executions") })
	for _, row := range storedRows(t, cl.a.db) {
		for _, s := range append(slices.Clone(secrets), secret) {
			if strings.Contains(row, s) {
				t.Errorf("the stored decision holds the value %s masked before c's run: %s", s, row)
			}
		}
	}
	// column is one text of each of the base's rows in table, oldest first.
	column := func(text, table string) []string {
		rows, err := db.Query(`SELECT `+text+` FROM `+table+` WHERE base_id = $1 ORDER BY at, id`, base)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	inputs := column("input", "decision_records")
	want := []string{
		`{"Person":{"age":70,"ssn":"000-00-0000"}}`,
		`{"Person":{"age":70,"cards":[{"number":"[masked]"},{"number":"[masked]"}],"ssn":"[masked]"}}`,
		`{"Person":{"age":70,"ssn":"[masked]"}}`,
	}
	if !slices.Equal(inputs, want) {
		t.Errorf("stored inputs %q, want %q", inputs, want)
	}
	details := func() []string { return column("coalesce(details::text, '')", "audit_executions") }
	stored := details()
	if !strings.Contains(stored[2], `"error"`) {
		t.Fatalf("the run on %s stored no error (%s): the test shows nothing", quoting, stored[2])
	}
	for _, d := range stored {
		if strings.Contains(d, secret) {
			t.Errorf("the stored event holds the value masked before c's run: %s", d)
		}
	}

	if _, err := cl.a.svc.SetPolicyDecisionSettings(admin, base, service.DecisionSettingsInput{Enabled: false}); err != nil {
		t.Fatal(err)
	}
	runOnC(`{"Person": {"age": 70, "ssn": "000-00-0000"}}`)
	eventually(t, "c's run after recording stopped stored its event", "4", func() string { return count("audit_executions") })
	if got := count("decision_records"); got != "3" {
		t.Errorf("%s decision records after recording stopped, want the 3 before", got)
	}
	if last := details()[3]; last != "" {
		t.Errorf("the event of c's run after recording stopped says %s, want nothing (no decision)", last)
	}
}

// TestAnErrorOfARunUnderSettingsChangedSinceIsHidden: c cached a base
// that recorded nothing, so its runs mask nothing; once a has turned
// recording on with a mask, the error of c's failed run, which quotes a
// value the mask hides, is not stored: c kept no record to find the value
// in again, so the text is hidden whole.
func TestAnErrorOfARunUnderSettingsChangedSinceIsHidden(t *testing.T) {
	cl := newCluster(t)
	admin := cl.a.as(t, adminKey)
	base := cl.policy(t, ssnRule, true)
	if got := cl.c.run(t, base); got != "false" {
		t.Fatalf("c runs the base: %s", got)
	}
	if _, err := cl.a.svc.SetPolicyDecisionSettings(admin, base, service.DecisionSettingsInput{
		Enabled: true, Mask: []string{"$.Person.ssn"}}); err != nil {
		t.Fatal(err)
	}
	const secret = "SECRET-4711-0815"
	res, err := cl.c.svc.RunPolicy(cl.c.as(t, adminKey), base, json.RawMessage(`{"Person": {"age": 70, "ssn": {"code": "`+secret+`"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || !strings.Contains(res.Error.Message, secret) {
		t.Fatalf("c's run's error %+v does not quote the data: the test shows nothing", res.Error)
	}
	res.Release()
	db := cl.a.db.SQL()
	eventually(t, "c's two runs' events stored", "2", func() string {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM audit_executions WHERE base_id = $1`, base).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(n)
	})
	var details string
	if err := db.QueryRow(`SELECT details::text FROM audit_executions WHERE base_id = $1 ORDER BY at DESC, id DESC LIMIT 1`, base).Scan(&details); err != nil {
		t.Fatal(err)
	}
	if want := `{"error": "[masked]"}`; details != want {
		t.Errorf("the stored event of c's failed run says %s, want %s", details, want)
	}
}
