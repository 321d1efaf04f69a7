package service

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/flow"
)

// Validation lists the problems of a saved draft that would stop it from
// being published (its rule text does not parse); saving succeeds anyway.
// Diagnostics are every problem Check finds, warnings included, each with
// its line and column.
type Validation struct {
	Errors      []string            `json:"errors"`
	Diagnostics []engine.Diagnostic `json:"diagnostics"`
}

// SavedPolicy is a created or updated draft with its validation.
type SavedPolicy struct {
	*Policy
	Validation Validation `json:"validation"`
}

// newPolicyRules describes policies to the shared lifecycle.
func (s *Service) newPolicyRules() *kindRules {
	return &kindRules{
		kind: base.KindPolicy,
		check: func(c *Changes) error {
			if c.Definition != nil {
				return Invalid("a policy has a rule, not a definition")
			}
			if c.Tests != nil {
				return checkPolicyTests(*c.Tests)
			}
			return nil
		},
		gate: s.policyGate,
	}
}

// policyGate refuses to publish a rule text that does not parse, or whose
// stored tests do not all pass. The compiled program is the cached one of
// the draft's revision, unless the publish changes the rule: the new text
// has no revision of its own yet, and caching it under the draft's would
// make the draft run it.
func (s *Service) policyGate(ctx context.Context, _ *Principal, r *ent.Record, c *Changes) error {
	var prog *flow.ResolvedPolicy
	if c.Rule != nil {
		prog = flow.CompilePolicy(&s.engine, r.Rule)
	} else {
		prog = s.program(r)
	}
	if prog.Program == nil {
		return newError(CodeConflict, "the rule does not parse: %s", engine.ParseProblem(r.Rule, prog.ParseErrors))
	}
	if err := s.admitRuns(ctx, "stored tests", "a policy is published only with stored tests that fit: keep at most %d of them", len(r.Tests), prog.AnswerWeight(), testData(r.Tests)); err != nil {
		return err
	}
	rep, err := s.runTests(ctx, prog, r.Tests)
	if err != nil {
		return err
	}
	if !rep.Passed {
		e := newError(CodeConflict, "tests failed: %s", strings.Join(rep.failing(), ", "))
		e.Details = rep.failures()
		return e
	}
	return nil
}

func (s *Service) saved(l *target) *SavedPolicy {
	out := &SavedPolicy{Policy: policyOf(l.base, l.record), Validation: Validation{
		Errors: []string{}, Diagnostics: engine.CheckWithSchema(l.record.Rule, l.record.Schema).Diagnostics,
	}}
	if prog := s.program(l.record); prog.Program == nil {
		out.Validation.Errors = prog.ParseErrors.Messages()
	}
	return out
}

// CreatePolicy creates a policy base and its draft (POST /policy).
func (s *Service) CreatePolicy(ctx context.Context, c Changes) (*SavedPolicy, error) {
	if c.Rule == nil {
		return nil, Invalid("rule is required")
	}
	l, err := s.create(ctx, s.policyKind, &c)
	if err != nil {
		return nil, err
	}
	return s.saved(l), nil
}

// UpdatePolicyDraft changes a draft (PUT /policy/{id} with status draft).
func (s *Service) UpdatePolicyDraft(ctx context.Context, id uuid.UUID, c Changes) (*SavedPolicy, error) {
	l, err := s.updateDraft(ctx, s.policyKind, id, &c)
	if err != nil {
		return nil, err
	}
	return s.saved(l), nil
}

// PublishPolicy publishes a draft as the next version (PUT /policy/{id}
// with status published).
func (s *Service) PublishPolicy(ctx context.Context, id uuid.UUID, c Changes) (*Policy, error) {
	l, err := s.publish(ctx, s.policyKind, id, &c)
	if err != nil {
		return nil, err
	}
	return policyOf(l.base, l.record), nil
}

// RollbackPolicy publishes a published record's content again as the
// policy's next version (POST /policy/{id}/rollback).
func (s *Service) RollbackPolicy(ctx context.Context, id uuid.UUID) (*Policy, error) {
	l, _, err := s.rollback(ctx, s.policyKind, id)
	if err != nil {
		return nil, err
	}
	return policyOf(l.base, l.record), nil
}

// PolicyDraftFromVersion starts a draft from a published record (GET
// /policy/{id}/draft).
func (s *Service) PolicyDraftFromVersion(ctx context.Context, id uuid.UUID, replace bool) (*Policy, error) {
	l, err := s.draftFromVersion(ctx, s.policyKind, id, replace)
	if err != nil {
		return nil, err
	}
	return policyOf(l.base, l.record), nil
}

// Policy loads a record, or a base's latest version (else its draft).
func (s *Service) Policy(ctx context.Context, id uuid.UUID) (*Policy, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, s.policyKind, id, authz.ActionView)
	if err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, contentBytes(l.record)); err != nil {
		return nil, err
	}
	return policyOf(l.base, l.record), nil
}

// PolicyVersions returns a page of a policy's history: its draft (on the
// first page) and versions, newest first.
func (s *Service) PolicyVersions(ctx context.Context, id uuid.UUID, o ListOptions) (*Versions, error) {
	baseID, draft, versions, next, err := versionsOf(ctx, s, s.policyKind, id, o, policyOf)
	if err != nil {
		return nil, err
	}
	return &Versions{BaseID: baseID, Draft: draft, Versions: versions, NextCursor: next}, nil
}

// DeletePolicy soft-deletes the policy's whole base.
func (s *Service) DeletePolicy(ctx context.Context, id uuid.UUID) error {
	return s.remove(ctx, s.policyKind, id)
}
