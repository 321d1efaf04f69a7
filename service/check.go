package service

import (
	"context"
	"encoding/json"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
)

// CheckRule reports a rule text's tokens and diagnostics (POST /check),
// following its names through schema, the JSON Schema of its data, when
// one is given (engine.CheckWithSchema). Anyone who may view in the
// organization may check; nothing is read or stored. A check is charged
// to what the request may answer, like a run: a GraphQL document of many
// checkRule fields on one large text would otherwise check it a thousand
// times. The schema is charged its bytes, which it costs to read.
func (s *Service) CheckRule(ctx context.Context, rule string, schema json.RawMessage) (*engine.CheckResult, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionView, authz.KindOrganization); err != nil {
		return nil, err
	}
	if err := checkNoNUL("rule", rule); err != nil {
		return nil, err
	}
	decoded, err := checkSchema(schema)
	if err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, checkAnswerPerByte*len(rule)+len(schema)); err != nil {
		return nil, err
	}
	res := engine.CheckWithDecodedSchema(rule, decoded)
	return &res, nil
}

// checkAnswerPerByte estimates a check's answer for each byte of its text:
// a token every few bytes, each some 60 bytes of JSON with its range.
const checkAnswerPerByte = 16
