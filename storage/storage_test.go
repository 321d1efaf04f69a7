package storage_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/dayparts"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/memstore"
	"github.com/verdict/verdict/storage"
)

// eachStore runs fn on a store of each database, and on the store in
// memory that the service's tests of business rules use, so that those
// tests stand for what the databases do.
func eachStore(t *testing.T, fn func(t *testing.T, s storage.Store)) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) { fn(t, storage.New(db)) })
	t.Run("memory", func(t *testing.T) { fn(t, memstore.New()) })
}

var at = time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)

// inTx runs fn in a transaction of s and fails t if it fails.
func inTx(t *testing.T, s storage.Store, fn func(tx storage.Tx) error) {
	t.Helper()
	if err := s.InTx(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// newPolicy stores an organization with a policy base and its draft.
func newPolicy(t *testing.T, s storage.Store) (*ent.Base, *ent.Record) {
	t.Helper()
	ctx := context.Background()
	var b *ent.Base
	var r *ent.Record
	inTx(t, s, func(tx storage.Tx) error {
		org := must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Acme"))
		user := must[*ent.User](t)(tx.CreateUser(ctx, "ada@acme.test", "Ada"))
		b = must[*ent.Base](t)(tx.CreateBase(ctx, &ent.Base{OrganizationID: org.ID, Kind: base.KindPolicy, Name: "p",
			OwnerKind: base.OwnerKindUser, OwnerID: user.ID, CreatedBy: user.ID, CreatedAt: at, UpdatedAt: at}))
		r = must[*ent.Record](t)(tx.CreateRecord(ctx, &ent.Record{BaseID: b.ID, OrganizationID: org.ID, Kind: record.KindPolicy,
			Status: record.StatusDraft, Name: "p", CreatedBy: user.ID, CreatedAt: at, UpdatedAt: at}))
		var err error
		b, err = tx.AttachDraft(ctx, b, r.ID, at)
		return err
	})
	return b, r
}

func TestConditionalWritesReportWhetherTheyHeld(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		b, draft := newPolicy(t, s)
		if b.DraftRecordID == nil || *b.DraftRecordID != draft.ID || draft.Revision != 1 {
			t.Fatalf("base %+v, draft %+v", b, draft)
		}
		inTx(t, s, func(tx storage.Tx) error {
			stale := *draft
			stale.Revision = 7
			if saved, err := tx.SaveDraft(ctx, &stale); saved || err != nil {
				t.Errorf("saving at a stale revision: %v, %v; want false", saved, err)
			}
			edit := *draft
			edit.Rule = "edited"
			if saved, err := tx.SaveDraft(ctx, &edit); !saved || err != nil {
				t.Errorf("saving at the revision read: %v, %v; want true", saved, err)
			}
			return nil
		})
		if got := must[*ent.Record](t)(s.Record(ctx, draft.ID)); got.Rule != "edited" || got.Revision != 2 || got.Status != record.StatusDraft {
			t.Errorf("after the edit: %+v", got)
		}

		err := s.InTx(ctx, func(tx storage.Tx) error {
			_, err := tx.CreateRecord(ctx, &ent.Record{BaseID: b.ID, OrganizationID: b.OrganizationID, Kind: record.KindPolicy,
				Status: record.StatusDraft, Name: "second", CreatedBy: b.CreatedBy, CreatedAt: at, UpdatedAt: at})
			return err
		})
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a second draft of a base: %v, want ErrConflict", err)
		}

		published := *draft
		published.Revision, published.Status, published.Version, published.PublishedAt = 2, record.StatusPublished, new(1), &at
		inTx(t, s, func(tx storage.Tx) error {
			if saved, err := tx.SaveDraft(ctx, &published); !saved || err != nil {
				t.Fatalf("publishing the draft: %v, %v", saved, err)
			}
			var err error
			b, err = tx.PublishDraft(ctx, b, &published, at)
			return err
		})
		if b.LatestVersion != 1 || b.DraftRecordID != nil || b.OwnerKind != base.OwnerKindOrganization || b.OwnerID != b.OrganizationID {
			t.Errorf("published base %+v", b)
		}
		inTx(t, s, func(tx storage.Tx) error {
			if saved, err := tx.SaveDraft(ctx, &published); saved || err != nil {
				t.Errorf("saving a published record as a draft: %v, %v; want false", saved, err)
			}
			stale := *b
			stale.LatestVersion = 0
			if added, err := tx.AddVersion(ctx, &stale, &published, at); added || err != nil {
				t.Errorf("adding a version to a base read before the last: %v, %v; want false", added, err)
			}
			if deleted, err := tx.DeleteBase(ctx, b, at); !deleted || err != nil {
				t.Errorf("deleting: %v, %v; want true", deleted, err)
			}
			if deleted, err := tx.DeleteBase(ctx, b, at); deleted || err != nil {
				t.Errorf("deleting again: %v, %v; want false", deleted, err)
			}
			return nil
		})
	})
}

func TestADeletedBaseTakesNoChange(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		b, draft := newPolicy(t, s)
		inTx(t, s, func(tx storage.Tx) error {
			if deleted, err := tx.DeleteBase(ctx, b, at); !deleted || err != nil {
				t.Fatalf("deleting: %v, %v", deleted, err)
			}
			return nil
		})
		published := *draft
		published.Status, published.Version, published.PublishedAt = record.StatusPublished, new(1), &at
		later := at.Add(time.Hour)
		for name, change := range map[string]func(tx storage.Tx) error{
			"AttachDraft": func(tx storage.Tx) error { _, err := tx.AttachDraft(ctx, b, draft.ID, later); return err },
			"RenameBase":  func(tx storage.Tx) error { _, err := tx.RenameBase(ctx, b, "renamed", "", later); return err },
			"PublishDraft": func(tx storage.Tx) error {
				_, err := tx.PublishDraft(ctx, b, &published, later)
				return err
			},
			"SetDecisions": func(tx storage.Tx) error {
				_, _, err := tx.SetDecisions(ctx, b, true, 1, []string{}, later)
				return err
			},
		} {
			if err := s.InTx(ctx, change); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("%s on a deleted base: %v, want ErrNotFound", name, err)
			}
		}
		inTx(t, s, func(tx storage.Tx) error {
			if added, err := tx.AddVersion(ctx, b, &published, later); added || err != nil {
				t.Errorf("AddVersion on a deleted base: %v, %v; want false", added, err)
			}
			return nil
		})
		got := must[*ent.Base](t)(s.Base(ctx, b.ID))
		if got.DeletedAt == nil || !got.UpdatedAt.Equal(at) || got.Name != "p" || got.LatestVersion != 0 || got.DecisionsEnabled {
			t.Errorf("the deleted base changed: %+v", got)
		}
	})
}

func TestAddingToAGroupThatIsGoneFindsNoGroup(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		b, _ := newPolicy(t, s)
		var g *ent.Group
		inTx(t, s, func(tx storage.Tx) error {
			g = must[*ent.Group](t)(tx.CreateGroup(ctx, &ent.Group{OrganizationID: b.OrganizationID, Name: "g", CreatedAt: at, UpdatedAt: at}))
			return tx.DeleteGroup(ctx, g)
		})
		err := s.InTx(ctx, func(tx storage.Tx) error {
			_, err := tx.AddToGroup(ctx, &ent.GroupMember{GroupID: g.ID, BaseID: b.ID, Kind: groupmember.KindPolicy, CreatedAt: at})
			return err
		})
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("adding to a deleted group: %v, want ErrNotFound", err)
		}
	})
}

func TestLockGroupFindsAGroupOfTheTenantOnly(t *testing.T) {
	inTwoTenants(t, func(t *testing.T, ctx context.Context, tx storage.Tx, acme, beta *ent.Organization) {
		g := must[*ent.Group](t)(tx.CreateGroup(ctx, &ent.Group{OrganizationID: acme.ID, Name: "g", CreatedAt: at, UpdatedAt: at}))
		if got, err := tx.LockGroup(ctx, acme.ID, g.ID); err != nil || got.ID != g.ID || got.Name != "g" {
			t.Errorf("Acme's group: %+v, %v", got, err)
		}
		for _, c := range []struct{ tenant, id uuid.UUID }{{beta.ID, g.ID}, {acme.ID, uuid.New()}} {
			if got, err := tx.LockGroup(ctx, c.tenant, c.id); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("group %s in %s: %+v, %v; want ErrNotFound", c.id, c.tenant, got, err)
			}
		}
	})
}

func TestVersionsPageABasesPublishedRecordsNewestFirst(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		b, draft := newPolicy(t, s)
		// Versions 1 to 5 are added out of order; the draft stays.
		inTx(t, s, func(tx storage.Tx) error {
			for _, v := range []int{3, 1, 5, 2, 4} {
				if _, err := tx.CreateRecord(ctx, &ent.Record{BaseID: b.ID, OrganizationID: b.OrganizationID, Kind: record.KindPolicy,
					Status: record.StatusPublished, Version: new(v), Name: "p", CreatedBy: b.CreatedBy, CreatedAt: at, UpdatedAt: at, PublishedAt: &at}); err != nil {
					return err
				}
			}
			return nil
		})
		versions := func(before, limit int) []int {
			var out []int
			for _, r := range must[[]*ent.Record](t)(s.Versions(ctx, b.ID, before, limit)) {
				if r.ID == draft.ID || r.BaseID != b.ID {
					t.Errorf("record %+v is no version of the base", r)
				}
				out = append(out, *r.Version)
			}
			return out
		}
		for _, c := range []struct {
			before, limit int
			want          []int
		}{{0, 2, []int{5, 4}}, {4, 2, []int{3, 2}}, {2, 2, []int{1}}, {0, 10, []int{5, 4, 3, 2, 1}}, {1, 10, nil}} {
			if got := versions(c.before, c.limit); !slices.Equal(got, c.want) {
				t.Errorf("before %d, at most %d: %v, want %v", c.before, c.limit, got, c.want)
			}
		}
	})
}

func TestATransactionThatFailsLeavesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		refused := errors.New("refused")
		committed := false
		var org *ent.Organization
		err := s.InTx(ctx, func(tx storage.Tx) error {
			org = must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Acme"))
			tx.OnCommit(func() { committed = true })
			return refused
		})
		if err != refused || committed {
			t.Errorf("InTx returned %v, ran the commit hook: %v; want fn's error, and no hook", err, committed)
		}
		if _, err := s.Organization(ctx, org.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the organization of a rolled back transaction: %v, want ErrNotFound", err)
		}
		inTx(t, s, func(tx storage.Tx) error {
			_, err := tx.CreateOrganization(ctx, "Acme")
			tx.OnCommit(func() { committed = true })
			return err
		})
		if !committed {
			t.Error("a committed transaction did not run its commit hook")
		}
		err = s.InTx(ctx, func(tx storage.Tx) error {
			_, err := tx.CreateOrganization(ctx, "Acme")
			return err
		})
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a second organization named Acme: %v, want ErrConflict", err)
		}
	})
}

// inTwoTenants runs fn in a transaction of each store that holds two
// organizations, Acme and Beta.
func inTwoTenants(t *testing.T, fn func(t *testing.T, ctx context.Context, tx storage.Tx, acme, beta *ent.Organization)) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		inTx(t, s, func(tx storage.Tx) error {
			acme := must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Acme"))
			beta := must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Beta"))
			fn(t, ctx, tx, acme, beta)
			return nil
		})
	})
}

// FindOrCreateUser finds the user with the email, as it is, or creates it,
// and leaves the transaction usable either way: on PostgreSQL the unique
// violation of creating the user again would abort it.
func TestFindOrCreateUserFindsTheUserOrCreatesIt(t *testing.T) {
	inTwoTenants(t, func(t *testing.T, ctx context.Context, tx storage.Tx, acme, beta *ent.Organization) {
		ed := must[*ent.User](t)(tx.CreateUser(ctx, "ed@x.test", "Ed"))
		if got, err := tx.FindOrCreateUser(ctx, "ed@x.test", "Edward"); err != nil || got.ID != ed.ID || got.Name != "Ed" {
			t.Errorf("an existing user: %+v, %v; want %+v", got, err, ed)
		}
		bo := must[*ent.User](t)(tx.FindOrCreateUser(ctx, "bo@x.test", "Bo"))
		if bo.ID == uuid.Nil || bo.ID == ed.ID || bo.Email != "bo@x.test" || bo.Name != "Bo" {
			t.Errorf("a new user: %+v", bo)
		}
		if again := must[*ent.User](t)(tx.FindOrCreateUser(ctx, "bo@x.test", "")); again.ID != bo.ID {
			t.Errorf("the new user again: %+v, want %+v", again, bo)
		}
		must[*ent.Membership](t)(tx.CreateMembership(ctx, &ent.Membership{UserID: ed.ID, OrganizationID: acme.ID, Role: membership.RoleEditor, CreatedAt: at}))
		if got := must[*ent.User](t)(tx.UserByEmail(ctx, "bo@x.test")); got.ID != bo.ID {
			t.Errorf("bo read back: %+v, want %+v", got, bo)
		}
	})
}

func TestCountAdminsCountsTheTenantsAdmins(t *testing.T) {
	inTwoTenants(t, func(t *testing.T, ctx context.Context, tx storage.Tx, acme, beta *ent.Organization) {
		for i, m := range []struct {
			org  uuid.UUID
			role membership.Role
		}{{acme.ID, membership.RoleAdmin}, {acme.ID, membership.RoleEditor}, {beta.ID, membership.RoleAdmin}, {acme.ID, membership.RoleAdmin}} {
			u := must[*ent.User](t)(tx.CreateUser(ctx, string(rune('a'+i))+"@x.test", ""))
			must[*ent.Membership](t)(tx.CreateMembership(ctx, &ent.Membership{UserID: u.ID, OrganizationID: m.org, Role: m.role, CreatedAt: at}))
		}
		if err := tx.LockRoles(ctx, acme.ID); err != nil {
			t.Fatal(err)
		}
		if n, err := tx.CountAdmins(ctx, acme.ID); n != 2 || err != nil {
			t.Errorf("Acme's admins: %d, %v; want 2", n, err)
		}
	})
}

func TestLockMemberFindsAMemberOfTheTenantOnly(t *testing.T) {
	inTwoTenants(t, func(t *testing.T, ctx context.Context, tx storage.Tx, acme, beta *ent.Organization) {
		ed := must[*ent.User](t)(tx.CreateUser(ctx, "ed@x.test", "Ed"))
		bo := must[*ent.User](t)(tx.CreateUser(ctx, "bo@x.test", "Bo"))
		m := must[*ent.Membership](t)(tx.CreateMembership(ctx, &ent.Membership{UserID: ed.ID, OrganizationID: acme.ID, Role: membership.RoleEditor, CreatedAt: at}))
		must[*ent.Membership](t)(tx.CreateMembership(ctx, &ent.Membership{UserID: bo.ID, OrganizationID: beta.ID, Role: membership.RoleAdmin, CreatedAt: at}))
		for _, who := range []storage.MemberRef{{UserID: ed.ID}, {Email: "ed@x.test"}} {
			got, err := tx.LockMember(ctx, acme.ID, who)
			if err != nil || got.ID != m.ID || got.Edges.User == nil || got.Edges.User.Email != "ed@x.test" {
				t.Errorf("%+v in Acme: %+v, %v", who, got, err)
			}
		}
		for _, who := range []storage.MemberRef{{UserID: bo.ID}, {Email: "bo@x.test"}, {UserID: uuid.New()}} {
			if got, err := tx.LockMember(ctx, acme.ID, who); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("%+v, a member of Beta or nobody, in Acme: %+v, %v; want ErrNotFound", who, got, err)
			}
		}
	})
}

func TestEventsReadNewestFirstFromAPosition(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		var tenant, actor uuid.UUID
		inTx(t, s, func(tx storage.Tx) error {
			tenant = must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Acme")).ID
			other := must[*ent.Organization](t)(tx.CreateOrganization(ctx, "Beta")).ID
			actor = uuid.New()
			var ids storage.EventIDs
			event := func(org uuid.UUID, minute int, action auditevent.Action) *ent.AuditEvent {
				when := at.Add(time.Duration(minute) * time.Minute)
				return &ent.AuditEvent{ID: ids.At(when), OrganizationID: org, At: when, Action: action,
					Kind: auditevent.KindPolicy, ActorKind: auditevent.ActorKindUser, ActorID: actor, Details: map[string]any{"n": minute}}
			}
			return tx.AppendEvents(ctx, event(tenant, 1, auditevent.ActionCreated), event(tenant, 3, auditevent.ActionEdited),
				event(other, 2, auditevent.ActionCreated), event(tenant, 2, auditevent.ActionCreated), event(tenant, 2, auditevent.ActionEdited))
		})
		minutes := func(evs []*ent.AuditEvent) []time.Duration {
			var out []time.Duration
			for _, ev := range evs {
				out = append(out, ev.At.Sub(at)/time.Minute)
			}
			return out
		}
		events := func(f storage.EventFilter, limit int) ([]*ent.AuditEvent, *storage.Position) {
			t.Helper()
			evs, scanned, err := s.Events(ctx, f, limit)
			if err != nil {
				t.Fatal(err)
			}
			return evs, scanned
		}
		all, _ := events(storage.EventFilter{Tenant: tenant}, 10)
		if got := minutes(all); !slices.Equal(got, []time.Duration{3, 2, 2, 1}) || all[1].ID.String() < all[2].ID.String() {
			t.Fatalf("the log reads %v, want minutes 3, 2, 2, 1, ties newest id first", got)
		}
		pos := func(ev *ent.AuditEvent) *storage.Position { return &storage.Position{At: ev.At, ID: ev.ID} }
		page, _ := events(storage.EventFilter{Tenant: tenant, Before: pos(all[1])}, 2)
		if len(page) != 2 || page[0].ID != all[2].ID || page[1].ID != all[3].ID {
			t.Errorf("after the second event: %v", minutes(page))
		}
		// No index of a database holds an action: with Scan, a page examines
		// that many of the tenant's events and says where it stopped.
		// Memory has no walk to bound.
		edited := storage.EventFilter{Tenant: tenant, Action: auditevent.ActionEdited, Scan: 1}
		if _, inMemory := s.(*memstore.Store); !inMemory {
			if page, scanned := events(edited, 5); len(page) != 1 || page[0].ID != all[0].ID || !reflect.DeepEqual(scanned, pos(all[0])) {
				t.Errorf("edited, reading one event: %v, stopped at %+v", minutes(page), scanned)
			}
			edited.Before = pos(all[0])
			want := 0
			if all[1].Action == auditevent.ActionEdited {
				want = 1
			}
			if page, scanned := events(edited, 5); len(page) != want || !reflect.DeepEqual(scanned, pos(all[1])) {
				t.Errorf("edited after the first, reading one event: %v, stopped at %+v; want %d events", minutes(page), scanned, want)
			}
		}
		edited.Before = pos(all[0])
		edited.Scan = 0
		if page, scanned := events(edited, 5); len(page) != 1 || scanned != nil {
			t.Errorf("edited after the first: %v, stopped at %+v; want the other edit", minutes(page), scanned)
		}
		since := at.Add(2 * time.Minute)
		created := storage.EventFilter{Tenant: tenant, Action: auditevent.ActionCreated, Actor: &actor, Since: &since}
		if n, err := s.CountEvents(ctx, created); n != 1 || err != nil {
			t.Errorf("created since minute 2: %d, %v; want 1", n, err)
		}
		if ev, err := s.Event(ctx, tenant, all[0].ID); err != nil || ev.Details["n"] == nil {
			t.Errorf("event by id: %+v, %v", ev, err)
		}
		if _, err := s.Event(ctx, uuid.New(), all[0].ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("another tenant's event: %v, want ErrNotFound", err)
		}
	})
}

func TestDecisionsAreStoredOnceAndExpire(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		b, draft := newPolicy(t, s)
		// A day apart: PostgreSQL expires whole days.
		decision := func(day int, result bool) *ent.DecisionRecord {
			return &ent.DecisionRecord{ID: uuid.Must(uuid.NewV7()), OrganizationID: b.OrganizationID, Kind: decisionrecord.KindPolicy,
				BaseID: b.ID, RecordID: draft.ID, Revision: 1, At: at.AddDate(0, 0, day), Result: result,
				Explanation: "why", DurationNs: 1000, ActorKind: decisionrecord.ActorKindUser, ActorID: b.CreatedBy, Input: `{"a":1}`}
		}
		rows := []*ent.DecisionRecord{decision(1, true), decision(2, false), decision(3, true)}
		for range 2 {
			if err := s.InsertDecisions(ctx, rows); err != nil {
				t.Fatal(err)
			}
		}
		decisions := func(f storage.DecisionFilter) []*ent.DecisionRecord {
			t.Helper()
			rows, scanned, err := s.Decisions(ctx, f, 10)
			if err != nil || scanned != nil {
				t.Fatalf("reading decisions: %v, stopped at %+v", err, scanned)
			}
			return rows
		}
		all := decisions(storage.DecisionFilter{Tenant: b.OrganizationID})
		if len(all) != 3 || all[0].ID != rows[2].ID || all[2].ID != rows[0].ID || all[0].Input != `{"a":1}` {
			t.Fatalf("stored twice, read %d records newest first: %+v", len(all), all)
		}
		yes := true
		f := storage.DecisionFilter{Tenant: b.OrganizationID, BaseID: &b.ID, Kind: decisionrecord.KindPolicy, Result: &yes,
			Before: &storage.Position{At: rows[2].At, ID: rows[2].ID}}
		if page := must[[]*ent.DecisionRecord](t)(s.DecisionInputs(ctx, f, 10)); len(page) != 1 || page[0].ID != rows[0].ID || page[0].Input != `{"a":1}` {
			t.Errorf("true results before the newest: %+v", page)
		}
		if n, err := s.CountDecisions(ctx, f); n != 2 || err != nil {
			t.Errorf("counting true results: %d, %v; want 2, the position aside", n, err)
		}
		if _, err := s.Decision(ctx, uuid.New(), rows[0].ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("another tenant's record: %v, want ErrNotFound", err)
		}
		cutoff := dayparts.Day(rows[2].At).Add(6 * time.Hour)
		if n, err := s.ExpireDecisions(ctx, time.Now(), cutoff); n != 2 || err != nil {
			t.Errorf("expiring the days before the newest's: %d, %v; want 2", n, err)
		}
		if left := decisions(storage.DecisionFilter{Tenant: b.OrganizationID}); len(left) != 1 || left[0].ID != rows[2].ID {
			t.Errorf("left %+v, want the newest", left)
		}
	})
}

func TestRecordingsReadTheSettingsOfTheBasesAskedFor(t *testing.T) {
	eachStore(t, func(t *testing.T, s storage.Store) {
		ctx := context.Background()
		recording, _ := newPolicy(t, s)
		var silent *ent.Base
		inTx(t, s, func(tx storage.Tx) error {
			silent = must[*ent.Base](t)(tx.CreateBase(ctx, &ent.Base{OrganizationID: recording.OrganizationID, Kind: base.KindPolicy,
				Name: "q", OwnerKind: base.OwnerKindUser, OwnerID: recording.OwnerID, CreatedBy: recording.CreatedBy, CreatedAt: at, UpdatedAt: at}))
			_, _, err := tx.SetDecisions(ctx, recording, true, 0.5, []string{"$.Person.ssn"}, at)
			return err
		})
		gone := uuid.New()
		got := must[map[uuid.UUID]storage.Recording](t)(s.Recordings(ctx, []uuid.UUID{recording.ID, silent.ID, gone}))
		if r, ok := got[recording.ID]; !ok || !r.Enabled || !slices.Equal(r.Mask, []string{"$.Person.ssn"}) {
			t.Errorf("the recording base: %+v, %v", r, ok)
		}
		if r, ok := got[silent.ID]; !ok || r.Enabled || len(r.Mask) != 0 {
			t.Errorf("the base that records nothing: %+v, %v", r, ok)
		}
		if r, ok := got[gone]; ok || len(got) != 2 {
			t.Errorf("a base never stored: %+v; %d bases read, want 2", r, len(got))
		}
	})
}
