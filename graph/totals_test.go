package graph_test

import (
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const authoringTotalsQuery = `query T($group: ID!) {
  policies(first: 1) { totalCount edges { cursor } pageInfo { hasNextPage } }
  named: policies(first: 1, query: "p-a") { totalCount }
  inGroup: policies(first: 1, groupId: $group) { totalCount }
  flows(first: 1) { totalCount }
  groups(first: 1) { totalCount }
  group(id: $group) {
    policies(first: 1) { totalCount }
    flows(first: 1) { totalCount }
  }
}`

type total struct{ TotalCount int }

type authoringTotals struct {
	Policies struct {
		TotalCount int
		Edges      []struct{ Cursor string }
		PageInfo   struct{ HasNextPage bool }
	}
	Named, InGroup, Flows, Groups total
	Group                         struct{ Policies, Flows total }
}

const adminTotalsQuery = `{
  published: auditEvents(first: 1, filter: {action: PUBLISHED}) { totalCount }
  policiesCreated: auditEvents(first: 1, filter: {action: CREATED, kind: POLICY}) { totalCount }
  members(first: 1) { totalCount edges { cursor node { id } } pageInfo { endCursor } }
  keys(first: 1, query: "EDITH") { totalCount }
  allKeys: keys(first: 1) { totalCount }
}`

type adminTotals struct {
	Published, PoliciesCreated total
	Members                    struct {
		TotalCount int
		Edges      []struct {
			Cursor string
			Node   struct{ ID string }
		}
		PageInfo struct{ EndCursor string }
	}
	Keys, AllKeys total
}

func TestTotalCountCountsTheWholeListTheCallerSees(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		f := w.fixture
		editor := member(t, f, "edith", authz.RoleEditor)
		viewer := member(t, f, "vera", authz.RoleViewer)

		draft := createPolicy(t, f, editor, map[string]any{"name": "edith's draft", "rule": seniorRule}).Policy
		loan := publishFlow(t, f, adminKey, createFlow(t, f, adminKey, map[string]any{"name": "Loan", "definition": w.chained()}).Flow.ID)
		createFlow(t, f, adminKey, map[string]any{"name": "admin's draft", "definition": w.chained()})
		g := createGroup(t, f, editor, map[string]any{"name": "Lending"})
		addGroupMember(t, f, editor, g.ID, "POLICY", w.age.BaseID)
		addGroupMember(t, f, editor, g.ID, "POLICY", draft.BaseID)
		addGroupMember(t, f, editor, g.ID, "FLOW", loan.BaseID)

		for _, tc := range []struct {
			who, key                              string
			policies, named, inGroup, flows, grps int
			groupPolicies, groupFlows             int
		}{
			// The editor sees their draft; the others do not.
			{"the editor", editor, 3, 1, 2, 1, 1, 2, 1},
			{"the viewer", viewer, 2, 1, 1, 1, 1, 1, 1},
			// The admin sees their unpublished flow.
			{"the admin", adminKey, 2, 1, 1, 2, 1, 1, 1},
		} {
			t.Run(tc.who, func(t *testing.T) {
				var got authoringTotals
				f.post(t, tc.key, authoringTotalsQuery, map[string]any{"group": g.ID}).decode(t, &got)
				if p := got.Policies; p.TotalCount != tc.policies || len(p.Edges) != 1 || !p.PageInfo.HasNextPage {
					t.Errorf("policies: %+v, want a total of %d on a page of 1", p, tc.policies)
				}
				for name, c := range map[string][2]int{
					"policies named p-a":       {got.Named.TotalCount, tc.named},
					"policies in the group":    {got.InGroup.TotalCount, tc.inGroup},
					"flows":                    {got.Flows.TotalCount, tc.flows},
					"groups":                   {got.Groups.TotalCount, tc.grps},
					"the group's own policies": {got.Group.Policies.TotalCount, tc.groupPolicies},
					"the group's own flows":    {got.Group.Flows.TotalCount, tc.groupFlows},
				} {
					if c[0] != c[1] {
						t.Errorf("%s: totalCount %d, want %d", name, c[0], c[1])
					}
				}
			})
		}

		t.Run("the audit log, members and keys", func(t *testing.T) {
			var got adminTotals
			f.post(t, adminKey, adminTotalsQuery, nil).decode(t, &got)
			// P-AGE, P-INCOME and Loan were published; the two policies
			// and edith's draft created.
			if got.Published.TotalCount != 3 || got.PoliciesCreated.TotalCount != 3 {
				t.Errorf("audit events: %d published, %d policies created; want 3 and 3",
					got.Published.TotalCount, got.PoliciesCreated.TotalCount)
			}
			// The admin, edith and vera, with a key each.
			m := got.Members
			if m.TotalCount != 3 || len(m.Edges) != 1 || m.Edges[0].Cursor != m.PageInfo.EndCursor || m.Edges[0].Node.ID == "" {
				t.Errorf("members: %+v, want a total of 3 and an edge whose cursor ends the page", m)
			}
			if got.Keys.TotalCount != 1 || got.AllKeys.TotalCount != 3 {
				t.Errorf("keys: %d named edith, %d in all; want 1 and 3", got.Keys.TotalCount, got.AllKeys.TotalCount)
			}
		})

		t.Run("another organization counts its own", func(t *testing.T) {
			beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
			if err != nil {
				t.Fatal(err)
			}
			var got adminTotals
			f.post(t, beta.Secret, adminTotalsQuery, nil).decode(t, &got)
			if got.Published.TotalCount != 0 || got.Members.TotalCount != 1 || got.AllKeys.TotalCount != 1 {
				t.Errorf("Beta counts %+v", got)
			}
			var policies struct{ Policies total }
			f.post(t, beta.Secret, `{ policies { totalCount } }`, nil).decode(t, &policies)
			if policies.Policies.TotalCount != 0 {
				t.Errorf("Beta counts %d policies, want none", policies.Policies.TotalCount)
			}
		})
	})
}
