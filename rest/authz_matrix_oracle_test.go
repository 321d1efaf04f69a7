package rest

import (
	"net/http"
	"slices"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/service"
)

// The oracle: what docs/endpoints.md says a request must answer. It is written from the
// documentation, not computed by the authz package, so that a policy or a
// service that decides wrongly makes the matrix fail.

// action is what a row asks permission for.
type action string

const (
	// noKey is the action of the routes that need no key at all.
	noKey         action = "public"
	view          action = "view"
	run           action = "run"
	create        action = "create"
	edit          action = "edit"
	publish       action = "publish"
	remove        action = "delete"
	manageGroups  action = "manage groups"
	manageMembers action = "manage members"
	manageKeys    action = "manage keys"
	readAudit     action = "read audit"
	// testFlow is running an ad hoc flow test, which docs/endpoints.md gives to
	// editors; an ad hoc rule run (/run) is a run.
	testFlow action = "test flows"
	// replay is running a record on its base's recorded decisions, which
	// docs/endpoints.md gives to those who may publish the record: publishers and
	// admins.
	replay action = "replay"
)

// permits is docs/endpoints.md's list of roles ("Roles and scopes"): viewers
// inspect and run; editors also create and edit drafts, run ad hoc tests and
// manage groups; publishers also publish and replay; admins also delete and
// manage members, roles and keys, and read the audit log ("Audit") and
// decision records. Auditors read the audit log and decision records and
// never create, edit, publish, delete, run or replay; that they
// may still view resources is authz.rego's reading, mirrored here.
var permits = map[authz.Role]map[action]bool{
	authz.RoleViewer:    set(view, run),
	authz.RoleEditor:    set(view, run, create, edit, manageGroups, testFlow),
	authz.RolePublisher: set(view, run, create, edit, manageGroups, testFlow, publish, replay),
	authz.RoleAdmin:     set(view, run, create, edit, manageGroups, testFlow, publish, remove, manageMembers, manageKeys, readAudit, replay),
	authz.RoleAuditor:   set(view, readAudit),
}

func set(actions ...action) map[action]bool {
	s := map[action]bool{}
	for _, a := range actions {
		s[a] = true
	}
	return s
}

// scopeRole is the authoring role a key scope stands for; view < edit <
// publish < admin, like viewer < editor < publisher < admin.
var scopeRole = map[authz.Scope]authz.Role{
	authz.ScopeView: authz.RoleViewer, authz.ScopeEdit: authz.RoleEditor,
	authz.ScopePublish: authz.RolePublisher, authz.ScopeAdmin: authz.RoleAdmin,
}

var roleRank = map[authz.Role]int{authz.RoleViewer: 1, authz.RoleEditor: 2, authz.RolePublisher: 3, authz.RoleAdmin: 4}

// effectiveRole is "the lower of the key's scope and the owner's role"; an
// organization key acts with the role equal to its scope. The auditor is
// outside the order: no scope makes it an author, and it stays an auditor.
func (p *principal) effectiveRole() authz.Role {
	ceiling := scopeRole[p.scope]
	switch {
	case p.orgKey:
		return ceiling
	case p.role == authz.RoleAuditor:
		return authz.RoleAuditor
	case roleRank[p.role] < roleRank[ceiling]:
		return p.role
	}
	return ceiling
}

// ownsDraft says whether a never-published resource of p's tenant is p's
// own: they are all created by the tenant's editor. An organization key is
// nobody's user, so every such draft is another's to it.
func (p *principal) ownsDraft() bool { return !p.orgKey && p.user == p.tenant.editor }

// changesBase are the actions that a never-published base keeps to its
// creator (and to admins); replay is checked as a publish, so it follows the
// same rule.
var changesBase = set(create, edit, publish, replay)

// lists says whether a resource of p's tenant in state st appears in p's
// listings: published ones to everyone, a never-published one to its
// creator only, a deleted one to nobody.
func (p *principal) lists(st state) bool {
	switch st {
	case deleted:
		return false
	case neverPublished:
		return p.ownsDraft()
	}
	return true
}

// target is what a request names: one of a tenant's shared resources of a
// kind, by one of its ids.
type target struct {
	kind   *kind
	tenant *matrixTenant
	state  state
	id     idKind
}

func (tg *target) String() string {
	s := tg.tenant.name + "'s "
	if tg.state.String() != "" {
		s += tg.state.String() + " "
	}
	return s + tg.kind.name + " by its " + tg.id.String()
}

// addressesVersion says whether the record the id stands for is a
// published version: a version id, or a base id of a base that has one
// (a base means its latest version, else its draft).
func (tg *target) addressesVersion() bool {
	return tg.id == versionID || tg.id == baseID && tg.state != neverPublished
}

func (tg *target) hasDraft() bool {
	return tg.state == neverPublished || tg.state == versionedWithDraft
}

// outcome is a status and, for an error, its code.
type outcome struct {
	status int
	code   service.Code
}

func (o outcome) failed() bool { return o.code != "" }

func (o outcome) String() string {
	if !o.failed() {
		return http.StatusText(o.status)
	}
	return string(o.code)
}

// expect judges a request. The first rule that applies decides:
//
//  1. a public route answers everyone with its success;
//  2. no key, or a revoked one: 401 unauthenticated;
//  3. a caller whose role may not see the kind of resource named at all
//     (members and keys are for admins): 403 permission_denied, before
//     anything is looked up, so that the answer says nothing about the id;
//  4. an id of another tenant, of another kind of resource, of a kind the
//     route does not take (a record id where a base id goes), or of
//     nothing any more: 404 not_found, revealing nothing;
//  5. a deleted base: 410 deleted, whatever the caller's role (the base is
//     loaded, its deletion found, and only then is the authorizer asked),
//     also by the other kind of id on a route that hints at it (4);
//  6. an effective role that does not allow the action: 403
//     permission_denied;
//  7. creating, editing or publishing a never-published base of another
//     user, below admin: 403 permission_denied;
//  8. a state that refuses the change (editing a published record, adding
//     a base a group has, demoting the only admin, ...): 409 conflict;
//  9. the route's success.
func expect(p *principal, ep *endpoint, tg *target) outcome {
	ok := outcome{status: ep.success}
	if ep.action == noKey {
		return ok
	}
	if !p.authenticated {
		return outcome{http.StatusUnauthorized, service.CodeUnauthenticated}
	}
	role := p.effectiveRole()
	switch {
	case tg != nil && !permits[role][tg.kind.seenWith]:
		return outcome{http.StatusForbidden, service.CodePermissionDenied}
	case tg != nil && tg.tenant == p.tenant && tg.state == deleted && ep.hintsKind && slices.Contains(ep.kinds, tg.kind):
		// By either kind of id where the route would hint at the other.
		return outcome{http.StatusGone, service.CodeDeleted}
	case tg != nil && (tg.tenant != p.tenant || !ep.takes(tg) || tg.state == removed):
		return outcome{http.StatusNotFound, service.CodeNotFound}
	case tg != nil && tg.state == deleted:
		return outcome{http.StatusGone, service.CodeDeleted}
	case !permits[role][ep.action]:
		return outcome{http.StatusForbidden, service.CodePermissionDenied}
	case tg != nil && changesBase[ep.action] && tg.state == neverPublished && !p.ownsDraft() && role != authz.RoleAdmin:
		return outcome{http.StatusForbidden, service.CodePermissionDenied}
	case ep.conflicts != nil && ep.conflicts(tg):
		return outcome{http.StatusConflict, service.CodeConflict}
	}
	return ok
}
