package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/apikey"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/membership"
	"github.com/verdict/verdict/ent/organization"
	"github.com/verdict/verdict/ent/user"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
	"github.com/verdict/verdict/storage"
)

// adminEvents are the stored events of kind member or key, oldest first,
// but for the operator's, which made the fixture's members and keys.
func (f *fixture) adminEvents(t *testing.T, kind auditevent.Kind) []*ent.AuditEvent {
	t.Helper()
	return f.events(t, func(ev *ent.AuditEvent) bool {
		return ev.Kind == kind && ev.ActorKind != auditevent.ActorKindOperator
	})
}

func (f *fixture) role(t *testing.T, userID uuid.UUID) string {
	t.Helper()
	m, err := f.store.MembershipOf(context.Background(), f.acme.Organization.ID, userID)
	if errors.Is(err, storage.ErrNotFound) {
		return ""
	} else if err != nil {
		t.Fatal(err)
	}
	return string(m.Role)
}

func emails(page *service.Page[service.Member]) []string {
	var out []string
	for _, m := range page.Items {
		out = append(out, m.User.Email+"="+string(m.Role))
	}
	return out
}

func TestAdminsManageMembers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		ctx := context.Background()

		for _, who := range []string{"viewer", "editor", "publisher"} {
			_, err := f.svc.Members(as[who], service.ListOptions{})
			wantCode(t, err, service.CodePermissionDenied)
			_, err = f.svc.AddMember(as[who], service.MemberInput{Email: "x@acme.test", Role: authz.RoleViewer})
			wantCode(t, err, service.CodePermissionDenied)
		}
		_, err := f.svc.Members(f.auditor(t), service.ListOptions{})
		wantCode(t, err, service.CodePermissionDenied)

		page, err := f.svc.Members(admin, service.ListOptions{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(emails(page), " "); got != "auditor@acme.test=auditor viewer@acme.test=viewer publisher@acme.test=publisher" || page.NextCursor == "" {
			t.Errorf("first page %s, cursor %q", got, page.NextCursor)
		}
		page, err = f.svc.Members(admin, service.ListOptions{Limit: 3, Cursor: page.NextCursor})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(emails(page), " "); got != "editor2@acme.test=editor editor@acme.test=editor admin@acme.test=admin" || page.NextCursor != "" {
			t.Errorf("second page %s, cursor %q", got, page.NextCursor)
		}
		if page, err := f.svc.Members(admin, service.ListOptions{Query: "EDITOR2"}); err != nil || len(page.Items) != 1 {
			t.Errorf("q=EDITOR2: %v, %v", emails(page), err)
		}
		if page, err := f.svc.Members(as["other tenant"], service.ListOptions{}); err != nil || strings.Join(emails(page), " ") != "boss@beta.test=admin" {
			t.Errorf("the other tenant lists %v, %v", emails(page), err)
		}

		// Adding creates the user when no user has the email.
		*f.clock = f.clock.Add(time.Minute)
		m, err := f.svc.AddMember(admin, service.MemberInput{Email: " New@Acme.TEST ", Name: "Nina", Role: authz.RoleEditor})
		if err != nil {
			t.Fatal(err)
		}
		nina := db.Client().User.Query().Where(user.Email("new@acme.test")).OnlyX(ctx)
		if m.User != (service.User{ID: nina.ID, Email: "new@acme.test", Name: "Nina"}) || m.Role != authz.RoleEditor || !m.CreatedAt.Equal(*f.clock) {
			t.Errorf("added %+v", m)
		}
		// and reuses the user who has it, showing the name this admin gave
		// and nothing of the user's own.
		boss := db.Client().User.Query().Where(user.Email("boss@beta.test")).OnlyX(ctx)
		boss = boss.Update().SetName("Bea Boss").SaveX(ctx)
		m, err = f.svc.AddMember(admin, service.MemberInput{Email: "boss@beta.test", Name: "Their boss", Role: authz.RoleAuditor})
		if err != nil || m.User != (service.User{ID: boss.ID, Email: "boss@beta.test", Name: "Their boss"}) || f.role(t, boss.ID) != "auditor" {
			t.Errorf("adding an existing user: %+v, %v", m, err)
		}
		if db.Client().User.GetX(ctx, boss.ID).Name != "Bea Boss" {
			t.Error("adding an existing user changed the user's own name")
		}
		// Nor does a key the admin makes for that member show it: through
		// it the admin is the member, as this organization knows them.
		key, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "boss's", Scope: authz.ScopeView, UserID: &boss.ID})
		if err != nil {
			t.Fatal(err)
		}
		asBoss := f.as(t, key.Secret, "")
		if v, err := f.svc.Viewer(asBoss); err != nil || v.User == nil || *v.User != (service.User{ID: boss.ID, Email: "boss@beta.test", Name: "Their boss"}) {
			t.Errorf("the member's viewer through the admin's key: %+v, %v", v, err)
		}
		if u, err := f.svc.User(asBoss, boss.ID); err != nil || u.Name != "Their boss" {
			t.Errorf("the member reading their user through the admin's key: %+v, %v", u, err)
		}
		if page, err := f.svc.Members(admin, service.ListOptions{Query: boss.Name}); err != nil || len(page.Items) != 0 {
			t.Errorf("searching the members for the user's own name %q found %v, %v", boss.Name, emails(page), err)
		}
		for name, in := range map[string]service.MemberInput{
			"a member already":   {Email: "NEW@acme.test", Role: authz.RoleViewer},
			"an unknown role":    {Email: "z@acme.test", Role: "owner"},
			"no role":            {Email: "z@acme.test"},
			"an invalid email":   {Email: "z", Role: authz.RoleViewer},
			"an email with name": {Email: "Z <z@acme.test>", Role: authz.RoleViewer},
		} {
			_, err := f.svc.AddMember(admin, in)
			want := service.CodeInvalidArgument
			if name == "a member already" {
				want = service.CodeConflict
			}
			if service.CodeOf(err) != want {
				t.Errorf("adding %s: %v, want %s", name, err, want)
			}
		}
		if db.Client().User.Query().Where(user.Email("z@acme.test")).ExistX(ctx) {
			t.Error("a refused addition created its user")
		}
		added := f.adminEvents(t, auditevent.KindMember)
		if len(added) != 2 || !jsonEqual(t, added[0].Details, map[string]any{"change": "added", "email": "new@acme.test", "role": "editor", "userId": nina.ID}) ||
			added[0].Action != auditevent.ActionEdited || added[0].ActorID != f.acme.User.ID || added[0].OrganizationID != f.acme.Organization.ID {
			t.Errorf("member events %+v", added)
		}
	})
}

// member adds a user with a role and an admin-scoped key to Acme, and
// returns the key's secret and the user's id.
func (f *fixture) member(t *testing.T, email string, role authz.Role) (string, uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	op := f.svc.Operator()
	u, err := op.CreateUser(ctx, email, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := op.AddMember(ctx, f.acme.Organization.ID, email, role); err != nil {
		t.Fatal(err)
	}
	k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: email, Scope: authz.ScopeAdmin})
	if err != nil {
		t.Fatal(err)
	}
	return k.Secret, u.ID
}

func TestRolesChangeAtOnceAndTheLastAdminStays(t *testing.T) {
	f := newMemFixture(t)
	as := f.team(t)
	admin := as["admin"]
	ctx := context.Background()
	secret, ed := f.member(t, "ed@acme.test", authz.RoleEditor)

	_, err := f.svc.SetMemberRole(as["editor"], ed, authz.RoleAdmin)
	wantCode(t, err, service.CodePermissionDenied)
	_, err = f.svc.SetMemberRole(admin, ed, "owner")
	wantCode(t, err, service.CodeInvalidArgument)
	_, err = f.svc.SetMemberRole(admin, uuid.New(), authz.RoleViewer)
	wantCode(t, err, service.CodeNotFound)
	_, err = f.svc.SetMemberRole(admin, actorOf(t, as["other tenant"]), authz.RoleViewer)
	wantCode(t, err, service.CodeNotFound)
	_, err = f.svc.SetMemberRole(as["other tenant"], ed, authz.RoleViewer)
	wantCode(t, err, service.CodeNotFound)

	// The role a key acts with follows at once, though authentication
	// is remembered.
	if p, err := f.svc.Authenticate(ctx, secret, ""); err != nil || p.Role != authz.RoleEditor {
		t.Fatalf("before: %+v, %v", p, err)
	}
	m, err := f.svc.SetMemberRole(admin, ed, authz.RolePublisher)
	if err != nil {
		t.Fatal(err)
	}
	if m.User.ID != ed || m.User.Email != "ed@acme.test" || m.Role != authz.RolePublisher || f.role(t, ed) != "publisher" {
		t.Errorf("changed %+v, stored %s", m, f.role(t, ed))
	}
	if p, err := f.svc.Authenticate(ctx, secret, ""); err != nil || p.Role != authz.RolePublisher {
		t.Errorf("after: %+v, %v", p, err)
	}
	evs := f.adminEvents(t, auditevent.KindMember)
	if len(evs) != 1 || !jsonEqual(t, evs[0].Details, map[string]any{"change": "role", "email": "ed@acme.test", "from": "editor", "to": "publisher", "userId": ed}) {
		t.Errorf("role events %+v", evs)
	}

	// Acme's one admin can neither step down nor leave.
	_, err = f.svc.SetMemberRole(admin, f.acme.User.ID, authz.RoleEditor)
	wantCode(t, err, service.CodeConflict)
	wantCode(t, f.svc.RemoveMember(admin, f.acme.User.ID), service.CodeConflict)
	if f.role(t, f.acme.User.ID) != "admin" {
		t.Fatal("the last admin lost the role")
	}
	if _, err := f.svc.SetMemberRole(admin, f.acme.User.ID, authz.RoleAdmin); err != nil {
		t.Errorf("keeping the last admin admin: %v", err)
	}
	if _, err := f.svc.SetMemberRole(admin, ed, authz.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SetMemberRole(f.as(t, secret, ""), f.acme.User.ID, authz.RoleViewer); err != nil {
		t.Errorf("with a second admin, the first steps down: %v", err)
	}
	_, err = f.svc.SetMemberRole(f.as(t, secret, ""), ed, authz.RoleAuditor)
	wantCode(t, err, service.CodeConflict)
}

func TestTwoAdminsDemotingEachOtherAtOnceLeaveOne(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		for round := range 5 {
			secret, second := f.member(t, "second"+string(rune('a'+round))+"@acme.test", authz.RoleAdmin)
			first := f.acme.User.ID
			// Whoever is admin besides the second one.
			for _, m := range db.Client().Membership.Query().Where(membership.RoleEQ(membership.RoleAdmin)).AllX(ctx) {
				if m.UserID != second {
					first = m.UserID
				}
			}
			firstKey, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID,
				UserEmail: db.Client().User.GetX(ctx, first).Email, Scope: authz.ScopeAdmin})
			if err != nil {
				t.Fatal(err)
			}
			byFirst, bySecond := f.as(t, firstKey.Secret, ""), f.as(t, secret, "")
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, c := range []struct {
				ctx    context.Context
				target uuid.UUID
			}{{byFirst, second}, {bySecond, first}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = f.svc.SetMemberRole(c.ctx, c.target, authz.RoleViewer)
				}()
			}
			wg.Wait()
			codes := []service.Code{service.CodeOf(errs[0]), service.CodeOf(errs[1])}
			if (errs[0] == nil) == (errs[1] == nil) || codes[0] != service.CodeConflict && codes[1] != service.CodeConflict {
				t.Fatalf("round %d: %v, %v; want one success and one conflict", round, errs[0], errs[1])
			}
			if n := db.Client().Membership.Query().Where(membership.RoleEQ(membership.RoleAdmin)).CountX(ctx); n != 1 {
				t.Fatalf("round %d: %d admins left, want 1", round, n)
			}
		}
	})
}

func TestARemovedMembersKeysStopWorkingAtOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		ctx := context.Background()
		secret, ed := f.member(t, "ed@acme.test", authz.RoleEditor)
		second, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: "ed@acme.test", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.RemoveMember(as["editor"], ed), service.CodePermissionDenied)
		wantCode(t, f.svc.RemoveMember(as["other tenant"], ed), service.CodeNotFound)
		wantCode(t, f.svc.RemoveMember(admin, uuid.New()), service.CodeNotFound)

		// Ed is in Beta too, with a key made there: it keeps working there.
		beta := db.Client().Organization.Query().Where(organization.Name("Beta")).OnlyX(ctx)
		if err := f.svc.Operator().AddMember(ctx, beta.ID, "ed@acme.test", authz.RoleViewer); err != nil {
			t.Fatal(err)
		}
		betaKey, err := f.svc.Operator().CreateKey(ctx, service.KeyInput{Organization: beta.ID, UserEmail: "ed@acme.test", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(ctx, secret, f.acme.Organization.ID.String()); err != nil {
			t.Fatal(err)
		}

		*f.clock = f.clock.Add(time.Minute)
		if err := f.svc.RemoveMember(admin, ed); err != nil {
			t.Fatal(err)
		}
		if f.role(t, ed) != "" {
			t.Error("the membership is still stored")
		}
		for _, s := range []string{secret, second.Secret} {
			for _, org := range []string{"", f.acme.Organization.ID.String()} {
				_, err := f.svc.Authenticate(ctx, s, org)
				wantCode(t, err, service.CodeUnauthenticated)
			}
		}
		_, err = f.svc.Authenticate(ctx, betaKey.Secret, f.acme.Organization.ID.String())
		wantCode(t, err, service.CodePermissionDenied)
		if p, err := f.svc.Authenticate(ctx, betaKey.Secret, ""); err != nil || p.TenantID != beta.ID {
			t.Errorf("the key made in Beta: %+v, %v", p, err)
		}
		for _, k := range db.Client().APIKey.Query().Where(apikey.UserID(ed)).AllX(ctx) {
			if revoked := k.RevokedAt != nil; revoked != (k.OrganizationID == f.acme.Organization.ID) {
				t.Errorf("key %s of %s: revoked at %v", k.Name, k.OrganizationID, k.RevokedAt)
			} else if revoked && !k.RevokedAt.Equal(*f.clock) {
				t.Errorf("revoked at %v, want %v", k.RevokedAt, *f.clock)
			}
		}
		if !db.Client().User.Query().Where(user.ID(ed)).ExistX(ctx) {
			t.Error("the user was deleted with the membership")
		}
		evs := f.adminEvents(t, auditevent.KindMember)
		if len(evs) != 1 || !jsonEqual(t, evs[0].Details, map[string]any{
			"change": "removed", "email": "ed@acme.test", "keysRevoked": 2, "role": "editor", "userId": ed}) {
			t.Errorf("removal events %+v", evs)
		}
		wantCode(t, f.svc.RemoveMember(admin, ed), service.CodeNotFound)
	})
}

// A user key whose membership is gone is refused as a revoked key is: 401,
// with the same message. Removing a member revokes its keys in the same
// transaction, but an authentication that read the key just before the
// removal committed reads the membership just after, gone; the membership
// deleted here with its key left active is what that reading meets.
func TestAKeyWhoseMembershipIsGoneIsRefusedAsRevoked(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		op := f.svc.Operator()
		secret, ed := f.member(t, "ed@acme.test", authz.RoleEditor)
		revoked, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if err := op.RevokeKey(ctx, revoked.ID); err != nil {
			t.Fatal(err)
		}
		db.Client().Membership.Delete().Where(membership.UserID(ed)).ExecX(ctx)

		_, want := f.svc.Authenticate(ctx, revoked.Secret, "")
		wantCode(t, want, service.CodeUnauthenticated)
		for _, org := range []string{"", f.acme.Organization.ID.String()} {
			_, err := f.svc.Authenticate(ctx, secret, org)
			wantCode(t, err, service.CodeUnauthenticated)
			if err.Error() != want.Error() {
				t.Errorf("the key of a member who is gone: %q; want %q, as a revoked key", err, want)
			}
		}
	})
}

func TestAdminsManageKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		ctx := context.Background()
		editor := actorOf(t, as["editor"])
		later := f.clock.Add(time.Hour)
		past := f.clock.Add(-time.Second)
		// The last hour of year 9999 where it is written, in year 10000 in UTC.
		beyond := time.Date(9999, 12, 31, 23, 0, 0, 0, time.FixedZone("", -5*3600))
		lastMoment := time.Date(9999, 12, 31, 18, 59, 59, 999999000, time.FixedZone("", -5*3600))

		for _, who := range []string{"viewer", "editor", "publisher"} {
			_, err := f.svc.Keys(as[who], service.ListOptions{})
			wantCode(t, err, service.CodePermissionDenied)
			_, err = f.svc.CreateKey(as[who], service.KeyRequest{Name: "k", Scope: authz.ScopeView})
			wantCode(t, err, service.CodePermissionDenied)
		}
		refused := []struct {
			name string
			in   service.KeyRequest
			code service.Code
		}{
			{"no name", service.KeyRequest{Scope: authz.ScopeView}, service.CodeInvalidArgument},
			{"an unknown scope", service.KeyRequest{Name: "k", Scope: "root"}, service.CodeInvalidArgument},
			{"an expiry in the past", service.KeyRequest{Name: "k", Scope: authz.ScopeView, ExpiresAt: &past}, service.CodeInvalidArgument},
			{"an expiry of now", service.KeyRequest{Name: "k", Scope: authz.ScopeView, ExpiresAt: f.clock}, service.CodeInvalidArgument},
			{"an expiry in year 10000 in UTC", service.KeyRequest{Name: "k", Scope: authz.ScopeView, ExpiresAt: &beyond}, service.CodeInvalidArgument},
			{"a user who is no member", service.KeyRequest{Name: "k", Scope: authz.ScopeView, UserID: ptr(actorOf(t, as["other tenant"]))}, service.CodeNotFound},
			{"an unknown user", service.KeyRequest{Name: "k", Scope: authz.ScopeView, UserID: ptr(uuid.New())}, service.CodeNotFound},
		}
		keysBefore := db.Client().APIKey.Query().CountX(ctx)
		for _, r := range refused {
			_, err := f.svc.CreateKey(admin, r.in)
			if service.CodeOf(err) != r.code {
				t.Errorf("creating a key with %s: %v, want %s", r.name, err, r.code)
			}
		}
		if n := db.Client().APIKey.Query().CountX(ctx); n != keysBefore {
			t.Fatalf("refused creations stored %d keys", n-keysBefore)
		}

		orgKey, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "reports", Scope: authz.ScopeView, ExpiresAt: &later})
		if err != nil {
			t.Fatal(err)
		}
		if orgKey.Owner != (service.Owner{Kind: authz.OwnerOrganization, ID: f.acme.Organization.ID}) || orgKey.Name != "reports" ||
			orgKey.Scope != authz.ScopeView || !orgKey.ExpiresAt.Equal(later) || orgKey.RevokedAt != nil || !strings.HasPrefix(orgKey.Secret, orgKey.Prefix) {
			t.Errorf("organization key %+v", orgKey)
		}
		userKey, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "ci", Scope: authz.ScopePublish, UserID: &editor})
		if err != nil {
			t.Fatal(err)
		}
		if userKey.Owner != (service.Owner{Kind: authz.OwnerUser, ID: editor}) {
			t.Errorf("user key %+v", userKey)
		}
		if p, err := f.svc.Authenticate(ctx, userKey.Secret, ""); err != nil || p.UserID != editor || p.Scope != authz.ScopePublish || p.Role != authz.RoleEditor {
			t.Errorf("the user key authenticates as %+v, %v", p, err)
		}
		if p, err := f.svc.Authenticate(ctx, orgKey.Secret, ""); err != nil || p.KeyID != orgKey.ID || p.TenantID != f.acme.Organization.ID {
			t.Errorf("the organization key authenticates as %+v, %v", p, err)
		}

		page, err := f.svc.Keys(admin, service.ListOptions{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 || page.Items[0].ID != userKey.ID || page.Items[1].ID != orgKey.ID || page.NextCursor == "" {
			t.Errorf("first page %+v", page)
		}
		raw, err := json.Marshal(page)
		if err != nil {
			t.Fatal(err)
		}
		stored := db.Client().APIKey.GetX(ctx, orgKey.ID)
		if strings.Contains(string(raw), orgKey.Secret) || strings.Contains(string(raw), stored.Hash) ||
			strings.Contains(string(raw), `"secret"`) || strings.Contains(string(raw), `"hash"`) {
			t.Errorf("a key list shows a secret or a hash: %s", raw)
		}
		acmeKeys := db.Client().APIKey.Query().Where(apikey.OrganizationID(f.acme.Organization.ID)).CountX(ctx)
		all, err := f.svc.Keys(admin, service.ListOptions{Limit: 200})
		if err != nil || len(all.Items) != acmeKeys {
			t.Errorf("%d keys listed, want Acme's %d (%v)", len(all.Items), acmeKeys, err)
		}
		if page, err := f.svc.Keys(admin, service.ListOptions{Query: "REPO"}); err != nil || len(page.Items) != 1 || page.Items[0].ID != orgKey.ID {
			t.Errorf("q=REPO: %+v, %v", page, err)
		}

		// Revoking: at once, kept, listed.
		wantCode(t, f.svc.RevokeKey(as["editor"], orgKey.ID), service.CodePermissionDenied)
		wantCode(t, f.svc.RevokeKey(as["other tenant"], orgKey.ID), service.CodeNotFound)
		wantCode(t, f.svc.RevokeKey(admin, uuid.New()), service.CodeNotFound)
		if err := f.svc.RevokeKey(admin, orgKey.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, orgKey.Secret, "")
		wantCode(t, err, service.CodeUnauthenticated)
		wantCode(t, f.svc.RevokeKey(admin, orgKey.ID), service.CodeNotFound)
		page, err = f.svc.Keys(admin, service.ListOptions{Query: "reports"})
		if err != nil || len(page.Items) != 1 || page.Items[0].RevokedAt == nil || !page.Items[0].RevokedAt.Equal(*f.clock) {
			t.Errorf("the revoked key is listed as %+v, %v", page, err)
		}
		theirs := f.svc.Operator()
		betaKeys, err := theirs.Keys(ctx, actorTenant(t, as["other tenant"]), service.ListOptions{})
		if err != nil || len(betaKeys.Items) != 1 {
			t.Fatalf("Beta's keys %+v, %v", betaKeys, err)
		}
		wantCode(t, f.svc.RevokeKey(admin, betaKeys.Items[0].ID), service.CodeNotFound)

		evs := f.adminEvents(t, auditevent.KindKey)
		want := []map[string]any{
			{"change": "created", "keyId": orgKey.ID, "name": "reports", "scope": "view", "owner": orgKey.Owner, "expiresAt": later},
			{"change": "created", "keyId": userKey.ID, "name": "ci", "scope": "publish", "owner": userKey.Owner, "expiresAt": nil},
			{"change": "revoked", "keyId": orgKey.ID, "name": "reports"},
		}
		if len(evs) != len(want) {
			t.Fatalf("%d key events, want %d", len(evs), len(want))
		}
		for i, ev := range evs {
			if !jsonEqual(t, ev.Details, want[i]) || ev.Action != auditevent.ActionEdited || ev.ActorID != f.acme.User.ID {
				t.Errorf("key event %d: %+v, want details %v", i, ev, want[i])
			}
		}
		if k, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "last", Scope: authz.ScopeView, ExpiresAt: &lastMoment}); err != nil ||
			!k.ExpiresAt.Equal(lastMoment) {
			t.Fatalf("a key expiring at the last moment of year 9999: %+v, %v", k, err)
		}
	})
}

func actorTenant(t *testing.T, ctx context.Context) uuid.UUID {
	t.Helper()
	p, ok := service.PrincipalFrom(ctx)
	if !ok {
		t.Fatal("the context carries no principal")
	}
	return p.TenantID
}

// A member's user id is the one thing an admin learns of a user who had an
// account already: it must not tell when that account was made, or that it
// was made before now.
func TestAMembersUserIDTellsNothingOfTheUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		beta, err := f.svc.Operator().Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		admin := f.as(t, adminKey, "")
		existing, err := f.svc.AddMember(admin, service.MemberInput{Email: "boss@beta.test", Role: authz.RoleViewer})
		if err != nil || existing.User.ID != beta.User.ID {
			t.Fatalf("adding the other organization's admin: %+v, %v", existing, err)
		}
		created, err := f.svc.AddMember(admin, service.MemberInput{Email: "new@acme.test", Role: authz.RoleViewer})
		if err != nil {
			t.Fatal(err)
		}
		for name, id := range map[string]uuid.UUID{"existing": existing.User.ID, "created": created.User.ID} {
			if id.Version() != 4 || id.Variant() != uuid.RFC4122 {
				t.Errorf("the %s user's id %s is a version %d UUID, want a random one (4)", name, id, id.Version())
			}
		}
	})
}

// TestAChangeIsMadeOnlyByWhoMayStillMakeIt: a request authenticated before
// its caller's role changed, their membership ended or their key was
// revoked makes no change, though the authentication it carries said it
// may; one whose caller is as they were makes it.
func TestAChangeIsMadeOnlyByWhoMayStillMakeIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		groups := func() int {
			page, err := f.svc.Groups(admin, service.ListOptions{WithTotal: true})
			if err != nil {
				t.Fatal(err)
			}
			return *page.Total
		}
		if _, err := f.svc.CreateGroup(as["editor"], service.GroupChanges{Name: ptr("before")}); err != nil {
			t.Fatal(err)
		}

		editor, _ := f.svc.Viewer(as["editor"])
		if _, err := f.svc.SetMemberRole(admin, editor.User.ID, authz.RoleViewer); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.CreateGroup(as["editor"], service.GroupChanges{Name: ptr("demoted")})
		wantCode(t, err, service.CodeConflict)

		publisher, _ := f.svc.Viewer(as["publisher"])
		if err := f.svc.RemoveMember(admin, publisher.User.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.CreateGroup(as["publisher"], service.GroupChanges{Name: ptr("removed")})
		wantCode(t, err, service.CodeUnauthenticated)

		orgKey, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "ci", Scope: authz.ScopeEdit})
		if err != nil {
			t.Fatal(err)
		}
		ci := f.as(t, orgKey.Secret, "")
		if _, err := f.svc.CreateGroup(ci, service.GroupChanges{Name: ptr("by ci")}); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.RevokeKey(admin, orgKey.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.CreateGroup(ci, service.GroupChanges{Name: ptr("revoked")})
		wantCode(t, err, service.CodeUnauthenticated)

		if n := groups(); n != 2 {
			t.Errorf("%d groups, want the two made before", n)
		}
		if _, err := f.svc.CreateGroup(as["editor2"], service.GroupChanges{Name: ptr("after")}); err != nil {
			t.Errorf("an editor whose role stayed: %v", err)
		}

		// A role changed where this instance does not hear of it (another
		// process on SQLite): the refusal forgets the cached principal, and
		// the request sent again acts with the role of now.
		f.as(t, adminKey, "")
		if _, err := db.SQL().ExecContext(context.Background(), `UPDATE memberships SET role = 'editor' WHERE user_id = $1`, f.acme.User.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.CreateGroup(f.as(t, adminKey, ""), service.GroupChanges{Name: ptr("stale")})
		wantCode(t, err, service.CodeConflict)
		again := f.as(t, adminKey, "")
		if p, _ := service.PrincipalFrom(again); p.Role != authz.RoleEditor {
			t.Errorf("sent again as %s, want editor", p.Role)
		}
		if _, err := f.svc.CreateGroup(again, service.GroupChanges{Name: ptr("sent again")}); err != nil {
			t.Errorf("sent again: %v", err)
		}
	})
}
