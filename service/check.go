package service

import (
	"context"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
)

// CheckRule reports a rule text's tokens and diagnostics (POST /check).
// Anyone who may view in the organization may check; nothing is read or
// stored. A check is charged to what the request may answer, like a run:
// a GraphQL document of many checkRule fields on one large text would
// otherwise check it a thousand times.
func (s *Service) CheckRule(ctx context.Context, rule string) (*engine.CheckResult, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindOrganization); err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, checkAnswerPerByte*len(rule)); err != nil {
		return nil, err
	}
	res := engine.Check(rule)
	return &res, nil
}

// checkAnswerPerByte estimates a check's answer for each byte of its text:
// a token every few bytes, each some 60 bytes of JSON with its range.
const checkAnswerPerByte = 16
