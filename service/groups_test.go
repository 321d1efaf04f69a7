package service_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/group"
	"github.com/verdict/verdict/ent/groupmember"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// storedFlow stores a published flow base of the organization directly:
// groups only look at bases, whatever their definition.
func storedFlow(t *testing.T, db *database.DB, org uuid.UUID, name string) uuid.UUID {
	t.Helper()
	b, err := db.Client().Base.Create().SetOrganizationID(org).SetKind(base.KindFlow).SetName(name).
		SetOwnerKind(base.OwnerKindOrganization).SetOwnerID(org).SetCreatedBy(org).SetLatestVersion(1).
		Save(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return b.ID
}

// events are the stored lifecycle audit events that match every one of
// match, oldest first: from the database, or from the store in memory.
func (f *fixture) events(t *testing.T, match ...func(*ent.AuditEvent) bool) []*ent.AuditEvent {
	t.Helper()
	var all []*ent.AuditEvent
	if f.mem != nil {
		all = f.mem.Appended()
	} else {
		var err error
		if all, err = f.db.Client().AuditEvent.Query().Order(auditevent.ByAt(), auditevent.ByID()).All(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return slices.DeleteFunc(all, func(ev *ent.AuditEvent) bool {
		return slices.ContainsFunc(match, func(m func(*ent.AuditEvent) bool) bool { return !m(ev) })
	})
}

func inGroup(id uuid.UUID) func(*ent.AuditEvent) bool {
	return func(ev *ent.AuditEvent) bool { return ev.GroupID != nil && *ev.GroupID == id }
}

func baseIDs(page *service.Page[service.Summary]) []uuid.UUID {
	var ids []uuid.UUID
	for _, s := range page.Items {
		ids = append(ids, s.BaseID)
	}
	return ids
}

func TestGroupsAreManagedByEditors(t *testing.T) {
	f := newMemFixture(t)
	as := f.team(t)
	editor := as["editor"]

	_, err := f.svc.CreateGroup(as["viewer"], service.GroupChanges{Name: ptr("Pricing")})
	wantCode(t, err, service.CodePermissionDenied)
	for name, c := range map[string]service.GroupChanges{
		"no name":    {Description: ptr("d")},
		"blank name": {Name: ptr("  ")},
	} {
		_, err := f.svc.CreateGroup(editor, c)
		if service.CodeOf(err) != service.CodeInvalidArgument {
			t.Errorf("a group with %s: %v, want invalid_argument", name, err)
		}
	}
	g, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Pricing"), Description: ptr("prices")})
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "Pricing" || g.Description != "prices" || !g.CreatedAt.Equal(*f.clock) || !g.UpdatedAt.Equal(*f.clock) {
		t.Errorf("created %+v", g)
	}
	for _, who := range []string{"viewer", "publisher", "admin"} {
		if got, err := f.svc.Group(as[who], g.ID); err != nil || *got != *g {
			t.Errorf("%s loads %+v, %v; want %+v", who, got, err, g)
		}
	}
	_, err = f.svc.Group(as["other tenant"], g.ID)
	wantCode(t, err, service.CodeNotFound)
	_, err = f.svc.Group(editor, uuid.New())
	wantCode(t, err, service.CodeNotFound)

	*f.clock = f.clock.Add(time.Second)
	_, err = f.svc.UpdateGroup(as["viewer"], g.ID, service.GroupChanges{Name: ptr("Mine")})
	wantCode(t, err, service.CodePermissionDenied)
	_, err = f.svc.UpdateGroup(as["other tenant"], g.ID, service.GroupChanges{Name: ptr("Mine")})
	wantCode(t, err, service.CodeNotFound)
	_, err = f.svc.UpdateGroup(editor, g.ID, service.GroupChanges{Name: ptr("")})
	wantCode(t, err, service.CodeInvalidArgument)
	unchanged, err := f.svc.UpdateGroup(editor, g.ID, service.GroupChanges{Name: ptr("Pricing")})
	if err != nil || *unchanged != *g {
		t.Errorf("an update that changes nothing gives %+v, %v; want %+v", unchanged, err, g)
	}
	renamed, err := f.svc.UpdateGroup(editor, g.ID, service.GroupChanges{Name: ptr("Prices")})
	if err != nil {
		t.Fatal(err)
	}
	if renamed.Name != "Prices" || renamed.Description != "prices" || !renamed.UpdatedAt.Equal(*f.clock) || !renamed.CreatedAt.Equal(g.CreatedAt) {
		t.Errorf("renamed %+v", renamed)
	}

	evs := f.events(t, inGroup(g.ID))
	if len(evs) != 2 {
		t.Fatalf("%d group events, want created and one edited", len(evs))
	}
	created, edited := evs[0], evs[1]
	if created.Action != auditevent.ActionCreated || created.Kind != auditevent.KindGroup || created.Details["name"] != "Pricing" ||
		created.ActorKind != auditevent.ActorKindUser || created.BaseID != nil || created.OrganizationID != f.acme.Organization.ID {
		t.Errorf("created event %+v", created)
	}
	if edited.Action != auditevent.ActionEdited || !edited.At.Equal(*f.clock) ||
		!mapsEqual(edited.Details, map[string]any{"name": map[string]any{"from": "Pricing", "to": "Prices"}}) {
		t.Errorf("edited event %+v", edited)
	}

	other, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Risk")})
	if err != nil {
		t.Fatal(err)
	}
	page, err := f.svc.Groups(as["viewer"], service.ListOptions{Limit: 1})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != other.ID || page.NextCursor == "" {
		t.Fatalf("first page %+v, %v", page, err)
	}
	page, err = f.svc.Groups(as["viewer"], service.ListOptions{Limit: 1, Cursor: page.NextCursor})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != g.ID || page.NextCursor != "" {
		t.Fatalf("second page %+v, %v", page, err)
	}
	if page, err := f.svc.Groups(editor, service.ListOptions{Query: "PRI"}); err != nil || len(page.Items) != 1 || page.Items[0].ID != g.ID {
		t.Errorf("q=PRI: %+v, %v", page, err)
	}
	if page, err := f.svc.Groups(as["other tenant"], service.ListOptions{}); err != nil || len(page.Items) != 0 {
		t.Errorf("another tenant lists %+v, %v", page, err)
	}
	_, err = f.svc.Groups(editor, service.ListOptions{GroupID: &g.ID})
	wantCode(t, err, service.CodeInvalidArgument)
}

func mapsEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if am, ok := v.(map[string]any); ok {
			bm, ok := b[k].(map[string]any)
			if !ok || !mapsEqual(am, bm) {
				return false
			}
			continue
		}
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestGroupMembership(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		editor, admin := as["editor"], as["admin"]
		g, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Pricing")})
		if err != nil {
			t.Fatal(err)
		}
		published, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("published"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(admin, published.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		mine, err := f.svc.CreatePolicy(editor, service.Changes{Name: ptr("mine"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		outside, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("outside"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		deleted, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("deleted"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.DeletePolicy(admin, deleted.BaseID); err != nil {
			t.Fatal(err)
		}
		flowID := storedFlow(t, db, f.acme.Organization.ID, "routing")
		theirs, err := f.svc.CreatePolicy(as["other tenant"], service.Changes{Name: ptr("theirs"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}

		add := func(ctx context.Context, kind authz.Kind, id uuid.UUID) (*service.GroupMember, error) {
			return f.svc.AddGroupMember(ctx, g.ID, service.GroupMemberInput{Kind: kind, BaseID: id})
		}
		m1, err := add(editor, authz.KindPolicy, published.BaseID)
		if err != nil {
			t.Fatal(err)
		}
		if m1.GroupID != g.ID || m1.BaseID != published.BaseID || m1.Kind != authz.KindPolicy || !m1.CreatedAt.Equal(*f.clock) {
			t.Errorf("membership %+v", m1)
		}
		m2, err := add(editor, authz.KindPolicy, mine.BaseID)
		if err != nil {
			t.Fatal(err)
		}
		m3, err := add(editor, authz.KindFlow, flowID)
		if err != nil {
			t.Fatal(err)
		}
		refusals := []struct {
			name string
			ctx  context.Context
			kind authz.Kind
			id   uuid.UUID
			code service.Code
		}{
			{"a base already in the group", editor, authz.KindPolicy, published.BaseID, service.CodeConflict},
			{"a viewer", as["viewer"], authz.KindPolicy, outside.BaseID, service.CodePermissionDenied},
			{"another tenant's base", editor, authz.KindPolicy, theirs.BaseID, service.CodeNotFound},
			{"a record id instead of a base id", editor, authz.KindPolicy, outside.ID, service.CodeNotFound},
			{"a policy named as a flow", editor, authz.KindFlow, outside.BaseID, service.CodeNotFound},
			{"an unknown base", editor, authz.KindPolicy, uuid.New(), service.CodeNotFound},
			{"a deleted base", editor, authz.KindPolicy, deleted.BaseID, service.CodeDeleted},
			{"a kind that is not policy or flow", editor, authz.KindGroup, outside.BaseID, service.CodeInvalidArgument},
		}
		for _, r := range refusals {
			_, err := add(r.ctx, r.kind, r.id)
			if service.CodeOf(err) != r.code {
				t.Errorf("adding %s: %v, want %s", r.name, err, r.code)
			}
		}
		_, err = f.svc.AddGroupMember(editor, uuid.New(), service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: outside.BaseID})
		wantCode(t, err, service.CodeNotFound)
		_, err = f.svc.AddGroupMember(as["other tenant"], g.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: theirs.BaseID})
		wantCode(t, err, service.CodeNotFound)
		if n := db.Client().GroupMember.Query().CountX(context.Background()); n != 3 {
			t.Fatalf("%d memberships stored, want 3", n)
		}

		// A membership found by its base: only for a base the caller may
		// see, of the kind asked for; another tenant's group is not found.
		for _, tc := range []struct {
			name string
			ctx  context.Context
			kind authz.Kind
			id   uuid.UUID
			want *service.GroupMember
		}{
			{"the editor's published policy", editor, authz.KindPolicy, published.BaseID, m1},
			{"the editor's own draft", editor, authz.KindPolicy, mine.BaseID, m2},
			{"a flow", editor, authz.KindFlow, flowID, m3},
			{"a viewer's published policy", as["viewer"], authz.KindPolicy, published.BaseID, m1},
			{"another user's draft, for a viewer", as["viewer"], authz.KindPolicy, mine.BaseID, nil},
			{"a policy outside the group", editor, authz.KindPolicy, outside.BaseID, nil},
			{"a policy named as a flow", editor, authz.KindFlow, published.BaseID, nil},
			{"an unknown base", editor, authz.KindPolicy, uuid.New(), nil},
		} {
			got, err := f.svc.GroupMembership(tc.ctx, g.ID, service.GroupMemberInput{Kind: tc.kind, BaseID: tc.id})
			if err != nil || (got == nil) != (tc.want == nil) || got != nil && (got.ID != tc.want.ID || got.BaseID != tc.id) {
				t.Errorf("membership of %s: %+v, %v; want %+v", tc.name, got, err, tc.want)
			}
		}
		_, err = f.svc.GroupMembership(as["other tenant"], g.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: published.BaseID})
		wantCode(t, err, service.CodeNotFound)
		_, err = f.svc.GroupMembership(editor, uuid.New(), service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: published.BaseID})
		wantCode(t, err, service.CodeNotFound)
		_, err = f.svc.GroupMembership(editor, g.ID, service.GroupMemberInput{Kind: authz.KindGroup, BaseID: published.BaseID})
		wantCode(t, err, service.CodeInvalidArgument)

		// Lists show what the caller may see: never another's draft, never
		// a deleted base, and only the kind asked for.
		for _, tc := range []struct {
			who  string
			want []uuid.UUID
		}{
			{"editor", []uuid.UUID{mine.BaseID, published.BaseID}},
			{"viewer", []uuid.UUID{published.BaseID}},
		} {
			page, err := f.svc.GroupPolicies(as[tc.who], g.ID, service.ListOptions{})
			if err != nil || !slices.Equal(baseIDs(page), tc.want) {
				t.Errorf("%s: group policies %v, %v; want %v", tc.who, baseIDs(page), err, tc.want)
			}
			page, err = f.svc.Policies(as[tc.who], service.ListOptions{GroupID: &g.ID})
			if err != nil || !slices.Equal(baseIDs(page), tc.want) {
				t.Errorf("%s: policies of the group %v, %v; want %v", tc.who, baseIDs(page), err, tc.want)
			}
		}
		page, err := f.svc.GroupPolicies(editor, g.ID, service.ListOptions{Limit: 1})
		if err != nil || !slices.Equal(baseIDs(page), []uuid.UUID{mine.BaseID}) || page.NextCursor == "" {
			t.Fatalf("first page %v, %v", baseIDs(page), err)
		}
		page, err = f.svc.GroupPolicies(editor, g.ID, service.ListOptions{Limit: 1, Cursor: page.NextCursor})
		if err != nil || !slices.Equal(baseIDs(page), []uuid.UUID{published.BaseID}) || page.NextCursor != "" {
			t.Fatalf("second page %v, %v", baseIDs(page), err)
		}
		if page, err := f.svc.GroupFlows(as["viewer"], g.ID, service.ListOptions{}); err != nil || !slices.Equal(baseIDs(page), []uuid.UUID{flowID}) {
			t.Errorf("group flows %v, %v", baseIDs(page), err)
		}
		for name, id := range map[string]uuid.UUID{"an unknown group": uuid.New(), "another tenant's group": g.ID} {
			ctx := editor
			if name == "another tenant's group" {
				ctx = as["other tenant"]
			}
			_, err := f.svc.GroupPolicies(ctx, id, service.ListOptions{})
			wantCode(t, err, service.CodeNotFound)
			_, err = f.svc.GroupFlows(ctx, id, service.ListOptions{})
			wantCode(t, err, service.CodeNotFound)
			_, err = f.svc.Policies(ctx, service.ListOptions{GroupID: &id})
			wantCode(t, err, service.CodeNotFound)
		}
		otherID := uuid.New()
		_, err = f.svc.GroupPolicies(editor, g.ID, service.ListOptions{GroupID: &otherID})
		wantCode(t, err, service.CodeInvalidArgument)

		// Removing.
		wantCode(t, f.svc.RemoveGroupMember(as["viewer"], g.ID, m2.ID), service.CodePermissionDenied)
		wantCode(t, f.svc.RemoveGroupMember(as["other tenant"], g.ID, m2.ID), service.CodeNotFound)
		wantCode(t, f.svc.RemoveGroupMember(editor, uuid.New(), m2.ID), service.CodeNotFound)
		*f.clock = f.clock.Add(time.Second)
		if err := f.svc.RemoveGroupMember(editor, g.ID, m2.ID); err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.RemoveGroupMember(editor, g.ID, m2.ID), service.CodeNotFound)
		if page, err := f.svc.GroupPolicies(editor, g.ID, service.ListOptions{}); err != nil || !slices.Equal(baseIDs(page), []uuid.UUID{published.BaseID}) {
			t.Errorf("after removing: %v, %v", baseIDs(page), err)
		}

		assigned := f.events(t, func(ev *ent.AuditEvent) bool { return ev.Action == auditevent.ActionAssigned })
		want := []struct {
			base      uuid.UUID
			kind      auditevent.Kind
			direction string
			member    uuid.UUID
		}{
			{published.BaseID, auditevent.KindPolicy, "added", m1.ID},
			{mine.BaseID, auditevent.KindPolicy, "added", m2.ID},
			{flowID, auditevent.KindFlow, "added", m3.ID},
			{mine.BaseID, auditevent.KindPolicy, "removed", m2.ID},
		}
		if len(assigned) != len(want) {
			t.Fatalf("%d assigned events, want %d", len(assigned), len(want))
		}
		for i, w := range want {
			ev := assigned[i]
			if *ev.BaseID != w.base || ev.Kind != w.kind || *ev.GroupID != g.ID || ev.Details["direction"] != w.direction ||
				ev.Details["memberId"] != w.member.String() || ev.Details["group"] != "Pricing" || ev.ActorID != actorOf(t, editor) {
				t.Errorf("assigned event %d: %+v, want %+v", i, ev, w)
			}
		}
		if !assigned[3].At.Equal(*f.clock) {
			t.Errorf("the removal is recorded at %v, want %v", assigned[3].At, *f.clock)
		}
	})
}

// actorOf is how audit events name the caller of ctx.
func actorOf(t *testing.T, ctx context.Context) uuid.UUID {
	t.Helper()
	p, ok := service.PrincipalFrom(ctx)
	if !ok {
		t.Fatal("the context carries no principal")
	}
	return p.ActorID()
}

// TestTheCandidatesForAGroupAreWhatItDoesNotHold: notInGroupId lists the
// policies and flows the caller may see that the group does not hold, and
// a group the caller cannot see is not found rather than filtering
// nothing.
func TestTheCandidatesForAGroupAreWhatItDoesNotHold(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		editor, admin := as["editor"], as["admin"]
		g, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Pricing")})
		if err != nil {
			t.Fatal(err)
		}
		policy := func(ctx context.Context, name string, publish bool) uuid.UUID {
			t.Helper()
			p, err := f.svc.CreatePolicy(ctx, service.Changes{Name: ptr(name), Rule: ptr(seniorRule)})
			if err != nil {
				t.Fatal(err)
			}
			if publish {
				if _, err := f.svc.PublishPolicy(admin, p.ID, service.Changes{}); err != nil {
					t.Fatal(err)
				}
			}
			return p.BaseID
		}
		member := policy(admin, "member", true)
		candidate := policy(admin, "candidate", true)
		editorsDraft := policy(editor, "editor's draft", false)
		policy(admin, "admin's draft", false)
		deleted := policy(admin, "deleted", true)
		if err := f.svc.DeletePolicy(admin, deleted); err != nil {
			t.Fatal(err)
		}
		memberFlow := storedFlow(t, db, f.acme.Organization.ID, "member flow")
		candidateFlow := storedFlow(t, db, f.acme.Organization.ID, "candidate flow")
		for _, m := range []service.GroupMemberInput{{Kind: authz.KindPolicy, BaseID: member}, {Kind: authz.KindFlow, BaseID: memberFlow}} {
			if _, err := f.svc.AddGroupMember(editor, g.ID, m); err != nil {
				t.Fatal(err)
			}
		}

		for _, tc := range []struct {
			who  string
			want []uuid.UUID
		}{
			{"editor", []uuid.UUID{editorsDraft, candidate}},
			{"viewer", []uuid.UUID{candidate}},
		} {
			page, err := f.svc.Policies(as[tc.who], service.ListOptions{NotInGroupID: &g.ID})
			if err != nil || !slices.Equal(baseIDs(page), tc.want) {
				t.Errorf("%s: policies not in the group %v, %v; want %v", tc.who, baseIDs(page), err, tc.want)
			}
		}
		flows, err := f.svc.Flows(editor, service.ListOptions{NotInGroupID: &g.ID})
		if err != nil || len(flows.Items) != 1 || flows.Items[0].BaseID != candidateFlow {
			t.Errorf("flows not in the group: %+v, %v; want only %s", flows, err, candidateFlow)
		}
		page, err := f.svc.Policies(editor, service.ListOptions{NotInGroupID: &g.ID, Query: "cand"})
		if err != nil || !slices.Equal(baseIDs(page), []uuid.UUID{candidate}) {
			t.Errorf("policies not in the group named like cand: %v, %v", baseIDs(page), err)
		}
		page, err = f.svc.Policies(editor, service.ListOptions{GroupID: &g.ID, NotInGroupID: &g.ID})
		if err != nil || len(page.Items) != 0 {
			t.Errorf("policies both in and not in the group: %v, %v", baseIDs(page), err)
		}

		for name, ctx := range map[string]context.Context{"an unknown group": editor, "another tenant's group": as["other tenant"]} {
			id := g.ID
			if name == "an unknown group" {
				id = uuid.New()
			}
			_, err := f.svc.Policies(ctx, service.ListOptions{NotInGroupID: &id})
			wantCode(t, err, service.CodeNotFound)
			_, err = f.svc.Flows(ctx, service.ListOptions{NotInGroupID: &id})
			wantCode(t, err, service.CodeNotFound)
		}
		_, err = f.svc.GroupPolicies(editor, g.ID, service.ListOptions{NotInGroupID: &g.ID})
		wantCode(t, err, service.CodeInvalidArgument)
		for what, list := range map[string]func() error{
			"members": func() error { _, err := f.svc.Members(admin, service.ListOptions{NotInGroupID: &g.ID}); return err },
			"groups":  func() error { _, err := f.svc.Groups(admin, service.ListOptions{NotInGroupID: &g.ID}); return err },
		} {
			err := list()
			wantCode(t, err, service.CodeInvalidArgument)
			if want := "invalid_argument: notInGroupId does not filter " + what; err.Error() != want {
				t.Errorf("%s: %q, want %q", what, err, want)
			}
		}
	})
}

func TestDeletingAGroupDeletesItsMembershipsInOneTransaction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		editor := as["editor"]
		ctx := context.Background()
		doomed, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Doomed")})
		if err != nil {
			t.Fatal(err)
		}
		kept, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("Kept")})
		if err != nil {
			t.Fatal(err)
		}
		pol, err := f.svc.CreatePolicy(editor, service.Changes{Name: ptr("p"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		flowID := storedFlow(t, db, f.acme.Organization.ID, "f")
		var doomedMembers []uuid.UUID
		for _, g := range []uuid.UUID{doomed.ID, kept.ID} {
			for _, in := range []service.GroupMemberInput{{Kind: authz.KindPolicy, BaseID: pol.BaseID}, {Kind: authz.KindFlow, BaseID: flowID}} {
				m, err := f.svc.AddGroupMember(editor, g, in)
				if err != nil {
					t.Fatal(err)
				}
				if g == doomed.ID {
					doomedMembers = append(doomedMembers, m.ID)
				}
			}
		}

		wantCode(t, f.svc.DeleteGroup(as["viewer"], doomed.ID), service.CodePermissionDenied)
		wantCode(t, f.svc.DeleteGroup(as["other tenant"], doomed.ID), service.CodeNotFound)
		wantCode(t, f.svc.DeleteGroup(editor, uuid.New()), service.CodeNotFound)

		// When the deletion's audit event cannot be stored, nothing of it is.
		var failAudit atomic.Bool
		auditFails := errors.New("audit store down")
		db.Client().AuditEvent.Use(func(next ent.Mutator) ent.Mutator {
			return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
				if failAudit.Load() {
					return nil, auditFails
				}
				return next.Mutate(ctx, m)
			})
		})
		failAudit.Store(true)
		if err := f.svc.DeleteGroup(editor, doomed.ID); err == nil {
			t.Fatal("the deletion succeeded without its audit event")
		}
		failAudit.Store(false)
		if n := db.Client().GroupMember.Query().Where(groupmember.GroupID(doomed.ID)).CountX(ctx); n != 2 {
			t.Fatalf("a failed deletion left %d of the group's 2 memberships", n)
		}
		if !db.Client().Group.Query().Where(group.ID(doomed.ID)).ExistX(ctx) {
			t.Fatal("a failed deletion removed the group")
		}

		*f.clock = f.clock.Add(time.Second)
		if err := f.svc.DeleteGroup(editor, doomed.ID); err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.DeleteGroup(editor, doomed.ID), service.CodeNotFound)
		_, err = f.svc.Group(editor, doomed.ID)
		wantCode(t, err, service.CodeNotFound)
		left := db.Client().GroupMember.Query().AllX(ctx)
		if len(left) != 2 || left[0].GroupID != kept.ID || left[1].GroupID != kept.ID {
			t.Errorf("memberships left: %+v, want the kept group's two", left)
		}
		if _, err := f.svc.Policy(editor, pol.BaseID); err != nil {
			t.Errorf("the group's policy went with it: %v", err)
		}

		evs := f.events(t, inGroup(doomed.ID), func(ev *ent.AuditEvent) bool { return ev.At.Equal(*f.clock) })
		if len(evs) != 3 {
			t.Fatalf("%d events for the deletion, want two removals and the deletion", len(evs))
		}
		for i, ev := range evs[:2] {
			if ev.Action != auditevent.ActionAssigned || ev.Details["direction"] != "removed" || ev.Details["memberId"] != doomedMembers[i].String() {
				t.Errorf("event %d: %+v", i, ev)
			}
		}
		if d := evs[2]; d.Action != auditevent.ActionDeleted || d.Kind != auditevent.KindGroup ||
			!mapsEqual(d.Details, map[string]any{"name": "Doomed", "members": float64(2)}) {
			t.Errorf("deleted event %+v", d)
		}
	})
}

// TestGroupChangesAtOnceEachLeaveATrueEvent: edits of one group at once
// take turns, so their events chain each name to the next; a member
// removed while its group is deleted ends with one event, from whichever
// came first.
func TestGroupChangesAtOnceEachLeaveATrueEvent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := f.team(t)["editor"]
		pol, err := f.svc.CreatePolicy(editor, service.Changes{Name: ptr("p"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		g, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr("n0")})
		if err != nil {
			t.Fatal(err)
		}
		const edits = 8
		errs := make(chan error, edits)
		for i := range edits {
			go func() {
				_, err := f.svc.UpdateGroup(editor, g.ID, service.GroupChanges{Name: ptr(fmt.Sprintf("n%d", i+1))})
				errs <- err
			}()
		}
		for range edits {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		next := map[string]string{}
		for _, ev := range f.events(t, inGroup(g.ID), func(ev *ent.AuditEvent) bool { return ev.Action == auditevent.ActionEdited }) {
			name, _ := ev.Details["name"].(map[string]any)
			from, _ := name["from"].(string)
			if _, twice := next[from]; twice {
				t.Errorf("two edits say the name was %q", from)
			}
			next[from], _ = name["to"].(string)
		}
		now, err := f.svc.Group(editor, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		name, seen := "n0", 0
		for ; next[name] != "" && seen <= edits; seen++ {
			name = next[name]
		}
		if seen != edits || name != now.Name {
			t.Errorf("the events chain n0 through %d names to %q, want %d to %q: %v", seen, name, edits, now.Name, next)
		}

		for round := range 10 {
			doomed, err := f.svc.CreateGroup(editor, service.GroupChanges{Name: ptr(fmt.Sprintf("doomed %d", round))})
			if err != nil {
				t.Fatal(err)
			}
			m, err := f.svc.AddGroupMember(editor, doomed.ID, service.GroupMemberInput{Kind: authz.KindPolicy, BaseID: pol.BaseID})
			if err != nil {
				t.Fatal(err)
			}
			removed := make(chan error, 1)
			go func() { removed <- f.svc.RemoveGroupMember(editor, doomed.ID, m.ID) }()
			if err := f.svc.DeleteGroup(editor, doomed.ID); err != nil {
				t.Fatal(err)
			}
			err = <-removed
			if err != nil && service.CodeOf(err) != service.CodeNotFound {
				t.Fatal(err)
			}
			ends := f.events(t, inGroup(doomed.ID), func(ev *ent.AuditEvent) bool {
				return ev.Action == auditevent.ActionAssigned && ev.Details["direction"] == "removed"
			})
			deleted := f.events(t, inGroup(doomed.ID), func(ev *ent.AuditEvent) bool { return ev.Action == auditevent.ActionDeleted })
			if len(ends) != 1 || len(deleted) != 1 {
				t.Fatalf("round %d: %d events end the member, %d delete the group; want one each", round, len(ends), len(deleted))
			}
			// The deletion counts the member unless the removal came first.
			if counted, want := fmt.Sprint(deleted[0].Details["members"]), map[bool]string{true: "0", false: "1"}[err == nil]; counted != want {
				t.Errorf("round %d: the removal returned %v and the deletion counts %s members, want %s", round, err, counted, want)
			}
		}
	})
}
