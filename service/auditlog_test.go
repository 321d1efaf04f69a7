package service_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

// auditor adds an auditor to Acme and returns a context acting as them.
func (f *fixture) auditor(t *testing.T) context.Context {
	t.Helper()
	ctx := context.Background()
	op := f.svc.Operator()
	if _, err := op.CreateUser(ctx, "auditor@acme.test", "Aud"); err != nil {
		t.Fatal(err)
	}
	if err := op.AddMember(ctx, f.acme.Organization.ID, "auditor@acme.test", authz.RoleAuditor); err != nil {
		t.Fatal(err)
	}
	k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: "auditor@acme.test", Scope: authz.ScopeAdmin})
	if err != nil {
		t.Fatal(err)
	}
	return f.as(t, k.Secret, "")
}

// waitForLog waits until the tenant's log holds n events besides those of
// the members and keys the fixture made as the operator: runs store theirs
// a few milliseconds after they answer.
func (f *fixture) waitForLog(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := audittest.Count(t, f.db, audittest.Filter{Tenant: &f.acme.Organization.ID, ExceptOperator: true})
		if got == n {
			return
		}
		if got > n || time.Now().After(deadline) {
			t.Fatalf("%d audit events stored, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readLog reads every page of the log.
func (f *fixture) readLog(t *testing.T, ctx context.Context, flt service.AuditFilter, limit int) []service.AuditEvent {
	t.Helper()
	var out []service.AuditEvent
	o := service.ListOptions{Limit: limit}
	for {
		page, err := f.svc.AuditEvents(ctx, flt, o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
		if page.NextCursor == "" {
			return out
		}
		o.Cursor = page.NextCursor
	}
}

// bySetup reports an event of the operator, who makes the fixture's
// members and keys.
func bySetup(ev service.AuditEvent) bool { return ev.Actor.Kind == service.ActorOperator }

// withoutSetup are the events the API's callers caused.
func withoutSetup(evs []service.AuditEvent) []service.AuditEvent {
	return slices.DeleteFunc(slices.Clone(evs), bySetup)
}

func actions(evs []service.AuditEvent) []service.AuditAction {
	var out []service.AuditAction
	for _, ev := range evs {
		out = append(out, ev.Action)
	}
	return out
}

func eventIDs(evs []service.AuditEvent) []uuid.UUID {
	var out []uuid.UUID
	for _, ev := range evs {
		out = append(out, ev.ID)
	}
	return out
}

func TestTheAuditLogIsReadByAdminsAndAuditorsOnly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		auditor := f.auditor(t)
		if _, err := f.svc.CreateGroup(as["editor"], service.GroupChanges{Name: ptr("Acme's")}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.CreateGroup(as["other tenant"], service.GroupChanges{Name: ptr("Beta's")}); err != nil {
			t.Fatal(err)
		}
		for _, who := range []string{"viewer", "editor", "publisher"} {
			_, err := f.svc.AuditEvents(as[who], service.AuditFilter{}, service.ListOptions{})
			wantCode(t, err, service.CodePermissionDenied)
		}
		for who, ctx := range map[string]context.Context{"admin": as["admin"], "auditor": auditor} {
			evs := withoutSetup(f.readLog(t, ctx, service.AuditFilter{}, 0))
			if len(evs) != 1 || evs[0].Details["name"] != "Acme's" {
				t.Errorf("%s reads %+v, want Acme's one event", who, evs)
			}
		}
		theirs := withoutSetup(f.readLog(t, as["other tenant"], service.AuditFilter{}, 0))
		if len(theirs) != 1 || theirs[0].Details["name"] != "Beta's" {
			t.Errorf("the other tenant reads %+v", theirs)
		}

		// An admin key with a lower scope acts with that scope.
		k, err := f.svc.Operator().CreateKey(context.Background(), service.KeyInput{
			Organization: f.acme.Organization.ID, UserEmail: "admin@acme.test", Scope: authz.ScopePublish})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.AuditEvents(f.as(t, k.Secret, ""), service.AuditFilter{}, service.ListOptions{})
		wantCode(t, err, service.CodePermissionDenied)
	})
}

func TestTheAuditLogRecordsTheLifecycleAndFilters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		editor, admin := as["editor"], as["admin"]
		start := *f.clock
		tick := func() time.Time {
			*f.clock = f.clock.Add(time.Minute)
			return *f.clock
		}

		tick()
		pol, err := f.svc.CreatePolicy(editor, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		tick()
		if _, err := f.svc.UpdatePolicyDraft(editor, pol.ID, service.Changes{Description: ptr("d"), Tests: tests()}); err != nil {
			t.Fatal(err)
		}
		published := tick()
		v1, err := f.svc.PublishPolicy(admin, pol.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		tick()
		res, err := f.svc.RunPolicy(editor, pol.BaseID, json.RawMessage(`{"Person": {"age": 70}}`))
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
		tick()
		g, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Pricing")})
		if err != nil {
			t.Fatal(err)
		}
		tick()
		if _, err := f.svc.AddGroupMember(editor, g.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: pol.BaseID}); err != nil {
			t.Fatal(err)
		}
		orgKey, err := f.svc.Operator().CreateKey(context.Background(), service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeAdmin})
		if err != nil {
			t.Fatal(err)
		}
		deleted := tick()
		if err := f.svc.DeletePolicy(f.as(t, orgKey.Secret, ""), pol.BaseID); err != nil {
			t.Fatal(err)
		}
		f.waitForLog(t, 7)

		all := withoutSetup(f.readLog(t, admin, service.AuditFilter{}, 0))
		wantActions := []service.AuditAction{"deleted", "assigned", "created", "executed", "published", "edited", "created"}
		if !slices.Equal(actions(all), wantActions) {
			t.Fatalf("the log reads %v, want %v, newest first", actions(all), wantActions)
		}
		del, assign, groupCreated, executed, pub, edited, created := all[0], all[1], all[2], all[3], all[4], all[5], all[6]
		editorID := actorOf(t, editor)
		checks := []struct {
			name string
			ev   service.AuditEvent
			want service.AuditEvent
		}{
			{"created", created, service.AuditEvent{Kind: "policy", BaseID: &pol.BaseID, RecordID: &pol.ID,
				Actor: service.Actor{Kind: "user", ID: editorID}, Details: map[string]any{"name": "senior"}}},
			{"edited", edited, service.AuditEvent{Kind: "policy", BaseID: &pol.BaseID, RecordID: &pol.ID,
				Actor: service.Actor{Kind: "user", ID: editorID}, Details: map[string]any{"revision": float64(2), "fields": []any{"description", "tests"}}}},
			{"published", pub, service.AuditEvent{Kind: "policy", BaseID: &pol.BaseID, RecordID: &v1.ID,
				Actor: service.Actor{Kind: "user", ID: f.acme.User.ID}, Details: map[string]any{"version": float64(1)}}},
			{"group created", groupCreated, service.AuditEvent{Kind: "group", GroupID: &g.ID,
				Actor: service.Actor{Kind: "user", ID: editorID}, Details: map[string]any{"name": "Pricing"}}},
			{"assigned", assign, service.AuditEvent{Kind: "policy", BaseID: &pol.BaseID, GroupID: &g.ID,
				Actor: service.Actor{Kind: "user", ID: editorID}, Details: assign.Details}},
			{"deleted", del, service.AuditEvent{Kind: "policy", BaseID: &pol.BaseID,
				Actor: service.Actor{Kind: "key", ID: orgKey.ID}, Details: map[string]any{"name": "senior"}}},
		}
		for _, c := range checks {
			got, want := c.ev, c.want
			if got.Kind != want.Kind || !sameID(got.BaseID, want.BaseID) || !sameID(got.RecordID, want.RecordID) ||
				!sameID(got.GroupID, want.GroupID) || got.Actor != want.Actor || !jsonEqual(t, got.Details, want.Details) {
				t.Errorf("%s event %+v\nwant %+v", c.name, got, want)
			}
		}
		if assign.Details["direction"] != "added" {
			t.Errorf("assigned details %v", assign.Details)
		}
		if !pub.At.Equal(published) || !del.At.Equal(deleted) {
			t.Errorf("published at %v, deleted at %v; want %v and %v", pub.At, del.At, published, deleted)
		}
		if executed.Kind != "policy" || !sameID(executed.RecordID, &v1.ID) || executed.Details["result"] != true ||
			executed.Details["version"] != float64(1) || executed.Details["durationNs"] == nil {
			t.Errorf("executed event %+v", executed)
		}

		justAfterPublished := published.Add(100 * time.Nanosecond)
		// Past the last time RFC 3339 writes once in UTC: year 10000.
		yearTenThousand := time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -3600))
		roundedPast := time.Date(9999, 12, 31, 23, 59, 59, 999999100, time.UTC)
		filters := []struct {
			name string
			f    service.AuditFilter
			want []service.AuditEvent
		}{
			{"by action", service.AuditFilter{Action: service.AuditPublished}, []service.AuditEvent{pub}},
			{"by kind", service.AuditFilter{Kind: service.AuditGroup}, []service.AuditEvent{groupCreated}},
			{"by base", service.AuditFilter{BaseID: &pol.BaseID}, []service.AuditEvent{del, assign, executed, pub, edited, created}},
			{"by a user", service.AuditFilter{Actor: &f.acme.User.ID}, []service.AuditEvent{pub}},
			{"by a key", service.AuditFilter{Actor: &orgKey.ID}, []service.AuditEvent{del}},
			{"since, inclusive", service.AuditFilter{Since: &published}, []service.AuditEvent{del, assign, groupCreated, executed, pub}},
			{"until, exclusive", service.AuditFilter{Until: &published}, []service.AuditEvent{edited, created}},
			{"since and until", service.AuditFilter{Since: &published, Until: &deleted}, []service.AuditEvent{assign, groupCreated, executed, pub}},
			{"several at once", service.AuditFilter{Action: service.AuditCreated, Kind: service.AuditPolicy, Actor: &editorID}, []service.AuditEvent{created}},
			{"nothing matching", service.AuditFilter{Until: &start}, nil},
			{"since, finer than a microsecond after an event", service.AuditFilter{Since: &justAfterPublished}, []service.AuditEvent{del, assign, groupCreated, executed}},
			{"until, finer than a microsecond after an event", service.AuditFilter{Until: &justAfterPublished}, []service.AuditEvent{pub, edited, created}},
			{"until in year 10000", service.AuditFilter{Action: service.AuditPublished, Until: &yearTenThousand}, []service.AuditEvent{pub}},
			{"until rounded up past year 9999", service.AuditFilter{Action: service.AuditPublished, Until: &roundedPast}, []service.AuditEvent{pub}},
			{"since in year 10000", service.AuditFilter{Since: &yearTenThousand}, nil},
		}
		for _, tc := range filters {
			got := withoutSetup(f.readLog(t, admin, tc.f, 2))
			if !slices.Equal(eventIDs(got), eventIDs(tc.want)) {
				t.Errorf("%s: %v, want %v", tc.name, actions(got), actions(tc.want))
			}
		}

		later := published.Add(time.Second)
		members, err := f.svc.Members(admin, service.ListOptions{Limit: 1})
		if err != nil || members.NextCursor == "" {
			t.Fatalf("the first page of members: %+v, %v", members, err)
		}
		badCursor := members.NextCursor
		// A cursor of this list whose time no calendar writes.
		page, err := f.svc.AuditEvents(admin, service.AuditFilter{}, service.ListOptions{Limit: 1})
		if err != nil || page.NextCursor == "" {
			t.Fatalf("the first page of the log: %+v, %v", page, err)
		}
		forged, err := base64.RawURLEncoding.DecodeString(page.NextCursor)
		if err != nil {
			t.Fatal(err)
		}
		binary.BigEndian.PutUint64(forged[len(forged)-24:], 1<<63)
		farCursor := base64.RawURLEncoding.EncodeToString(forged)
		refused := []struct {
			name string
			f    service.AuditFilter
			o    service.ListOptions
		}{
			{"an unknown action", service.AuditFilter{Action: "viewed"}, service.ListOptions{}},
			{"an unknown kind", service.AuditFilter{Kind: "organization"}, service.ListOptions{}},
			{"until before since", service.AuditFilter{Since: &later, Until: &published}, service.ListOptions{}},
			{"until equal to since", service.AuditFilter{Since: &published, Until: &published}, service.ListOptions{}},
			{"a limit of 201", service.AuditFilter{}, service.ListOptions{Limit: 201}},
			{"a negative limit", service.AuditFilter{}, service.ListOptions{Limit: -1}},
			{"a cursor of another list", service.AuditFilter{}, service.ListOptions{Cursor: badCursor}},
			{"a cursor that is not one", service.AuditFilter{}, service.ListOptions{Cursor: "%%%"}},
			{"a cursor of a time before any calendar", service.AuditFilter{}, service.ListOptions{Cursor: farCursor}},
			{"a name query", service.AuditFilter{}, service.ListOptions{Query: "x"}},
			{"a group", service.AuditFilter{}, service.ListOptions{GroupID: &g.ID}},
		}
		for _, tc := range refused {
			_, err := f.svc.AuditEvents(admin, tc.f, tc.o)
			if service.CodeOf(err) != service.CodeInvalidArgument {
				t.Errorf("%s: %v, want invalid_argument", tc.name, err)
			}
		}
		// The id of a record, where the base's goes, is named as one; the
		// decisions take their base's id alike.
		want := fmt.Sprintf("baseId %s is the id of a record of policy %s; give the base id", v1.ID, pol.BaseID)
		_, err = f.svc.AuditEvents(admin, service.AuditFilter{BaseID: &v1.ID}, service.ListOptions{})
		if e, _ := errors.AsType[*service.Error](err); e == nil || e.Code != service.CodeInvalidArgument || e.Message != want {
			t.Errorf("a record's id as the base: %v, want %q", err, want)
		}
		_, err = f.svc.Decisions(admin, service.DecisionFilter{BaseID: &v1.ID}, service.ListOptions{})
		if e, _ := errors.AsType[*service.Error](err); e == nil || e.Code != service.CodeInvalidArgument || e.Message != want {
			t.Errorf("a record's id as the decisions' base: %v, want %q", err, want)
		}
		// Another tenant's record is no one's base here: nothing is found.
		beta := as["other tenant"]
		theirs, err := f.svc.CreatePolicy(beta, service.Changes{Name: ptr("theirs"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.readLog(t, admin, service.AuditFilter{BaseID: &theirs.ID}, 2); len(got) != 0 {
			t.Errorf("another tenant's record as the base: %v", actions(got))
		}
	})
}

// A publish that changes the draft as it publishes it says in its event
// what it changed, as an edit does; one that changes nothing says only the
// version.
func TestAPublishThatChangesTheDraftSaysWhatItChanged(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		name, rule := "senior", seniorRule
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: &name, Rule: &rule})
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(seniorRule, "65", "60", 1)
		if _, err := f.svc.PublishPolicy(admin, pol.ID, service.Changes{Rule: &changed, Description: ptr("lowered")}); err != nil {
			t.Fatal(err)
		}
		draft, err := f.svc.PolicyDraftFromVersion(admin, pol.BaseID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(admin, draft.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		published := f.readLog(t, admin, service.AuditFilter{Action: service.AuditPublished}, 0)
		if len(published) != 2 {
			t.Fatalf("%d published events, want 2", len(published))
		}
		if want := map[string]any{"version": float64(2)}; !jsonEqual(t, published[0].Details, want) {
			t.Errorf("a publish without changes: details %v, want %v", published[0].Details, want)
		}
		if want := map[string]any{"version": float64(1), "fields": []any{"description", "rule"}}; !jsonEqual(t, published[1].Details, want) {
			t.Errorf("a publish with changes: details %v, want %v", published[1].Details, want)
		}
	})
}

func sameID(a, b *uuid.UUID) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// jsonEqual compares two values as JSON documents, whatever Go types
// stand for them (a struct, or the map it was stored as).
func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	return canonicalJSON(t, a) == canonicalJSON(t, b)
}

func canonicalJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	raw, err = json.Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestAuditPagesNeitherRepeatNorSkipWhileEventsArrive(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := f.team(t)["editor"]
		admin := f.as(t, adminKey, "")
		// Events in bursts that share a time, so pages break inside them and
		// the id decides.
		for burst := 0; burst < 4; burst++ {
			for i := 0; i < 3; i++ {
				if _, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("g")}); err != nil {
					t.Fatal(err)
				}
			}
			*f.clock = f.clock.Add(time.Second)
		}
		before := f.readLog(t, admin, service.AuditFilter{}, 200)
		if n := len(withoutSetup(before)); n != 12 {
			t.Fatalf("%d events besides the setup's, want 12", n)
		}

		var paged []service.AuditEvent
		o := service.ListOptions{Limit: 5}
		for pages := 0; ; pages++ {
			page, err := f.svc.AuditEvents(admin, service.AuditFilter{}, o)
			if err != nil {
				t.Fatal(err)
			}
			paged = append(paged, page.Items...)
			if page.NextCursor == "" {
				break
			}
			o.Cursor = page.NextCursor
			// Between pages, new events: at the time of the newest ones and
			// later.
			for i := 0; i < 3; i++ {
				if _, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("new")}); err != nil {
					t.Fatal(err)
				}
			}
			*f.clock = f.clock.Add(time.Second)
		}
		if !slices.Equal(eventIDs(paged), eventIDs(before)) {
			t.Errorf("paging while events arrive read\n%v\nwant\n%v", eventIDs(paged), eventIDs(before))
		}
		for i := 1; i < len(paged); i++ {
			if paged[i].At.After(paged[i-1].At) {
				t.Errorf("event %d is newer than event %d", i, i-1)
			}
		}
	})
}

func TestAnExecutedEventIsFoundByItsIDInItsTenantOnly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		// The service's clock is years from the real one, and steps back an
		// hour between the runs, as a server's clock may be set back: each
		// event is still found by its id.
		for _, step := range []time.Duration{0, -time.Hour} {
			*f.clock = f.clock.Add(step)
			res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(`{"Person": {"age": 70}}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Release()
		}
		f.waitForLog(t, 3)
		listed := f.readLog(t, admin, service.AuditFilter{Action: service.AuditExecuted}, 0)
		if len(listed) != 2 || listed[0].At.Sub(listed[1].At) != time.Hour {
			t.Fatalf("executed events %+v, want two, an hour apart", listed)
		}
		for _, ev := range listed {
			got, err := f.svc.AuditEvent(admin, ev.ID)
			if err != nil || !reflect.DeepEqual(*got, ev) {
				t.Fatalf("by its id: %+v, %v\nwant %+v", got, err, ev)
			}
		}
		for name, id := range map[string]uuid.UUID{"an id that exists nowhere": uuid.Must(uuid.NewV7()), "the same id": listed[0].ID} {
			_, err := f.svc.AuditEvent(as["other tenant"], id)
			wantCode(t, err, service.CodeNotFound)
			if err != nil && !strings.Contains(err.Error(), id.String()) {
				t.Errorf("another tenant's read of %s: %v", name, err)
			}
		}
		_, err = f.svc.AuditEvent(as["editor"], listed[0].ID)
		wantCode(t, err, service.CodePermissionDenied)
	})
}

// A filter by kind, or on SQLite by actor, is held by no index of the
// `executed` events, nor one by action, kind or actor of the others: a
// page walks a bounded part of the log, and may end short, or empty, with
// a cursor to where the walk stopped. Paging on still reads every matching
// event once, in order, lifecycle events among them.
func TestFilteredAuditPagesWalkABoundedPartOfTheLog(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		const scan = 4
		f := newFixtureWith(t, db, func(cfg *service.Config) { cfg.ListScan = scan })
		admin := f.as(t, adminKey, "")
		adminID, other := f.acme.User.ID, uuid.Must(uuid.NewV7())
		var runs []storage.Execution
		for i := range 40 {
			*f.clock = f.clock.Add(time.Second)
			ev := storage.Execution{ID: uuid.Must(uuid.NewV7()), Tenant: f.acme.Organization.ID, At: *f.clock,
				Kind: "policy", BaseID: uuid.New(), RecordID: uuid.New(), ActorKind: "key", ActorID: other, Result: true}
			if i%9 == 4 {
				ev.Kind = "flow"
			}
			if i%7 == 2 {
				ev.ActorKind, ev.ActorID = "user", adminID
			}
			runs = append(runs, ev)
			if i%10 == 5 {
				// Lifecycle events of the admin among the runs: a group
				// created, then edited twice.
				g, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr(fmt.Sprint("g", i))})
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range []string{"h", "k"} {
					if _, err := f.svc.UpdateGroup(admin, g.ID, service.GroupChanges{Name: ptr(fmt.Sprint(name, i))}); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := f.store.InsertExecutions(context.Background(), runs); err != nil {
			t.Fatal(err)
		}
		whole := f.readLog(t, admin, service.AuditFilter{}, 200)
		// shortPages: whether pages end short of their limit: always for a
		// rare match whose walks are bounded, and otherwise as the walks
		// fall. PostgreSQL indexes the actors of `executed` events.
		const some, either = "some", "either"
		sqliteOnly := func(s string) string {
			if db.Dialect() == dialect.Postgres {
				return either
			}
			return s
		}
		for _, c := range []struct {
			name       string
			filter     service.AuditFilter
			matches    func(service.AuditEvent) bool
			shortPages string
		}{
			{"flow", service.AuditFilter{Kind: service.AuditFlow}, func(ev service.AuditEvent) bool { return ev.Kind == service.AuditFlow }, some},
			{"policy", service.AuditFilter{Kind: service.AuditPolicy}, func(ev service.AuditEvent) bool { return ev.Kind == service.AuditPolicy }, either},
			{"another actor", service.AuditFilter{Actor: &other}, func(ev service.AuditEvent) bool { return ev.Actor.ID == other }, sqliteOnly(either)},
			// The admin's runs are rare, and their lifecycle events fall
			// among them.
			{"the admin", service.AuditFilter{Actor: &adminID}, func(ev service.AuditEvent) bool { return ev.Actor.ID == adminID }, sqliteOnly(some)},
			// Lifecycle events are walked too: a third of them are created.
			{"created", service.AuditFilter{Action: service.AuditCreated}, func(ev service.AuditEvent) bool { return ev.Action == service.AuditCreated }, some},
			{"groups", service.AuditFilter{Kind: service.AuditGroup}, func(ev service.AuditEvent) bool { return ev.Kind == service.AuditGroup }, either},
		} {
			want := slices.DeleteFunc(slices.Clone(whole), func(ev service.AuditEvent) bool { return !c.matches(ev) })
			var got []service.AuditEvent
			short := 0
			o := service.ListOptions{Limit: 3}
			for pages := 0; ; pages++ {
				if pages > len(whole) {
					t.Fatalf("%s: more pages than events", c.name)
				}
				page, err := f.svc.AuditEvents(admin, c.filter, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Items) > o.Limit {
					t.Fatalf("%s: a page of %d events, limit %d", c.name, len(page.Items), o.Limit)
				}
				got = append(got, page.Items...)
				if page.NextCursor == "" {
					break
				}
				if len(page.Items) < o.Limit {
					short++
				}
				o.Cursor = page.NextCursor
			}
			if !slices.Equal(eventIDs(got), eventIDs(want)) {
				t.Errorf("%s: paged\n%v\nwant\n%v", c.name, eventIDs(got), eventIDs(want))
			}
			if c.shortPages == some && short == 0 {
				t.Errorf("%s: no page ended short of its limit, so no walk was bounded", c.name)
			}
		}
	})
}
