package verdict.authz_test

import data.verdict.authz

user(role, scope) := {
	"user_id": "u1", "key_id": "k1", "key_owner": "user",
	"role": role, "scope": scope, "tenant_id": "t1",
}

org_key(scope) := {
	"user_id": "", "key_id": "k2", "key_owner": "organization",
	"role": "", "scope": scope, "tenant_id": "t1",
}

published := {"kind": "policy", "tenant_id": "t1", "owner_kind": "organization", "owner_id": "t1", "state": "versioned"}

own_draft := {"kind": "policy", "tenant_id": "t1", "owner_kind": "user", "owner_id": "u1", "state": "draft_only"}

others_draft := {"kind": "flow", "tenant_id": "t1", "owner_kind": "user", "owner_id": "u2", "state": "draft_only"}

decide(principal, action, resource) := d if {
	d := authz.decision with input as {"principal": principal, "action": action, "resource": resource}
}

allowed(principal, action, resource) if decide(principal, action, resource).allow

denied_for(principal, action, resource) := reason if {
	d := decide(principal, action, resource)
	not d.allow
	reason := d.reason
}

test_viewer_views_and_runs_but_does_not_edit if {
	allowed(user("viewer", "admin"), "view", published)
	allowed(user("viewer", "admin"), "run", published)
	denied_for(user("viewer", "admin"), "edit", published) == "role_forbids_action"
}

test_editor_creates_and_edits_but_does_not_publish if {
	allowed(user("editor", "admin"), "create", published)
	allowed(user("editor", "admin"), "edit", own_draft)
	denied_for(user("editor", "admin"), "publish", own_draft) == "role_forbids_action"
}

test_publisher_publishes_but_does_not_delete if {
	allowed(user("publisher", "admin"), "publish", own_draft)
	denied_for(user("publisher", "admin"), "delete", published) == "role_forbids_action"
}

test_admin_deletes_and_manages_the_tenant if {
	allowed(user("admin", "admin"), "delete", published)
	allowed(user("admin", "admin"), "manage_keys", {"kind": "key", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": ""})
	allowed(user("admin", "admin"), "read_audit", {"kind": "audit", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": ""})
}

test_auditor_reads_audit_and_views_but_never_authors_or_runs if {
	audit := {"kind": "audit", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": ""}
	allowed(user("auditor", "view"), "read_audit", audit)
	allowed(user("auditor", "view"), "view", published)
	every action in ["run", "create", "edit", "publish", "delete"] {
		denied_for(user("auditor", "admin"), action, published) == "role_forbids_action"
	}
}

test_key_scope_caps_the_owners_role if {
	denied_for(user("admin", "view"), "publish", own_draft) == "scope_forbids_action"
	denied_for(user("admin", "publish"), "delete", published) == "scope_forbids_action"
	allowed(user("admin", "publish"), "publish", own_draft)
}

test_role_caps_a_wider_key_scope if {
	denied_for(user("editor", "admin"), "delete", published) == "role_forbids_action"
}

test_organization_key_acts_as_its_scope if {
	allowed(org_key("publish"), "publish", published)
	denied_for(org_key("publish"), "delete", published) == "scope_forbids_action"
	allowed(org_key("admin"), "delete", published)
}

test_organization_key_ignores_a_role_it_was_given if {
	denied_for(object.union(org_key("view"), {"role": "admin"}), "edit", published) == "scope_forbids_action"
}

test_request_without_a_key_is_denied if {
	denied_for(object.union(user("admin", "admin"), {"key_id": ""}), "view", published) == "missing_api_key"
}

test_unknown_role_scope_or_key_owner_is_denied if {
	denied_for(user("owner", "admin"), "view", published) == "invalid_principal"
	denied_for(user("admin", "root"), "view", published) == "invalid_principal"
	denied_for(object.union(user("admin", "admin"), {"key_owner": "service"}), "view", published) == "invalid_principal"
	denied_for(object.union(user("admin", "admin"), {"user_id": ""}), "view", published) == "invalid_principal"
}

test_unknown_action_is_denied if {
	denied_for(user("admin", "admin"), "approve", published) == "unknown_action"
}

test_action_that_does_not_fit_the_kind_is_denied if {
	denied_for(user("admin", "admin"), "edit", {"kind": "key", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": ""}) == "action_not_applicable_to_kind"
	denied_for(user("admin", "admin"), "view", {"kind": "secret", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": ""}) == "action_not_applicable_to_kind"
}

test_other_tenant_is_denied if {
	denied_for(user("admin", "admin"), "view", object.union(published, {"tenant_id": "t2"})) == "tenant_mismatch"
	denied_for(object.union(user("admin", "admin"), {"tenant_id": ""}), "view", object.union(published, {"tenant_id": ""})) == "tenant_mismatch"
}

test_deleted_base_is_denied_for_everyone if {
	every action in ["view", "run", "create", "edit", "publish", "delete"] {
		denied_for(user("admin", "admin"), action, object.union(published, {"state": "deleted"})) == "resource_deleted"
	}
}

test_anyone_who_views_may_view_and_run_another_users_draft if {
	allowed(user("viewer", "view"), "view", others_draft)
	allowed(user("viewer", "view"), "run", others_draft)
}

test_another_users_draft_is_not_changed_below_admin if {
	every role in ["editor", "publisher"] {
		denied_for(user(role, "admin"), "edit", others_draft) == "draft_owned_by_another_user"
		denied_for(user(role, "admin"), "create", others_draft) == "draft_owned_by_another_user"
	}
	denied_for(user("publisher", "admin"), "publish", others_draft) == "draft_owned_by_another_user"
	denied_for(org_key("publish"), "publish", others_draft) == "draft_owned_by_another_user"
}

test_admin_changes_another_users_draft if {
	allowed(user("admin", "admin"), "edit", others_draft)
	allowed(user("admin", "admin"), "publish", others_draft)
	allowed(org_key("admin"), "edit", others_draft)
}

test_state_bound_action_without_state_is_denied if {
	denied_for(user("admin", "admin"), "edit", object.union(published, {"state": ""})) == "invalid_resource"
	allowed(user("editor", "edit"), "create", object.union(published, {"state": "", "owner_kind": "", "owner_id": ""}))
}

test_draft_without_owner_is_denied if {
	denied_for(user("admin", "admin"), "view", object.union(own_draft, {"owner_id": ""})) == "invalid_resource"
	denied_for(user("admin", "admin"), "view", object.union(own_draft, {"owner_kind": "team"})) == "invalid_resource"
}

test_state_on_a_kind_without_states_is_denied if {
	denied_for(user("admin", "admin"), "view", {"kind": "group", "tenant_id": "t1", "owner_kind": "", "owner_id": "", "state": "versioned"}) == "invalid_resource"
}

test_unknown_state_is_denied if {
	denied_for(user("admin", "admin"), "view", object.union(published, {"state": "archived"})) == "invalid_resource"
}

test_missing_input_is_denied if {
	d := authz.decision with input as {}
	d == {"allow": false, "reason": "missing_api_key"}
}
