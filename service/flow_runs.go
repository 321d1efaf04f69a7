package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/flow"
)

// FlowResult is a flow run result (docs/flows.md, "The flow result").
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
	t := startTimings(ctx)
	p, err := startRun(ctx)
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
	plan, err := s.flow(target.record).runPlan()
	if err != nil {
		return nil, err
	}
	resolver := s.resolverFor(p)
	res, err := s.execute(ctx, resolver, plan, data, rawData, s.charged(ctx))
	if err != nil {
		return nil, err
	}
	took := time.Since(t.start)
	var failure map[string]any
	var stopped *string
	if len(res.Errors) > 0 {
		joined := strings.Join(res.Errors, "; ")
		stopped = &joined
		// A copy: the event is stored after the caller has the result.
		errs := slices.Clone(res.Errors)
		maskErrors(target, rawData, errs)
		failure = map[string]any{"errors": errs}
	}
	var decision *decisionRow
	if target.recording != nil {
		decision = s.decisionOf(target, rawData, res.Result, flowExplanation(res), stopped, took)
		if decision != nil {
			decision.policies = resolver.resolvedPolicies()
			decision.outcome = res.Outcome
		}
	}
	if err := s.recordExecution(ctx, p, target, res.Result, took, failure, decision); err != nil {
		return nil, err
	}
	return res, nil
}

// FlowTestInput is what POST /flow/test and the testFlow mutation run
// (docs/flows.md): the definition as Definition (an object, in any form),
// else as Flow (an object, or a string of YAML or JSON), else as a UI
// graph (Nodes and Edges); the input as Data, else TestData, as the UI
// names it. A member that is absent or JSON null is not given.
type FlowTestInput struct {
	Definition json.RawMessage
	Flow       json.RawMessage
	Nodes      json.RawMessage
	Edges      json.RawMessage
	Data       json.RawMessage
	TestData   json.RawMessage
}

// given says whether a member was sent with a value: encoding/json leaves
// an absent json.RawMessage nil and keeps null as the text null.
func given(raw json.RawMessage) bool {
	return raw != nil && string(raw) != "null"
}

// definition picks the definition: Definition, else Flow, else Nodes and
// Edges. A member of the
// wrong JSON type is a malformed request, refused like any other (without
// the details of an invalid definition); what a member of the right type
// holds is for flow.Parse to judge.
func (in *FlowTestInput) definition() (json.RawMessage, error) {
	switch {
	case given(in.Definition):
		if jsonKind(in.Definition) != '{' {
			return nil, Invalid("definition must be a JSON object: a flow definition")
		}
		return in.Definition, nil
	case given(in.Flow):
		if k := jsonKind(in.Flow); k != '{' && k != '"' {
			return nil, Invalid("flow must be a JSON object or a string of YAML or JSON")
		}
		return in.Flow, nil
	case given(in.Nodes) || given(in.Edges):
		if !given(in.Nodes) || !given(in.Edges) {
			return nil, Invalid("a flow graph needs both nodes and edges")
		}
		graph, err := json.Marshal(struct {
			Nodes json.RawMessage `json:"nodes"`
			Edges json.RawMessage `json:"edges"`
		}{in.Nodes, in.Edges})
		if err != nil {
			return nil, InvalidJSON("nodes and edges", err)
		}
		return graph, nil
	}
	return nil, Invalid("a definition is required: definition, flow, or nodes and edges")
}

// jsonKind is the first character of a JSON value: '{' for an object, '"'
// for a string.
func jsonKind(raw json.RawMessage) byte {
	if raw = bytes.TrimSpace(raw); len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func (in *FlowTestInput) data() (json.RawMessage, error) {
	switch {
	case given(in.Data):
		return in.Data, nil
	case given(in.TestData):
		return in.TestData, nil
	}
	return nil, Invalid("data is required: the JSON object to run the flow on")
}

// TestFlow runs a definition given in the request (POST /flow/test):
// nothing is stored and no event is recorded. It is an authoring tool, so
// it takes the permission to create a flow, which viewers and auditors
// lack.
func (s *Service) TestFlow(ctx context.Context, in FlowTestInput) (*FlowResult, error) {
	p, err := startRun(ctx)
	if err != nil {
		return nil, err
	}
	definition, err := in.definition()
	if err != nil {
		return nil, err
	}
	rawData, err := in.data()
	if err != nil {
		return nil, err
	}
	data, err := s.decodeData(rawData)
	if err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, p, authz.ActionCreate, newBaseResource(p, base.KindFlow)); err != nil {
		// A refusal that named creation alone puzzled a caller who asked
		// to test.
		if e, ok := errors.AsType[*Error](err); ok && e.Code == CodePermissionDenied {
			return nil, newError(CodePermissionDenied, "testing a flow takes the permission to create one: %s", e.Message)
		}
		return nil, err
	}
	sent, err := parseSentDefinition(definition)
	if err != nil {
		return nil, err
	}
	plan, err := flow.Prepare(sent.d)
	if err != nil {
		return nil, definitionError(err)
	}
	return s.execute(ctx, s.resolverFor(p), plan, data, rawData, s.charged(ctx))
}

// execute is the one runner of flows: stored runs, ad hoc tests and the
// tests that gate a publish.
func (s *Service) execute(ctx context.Context, r *policyResolver, plan *flow.Plan, data map[string]any, rawData json.RawMessage, opts flow.Options) (*FlowResult, error) {
	busy := busyRefusals(ctx)
	res, err := plan.Run(ctx, data, rawData, r, opts)
	if err != nil {
		var e *Error
		switch {
		case errors.As(err, &e):
			return nil, e
		case ctx.Err() != nil:
			// The client went away or the server is stopping: the run was
			// cut short, which is no fault of the flow's nor the server's.
			return nil, &Error{Code: CodeUnavailable, Message: "the request ended before the flow finished", cause: err}
		}
		return nil, internal(err)
	}
	if err := s.refusedAsBusy(ctx, busy); err != nil {
		return nil, err
	}
	var engineTime time.Duration
	for _, n := range res.NodeResponses {
		engineTime += time.Duration(n.Execution.Engine)
	}
	s.metrics.evaluations.WithLabelValues("flow", outcomeLabel(res.Result, len(res.Errors) > 0)).Inc()
	s.metrics.engineTime.WithLabelValues("flow").Observe(engineTime.Seconds())
	return res, nil
}

// explainedRuns runs a flow for a call that answers no node's response,
// only what explains each run: a replay's items, a test report's results.
// Each node is charged, as it runs, an eighth of what a run answering its
// response counts, as a replayed policy's conditions are, and what its
// policy reads. Past either bound the whole call is refused, with tooMuch
// or readsTooMuch: what stopped the run is the size of the call, which a
// stopped run would blame on the flow.
type explainedRuns struct {
	s                     *Service
	resolver              *policyResolver
	plan                  *flow.Plan
	tooMuch, readsTooMuch *Error
}

func (e *explainedRuns) run(ctx context.Context, data map[string]any, raw json.RawMessage) (*FlowResult, error) {
	var refused *Error
	opts := flow.Options{Spend: func(answer int) error {
		if err := e.s.spendAnswer(ctx, answer/8); err != nil {
			refused = e.tooMuch
			return err
		}
		return nil
	}, Read: func(n int) error {
		if err := e.s.spendReads(ctx, n); err != nil {
			refused = e.readsTooMuch
			return err
		}
		return nil
	}}
	res, err := e.s.execute(ctx, e.resolver, e.plan, data, raw, opts)
	switch {
	case err != nil:
		return nil, err
	case refused != nil:
		return nil, refused
	}
	return res, nil
}

// explained charges n bytes of what the call answers of a run, once it
// has run.
func (e *explainedRuns) explained(ctx context.Context, n int) error {
	err := e.s.spendAnswer(ctx, n)
	if err != nil && CodeOf(err) != CodeUnavailable {
		return e.tooMuch
	}
	return err
}

// flowTests is the runner of a flow's tests, named by what in a refusal
// of too large a call, with advice on what to do about it.
func (s *Service) flowTests(r *policyResolver, plan *flow.Plan, what, advice string) *explainedRuns {
	return &explainedRuns{s: s, resolver: r, plan: plan,
		tooMuch:      Invalid("%s would answer more than %s, what one request may; %s", what, size(s.maxAnswer), advice),
		readsTooMuch: Invalid("the runs of %s would read more than %s of data values, what the runs of one request may; %s", what, size(s.maxAnswer), advice),
	}
}

// flowExpectation is what a flow test expects: the flow's boolean result,
// or the outcome of the custom node the run ends on.
type flowExpectation struct {
	result  *bool
	outcome *string
}

// checkFlowTests refuses tests whose expect is neither a boolean nor a
// string.
func checkFlowTests(tests []TestCase) error {
	for _, tc := range tests {
		if _, err := expectationOf(tc); err != nil {
			return err
		}
	}
	return nil
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
	return flowExpectation{}, Invalid("test %q: expect must be true or false (the result) or a string (the outcome)", engine.Quoted(tc.Name))
}

// metBy says whether a run passes the test. A run stopped on an error
// fails whatever it expects, as a policy's does: its false is no answer
// but a refusal to decide, which a test expecting false must not take for
// one.
func (e flowExpectation) metBy(res *flow.Result) bool {
	switch {
	case len(res.Errors) > 0:
		return false
	case e.result != nil:
		return res.Result == *e.result
	}
	return res.Outcome != nil && *res.Outcome == *e.outcome
}

// policyResolver resolves the policies of a flow for one caller, exactly
// as that caller's stored policy runs would: within the tenant, not
// deleted, runnable by the caller, through the run cache and the compiled
// programs. It serves one run, or one publish with its tests, and answers
// each reference once: a flow that names a policy at several nodes is not
// resolved and authorized again at each.
type policyResolver struct {
	s *Service
	p *Principal
	// action is what the principal must be allowed on a policy for a
	// reference to resolve: run, or view for a check of a stored flow.
	action authz.Action
	memo   []resolution
	// first holds the memo of a flow of few distinct policies, the usual
	// case, without an allocation of its own.
	first [8]resolution
	// index finds a reference in a longer memo: a definition may name
	// thousands of policies, and searching the memo for each would take
	// time in their square.
	index map[flow.PolicyRef]int
}

// resolution is what a reference resolved to: a target (and, once a run
// asked for it, its compiled policy), or not found.
type resolution struct {
	ref    flow.PolicyRef
	target *target
	policy *flow.ResolvedPolicy
	err    error
}

func (s *Service) resolverFor(p *Principal) *policyResolver {
	return s.resolverAllowing(p, authz.ActionRun)
}

// resolverAllowing resolves the references whose policies p is allowed
// action on.
func (s *Service) resolverAllowing(p *Principal, action authz.Action) *policyResolver {
	r := &policyResolver{s: s, p: p, action: action}
	r.memo = r.first[:0]
	return r
}

// ResolvePolicy implements flow.PolicyResolver. What the caller could not
// run is not found for the flow either; the authorizer or the database
// failing ends the run.
func (r *policyResolver) ResolvePolicy(ctx context.Context, ref flow.PolicyRef) (*flow.ResolvedPolicy, error) {
	res, err := r.resolve(ctx, ref)
	if err != nil {
		return nil, err
	}
	if res.policy == nil {
		res.policy = r.s.program(res.target.record)
	}
	return res.policy, nil
}

// exists checks that a reference resolves, without compiling its policy:
// what saves and publishes ask of every reference.
func (r *policyResolver) exists(ctx context.Context, ref flow.PolicyRef) error {
	_, err := r.resolve(ctx, ref)
	return err
}

// resolve finds a reference's target once. Failures other than not found
// are not remembered: they end the run or the publish anyway.
func (r *policyResolver) resolve(ctx context.Context, ref flow.PolicyRef) (*resolution, error) {
	if r.index != nil {
		if i, ok := r.index[ref]; ok {
			return &r.memo[i], r.memo[i].err
		}
	} else {
		for i := range r.memo {
			if res := &r.memo[i]; res.ref == ref {
				return res, res.err
			}
		}
	}
	t, err := r.target(ctx, ref)
	if err != nil {
		switch CodeOf(err) {
		case CodeNotFound, CodeDeleted, CodePermissionDenied:
			err = fmt.Errorf("%w: %s", flow.ErrPolicyNotFound, err)
		default:
			return nil, err
		}
	}
	r.memo = append(r.memo, resolution{ref: ref, target: t, err: err})
	switch {
	case r.index != nil:
		r.index[ref] = len(r.memo) - 1
	case len(r.memo) > len(r.first):
		r.index = make(map[flow.PolicyRef]int, len(r.memo))
		for i := range r.memo {
			r.index[r.memo[i].ref] = i
		}
	}
	res := &r.memo[len(r.memo)-1]
	return res, res.err
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
		return r.s.cachedTarget(ctx, &t, r.p, base.KindPolicy, uuid.Nil, id, r.action)
	case ref.BaseID != "":
		id, err := refID(ref.BaseID)
		if err != nil {
			return nil, err
		}
		return r.s.cachedTarget(ctx, &t, r.p, base.KindPolicy, id, uuid.Nil, r.action)
	}
	id, err := refID(ref.Ref)
	if err != nil {
		return nil, err
	}
	// A legacy reference is a record id first, then a base id: a base the
	// cache holds is taken directly, so a warm run makes no failed record
	// lookup.
	return reachEither(ctx, r.s, r.p, base.KindPolicy, id, r.action, runFinder{s: r.s, t: &t})
}

func refID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, newError(CodeNotFound, "no policy %q", engine.Quoted(s))
	}
	return id, nil
}
