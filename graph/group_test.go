package graph_test

import (
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const groupFields = `fragment G on Group { id name description createdAt updatedAt }`

const createGroupMutation = `mutation Create($input: CreateGroupInput!) { createGroup(input: $input) { ...G } }` + groupFields

const groupQuery = `query Group($id: ID!) { group(id: $id) { ...G } }` + groupFields

const addGroupMemberMutation = `mutation Add($groupId: ID!, $kind: GroupMemberKind!, $baseId: ID!) {
  addGroupMember(input: {groupId: $groupId, kind: $kind, baseId: $baseId}) { id groupId kind baseId createdAt }
}`

const removeGroupMemberMutation = `mutation Remove($groupId: ID!, $memberId: ID!) { removeGroupMember(input: {groupId: $groupId, memberId: $memberId}) }`

const groupBasesQuery = `query Bases($id: ID!) {
  group(id: $id) {
    policies { edges { cursor node { baseId name } } pageInfo { hasNextPage endCursor } }
    flows { edges { cursor node { baseId name } } pageInfo { hasNextPage endCursor } }
  }
}`

type groupData struct {
	ID, Name, Description, CreatedAt, UpdatedAt string
}

type groupMemberData struct {
	ID, GroupID, Kind, BaseID, CreatedAt string
}

type groupBases struct {
	Group struct {
		Policies, Flows struct {
			Edges []struct {
				Cursor string
				Node   struct{ BaseID, Name string }
			}
			PageInfo struct{ HasNextPage bool }
		}
	}
}

func createGroup(t *testing.T, f *fixture, key string, input map[string]any) groupData {
	t.Helper()
	var got struct{ CreateGroup groupData }
	f.post(t, key, createGroupMutation, map[string]any{"input": input}).decode(t, &got)
	return got.CreateGroup
}

func addGroupMember(t *testing.T, f *fixture, key, groupID, kind, baseID string) groupMemberData {
	t.Helper()
	var got struct{ AddGroupMember groupMemberData }
	f.post(t, key, addGroupMemberMutation, map[string]any{"groupId": groupID, "kind": kind, "baseId": baseID}).decode(t, &got)
	return got.AddGroupMember
}

func names(edges []struct {
	Cursor string
	Node   struct{ BaseID, Name string }
}) []string {
	out := []string{}
	for _, e := range edges {
		out = append(out, e.Node.Name)
	}
	return out
}

func TestGroupsAreCreatedRenamedListedAndDeleted(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)
		viewer := member(t, f, "vera", authz.RoleViewer)

		g := createGroup(t, f, editor, map[string]any{"name": "Lending", "description": "loans"})
		if g.ID == "" || g.Name != "Lending" || g.Description != "loans" || g.CreatedAt == "" || g.CreatedAt != g.UpdatedAt {
			t.Fatalf("created %+v", g)
		}
		createGroup(t, f, adminKey, map[string]any{"name": "Insurance"})
		f.post(t, viewer, createGroupMutation, map[string]any{"input": map[string]any{"name": "x"}}).failure(t, service.CodePermissionDenied)
		f.post(t, editor, createGroupMutation, map[string]any{"input": map[string]any{"name": " "}}).failure(t, service.CodeInvalidArgument)

		var updated struct{ UpdateGroup groupData }
		f.post(t, editor, `mutation U($input: UpdateGroupInput!) { updateGroup(input: $input) { ...G } }`+groupFields,
			map[string]any{"input": map[string]any{"id": g.ID, "name": "Loans"}}).decode(t, &updated)
		if u := updated.UpdateGroup; u.ID != g.ID || u.Name != "Loans" || u.Description != "loans" {
			t.Errorf("updated %+v, want the name changed and the description kept", u)
		}
		var loaded struct{ Group groupData }
		f.post(t, viewer, groupQuery, map[string]any{"id": g.ID}).decode(t, &loaded)
		if loaded.Group.Name != "Loans" {
			t.Errorf("loaded %+v", loaded.Group)
		}

		const groupsQuery = `query L($first: Int, $after: String, $query: String) {
		  groups(first: $first, after: $after, query: $query) { edges { cursor node { ...G } } pageInfo { hasNextPage endCursor } }
		}` + groupFields
		var list struct {
			Groups struct {
				Edges []struct {
					Cursor string
					Node   groupData
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		f.post(t, viewer, groupsQuery, map[string]any{"first": 1}).decode(t, &list)
		if c := list.Groups; len(c.Edges) != 1 || c.Edges[0].Node.Name != "Insurance" || !c.PageInfo.HasNextPage || *c.PageInfo.EndCursor != c.Edges[0].Cursor {
			t.Fatalf("first page %+v", c)
		}
		f.post(t, viewer, groupsQuery, map[string]any{"after": *list.Groups.PageInfo.EndCursor}).decode(t, &list)
		if c := list.Groups; len(c.Edges) != 1 || c.Edges[0].Node.ID != g.ID || c.PageInfo.HasNextPage {
			t.Errorf("second page %+v", c)
		}
		f.post(t, viewer, groupsQuery, map[string]any{"query": "LOAN"}).decode(t, &list)
		if c := list.Groups; len(c.Edges) != 1 || c.Edges[0].Node.ID != g.ID {
			t.Errorf("query LOAN: %+v", c)
		}

		const deleteGroupMutation = `mutation D($id: ID!) { deleteGroup(input: {id: $id}) }`
		f.post(t, viewer, deleteGroupMutation, map[string]any{"id": g.ID}).failure(t, service.CodePermissionDenied)
		var deleted struct{ DeleteGroup bool }
		f.post(t, editor, deleteGroupMutation, map[string]any{"id": g.ID}).decode(t, &deleted)
		if !deleted.DeleteGroup {
			t.Fatal("deleteGroup = false, want true")
		}
		f.post(t, viewer, groupQuery, map[string]any{"id": g.ID}).nullFailure(t, "group", service.CodeNotFound)
		f.post(t, editor, deleteGroupMutation, map[string]any{"id": g.ID}).failure(t, service.CodeNotFound)
	})
}

func TestAGroupListsOnlyTheVisibleLivePoliciesAndFlowsInIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		editor := member(t, w.fixture, "edith", authz.RoleEditor)
		g := createGroup(t, w.fixture, editor, map[string]any{"name": "Lending"})
		mine := createPolicy(t, w.fixture, editor, map[string]any{"name": "edith's draft", "rule": ageRule}).Policy
		fl := createFlow(t, w.fixture, adminKey, map[string]any{"name": "Loan", "definition": w.chained()}).Flow

		m := addGroupMember(t, w.fixture, editor, g.ID, "POLICY", w.age.BaseID)
		if m.ID == "" || m.GroupID != g.ID || m.Kind != "POLICY" || m.BaseID != w.age.BaseID || m.CreatedAt == "" {
			t.Errorf("membership %+v", m)
		}
		addGroupMember(t, w.fixture, editor, g.ID, "POLICY", w.income.BaseID)
		addGroupMember(t, w.fixture, editor, g.ID, "POLICY", mine.BaseID)
		addGroupMember(t, w.fixture, editor, g.ID, "FLOW", fl.BaseID)

		t.Run("adding errors", func(t *testing.T) {
			add := func(key, kind, baseID string) response {
				return w.post(t, key, addGroupMemberMutation, map[string]any{"groupId": g.ID, "kind": kind, "baseId": baseID})
			}
			add(editor, "POLICY", w.age.BaseID).failure(t, service.CodeConflict)
			add(editor, "FLOW", w.age.BaseID).failure(t, service.CodeNotFound)
			add(editor, "POLICY", w.age.ID).failure(t, service.CodeNotFound)
			add(editor, "KIND", w.age.BaseID).failure(t, service.CodeInvalidArgument)
			viewer := member(t, w.fixture, "vera", authz.RoleViewer)
			add(viewer, "POLICY", w.age.BaseID).failure(t, service.CodePermissionDenied)
			w.post(t, editor, addGroupMemberMutation, map[string]any{"groupId": w.age.ID, "kind": "POLICY", "baseId": w.age.BaseID}).
				failure(t, service.CodeNotFound)
		})

		var bases groupBases
		w.post(t, editor, groupBasesQuery, map[string]any{"id": g.ID}).decode(t, &bases)
		if got := names(bases.Group.Policies.Edges); len(got) != 3 || got[0] != "edith's draft" {
			t.Errorf("the editor sees policies %v, want their draft and the two published ones", got)
		}
		if got := names(bases.Group.Flows.Edges); len(got) != 0 {
			t.Errorf("the editor sees flows %v, want none: the admin's draft is the admin's", got)
		}
		w.post(t, adminKey, groupBasesQuery, map[string]any{"id": g.ID}).decode(t, &bases)
		if got := names(bases.Group.Policies.Edges); len(got) != 2 || got[0] != "P-INCOME" || got[1] != "P-AGE" {
			t.Errorf("the admin sees policies %v, want the published ones, not another user's draft", got)
		}
		if got := names(bases.Group.Flows.Edges); len(got) != 1 || got[0] != "Loan" {
			t.Errorf("the admin sees flows %v", got)
		}

		w.post(t, adminKey, `mutation D($id: ID!) { deletePolicy(input: {id: $id}) }`, map[string]any{"id": w.income.BaseID}).decode(t, &map[string]any{})
		w.post(t, adminKey, groupBasesQuery, map[string]any{"id": g.ID}).decode(t, &bases)
		if got := names(bases.Group.Policies.Edges); len(got) != 1 || got[0] != "P-AGE" {
			t.Errorf("after deleting P-INCOME the group lists %v", got)
		}
		w.post(t, editor, addGroupMemberMutation, map[string]any{"groupId": g.ID, "kind": "POLICY", "baseId": w.income.BaseID}).
			failure(t, service.CodeDeleted)

		// The membership to remove is found by its base, as the lists give it.
		membership := func(key, baseID string) *struct{ ID string } {
			var got struct {
				Group struct{ Membership *struct{ ID string } }
			}
			w.post(t, key, `query M($g: ID!, $b: ID!) { group(id: $g) { membership(kind: POLICY, baseId: $b) { id } } }`,
				map[string]any{"g": g.ID, "b": baseID}).decode(t, &got)
			return got.Group.Membership
		}
		if got := membership(editor, w.age.BaseID); got == nil || got.ID != m.ID {
			t.Fatalf("the membership of P-AGE is %+v, want %s", got, m.ID)
		}
		if got := membership(adminKey, mine.BaseID); got != nil {
			t.Errorf("the admin finds the membership of edith's draft: %+v", got)
		}
		if got := membership(editor, w.income.BaseID); got != nil {
			t.Errorf("the membership of the deleted P-INCOME is %+v", got)
		}

		var removed struct{ RemoveGroupMember bool }
		w.post(t, editor, removeGroupMemberMutation, map[string]any{"groupId": g.ID, "memberId": m.ID}).decode(t, &removed)
		if !removed.RemoveGroupMember {
			t.Fatal("removeGroupMember = false, want true")
		}
		w.post(t, adminKey, groupBasesQuery, map[string]any{"id": g.ID}).decode(t, &bases)
		if got := names(bases.Group.Policies.Edges); len(got) != 0 {
			t.Errorf("after removing P-AGE the group lists %v", got)
		}
		w.post(t, editor, removeGroupMemberMutation, map[string]any{"groupId": g.ID, "memberId": m.ID}).failure(t, service.CodeNotFound)
	})
}

func TestAnotherOrganizationsGroupIsNotFound(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		g := createGroup(t, f, adminKey, map[string]any{"name": "Lending"})
		p := createPolicy(t, f, adminKey, map[string]any{"name": "p", "rule": seniorRule}).Policy
		m := addGroupMember(t, f, adminKey, g.ID, "POLICY", p.BaseID)
		beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		f.post(t, beta.Secret, groupQuery, map[string]any{"id": g.ID}).nullFailure(t, "group", service.CodeNotFound)
		f.post(t, beta.Secret, groupBasesQuery, map[string]any{"id": g.ID}).nullFailure(t, "group", service.CodeNotFound)
		f.post(t, beta.Secret, `query M($g: ID!, $b: ID!) { group(id: $g) { membership(kind: POLICY, baseId: $b) { id } } }`,
			map[string]any{"g": g.ID, "b": p.BaseID}).nullFailure(t, "group", service.CodeNotFound)
		f.post(t, beta.Secret, removeGroupMemberMutation, map[string]any{"groupId": g.ID, "memberId": m.ID}).failure(t, service.CodeNotFound)
		f.post(t, beta.Secret, `query P($g: ID!) { policies(groupId: $g) { pageInfo { hasNextPage } } }`, map[string]any{"g": g.ID}).
			failure(t, service.CodeNotFound)
		f.post(t, beta.Secret, `query P($g: ID!) { policies(notInGroupId: $g) { pageInfo { hasNextPage } } }`, map[string]any{"g": g.ID}).
			failure(t, service.CodeNotFound)
		var candidates struct {
			Policies struct {
				Edges []struct{ Node struct{ BaseID string } }
			}
		}
		q := createPolicy(t, f, adminKey, map[string]any{"name": "q", "rule": seniorRule}).Policy
		f.post(t, adminKey, `query P($g: ID!) { policies(notInGroupId: $g) { edges { node { baseId } } } }`, map[string]any{"g": g.ID}).
			decode(t, &candidates)
		if e := candidates.Policies.Edges; len(e) != 1 || e[0].Node.BaseID != q.BaseID {
			t.Errorf("the policies not in the group are %+v, want only %s", e, q.BaseID)
		}
		other := createGroup(t, f, beta.Secret, map[string]any{"name": "Beta's"})
		f.post(t, beta.Secret, addGroupMemberMutation, map[string]any{"groupId": other.ID, "kind": "POLICY", "baseId": p.BaseID}).
			failure(t, service.CodeNotFound)
	})
}
