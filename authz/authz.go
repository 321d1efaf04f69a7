package authz

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable is wrapped by every error an [Authorizer] returns: the
// decision could not be made, so the request must be denied.
var ErrUnavailable = errors.New("authorization unavailable")

// Action is what a principal wants to do.
type Action string

const (
	ActionView          Action = "view"
	ActionRun           Action = "run"
	ActionCreate        Action = "create"
	ActionEdit          Action = "edit"
	ActionPublish       Action = "publish"
	ActionDelete        Action = "delete"
	ActionManageGroups  Action = "manage_groups"
	ActionManageMembers Action = "manage_members"
	ActionManageKeys    Action = "manage_keys"
	ActionReadAudit     Action = "read_audit"
)

// Role is a user's role in a tenant.
type Role string

const (
	RoleViewer    Role = "viewer"
	RoleEditor    Role = "editor"
	RolePublisher Role = "publisher"
	RoleAdmin     Role = "admin"
	RoleAuditor   Role = "auditor"
)

// Scope is the ceiling an API key puts on what its owner may do.
type Scope string

const (
	ScopeView    Scope = "view"
	ScopeEdit    Scope = "edit"
	ScopePublish Scope = "publish"
	ScopeAdmin   Scope = "admin"
)

// OwnerKind says whether a key or a resource belongs to a user or to an
// organization.
type OwnerKind string

const (
	OwnerUser         OwnerKind = "user"
	OwnerOrganization OwnerKind = "organization"
)

// Kind is the kind of resource acted on.
type Kind string

const (
	KindPolicy       Kind = "policy"
	KindFlow         Kind = "flow"
	KindGroup        Kind = "group"
	KindAudit        Kind = "audit"
	KindMember       Kind = "member"
	KindKey          Kind = "key"
	KindOrganization Kind = "organization"
)

// State is where a policy or flow base is in its lifecycle. Other kinds have
// no state and use the empty State.
type State string

const (
	// StateDraftOnly: never published, so still owned by its creating user.
	StateDraftOnly State = "draft_only"
	StateVersioned State = "versioned"
	StateDeleted   State = "deleted"
)

// Principal is who asks: the key used and, for a user key, the user and the
// user's role in the tenant. Role is ignored for organization keys.
type Principal struct {
	UserID   string
	KeyID    string
	KeyOwner OwnerKind
	Role     Role
	Scope    Scope
	TenantID string
}

// Resource is what is acted on. OwnerKind, OwnerID and State matter for
// policy and flow bases; State may be empty there only for view, run and
// create (listing, ad hoc runs, a new base).
type Resource struct {
	Kind      Kind
	TenantID  string
	OwnerKind OwnerKind
	OwnerID   string
	State     State
}

// Decision is the answer. Reason names the rule that decided, so a denial can
// be logged and explained: "allowed", or the first of missing_api_key,
// invalid_principal, unknown_action, action_not_applicable_to_kind,
// tenant_mismatch, resource_deleted, invalid_resource, scope_forbids_action
// (the key's scope is the ceiling), role_forbids_action,
// draft_owned_by_another_user that applies.
type Decision struct {
	Allow  bool
	Reason string
}

// Authorizer decides one action. On error the Decision denies and the error
// wraps ErrUnavailable.
type Authorizer interface {
	Decide(ctx context.Context, p Principal, a Action, r Resource) (Decision, error)
}

// defaultTimeout bounds one decision. An embedded query takes tens of
// microseconds and a nearby OPA server a millisecond or two; a request should
// fail closed rather than wait on an authorizer that is stuck.
const defaultTimeout = 250 * time.Millisecond

type config struct {
	timeout time.Duration
}

// Option configures an Authorizer.
type Option func(*config)

// WithTimeout sets the deadline of one decision (default 250ms). A decision
// that misses it fails with ErrUnavailable.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

func newConfig(opts []Option) (config, error) {
	c := config{timeout: defaultTimeout}
	for _, opt := range opts {
		opt(&c)
	}
	if c.timeout <= 0 {
		return c, fmt.Errorf("authz: timeout must be positive, got %v", c.timeout)
	}
	return c, nil
}

// inputDocument is the policy's input. Both authorizers send this one
// document so the embedded and remote policies see the same thing.
func inputDocument(p Principal, a Action, r Resource) map[string]any {
	return map[string]any{
		"principal": map[string]any{
			"user_id":   p.UserID,
			"key_id":    p.KeyID,
			"key_owner": string(p.KeyOwner),
			"role":      string(p.Role),
			"scope":     string(p.Scope),
			"tenant_id": p.TenantID,
		},
		"action": string(a),
		"resource": map[string]any{
			"kind":       string(r.Kind),
			"tenant_id":  r.TenantID,
			"owner_kind": string(r.OwnerKind),
			"owner_id":   r.OwnerID,
			"state":      string(r.State),
		},
	}
}

// decisionFrom reads the policy's decision out of a JSON-shaped value. Any
// other shape is an error: a policy that does not answer clearly denies.
func decisionFrom(v any) (Decision, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Decision{}, fmt.Errorf("%w: decision is %T, not an object", ErrUnavailable, v)
	}
	allow, ok := m["allow"].(bool)
	if !ok {
		return Decision{}, fmt.Errorf("%w: decision.allow is %T, not a boolean", ErrUnavailable, m["allow"])
	}
	reason, ok := m["reason"].(string)
	if !ok {
		return Decision{}, fmt.Errorf("%w: decision.reason is %T, not a string", ErrUnavailable, m["reason"])
	}
	return Decision{Allow: allow, Reason: reason}, nil
}

func unavailable(err error) error {
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}
