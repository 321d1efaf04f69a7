package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/flow"
)

// Flow is a flow record (docs/endpoints.md, "Flows"): a policy record with a
// definition in place of the rule and the schema.
type Flow struct {
	ID          uuid.UUID       `json:"id"`
	BaseID      uuid.UUID       `json:"baseId"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Definition  json.RawMessage `json:"definition"`
	Tests       []TestCase      `json:"tests"`
	Status      string          `json:"status"`
	Version     *int            `json:"version"`
	Owner       Owner           `json:"owner"`
	CreatedBy   uuid.UUID       `json:"createdBy"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	PublishedAt *time.Time      `json:"publishedAt"`
	// Revision changes with every draft update; clients may ignore it.
	Revision int `json:"revision"`
}

// SavedFlow is a created or updated flow draft with what stands between it
// and publishing (errors) or deserves a look (warnings); saving succeeds
// either way.
type SavedFlow struct {
	*Flow
	Validation flow.Problems `json:"validation"`
}

// FlowVersions is a page of a flow base's history, as Versions is of a
// policy's.
type FlowVersions struct {
	BaseID     uuid.UUID `json:"baseId"`
	Draft      *Flow     `json:"draft"`
	Versions   []*Flow   `json:"versions"`
	NextCursor string    `json:"nextCursor"`
}

// FlowSummary is a flow base in a list; it has the shape of a policy's.
type FlowSummary = Summary

// flowOf shows a record with its definition in the form it was stored in,
// decoded once per revision.
func (s *Service) flowOf(b *ent.Base, r *ent.Record) *Flow {
	return &Flow{
		ID: r.ID, BaseID: r.BaseID, Name: r.Name, Description: r.Description, Definition: s.flow(r).normalized,
		Tests: testsOf(r), Status: string(r.Status), Version: r.Version,
		Owner: ownerOf(b), CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		PublishedAt: r.PublishedAt, Revision: r.Revision,
	}
}

// newFlowRules describes flows to the shared lifecycle.
func (s *Service) newFlowRules() *kindRules {
	return &kindRules{kind: base.KindFlow, check: checkFlow, gate: s.flowGate}
}

// checkFlow refuses what a flow cannot hold, and replaces the definition
// by its normalized v1 form: whatever form it came in, a flow stores and
// returns one. The decoded definition goes along with the changes, so
// that nothing decodes it again.
func checkFlow(c *Changes) error {
	if c.Rule != nil || c.Schema != nil {
		return Invalid("a flow has a definition, not a rule or a schema")
	}
	if c.Definition != nil {
		sent, err := parseSentDefinition(c.Definition)
		if err != nil {
			return err
		}
		c.ignored = sent.ignored
		c.Definition = sent.normal
		c.flow = newParsedFlow(sent.d, c.Definition)
	}
	if c.Tests != nil {
		return checkFlowTests(*c.Tests)
	}
	return nil
}

// parseDefinition decodes a definition in any accepted form.
func parseDefinition(raw json.RawMessage) (*flow.Definition, error) {
	d, err := flow.Parse(raw)
	if err != nil {
		return nil, definitionError(err)
	}
	return d, nil
}

// sentDefinition is a definition a request sent, decoded.
type sentDefinition struct {
	d *flow.Definition
	// normal is its normalized v1 form, what a flow stores.
	normal json.RawMessage
	// ignored warns of the node members it ignored.
	ignored []string
}

// parseSentDefinition decodes a definition a request sent, whether it is
// saved or only tested. It refuses one larger than a flow may be
// (flow.CheckSize), with content no run could use (sentProblems), or
// holding a NUL character in any of its forms: escaped in a JSON object,
// or in a text, JSON or YAML, that decodes to one. Stored definitions are
// read with parseDefinition: they were checked when they were sent.
func parseSentDefinition(raw json.RawMessage) (*sentDefinition, error) {
	d, ignored, err := flow.ParseReporting(raw)
	if err != nil {
		return nil, definitionError(err)
	}
	if err := flow.CheckSize(d); err != nil {
		return nil, definitionError(err)
	}
	if problems := sentProblems(d); len(problems) > 0 {
		return nil, invalidDefinition(problems)
	}
	normal, err := json.Marshal(d)
	if err != nil {
		return nil, internal(err)
	}
	if err := checkJSONText("definition", normal); err != nil {
		return nil, err
	}
	return &sentDefinition{d: d, normal: normal, ignored: ignored}, nil
}

// sentProblems are what a definition sent holds that no run could use,
// and that no later change elsewhere could mend: a policy reference that
// is not an id, which could never resolve, and an outcome longer than a
// name may be, which every run of the node would answer.
func sentProblems(d *flow.Definition) []string {
	var problems []string
	for _, n := range d.Nodes {
		if p := n.Policy; p != nil && (n.Type == flow.TypeStart || n.Type == flow.TypePolicy) {
			for _, ref := range [...]string{p.ID, p.BaseID, p.Ref} {
				if _, err := ParseID("", ref); ref != "" && err != nil {
					problems = append(problems, fmt.Sprintf("node %q: the policy reference %q is not a valid id", engine.Quoted(n.ID), engine.Quoted(ref)))
				}
			}
		}
		if n.Outcome != nil {
			if length := utf8.RuneCountInString(*n.Outcome); length > MaxOutcomeLength {
				problems = append(problems, fmt.Sprintf("node %q: the outcome is %d characters long; the limit is %d", engine.Quoted(n.ID), length, MaxOutcomeLength))
			}
		}
	}
	return problems
}

// definitionError is the API's error for a definition the flow package
// refused: one message, every problem in the details.
func definitionError(err error) error {
	var de *flow.DefinitionError
	if !errors.As(err, &de) {
		return internal(err)
	}
	return invalidDefinition(de.Details)
}

func invalidDefinition(details []string) *Error {
	return &Error{Code: CodeInvalidArgument, Message: "invalid flow definition", Details: details}
}

// unresolvedMessage is how a policy reference that does not resolve is
// reported, in saved drafts' warnings and refused publishes alike.
func unresolvedMessage(np flow.NodePolicy) string {
	return fmt.Sprintf("policy %q referenced by node %q not found", engine.Quoted(np.Ref.String()), engine.Quoted(np.NodeID))
}

// flowGate refuses to publish a definition that is not valid for
// publishing, or references a policy the publisher cannot resolve (no
// policy is evaluated then), or whose stored tests do not all pass. It
// leaves the definition, with the plan its tests ran, in c for the
// published record.
func (s *Service) flowGate(ctx context.Context, p *Principal, r *ent.Record, c *Changes) error {
	f := c.flow
	if f == nil {
		f = s.flow(r)
	}
	if f.definition == nil {
		return f.parseErr
	}
	problems, plan := flow.Check(f.definition, flow.StagePublish)
	if len(problems.Errors) > 0 {
		return invalidDefinition(problems.Errors)
	}
	f.usePlan(plan)
	c.flow = f
	res := s.resolverFor(p)
	for _, np := range f.definition.PolicyRefs() {
		if err := res.exists(ctx, np.Ref); errors.Is(err, flow.ErrPolicyNotFound) {
			return newError(CodeNotFound, "%s", unresolvedMessage(np))
		} else if err != nil {
			return err
		}
	}
	if err := chargeRuns(ctx, len(r.Tests)); err != nil {
		return err
	}
	runs := s.flowTests(res, plan, "the stored tests", "a flow is published only with stored tests that fit: keep fewer of them")
	rep, err := s.runFlowTests(ctx, runs, r.Tests)
	if err != nil {
		return err
	}
	if !rep.Passed {
		return newError(CodeConflict, "tests failed: %s", strings.Join(rep.failing(), ", "))
	}
	return nil
}

// maxUnresolvedReported is how many references that do not resolve a
// save or a check reports before it stops looking: each is a lookup no
// cache can answer, and a definition of a megabyte may hold ten thousand.
const maxUnresolvedReported = 20

// validateSaved is the validation a saved draft is answered with, its
// references resolved by res. A reference that cannot be checked because
// the authorizer or the database failed is reported as such: the draft is
// stored already, and a warning cannot let anything run.
func (s *Service) validateSaved(ctx context.Context, res *policyResolver, d *flow.Definition) flow.Problems {
	out := flow.Validate(d, flow.StageSave)
	refs := d.PolicyRefs()
	unresolved := 0
	for i, np := range refs {
		if unresolved == maxUnresolvedReported {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%d more policy references were not checked, after %d that did not resolve",
				len(refs)-i, maxUnresolvedReported))
			break
		}
		err := res.exists(ctx, np.Ref)
		switch {
		case errors.Is(err, flow.ErrPolicyNotFound):
			out.Warnings = append(out.Warnings, unresolvedMessage(np))
		case err != nil:
			out.Warnings = append(out.Warnings, fmt.Sprintf("policy %q referenced by node %q could not be checked: %s",
				engine.Quoted(np.Ref.String()), engine.Quoted(np.NodeID), messageOf(err)))
		default:
			continue
		}
		unresolved++
	}
	return out
}

// messageOf is the part of an error a caller may see.
func messageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// savedFlow answers a create or an update with its validation. What the
// change decoded is what the saved revision holds.
func (s *Service) savedFlow(ctx context.Context, l *target, c *Changes) (*SavedFlow, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	s.rememberFlow(l.record, c.flow)
	f := s.flow(l.record)
	if f.definition == nil {
		return nil, f.parseErr
	}
	validation := s.validateSaved(ctx, s.resolverFor(p), f.definition)
	validation.Warnings = append(validation.Warnings, c.ignored...)
	return &SavedFlow{Flow: s.flowOf(l.base, l.record), Validation: validation}, nil
}

// CreateFlow creates a flow base and its draft (POST /flow).
func (s *Service) CreateFlow(ctx context.Context, c Changes) (*SavedFlow, error) {
	if c.Definition == nil {
		return nil, Invalid("definition is required")
	}
	l, err := s.create(ctx, s.flowKind, &c)
	if err != nil {
		return nil, err
	}
	return s.savedFlow(ctx, l, &c)
}

// UpdateFlowDraft changes a draft (PUT /flow/{id} with status draft).
func (s *Service) UpdateFlowDraft(ctx context.Context, id uuid.UUID, c Changes) (*SavedFlow, error) {
	l, err := s.updateDraft(ctx, s.flowKind, id, &c)
	if err != nil {
		return nil, err
	}
	return s.savedFlow(ctx, l, &c)
}

// PublishFlow publishes a draft as the next version (PUT /flow/{id} with
// status published).
func (s *Service) PublishFlow(ctx context.Context, id uuid.UUID, c Changes) (*Flow, error) {
	l, err := s.publish(ctx, s.flowKind, id, &c)
	if err != nil {
		return nil, err
	}
	s.rememberFlow(l.record, c.flow)
	return s.flowOf(l.base, l.record), nil
}

// RollbackFlow publishes a published record's content again as the
// flow's next version (POST /flow/{id}/rollback).
func (s *Service) RollbackFlow(ctx context.Context, id uuid.UUID) (*Flow, error) {
	l, c, err := s.rollback(ctx, s.flowKind, id)
	if err != nil {
		return nil, err
	}
	s.rememberFlow(l.record, c.flow)
	return s.flowOf(l.base, l.record), nil
}

// FlowDraftFromVersion starts a draft from a published record (GET
// /flow/{id}/draft).
func (s *Service) FlowDraftFromVersion(ctx context.Context, id uuid.UUID, replace bool) (*Flow, error) {
	l, err := s.draftFromVersion(ctx, s.flowKind, id, replace)
	if err != nil {
		return nil, err
	}
	return s.flowOf(l.base, l.record), nil
}

// Flow loads a record, or a base's latest version (else its draft).
func (s *Service) Flow(ctx context.Context, id uuid.UUID) (*Flow, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, s.flowKind, id, authz.ActionView)
	if err != nil {
		return nil, err
	}
	if err := s.spendAnswer(ctx, contentBytes(l.record)); err != nil {
		return nil, err
	}
	return s.flowOf(l.base, l.record), nil
}

// FlowValidation checks a stored flow record as saving it would (GET
// /flow/{flowId}/validation): what keeps it from being published, and
// what deserves a look. It needs only the permission to read the record,
// so that whoever opens a draft sees its problems without changing it,
// and a reference resolves to a policy the caller may read: an auditor,
// who may not run any, would otherwise find none of them. The id is
// addressed like GET /flow/{id}.
func (s *Service) FlowValidation(ctx context.Context, id uuid.UUID) (*flow.Problems, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, s.flowKind, id, authz.ActionView)
	if err != nil {
		return nil, err
	}
	// It is charged as a save checking the definition is: a GraphQL
	// document of many checks of one large flow would otherwise look up
	// its policy references many times.
	if err := s.chargeContent(ctx, nil, l.record.Definition, nil); err != nil {
		return nil, err
	}
	f := s.flow(l.record)
	if f.definition == nil {
		return nil, f.parseErr
	}
	problems := s.validateSaved(ctx, s.resolverAllowing(p, authz.ActionView), f.definition)
	return &problems, nil
}

// FlowVersions returns a page of a flow's history: its draft (on the
// first page) and versions, newest first.
func (s *Service) FlowVersions(ctx context.Context, id uuid.UUID, o ListOptions) (*FlowVersions, error) {
	baseID, draft, versions, next, err := versionsOf(ctx, s, s.flowKind, id, o, s.flowOf)
	if err != nil {
		return nil, err
	}
	return &FlowVersions{BaseID: baseID, Draft: draft, Versions: versions, NextCursor: next}, nil
}

// Flows lists the flows the caller may see (GET /flows).
func (s *Service) Flows(ctx context.Context, o ListOptions) (*Page[FlowSummary], error) {
	return s.listBases(ctx, s.flowKind, o)
}

// DeleteFlow soft-deletes the flow's whole base.
func (s *Service) DeleteFlow(ctx context.Context, id uuid.UUID) error {
	return s.remove(ctx, s.flowKind, id)
}
