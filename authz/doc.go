// Package authz decides whether a principal may perform an action on a
// resource in Verdict. The rules live in one Rego policy (authz.rego,
// package verdict.authz) that is either compiled into the binary and
// evaluated in-process ([Embedded]) or served by an OPA server ([Remote]).
//
// The effective role of a request is the lower of the key's scope and the
// owner's role in the tenant; an organization key acts with the role equal to
// its scope. Scopes and authoring roles rank view/viewer < edit/editor <
// publish/publisher < admin/admin, and each role permits:
//
//	viewer     view, run
//	editor     viewer + create, edit, manage_groups
//	publisher  editor + publish
//	admin      publisher + delete, manage_members, manage_keys, read_audit
//	auditor    view, read_audit (whatever the key's scope)
//
// Each kind of resource takes only the actions that mean something for it;
// any other pair is denied:
//
//	policy, flow   view, run, create, edit, publish, delete
//	group          view, manage_groups
//	audit          read_audit
//	member         manage_members
//	key            manage_keys
//	organization   view, run (ad hoc runs that touch no stored record)
//
// On top of these tables, a decision is denied when the request has no key,
// the resource belongs to another tenant, the resource is deleted, or the
// action changes (create, edit, publish) a never-published base owned by
// another user and the effective role is below admin. Ownership never limits
// view or run: those follow the role alone.
//
// Every decision fails closed: an error, a timeout, an unreachable server or
// a result that is not a well-formed decision yields an error wrapping
// [ErrUnavailable] and a denying [Decision], never an allowing one.
package authz
