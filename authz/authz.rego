# Who may do what in Verdict. The Go package authz evaluates
# data.verdict.authz.decision with this file compiled in, or asks an OPA server
# that serves this same file. The input is
#
#   {"principal": {"user_id", "key_id", "key_owner", "role", "scope", "tenant_id"},
#    "action": "...",
#    "resource": {"kind", "tenant_id", "owner_kind", "owner_id", "state"}}
#
# and the decision is always defined: {"allow": bool, "reason": string}.
#
# The embedded evaluator caches decisions by input, so a decision must depend
# on the input alone (no time, no data documents). Input fields are named in
# full rather than through alias rules: an alias is one more rule to evaluate
# per query, and aliases made a decision about a quarter slower.
package verdict.authz

# Authoring roles in order of authority. The auditor stands outside the order:
# it reads, it never authors, and no key scope turns it into an author.
rank := {"viewer": 1, "editor": 2, "publisher": 3, "admin": 4}

# A key's scope caps what its owner may do at the authoring role of the same rank.
scope_role := {"view": "viewer", "edit": "editor", "publish": "publisher", "admin": "admin"}

permissions := {
	"viewer": {"view", "run"},
	"editor": {"view", "run", "create", "edit", "manage_groups"},
	"publisher": {"view", "run", "create", "edit", "manage_groups", "publish"},
	"admin": {
		"view", "run", "create", "edit", "manage_groups", "publish",
		"delete", "manage_members", "manage_keys", "read_audit",
	},
	"auditor": {"view", "read_audit"},
}

# Actions that mean something for each kind of resource. Anything else is a
# caller mistake, and a mistake must not turn into a permission.
authoring := {"view", "run", "create", "edit", "publish", "delete"}

actions_on := {
	"policy": authoring,
	"flow": authoring,
	"group": {"view", "manage_groups"},
	"audit": {"read_audit"},
	"member": {"manage_members"},
	"key": {"manage_keys"},
	"organization": {"view", "run"},
}

# Only bases have a lifecycle; the other kinds come with an empty state.
kinds_with_states := {"policy", "flow"}

owner_kinds := {"user", "organization"}

# The ownership rule reads the state, so these actions cannot go without one.
# view, run and create may: listing, ad hoc runs and new bases have no base state.
state_bound_actions := {"edit", "publish", "delete"}

# Actions that change a base; on a draft_only base they belong to its creator.
changes_base := {"create", "edit", "publish"}



decision := deny("missing_api_key") if {
	not has_key
} else := deny("invalid_principal") if {
	not effective_role
} else := deny("unknown_action") if {
	not permissions.admin[input.action]
} else := deny("action_not_applicable_to_kind") if {
	not actions_on[input.resource.kind][input.action]
} else := deny("tenant_mismatch") if {
	not same_tenant
} else := deny("resource_deleted") if {
	input.resource.state == "deleted"
} else := deny("invalid_resource") if {
	not valid_resource
} else := deny(forbidden_by) if {
	not permissions[effective_role][input.action]
} else := deny("draft_owned_by_another_user") if {
	changes_base[input.action]
	draft_of_another_user
	effective_role != "admin"
} else := {"allow": true, "reason": "allowed"}

deny(reason) := {"allow": false, "reason": reason}

# What refuses an action the effective role lacks, so that the caller knows
# whether another key would do: the key's scope when the key is the
# organization's (it acts as its scope) or when its user's role alone would
# allow the action; else the user's role.
forbidden_by := "scope_forbids_action" if {
	input.principal.key_owner == "organization"
} else := "scope_forbids_action" if {
	permissions[input.principal.role][input.action]
} else := "role_forbids_action"

has_key if input.principal.key_id != ""

user_key if {
	input.principal.key_owner == "user"
	input.principal.user_id != ""
}

# An organization key has no role of its own: it acts as its scope.
effective_role := scope_role[input.principal.scope] if input.principal.key_owner == "organization"

# Auditor keys read the audit log and view, whatever their scope says.
effective_role := "auditor" if {
	user_key
	input.principal.role == "auditor"
	scope_role[input.principal.scope]
}

effective_role := lower(input.principal.role, scope_role[input.principal.scope]) if {
	user_key
	rank[input.principal.role]
}

lower(a, b) := a if rank[a] <= rank[b]

lower(a, b) := b if rank[b] < rank[a]

same_tenant if {
	input.principal.tenant_id != ""
	input.principal.tenant_id == input.resource.tenant_id
}

valid_resource if {
	not kinds_with_states[input.resource.kind]
	input.resource.state == ""
}

valid_resource if {
	kinds_with_states[input.resource.kind]
	input.resource.state == ""
	not state_bound_actions[input.action]
}

valid_resource if {
	kinds_with_states[input.resource.kind]
	input.resource.state == "versioned"
}

# A draft_only base must say who owns it, or the ownership rule cannot apply.
valid_resource if {
	kinds_with_states[input.resource.kind]
	input.resource.state == "draft_only"
	owner_kinds[input.resource.owner_kind]
	input.resource.owner_id != ""
}

draft_of_another_user if {
	input.resource.state == "draft_only"
	input.resource.owner_kind == "user"
	not draft_of_principal
}

# An organization key is nobody's user, so every user's draft is another's to it.
draft_of_principal if {
	user_key
	input.resource.owner_id == input.principal.user_id
}
