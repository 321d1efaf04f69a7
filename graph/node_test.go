package graph_test

import (
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const nodeQuery = `query N($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on Policy { name status }
    ... on Flow { name status }
    ... on PolicySummary { name }
    ... on FlowSummary { name }
    ... on Group { name }
    ... on Organization { name }
    ... on User { email }
    ... on APIKey { prefix }
  }
}`

type nodeData struct {
	Node *struct {
		Typename         string `json:"__typename"`
		ID, Name, Status string
		Email, Prefix    string
	}
}

func TestNodeFindsEachKindOfObjectByItsIdAlone(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		draft := createPolicy(t, w.fixture, adminKey, map[string]any{"name": "draft", "rule": seniorRule}).Policy
		fl := createFlow(t, w.fixture, adminKey, map[string]any{"name": "Loan", "definition": w.chained()}).Flow
		g := createGroup(t, w.fixture, adminKey, map[string]any{"name": "Lending"})
		b := w.boot

		for _, tc := range []struct {
			name, id, typename, want string
		}{
			{"a published policy record", w.age.ID, "Policy", "P-AGE"},
			{"a policy draft", draft.ID, "Policy", "draft"},
			{"a flow record", fl.ID, "Flow", "Loan"},
			{"a policy base, as its summary", w.age.BaseID, "PolicySummary", "P-AGE"},
			{"a draft's base, as its summary", draft.BaseID, "PolicySummary", "draft"},
			{"a flow base, as its summary", fl.BaseID, "FlowSummary", "Loan"},
			{"a group", g.ID, "Group", "Lending"},
			{"the organization", b.Organization.ID.String(), "Organization", "Acme"},
			{"the caller", b.User.ID.String(), "User", "admin@acme.test"},
			{"the caller's key", b.Key.ID.String(), "APIKey", b.Key.Prefix},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got nodeData
				w.post(t, adminKey, nodeQuery, map[string]any{"id": tc.id}).decode(t, &got)
				n := got.Node
				if n == nil {
					t.Fatal("node is null")
				}
				if n.Typename != tc.typename || n.ID != tc.id || n.Name+n.Email+n.Prefix != tc.want {
					t.Errorf("node %+v, want a %s %q", *n, tc.typename, tc.want)
				}
			})
		}

		beta, err := w.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		for name, id := range map[string]string{
			"an unknown id":                "00000000-0000-0000-0000-000000000000",
			"another organization":         beta.Organization.ID.String(),
			"another organization's admin": beta.User.ID.String(),
			"another organization's key":   beta.Key.ID.String(),
		} {
			t.Run(name+" is null", func(t *testing.T) {
				var got nodeData
				w.post(t, adminKey, nodeQuery, map[string]any{"id": id}).decode(t, &got)
				if got.Node != nil {
					t.Errorf("node %+v, want null", *got.Node)
				}
			})
		}
		t.Run("Acme's objects are null to Beta", func(t *testing.T) {
			for _, id := range []string{w.age.ID, w.age.BaseID, draft.ID, fl.ID, fl.BaseID, g.ID, b.Organization.ID.String(), b.User.ID.String(), b.Key.ID.String()} {
				var got nodeData
				w.post(t, beta.Secret, nodeQuery, map[string]any{"id": id}).decode(t, &got)
				if got.Node != nil {
					t.Errorf("node(%s) is %+v to Beta, want null", id, *got.Node)
				}
			}
		})
		t.Run("a summary is found by any member who may read the policy", func(t *testing.T) {
			viewer := member(t, w.fixture, "vera", authz.RoleViewer)
			for _, id := range []string{w.age.BaseID, fl.BaseID} {
				var got nodeData
				w.post(t, viewer, nodeQuery, map[string]any{"id": id}).decode(t, &got)
				if got.Node == nil || got.Node.ID != id {
					t.Errorf("node(%s) is %+v to a viewer, want the summary", id, got.Node)
				}
			}
		})
		t.Run("a deleted policy's record is deleted", func(t *testing.T) {
			w.post(t, adminKey, `mutation D($id: ID!) { deletePolicy(input: {id: $id}) }`, map[string]any{"id": w.age.ID}).decode(t, &map[string]any{})
			w.post(t, adminKey, nodeQuery, map[string]any{"id": w.age.ID}).fieldFailure(t, service.CodeDeleted)
		})
		t.Run("an id that is not a UUID is an invalid argument", func(t *testing.T) {
			w.post(t, adminKey, nodeQuery, map[string]any{"id": "P-AGE"}).fieldFailure(t, service.CodeInvalidArgument)
		})
	})
}

const adminNodeQuery = `query N($id: ID!) {
  node(id: $id) {
    __typename
    id
    ... on GroupMember { baseId }
    ... on AuditEvent { action }
    ... on User { email }
    ... on Member { role user { email } }
    ... on APIKey { name }
  }
}`

type adminNodeData struct {
	Node *struct {
		Typename           string `json:"__typename"`
		ID, BaseID, Action string
		Email, Role, Name  string
		User               *struct{ Email string }
	}
}

// organizationIDs are ids of objects of an organization that its admin
// reads: a group member, the newest audit event, and a member's user id,
// membership id and key.
type organizationIDs struct {
	groupMember, event, user, member, key string
}

// someOfEach makes a group with a policy in it as the holder of editorKey,
// and reads as the admin the ids of what it made, and of the member and
// key named by email and keyName.
func someOfEach(t *testing.T, f *fixture, adminKey, editorKey, email, keyName string) organizationIDs {
	t.Helper()
	draft := createPolicy(t, f, editorKey, map[string]any{"name": "draft", "rule": seniorRule}).Policy
	g := createGroup(t, f, editorKey, map[string]any{"name": "Lending"})
	ids := organizationIDs{groupMember: addGroupMember(t, f, editorKey, g.ID, "POLICY", draft.BaseID).ID}
	var got struct {
		AuditEvents struct {
			Edges []struct{ Node struct{ ID string } }
		}
		Members struct {
			Edges []struct {
				Node struct {
					ID   string
					User struct{ ID string }
				}
			}
		}
		Keys struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	f.post(t, adminKey, `query I($email: String!, $keyName: String!) {
  auditEvents(first: 1) { edges { node { id } } }
  members(query: $email) { edges { node { id user { id } } } }
  keys(query: $keyName) { edges { node { id } } }
}`, map[string]any{"email": email, "keyName": keyName}).decode(t, &got)
	if len(got.AuditEvents.Edges) != 1 || len(got.Members.Edges) != 1 || len(got.Keys.Edges) != 1 {
		t.Fatalf("ids %+v", got)
	}
	ids.event = got.AuditEvents.Edges[0].Node.ID
	ids.member = got.Members.Edges[0].Node.ID
	ids.user = got.Members.Edges[0].Node.User.ID
	ids.key = got.Keys.Edges[0].Node.ID
	return ids
}

func TestNodeFindsMembersKeysAndEventsAsTheirListsDo(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		editor := member(t, f, "edith", authz.RoleEditor)
		auditor := member(t, f, "aude", authz.RoleAuditor)
		acme := someOfEach(t, f, adminKey, editor, "edith@", "edith")
		beta, err := f.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		theirs := someOfEach(t, f, beta.Secret, beta.Secret, "boss@", "bootstrap")

		node := func(t *testing.T, key, id string) *adminNodeData {
			t.Helper()
			var got adminNodeData
			f.post(t, key, adminNodeQuery, map[string]any{"id": id}).decode(t, &got)
			return &got
		}
		for _, tc := range []struct {
			kind, id, typename string
			readers, others    []string
			theirs             string
		}{
			{"a group member", acme.groupMember, "GroupMember", []string{adminKey, editor, auditor}, nil, theirs.groupMember},
			{"an audit event", acme.event, "AuditEvent", []string{adminKey, auditor}, []string{editor}, theirs.event},
			// Every caller finds their own user and key, as viewer shows
			// them; others' need the members and keys lists' ADMIN.
			{"a member's user", acme.user, "User", []string{adminKey, editor}, []string{auditor}, theirs.user},
			{"a membership", acme.member, "Member", []string{adminKey}, []string{editor, auditor}, theirs.member},
			{"a key", acme.key, "APIKey", []string{adminKey, editor}, []string{auditor}, theirs.key},
		} {
			t.Run(tc.kind, func(t *testing.T) {
				for i, key := range tc.readers {
					n := node(t, key, tc.id).Node
					if n == nil || n.Typename != tc.typename || n.ID != tc.id {
						t.Errorf("reader %d finds %+v, want the %s %s", i, n, tc.typename, tc.id)
					}
				}
				for i, key := range tc.others {
					if n := node(t, key, tc.id).Node; n != nil {
						t.Errorf("caller %d, who may not read it, finds %+v; want null", i, *n)
					}
				}
				if n := node(t, adminKey, tc.theirs).Node; n != nil {
					t.Errorf("Acme's admin finds Beta's %+v; want null", *n)
				}
				if n := node(t, beta.Secret, tc.id).Node; n != nil {
					t.Errorf("Beta's admin finds %+v; want null", *n)
				}
			})
		}
		t.Run("a membership shows its role and user", func(t *testing.T) {
			n := node(t, adminKey, acme.member).Node
			if n == nil || n.Role != "EDITOR" || n.User == nil || n.User.Email != "edith@acme.test" {
				t.Errorf("membership %+v", n)
			}
		})
	})
}
