package service_test

import (
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// TestANameOrEmailShowsAsItIsWritten: names refuse characters that show as
// nothing or turn the text after them, and addresses every format
// character, so that none shows as another; the joiners scripts and emoji
// need stay.
func TestANameOrEmailShowsAsItIsWritten(t *testing.T) {
	f := newMemFixture(t)
	admin := f.as(t, adminKey, "")
	for _, name := range []string{"\u200b", "pay\u200broll", "\u200fadmin", "ops\u061c", "a\u2060b", "\ufeffteam"} {
		_, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr(name)})
		wantCode(t, err, service.CodeInvalidArgument)
	}
	for _, name := range []string{"family 👨\u200d👩\u200d👧", "می\u200cخواهم"} {
		if _, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr(name)}); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, email := range []string{"admin\u202emoc.evil@x.test", "a@x.test\u200b", "\ufeffab@x.test", "a\u200db@x.test", "a\u00adb@x.test"} {
		_, err := f.svc.AddMember(admin, service.MemberInput{Email: email, Role: authz.RoleViewer})
		wantCode(t, err, service.CodeInvalidArgument)
	}
	if _, err := f.svc.AddMember(admin, service.MemberInput{Email: "ab@x.test", Role: authz.RoleViewer}); err != nil {
		t.Errorf("a plain address: %v", err)
	}
}
