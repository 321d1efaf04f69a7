package service_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// wantTotal checks the total of a list: absent unless asked for, and when
// asked, the same on the first page of one item and on the page after it.
func wantTotal[T any](t *testing.T, what string, want int, list func(service.ListOptions) (*service.Page[T], error)) {
	t.Helper()
	page, err := list(service.ListOptions{})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if page.Total != nil {
		t.Errorf("%s: a total of %d that was not asked for", what, *page.Total)
	}
	o := service.ListOptions{Limit: 1, WithTotal: true}
	for n := 1; n <= 2; n++ {
		page, err := list(o)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		switch {
		case page.Total == nil:
			t.Errorf("%s, page %d: no total, want %d", what, n, want)
		case *page.Total != want:
			t.Errorf("%s, page %d: total %d, want %d", what, n, *page.Total, want)
		}
		if o.Cursor = page.NextCursor; o.Cursor == "" {
			break
		}
	}
}

// filtered lists with a query, or in a group, on top of the options of
// each page.
func filtered[T any](list func(context.Context, service.ListOptions) (*service.Page[T], error), ctx context.Context, query string, group *uuid.UUID) func(service.ListOptions) (*service.Page[T], error) {
	return func(o service.ListOptions) (*service.Page[T], error) {
		o.Query, o.GroupID = query, group
		return list(ctx, o)
	}
}

func TestTotalsCountTheWholeListTheCallerSees(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin, editor, viewer := as["admin"], as["editor"], as["viewer"]
		svc := f.svc

		published := map[string]*service.Policy{}
		for _, name := range []string{"alpha", "alphabet", "beta"} {
			p, err := svc.CreatePolicy(admin, service.Changes{Name: ptr(name), Rule: ptr(seniorRule)})
			if err != nil {
				t.Fatal(err)
			}
			if published[name], err = svc.PublishPolicy(admin, p.ID, service.Changes{}); err != nil {
				t.Fatal(err)
			}
		}
		if err := svc.DeletePolicy(admin, published["beta"].BaseID); err != nil {
			t.Fatal(err)
		}
		draft, err := svc.CreatePolicy(editor, service.Changes{Name: ptr("alpha draft"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CreatePolicy(as["other tenant"], service.Changes{Name: ptr("alpha"), Rule: ptr(seniorRule)}); err != nil {
			t.Fatal(err)
		}
		loan := storedFlow(t, db, f.acme.Organization.ID, "loan")
		storedFlow(t, db, f.acme.Organization.ID, "lease")
		var lending *service.Group
		for _, name := range []string{"Lending", "Leasing", "Archive"} {
			g, err := svc.CreateGroup(editor, service.GroupChanges{Name: ptr(name)})
			if err != nil {
				t.Fatal(err)
			}
			if lending == nil {
				lending = g
			}
		}
		if _, err := svc.CreateGroup(as["other tenant"], service.GroupChanges{Name: ptr("Lending")}); err != nil {
			t.Fatal(err)
		}
		for _, in := range []service.GroupMemberInput{
			{Kind: authz.KindPolicy, BaseID: published["alpha"].BaseID},
			{Kind: authz.KindPolicy, BaseID: draft.BaseID},
			{Kind: authz.KindFlow, BaseID: loan},
		} {
			if _, err := svc.AddGroupMember(editor, lending.ID, in); err != nil {
				t.Fatal(err)
			}
		}
		spare, err := svc.CreateKey(admin, service.KeyRequest{Name: "spare", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.RevokeKey(admin, spare.ID); err != nil {
			t.Fatal(err)
		}

		groupID := &lending.ID
		groupPolicies := func(ctx context.Context, o service.ListOptions) (*service.Page[service.Summary], error) {
			return svc.GroupPolicies(ctx, lending.ID, o)
		}
		groupFlows := func(ctx context.Context, o service.ListOptions) (*service.Page[service.Summary], error) {
			return svc.GroupFlows(ctx, lending.ID, o)
		}
		audit := func(flt service.AuditFilter) func(context.Context, service.ListOptions) (*service.Page[service.AuditEvent], error) {
			return func(ctx context.Context, o service.ListOptions) (*service.Page[service.AuditEvent], error) {
				return svc.AuditEvents(ctx, flt, o)
			}
		}

		t.Run("policies", func(t *testing.T) {
			wantTotal(t, "the viewer's", 2, filtered(svc.Policies, viewer, "", nil))
			wantTotal(t, "the editor's, with their draft", 3, filtered(svc.Policies, editor, "", nil))
			wantTotal(t, "another editor's, without it", 2, filtered(svc.Policies, as["editor2"], "", nil))
			wantTotal(t, "the other tenant's", 1, filtered(svc.Policies, as["other tenant"], "", nil))
			wantTotal(t, "the editor's named alpha", 3, filtered(svc.Policies, editor, "ALPHA", nil))
			wantTotal(t, "named bet, but for the deleted beta", 1, filtered(svc.Policies, viewer, "bet", nil))
			wantTotal(t, "the viewer's in the group", 1, filtered(svc.Policies, viewer, "", groupID))
			wantTotal(t, "the editor's in the group", 2, filtered(svc.Policies, editor, "", groupID))
			wantTotal(t, "the group's, to the viewer", 1, filtered(groupPolicies, viewer, "", nil))
			wantTotal(t, "the group's, to the editor", 2, filtered(groupPolicies, editor, "", nil))
			wantTotal(t, "the group's named draft, to the editor", 1, filtered(groupPolicies, editor, "draft", nil))
		})
		t.Run("flows", func(t *testing.T) {
			wantTotal(t, "all", 2, filtered(svc.Flows, viewer, "", nil))
			wantTotal(t, "named lo", 1, filtered(svc.Flows, viewer, "lo", nil))
			wantTotal(t, "the group's", 1, filtered(groupFlows, viewer, "", nil))
			wantTotal(t, "the other tenant's", 0, filtered(svc.Flows, as["other tenant"], "", nil))
		})
		t.Run("groups", func(t *testing.T) {
			wantTotal(t, "all", 3, filtered(svc.Groups, viewer, "", nil))
			wantTotal(t, "named leas", 1, filtered(svc.Groups, viewer, "LEAS", nil))
			wantTotal(t, "the other tenant's", 1, filtered(svc.Groups, as["other tenant"], "", nil))
		})
		t.Run("audit events", func(t *testing.T) {
			for name, tc := range map[string]struct {
				flt  service.AuditFilter
				want int
			}{
				"policies created":   {service.AuditFilter{Action: service.AuditCreated, Kind: service.AuditPolicy}, 4},
				"policies published": {service.AuditFilter{Action: service.AuditPublished}, 3},
				"groups created":     {service.AuditFilter{Action: service.AuditCreated, Kind: service.AuditGroup}, 3},
				"about one base":     {service.AuditFilter{BaseID: &published["beta"].BaseID}, 3},
				"assignments":        {service.AuditFilter{Action: service.AuditAssigned}, 3},
			} {
				wantTotal(t, name, tc.want, filtered(audit(tc.flt), admin, "", nil))
			}
			all := f.readLog(t, admin, service.AuditFilter{}, 0)
			wantTotal(t, "all", len(all), filtered(audit(service.AuditFilter{}), admin, "", nil))
		})
		t.Run("members", func(t *testing.T) {
			wantTotal(t, "all", 5, filtered(svc.Members, admin, "", nil))
			wantTotal(t, "named editor", 2, filtered(svc.Members, admin, "EDITOR", nil))
			wantTotal(t, "the other tenant's", 1, filtered(svc.Members, as["other tenant"], "", nil))
		})
		t.Run("keys", func(t *testing.T) {
			// The bootstrap key, the team's four and the revoked spare.
			wantTotal(t, "all, revoked ones too", 6, filtered(svc.Keys, admin, "", nil))
			wantTotal(t, "named spare", 1, filtered(svc.Keys, admin, "SPARE", nil))
			wantTotal(t, "the other tenant's", 1, filtered(svc.Keys, as["other tenant"], "", nil))
		})
	})
}
