package authz

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	allRoles   = []Role{RoleViewer, RoleEditor, RolePublisher, RoleAdmin, RoleAuditor}
	allScopes  = []Scope{ScopeView, ScopeEdit, ScopePublish, ScopeAdmin}
	allActions = []Action{
		ActionView, ActionRun, ActionCreate, ActionEdit, ActionPublish, ActionDelete,
		ActionManageGroups, ActionManageMembers, ActionManageKeys, ActionReadAudit,
	}
)

// The acting user is u1 in tenant t1; u2 is another member of t1.
func userKey(role Role, scope Scope) Principal {
	return Principal{UserID: "u1", KeyID: "k1", KeyOwner: OwnerUser, Role: role, Scope: scope, TenantID: "t1"}
}

func orgKey(scope Scope) Principal {
	return Principal{KeyID: "k2", KeyOwner: OwnerOrganization, Scope: scope, TenantID: "t1"}
}

var (
	publishedPolicy  = Resource{Kind: KindPolicy, TenantID: "t1", OwnerKind: OwnerOrganization, OwnerID: "t1", State: StateVersioned}
	ownDraftFlow     = Resource{Kind: KindFlow, TenantID: "t1", OwnerKind: OwnerUser, OwnerID: "u1", State: StateDraftOnly}
	othersDraft      = Resource{Kind: KindPolicy, TenantID: "t1", OwnerKind: OwnerUser, OwnerID: "u2", State: StateDraftOnly}
	newPolicy        = Resource{Kind: KindPolicy, TenantID: "t1"}
	deletedPolicy    = Resource{Kind: KindPolicy, TenantID: "t1", OwnerKind: OwnerOrganization, OwnerID: "t1", State: StateDeleted}
	foreignPolicy    = Resource{Kind: KindPolicy, TenantID: "t2", OwnerKind: OwnerOrganization, OwnerID: "t2", State: StateVersioned}
	group            = Resource{Kind: KindGroup, TenantID: "t1"}
	auditLog         = Resource{Kind: KindAudit, TenantID: "t1"}
	members          = Resource{Kind: KindMember, TenantID: "t1"}
	keys             = Resource{Kind: KindKey, TenantID: "t1"}
	organization     = Resource{Kind: KindOrganization, TenantID: "t1"}
	authoringActions = []Action{ActionView, ActionRun, ActionCreate, ActionEdit, ActionPublish, ActionDelete}
)

// roleMatrix spells out, per resource, what each role may do with an
// admin-scoped key (so the role is the only limit). Every other role and
// action pair must be denied.
var roleMatrix = []struct {
	resource string
	r        Resource
	allowed  map[Role][]Action
}{
	{"a published policy", publishedPolicy, map[Role][]Action{
		RoleViewer:    {ActionView, ActionRun},
		RoleEditor:    {ActionView, ActionRun, ActionCreate, ActionEdit},
		RolePublisher: {ActionView, ActionRun, ActionCreate, ActionEdit, ActionPublish},
		RoleAdmin:     authoringActions,
		RoleAuditor:   {ActionView},
	}},
	{"their own never-published flow", ownDraftFlow, map[Role][]Action{
		RoleViewer:    {ActionView, ActionRun},
		RoleEditor:    {ActionView, ActionRun, ActionCreate, ActionEdit},
		RolePublisher: {ActionView, ActionRun, ActionCreate, ActionEdit, ActionPublish},
		RoleAdmin:     authoringActions,
		RoleAuditor:   {ActionView},
	}},
	{"another user's never-published policy", othersDraft, map[Role][]Action{
		RoleViewer:    {ActionView, ActionRun},
		RoleEditor:    {ActionView, ActionRun},
		RolePublisher: {ActionView, ActionRun},
		RoleAdmin:     authoringActions,
		RoleAuditor:   {ActionView},
	}},
	{"a policy not created yet", newPolicy, map[Role][]Action{
		RoleViewer:    {ActionView, ActionRun},
		RoleEditor:    {ActionView, ActionRun, ActionCreate},
		RolePublisher: {ActionView, ActionRun, ActionCreate},
		RoleAdmin:     {ActionView, ActionRun, ActionCreate},
		RoleAuditor:   {ActionView},
	}},
	{"a deleted policy", deletedPolicy, nil},
	{"a policy of another tenant", foreignPolicy, nil},
	{"a group", group, map[Role][]Action{
		RoleViewer:    {ActionView},
		RoleEditor:    {ActionView, ActionManageGroups},
		RolePublisher: {ActionView, ActionManageGroups},
		RoleAdmin:     {ActionView, ActionManageGroups},
		RoleAuditor:   {ActionView},
	}},
	{"the audit log", auditLog, map[Role][]Action{
		RoleAdmin:   {ActionReadAudit},
		RoleAuditor: {ActionReadAudit},
	}},
	{"the members", members, map[Role][]Action{RoleAdmin: {ActionManageMembers}}},
	{"the keys", keys, map[Role][]Action{RoleAdmin: {ActionManageKeys}}},
	{"the organization", organization, map[Role][]Action{
		RoleViewer:    {ActionView, ActionRun},
		RoleEditor:    {ActionView, ActionRun},
		RolePublisher: {ActionView, ActionRun},
		RoleAdmin:     {ActionView, ActionRun},
		RoleAuditor:   {ActionView},
	}},
}

// decisionTimeout is generous: these tests check answers, not deadlines
// (which have tests of their own), and must not fail on a loaded machine
// or under the race detector.
const decisionTimeout = 30 * time.Second

func newTestEmbedded(t testing.TB) *Embedded {
	t.Helper()
	e, err := NewEmbedded(WithTimeout(decisionTimeout))
	if err != nil {
		t.Fatalf("NewEmbedded: %v", err)
	}
	return e
}

func mustDecide(t testing.TB, az Authorizer, p Principal, a Action, r Resource) Decision {
	t.Helper()
	d, err := az.Decide(context.Background(), p, a, r)
	if err != nil {
		t.Fatalf("Decide(%+v, %s, %+v): %v", p, a, r, err)
	}
	return d
}

func TestEachRoleMayDoExactlyWhatItsRowAllows(t *testing.T) {
	az := newTestEmbedded(t)
	for _, row := range roleMatrix {
		for _, role := range allRoles {
			for _, action := range allActions {
				want := slices.Contains(row.allowed[role], action)
				verb := "may"
				if !want {
					verb = "may not"
				}
				t.Run(fmt.Sprintf("%s %s %s %s", article(role), role, verb, phrase(action, row.resource)), func(t *testing.T) {
					d := mustDecide(t, az, userKey(role, ScopeAdmin), action, row.r)
					if d.Allow != want {
						t.Errorf("allow = %v (reason %q), want %v", d.Allow, d.Reason, want)
					}
					if d.Allow != (d.Reason == "allowed") {
						t.Errorf("allow = %v with reason %q", d.Allow, d.Reason)
					}
				})
			}
		}
	}
}

func article(r Role) string {
	if strings.ContainsRune("aeiou", rune(r[0])) {
		return "an"
	}
	return "a"
}

func phrase(a Action, resource string) string {
	return strings.ReplaceAll(string(a), "_", " ") + " " + resource
}

// A key acts as the lower of its scope and its owner's role, or as its scope
// for an organization key; auditors stay auditors. Each row must decide every
// action exactly as an admin-scoped key of the role it acts as.
func TestAKeyActsAsTheLowerOfItsScopeAndItsOwnersRole(t *testing.T) {
	ceilings := []struct {
		p      Principal
		actsAs Role
	}{
		{userKey(RoleAdmin, ScopeView), RoleViewer},
		{userKey(RoleAdmin, ScopeEdit), RoleEditor},
		{userKey(RoleAdmin, ScopePublish), RolePublisher},
		{userKey(RoleAdmin, ScopeAdmin), RoleAdmin},
		{userKey(RolePublisher, ScopeView), RoleViewer},
		{userKey(RolePublisher, ScopeEdit), RoleEditor},
		{userKey(RolePublisher, ScopePublish), RolePublisher},
		{userKey(RolePublisher, ScopeAdmin), RolePublisher},
		{userKey(RoleEditor, ScopeView), RoleViewer},
		{userKey(RoleEditor, ScopeEdit), RoleEditor},
		{userKey(RoleEditor, ScopePublish), RoleEditor},
		{userKey(RoleEditor, ScopeAdmin), RoleEditor},
		{userKey(RoleViewer, ScopeView), RoleViewer},
		{userKey(RoleViewer, ScopeEdit), RoleViewer},
		{userKey(RoleViewer, ScopePublish), RoleViewer},
		{userKey(RoleViewer, ScopeAdmin), RoleViewer},
		{userKey(RoleAuditor, ScopeView), RoleAuditor},
		{userKey(RoleAuditor, ScopeEdit), RoleAuditor},
		{userKey(RoleAuditor, ScopePublish), RoleAuditor},
		{userKey(RoleAuditor, ScopeAdmin), RoleAuditor},
		{orgKey(ScopeView), RoleViewer},
		{orgKey(ScopeEdit), RoleEditor},
		{orgKey(ScopePublish), RolePublisher},
		{orgKey(ScopeAdmin), RoleAdmin},
	}
	// Not the principal's own draft: an organization key owns no draft.
	resources := []Resource{publishedPolicy, othersDraft, newPolicy, group, auditLog, members, keys, organization}
	az := newTestEmbedded(t)
	for _, c := range ceilings {
		name := fmt.Sprintf("%s key with %s scope of %s acts as %s", c.p.KeyOwner, c.p.Scope, orOrg(c.p.Role), c.actsAs)
		t.Run(name, func(t *testing.T) {
			for _, r := range resources {
				for _, a := range allActions {
					got := mustDecide(t, az, c.p, a, r)
					want := mustDecide(t, az, userKey(c.actsAs, ScopeAdmin), a, r)
					// What the role it acts as lacks, the scope refuses
					// when the key's owner's role does not.
					if want.Reason == "role_forbids_action" && (c.p.KeyOwner == OwnerOrganization ||
						mustDecide(t, az, userKey(c.p.Role, ScopeAdmin), a, r).Reason != "role_forbids_action") {
						want.Reason = "scope_forbids_action"
					}
					if got != want {
						t.Errorf("%s on %+v: got %+v, want %+v", a, r, got, want)
					}
				}
			}
		})
	}
}

func orOrg(r Role) string {
	if r == "" {
		return "an organization"
	}
	return "a user with role " + string(r)
}

func TestNamedCasesAreDecidedForTheStatedReason(t *testing.T) {
	noKey := userKey(RoleAdmin, ScopeAdmin)
	noKey.KeyID = ""
	noUser := userKey(RoleAdmin, ScopeAdmin)
	noUser.UserID = ""
	noTenant := userKey(RoleAdmin, ScopeAdmin)
	noTenant.TenantID = ""
	orgWithRole := orgKey(ScopeView)
	orgWithRole.Role = RoleAdmin
	stateless := publishedPolicy
	stateless.State = ""
	ownerless := othersDraft
	ownerless.OwnerID = ""

	cases := []struct {
		name   string
		p      Principal
		a      Action
		r      Resource
		reason string
	}{
		{"an admin with a view-scoped key cannot publish", userKey(RoleAdmin, ScopeView), ActionPublish, publishedPolicy, "scope_forbids_action"},
		{"an admin with a publish-scoped key cannot read the audit log", userKey(RoleAdmin, ScopePublish), ActionReadAudit, auditLog, "scope_forbids_action"},
		{"an auditor with a view-scoped key reads the audit log", userKey(RoleAuditor, ScopeView), ActionReadAudit, auditLog, "allowed"},
		{"a viewer with an admin-scoped key cannot publish", userKey(RoleViewer, ScopeAdmin), ActionPublish, publishedPolicy, "role_forbids_action"},
		{"a viewer with a view-scoped key cannot edit: the role decides", userKey(RoleViewer, ScopeView), ActionEdit, publishedPolicy, "role_forbids_action"},
		{"an auditor with an admin-scoped key cannot run a policy", userKey(RoleAuditor, ScopeAdmin), ActionRun, publishedPolicy, "role_forbids_action"},
		{"an organization key with publish scope publishes", orgKey(ScopePublish), ActionPublish, publishedPolicy, "allowed"},
		{"an organization key with publish scope cannot delete", orgKey(ScopePublish), ActionDelete, publishedPolicy, "scope_forbids_action"},
		{"an organization key ignores a role it was given", orgWithRole, ActionEdit, publishedPolicy, "scope_forbids_action"},
		{"a request without a key is denied", noKey, ActionView, publishedPolicy, "missing_api_key"},
		{"a user key without a user is denied", noUser, ActionView, publishedPolicy, "invalid_principal"},
		{"a user key without a role is denied", userKey("", ScopeAdmin), ActionView, publishedPolicy, "invalid_principal"},
		{"a key without a scope is denied", userKey(RoleAdmin, ""), ActionView, publishedPolicy, "invalid_principal"},
		{"a key owned by neither a user nor an organization is denied", Principal{KeyID: "k3", Scope: ScopeAdmin, TenantID: "t1"}, ActionView, publishedPolicy, "invalid_principal"},
		{"an unknown action is denied", userKey(RoleAdmin, ScopeAdmin), "approve", publishedPolicy, "unknown_action"},
		{"managing keys on a policy is denied", userKey(RoleAdmin, ScopeAdmin), ActionManageKeys, publishedPolicy, "action_not_applicable_to_kind"},
		{"editing a key record is denied", userKey(RoleAdmin, ScopeAdmin), ActionEdit, keys, "action_not_applicable_to_kind"},
		{"an admin cannot view a policy of another tenant", userKey(RoleAdmin, ScopeAdmin), ActionView, foreignPolicy, "tenant_mismatch"},
		{"a principal without a tenant is denied", noTenant, ActionView, Resource{Kind: KindPolicy, State: StateVersioned}, "tenant_mismatch"},
		{"an admin cannot view a deleted policy", userKey(RoleAdmin, ScopeAdmin), ActionView, deletedPolicy, "resource_deleted"},
		{"an admin cannot delete a deleted policy again", userKey(RoleAdmin, ScopeAdmin), ActionDelete, deletedPolicy, "resource_deleted"},
		{"an editor cannot edit another user's draft", userKey(RoleEditor, ScopeAdmin), ActionEdit, othersDraft, "draft_owned_by_another_user"},
		{"a publisher cannot edit another user's draft", userKey(RolePublisher, ScopeAdmin), ActionEdit, othersDraft, "draft_owned_by_another_user"},
		{"a publisher cannot publish another user's draft", userKey(RolePublisher, ScopeAdmin), ActionPublish, othersDraft, "draft_owned_by_another_user"},
		{"an admin edits another user's draft", userKey(RoleAdmin, ScopeAdmin), ActionEdit, othersDraft, "allowed"},
		{"an admin publishes another user's draft", userKey(RoleAdmin, ScopeAdmin), ActionPublish, othersDraft, "allowed"},
		{"an admin with an edit-scoped key cannot edit another user's draft", userKey(RoleAdmin, ScopeEdit), ActionEdit, othersDraft, "draft_owned_by_another_user"},
		{"a viewer runs another user's draft", userKey(RoleViewer, ScopeView), ActionRun, othersDraft, "allowed"},
		{"an editor edits their own draft", userKey(RoleEditor, ScopeEdit), ActionEdit, ownDraftFlow, "allowed"},
		{"a publisher cannot delete their own draft", userKey(RolePublisher, ScopePublish), ActionDelete, ownDraftFlow, "role_forbids_action"},
		{"an organization key with publish scope cannot publish a user's draft", orgKey(ScopePublish), ActionPublish, othersDraft, "draft_owned_by_another_user"},
		{"an organization key with admin scope publishes a user's draft", orgKey(ScopeAdmin), ActionPublish, othersDraft, "allowed"},
		{"editing a base without its state is denied", userKey(RoleAdmin, ScopeAdmin), ActionEdit, stateless, "invalid_resource"},
		{"a draft without an owner is denied", userKey(RoleAdmin, ScopeAdmin), ActionView, ownerless, "invalid_resource"},
		{"a group with a state is denied", userKey(RoleAdmin, ScopeAdmin), ActionView, Resource{Kind: KindGroup, TenantID: "t1", State: StateVersioned}, "invalid_resource"},
	}
	az := newTestEmbedded(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustDecide(t, az, c.p, c.a, c.r)
			want := Decision{Allow: c.reason == "allowed", Reason: c.reason}
			if d != want {
				t.Errorf("got %+v, want %+v", d, want)
			}
		})
	}
}
