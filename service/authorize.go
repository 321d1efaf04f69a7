package service

import (
	"context"

	"github.com/verdict/verdict/authz"
)

// authorize asks the authorizer whether the caller may act on a resource.
// Anything but a clear allow is a refusal; an authorizer that fails is
// authorization_unavailable, and the caller must then do nothing.
func (s *Service) authorize(ctx context.Context, p *Principal, action authz.Action, r authz.Resource) error {
	d, err := s.authz.Decide(ctx, p.az, action, r)
	switch {
	case err != nil:
		s.metrics.decisions.WithLabelValues(string(action), "unavailable").Inc()
		s.log.ErrorContext(ctx, "authorization failed; denying", "action", action, "error", err)
		return &Error{Code: CodeAuthorizationUnavailable, Message: "authorization is unavailable", cause: err}
	case !d.Allow:
		s.metrics.decisions.WithLabelValues(string(action), "deny").Inc()
		return newError(CodePermissionDenied, "not allowed to %s (%s)", action, d.Reason)
	}
	s.metrics.decisions.WithLabelValues(string(action), "allow").Inc()
	return nil
}

// allowed returns the caller after asking whether they may take the action
// on a kind that the tenant as a whole decides, having no owner or state of
// its own: its members, keys, groups and audit log, or the organization
// itself.
func (s *Service) allowed(ctx context.Context, action authz.Action, kind authz.Kind) (*Principal, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, action, kind); err != nil {
		return nil, err
	}
	return p, nil
}

// authorizeOnTenant is allowed for a caller already known, where what the
// request names is looked up first, so that a missing object is not found
// whatever the caller's role.
func (s *Service) authorizeOnTenant(ctx context.Context, p *Principal, action authz.Action, kind authz.Kind) error {
	return s.authorize(ctx, p, action, authz.Resource{Kind: kind, TenantID: p.az.TenantID})
}
