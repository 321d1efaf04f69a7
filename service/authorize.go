package service

import (
	"context"

	"github.com/verdict/verdict/authz"
)

// authorize asks the authorizer whether the caller may act on a resource.
// Anything but a clear allow is a refusal; an authorizer that fails is
// authorization_unavailable, and the caller must then do nothing.
func (s *Service) authorize(ctx context.Context, p *Principal, action authz.Action, r authz.Resource) error {
	d, err := s.authz.Decide(ctx, p.authz(), action, r)
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

// tenantResource is the resource of actions on the tenant as a whole, such
// as an ad hoc run.
func tenantResource(p *Principal) authz.Resource {
	return authz.Resource{Kind: authz.KindOrganization, TenantID: p.TenantID.String()}
}
