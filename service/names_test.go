package service_test

import (
	"context"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// TestANameOrEmailShowsAsItIsWritten: names refuse characters that show as
// nothing or turn the text after them, and addresses every format
// character, so that none shows as another; the joiners scripts and emoji
// need stay.
func TestANameOrEmailShowsAsItIsWritten(t *testing.T) {
	f := newMemFixture(t)
	admin := f.as(t, adminKey, "")
	for _, name := range []string{"\u200b", "pay\u200broll", "\u200fadmin", "ops\u061c", "a\u2060b", "\ufeffteam",
		"\u2063", "\u3164", "\u115f", "\uffa0", "x\u034f", "\u2800", "soft\u00adhyphen", "\u180e"} {
		_, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr(name)})
		wantCode(t, err, service.CodeInvalidArgument)
	}
	for _, name := range []string{"family 👨\u200d👩\u200d👧", "می\u200cخواهم", "love ❤\ufe0f", "England 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"} {
		if _, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr(name)}); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, email := range []string{"admin\u202emoc.evil@x.test", "a@x.test\u200b", "\ufeffab@x.test", "a\u200db@x.test", "a\u00adb@x.test", "z\u034f@x.test", "z\u3164@x.test", "z\u2800@x.test", "z\u00a0@x.test", "z\u3000@x.test"} {
		_, err := f.svc.AddMember(admin, service.MemberInput{Email: email, Role: authz.RoleViewer})
		wantCode(t, err, service.CodeInvalidArgument)
	}
	if _, err := f.svc.AddMember(admin, service.MemberInput{Email: "ab@x.test", Role: authz.RoleViewer}); err != nil {
		t.Errorf("a plain address: %v", err)
	}
}

// TestAnAddressStoredBeforeItsCheckIsStillFound: the operator finds a
// member by an address a check of today would refuse, stored before it.
func TestAnAddressStoredBeforeItsCheckIsStillFound(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx, op, org := context.Background(), f.svc.Operator(), f.acme.Organization.ID
		if _, err := op.CreateUser(ctx, "legacy@x.test", "Lee"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, org, "legacy@x.test", authz.RoleEditor); err != nil {
			t.Fatal(err)
		}
		const legacy = "leg\u202eacy@x.test"
		if _, err := db.SQL().ExecContext(ctx, `UPDATE users SET email = $1 WHERE email = 'legacy@x.test'`, legacy); err != nil {
			t.Fatal(err)
		}
		if m, err := op.SetMemberRole(ctx, org, legacy, authz.RoleViewer); err != nil || m.Role != authz.RoleViewer {
			t.Fatalf("the role of %q: %+v, %v", legacy, m, err)
		}
		if _, err := op.CreateKey(ctx, service.KeyInput{Organization: org, UserEmail: legacy, Name: "lee", Scope: authz.ScopeView}); err != nil {
			t.Fatalf("a key for %q: %v", legacy, err)
		}
		if _, err := op.RemoveMember(ctx, org, legacy); err != nil {
			t.Fatalf("removing %q: %v", legacy, err)
		}
		_, err := op.CreateUser(ctx, legacy, "Eve")
		wantCode(t, err, service.CodeInvalidArgument)
	})
}
