package service_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/service"
)

// baseActions are the lifecycle events of a base, oldest first.
func (f *fixture) baseActions(t *testing.T, base uuid.UUID) []string {
	t.Helper()
	var out []string
	for _, ev := range f.events(t, func(ev *ent.AuditEvent) bool { return ev.BaseID != nil && *ev.BaseID == base }) {
		out = append(out, string(ev.Action))
	}
	return out
}

func TestChangesAreAnnouncedAndAuditedOnlyWhenTheyAreMade(t *testing.T) {
	f := newMemFixture(t)
	admin := f.as(t, adminKey, "")
	tenant := f.acme.Organization.ID
	announced := func() []changefeed.Change { return f.mem.Announced() }
	before := len(announced())

	p, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule),
		Tests: tests(testCase("young is senior", `{"Person": {"age": 20}}`, true))})
	if err != nil {
		t.Fatal(err)
	}
	if got := announced()[before:]; len(got) != 0 {
		t.Errorf("creating announced %+v: nothing cached can know a new base", got)
	}
	_, err = f.svc.PublishPolicy(admin, p.ID, service.Changes{})
	wantCode(t, err, service.CodeConflict)
	if got := announced()[before:]; len(got) != 0 {
		t.Errorf("a refused publish announced %+v", got)
	}

	edited, err := f.svc.UpdatePolicyDraft(admin, p.ID, service.Changes{Tests: tests(testCase("old is senior", `{"Person": {"age": 70}}`, true))})
	if err != nil {
		t.Fatal(err)
	}
	published, err := f.svc.PublishPolicy(admin, p.ID, service.Changes{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeletePolicy(admin, p.BaseID); err != nil {
		t.Fatal(err)
	}
	want := []changefeed.Change{
		{Kind: changefeed.KindBase, Tenant: tenant, ID: p.BaseID, Record: edited.ID},
		{Kind: changefeed.KindBase, Tenant: tenant, ID: p.BaseID, Record: published.ID},
		{Kind: changefeed.KindBase, Tenant: tenant, ID: p.BaseID},
	}
	if got := announced()[before:]; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("announced %+v, want %+v", got, want)
	}
	if got := f.baseActions(t, p.BaseID); len(got) != 4 || got[0] != "created" || got[1] != "edited" || got[2] != "published" || got[3] != "deleted" {
		t.Errorf("events %v, want created, edited, published, deleted", got)
	}

	// A refused change of membership announces and records nothing.
	before, events := len(announced()), len(f.events(t))
	wantCode(t, f.svc.RemoveMember(admin, f.acme.User.ID), service.CodeConflict)
	_, err = f.svc.SetMemberRole(admin, f.acme.User.ID, authz.RoleViewer)
	wantCode(t, err, service.CodeConflict)
	if got := announced()[before:]; len(got) != 0 || len(f.events(t)) != events || f.role(t, f.acme.User.ID) != "admin" {
		t.Errorf("refusals announced %+v, stored %d events, left the role %q", got, len(f.events(t))-events, f.role(t, f.acme.User.ID))
	}
	// Nor does a role set to what it is.
	same, err := f.svc.SetMemberRole(admin, f.acme.User.ID, authz.RoleAdmin)
	if err != nil || same.Role != authz.RoleAdmin || same.User.ID != f.acme.User.ID {
		t.Fatalf("the role set to what it is: %+v, %v", same, err)
	}
	if got := announced()[before:]; len(got) != 0 || len(f.events(t)) != events {
		t.Errorf("the role set to what it is announced %+v and stored %d events", got, len(f.events(t))-events)
	}
}
