package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/flow"
)

// FlowResult is a flow run result (flows.md §5).
type FlowResult = flow.Result

// RunFlow runs a flow's latest version, else its draft (POST
// /run/flow/{baseId}); data is the input object itself.
func (s *Service) RunFlow(ctx context.Context, baseID uuid.UUID, data json.RawMessage) (*FlowResult, error) {
	return s.runFlow(ctx, baseID, uuid.Nil, data)
}

// RunFlowVersion runs exactly one flow record (POST
// /run/flow_version/{flowId}).
func (s *Service) RunFlowVersion(ctx context.Context, recordID uuid.UUID, data json.RawMessage) (*FlowResult, error) {
	return s.runFlow(ctx, uuid.Nil, recordID, data)
}

func (s *Service) runFlow(ctx context.Context, baseID, recordID uuid.UUID, rawData json.RawMessage) (*FlowResult, error) {
	t := s.startTimings(ctx)
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	data, err := s.decodeData(rawData)
	if err != nil {
		return nil, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindFlow, baseID, recordID)
	if err != nil {
		return nil, err
	}
	plan, err := s.flowPlan(target.record)
	if err != nil {
		return nil, err
	}
	res, err := s.execute(ctx, s.resolverFor(p), plan, data, rawData)
	if err != nil {
		return nil, err
	}
	s.recordExecution(p, target, res.Result, nil, res.Errors, time.Since(t.start))
	return res, nil
}

// TestFlow runs a definition given in the request (POST /flow/test):
// nothing is stored and no event is recorded. It is an authoring tool, so
// it takes the permission to create a flow, which viewers and auditors
// lack.
func (s *Service) TestFlow(ctx context.Context, definition, rawData json.RawMessage) (*FlowResult, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if definition == nil {
		return nil, Invalid("definition is required")
	}
	data, err := s.decodeData(rawData)
	if err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, p, authz.ActionCreate, newBaseResource(p, base.KindFlow)); err != nil {
		return nil, err
	}
	plan, err := prepareDefinition(definition)
	if err != nil {
		return nil, err
	}
	return s.execute(ctx, s.resolverFor(p), plan, data, rawData)
}

// execute is the one runner of flows: stored runs, ad hoc tests and the
// tests that gate a publish.
func (s *Service) execute(ctx context.Context, r *policyResolver, plan *flow.Plan, data map[string]any, rawData json.RawMessage) (*FlowResult, error) {
	res, err := plan.Run(ctx, data, rawData, r, flow.Options{})
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, e
		}
		return nil, internal(err)
	}
	var engineTime time.Duration
	for _, n := range res.NodeResponses {
		engineTime += time.Duration(n.Execution.Engine)
	}
	s.metrics.evaluations.WithLabelValues("flow", outcomeLabel(res.Result, len(res.Errors) > 0)).Inc()
	s.metrics.engineTime.WithLabelValues("flow").Observe(engineTime.Seconds())
	return res, nil
}

// runFlowTests runs a flow's stored tests as its publisher; any failing
// test refuses the publish, and so does a run that could not finish (the
// authorizer or the database failing).
func (s *Service) runFlowTests(ctx context.Context, p *Principal, d *flow.Definition, tests []TestCase) error {
	plan, err := flow.Prepare(d)
	if err != nil {
		return definitionError(err)
	}
	r := s.resolverFor(p)
	var failing []string
	for _, tc := range tests {
		want, err := expectationOf(tc)
		if err != nil {
			failing = append(failing, tc.Name)
			continue
		}
		data, err := engine.DecodeData(tc.Data, s.engine.Limits)
		if err != nil {
			failing = append(failing, tc.Name)
			continue
		}
		res, err := s.execute(ctx, r, plan, data, tc.Data)
		if err != nil {
			return err
		}
		if !want.metBy(res) {
			failing = append(failing, tc.Name)
		}
	}
	if len(failing) > 0 {
		sort.Strings(failing)
		return newError(CodeConflict, "tests failed: %s", strings.Join(failing, ", "))
	}
	return nil
}

// flowExpectation is what a flow test expects: the flow's boolean result,
// or the outcome of the custom node the run ends on.
type flowExpectation struct {
	result  *bool
	outcome *string
}

func expectationOf(tc TestCase) (flowExpectation, error) {
	var v any
	if json.Unmarshal(tc.Expect, &v) == nil {
		switch v := v.(type) {
		case bool:
			return flowExpectation{result: &v}, nil
		case string:
			return flowExpectation{outcome: &v}, nil
		}
	}
	return flowExpectation{}, Invalid("test %q: expect must be true or false (the result) or a string (the outcome)", tc.Name)
}

func (e flowExpectation) metBy(res *flow.Result) bool {
	if e.result != nil {
		return res.Result == *e.result
	}
	return res.Outcome != nil && *res.Outcome == *e.outcome
}

// parsedFlow is a stored definition ready to run, or why it is not.
type parsedFlow struct {
	plan *flow.Plan
	err  error
}

func newFlowCache(size int) (*lru.Cache[programKey, *parsedFlow], error) {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return lru.New[programKey, *parsedFlow](size)
}

// flowPlan parses and prepares a record's definition once per revision,
// like program compiles a rule text, so that a warm run neither decodes
// nor validates it.
func (s *Service) flowPlan(r *ent.Record) (*flow.Plan, error) {
	key := programKey{record: r.ID, revision: r.Revision}
	if c, ok := s.flows.Get(key); ok {
		s.cache.count("definition", true)
		return c.plan, c.err
	}
	s.cache.count("definition", false)
	plan, err := prepareDefinition(r.Definition)
	s.flows.Add(key, &parsedFlow{plan: plan, err: err})
	return plan, err
}

// prepareDefinition decodes a definition in any accepted form and
// prepares it to run.
func prepareDefinition(raw json.RawMessage) (*flow.Plan, error) {
	d, err := parseDefinition(raw)
	if err != nil {
		return nil, err
	}
	plan, err := flow.Prepare(d)
	if err != nil {
		return nil, definitionError(err)
	}
	return plan, nil
}

// policyResolver resolves the policies of a flow for one caller, exactly
// as that caller's stored policy runs would: within the tenant, not
// deleted, runnable by the caller, through the run cache and the compiled
// programs.
type policyResolver struct {
	s *Service
	p *Principal
}

func (s *Service) resolverFor(p *Principal) *policyResolver {
	return &policyResolver{s: s, p: p}
}

// ResolvePolicy implements flow.PolicyResolver. What the caller could not
// run is not found for the flow either; the authorizer or the database
// failing ends the run.
func (r *policyResolver) ResolvePolicy(ctx context.Context, ref flow.PolicyRef) (*flow.ResolvedPolicy, error) {
	t, err := r.target(ctx, ref)
	if err != nil {
		switch CodeOf(err) {
		case CodeNotFound, CodeDeleted, CodePermissionDenied:
			return nil, fmt.Errorf("%w: %s", flow.ErrPolicyNotFound, err)
		}
		return nil, err
	}
	c := r.s.program(t.record)
	out := &flow.ResolvedPolicy{Program: c.program, Rule: t.record.Rule, Lines: c.lines}
	if c.parseErr != nil {
		out.ParseError = c.parseErr
	}
	return out, nil
}

func (r *policyResolver) target(ctx context.Context, ref flow.PolicyRef) (*target, error) {
	// Database time is the node's own (flow.NodeExecution), measured
	// around the whole resolution.
	var t timings
	switch {
	case ref.ID != "":
		id, err := refID(ref.ID)
		if err != nil {
			return nil, err
		}
		return r.s.runTarget(ctx, &t, r.p, base.KindPolicy, uuid.Nil, id)
	case ref.BaseID != "":
		id, err := refID(ref.BaseID)
		if err != nil {
			return nil, err
		}
		return r.s.runTarget(ctx, &t, r.p, base.KindPolicy, id, uuid.Nil)
	}
	id, err := refID(ref.Ref)
	if err != nil {
		return nil, err
	}
	// A legacy reference is a record id first, then a base id. Ids of the
	// two kinds never collide, so a base the cache holds can be taken
	// directly: a warm run then makes no failed record lookup.
	if _, isBase := r.s.cache.bases.Peek(id); !isBase {
		tg, err := r.s.runTarget(ctx, &t, r.p, base.KindPolicy, uuid.Nil, id)
		if err == nil || CodeOf(err) != CodeNotFound {
			return tg, err
		}
	}
	return r.s.runTarget(ctx, &t, r.p, base.KindPolicy, id, uuid.Nil)
}

func refID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, newError(CodeNotFound, "no policy %q", s)
	}
	return id, nil
}
