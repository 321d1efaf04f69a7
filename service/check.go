package service

import (
	"context"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
)

// CheckRule reports a rule text's tokens and diagnostics (POST /check).
// Anyone who may view in the organization may check; nothing is read or
// stored.
func (s *Service) CheckRule(ctx context.Context, rule string) (*engine.CheckResult, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindOrganization); err != nil {
		return nil, err
	}
	res := engine.Check(rule)
	return &res, nil
}
