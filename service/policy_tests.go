package service

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
)

// TestReport is what running a policy's tests found (POST
// /policy/{policyId}/test).
type TestReport struct {
	Passed  bool         `json:"passed"`
	Total   int          `json:"total"`
	Failed  int          `json:"failed"`
	Results []TestResult `json:"results"`
}

// TestResult is one test's outcome. Actual is the run's result (for a
// flow that ends on a custom node, its outcome), or null when the run
// failed with an error, which Error then holds.
type TestResult struct {
	Name        string          `json:"name"`
	Expected    json.RawMessage `json:"expected"`
	Actual      json.RawMessage `json:"actual"`
	Passed      bool            `json:"passed"`
	Explanation string          `json:"explanation"`
	Error       *string         `json:"error"`
}

// TestPolicy runs a policy record's stored tests, or the tests given
// instead, and reports each. The record is addressed like GET
// /policy/{id}: a record id, or a base id for its latest version (else its
// draft). Running tests needs the permission to run the policy; nothing is
// stored.
func (s *Service) TestPolicy(ctx context.Context, id uuid.UUID, tests []TestCase) (*TestReport, error) {
	_, l, tests, err := s.testsToRun(ctx, s.policyKind, id, tests, checkPolicyTests)
	if err != nil {
		return nil, err
	}
	prog := s.program(l.record)
	if err := s.admitRuns(ctx, "tests", askForFewer, len(tests), prog.AnswerWeight(), testData(tests)); err != nil {
		return nil, err
	}
	return s.runTests(ctx, prog, tests)
}

// testsToRun is how a test call starts: the tests given are checked, how
// many and by the kind's check, before the record is loaded with the
// permission to run it; without them, its stored tests run. Each test is a
// run, which the caller admits before any runs.
func (s *Service) testsToRun(ctx context.Context, k *kindRules, id uuid.UUID, tests []TestCase,
	check func([]TestCase) error) (*Principal, *target, []TestCase, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := s.checkTestCount(tests); err != nil {
		return nil, nil, nil, err
	}
	named := make(map[string]bool, len(tests))
	for i, tc := range tests {
		if tc.Name == "" || len(tc.Data) == 0 || len(tc.Expect) == 0 {
			return nil, nil, nil, Invalid("each test needs a name, data and expect")
		}
		// The report names its tests, as a save requires.
		if named[tc.Name] {
			return nil, nil, nil, Invalid("two tests are named %q", engine.Quoted(tc.Name))
		}
		named[tc.Name] = true
		// Refused as a run refuses it, as a stored test's data is.
		if err := s.checkData(tc.Data); err != nil {
			return nil, nil, nil, Invalid("tests[%d] (%s): %s", i, engine.Quoted(tc.Name), messageOf(err))
		}
	}
	if err := check(tests); err != nil {
		return nil, nil, nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionRun)
	if err != nil {
		return nil, nil, nil, err
	}
	if tests == nil {
		tests = l.record.Tests
	}
	return p, l, tests, nil
}

// testData counts the bytes of the tests' data, which their runs echo.
func testData(tests []TestCase) int {
	n := 0
	for _, tc := range tests {
		n += len(tc.Data)
	}
	return n
}

// checkPolicyTests refuses tests whose expect is not true or false.
func checkPolicyTests(tests []TestCase) error {
	for _, tc := range tests {
		if _, ok := expectedResult(tc.Expect); !ok {
			return Invalid("test %q: expect must be true or false", engine.Quoted(tc.Name))
		}
	}
	return nil
}

// expectedResult is a policy test's expect, which must be true or false:
// decoding into a bool would take null for false.
func expectedResult(raw json.RawMessage) (expect, ok bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false, false
	}
	expect, ok = v.(bool)
	return expect, ok
}

// checkTestCount refuses more tests than one call may run: as many as a
// batch may hold, which the rate limits' bursts always admit.
func (s *Service) checkTestCount(tests []TestCase) error {
	if len(tests) > s.maxBatchItems {
		return Invalid("tests holds %d tests; the limit is %d", len(tests), s.maxBatchItems)
	}
	return nil
}

// runTests runs each test on the compiled policy.
func (s *Service) runTests(ctx context.Context, prog *flow.ResolvedPolicy, tests []TestCase) (*TestReport, error) {
	rep := &TestReport{Passed: true, Total: len(tests), Results: make([]TestResult, 0, len(tests))}
	for _, tc := range tests {
		r := TestResult{Name: tc.Name, Expected: tc.Expect, Actual: json.RawMessage("null")}
		expect, expectOK := expectedResult(tc.Expect)
		data, derr := engine.DecodeData(tc.Data, s.engine.Limits)
		switch {
		case !expectOK:
			msg := "expect must be true or false"
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		case derr != nil:
			msg := fmt.Sprintf("data: %v", derr)
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		default:
			res := prog.Evaluate(nil, data, tc.Data)
			if err := s.explain(ctx, res); err != nil {
				return nil, err
			}
			r.Explanation = res.Explanation
			if res.Error != nil {
				msg := res.Error.Message
				r.Error = &msg
			} else {
				r.Actual = json.RawMessage(fmt.Sprint(res.Result))
				r.Passed = res.Result == expect
			}
		}
		if len(r.Expected) == 0 {
			r.Expected = json.RawMessage("null")
		}
		if !r.Passed {
			rep.Passed = false
			rep.Failed++
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// failing names the failing tests of a report, in order, for a refused
// publish.
func (rep *TestReport) failing() []string {
	var names []string
	for _, r := range rep.Results {
		if !r.Passed {
			names = append(names, r.Name)
		}
	}
	sort.Strings(names)
	return names
}

// failures describes each failing test of a report, for a refused publish.
func (rep *TestReport) failures() []string {
	var out []string
	for _, r := range rep.Results {
		if r.Passed {
			continue
		}
		actual := "an error"
		if string(r.Actual) != "null" {
			actual = string(r.Actual)
		}
		out = append(out, fmt.Sprintf("%s: expected %s, got %s. %s", r.Name, r.Expected, actual, r.Explanation))
	}
	return out
}

// TestFlowRecord runs a flow record's stored tests, or the tests given
// instead, and reports each (POST /flow/{flowId}/test). A test expects the
// flow's result (true or false) or the outcome of the custom node it ends
// on (a string). The record is addressed like GET /flow/{id}; running its
// tests needs the permission to run it, and its policies are resolved as
// the caller's runs resolve them. Nothing is stored.
func (s *Service) TestFlowRecord(ctx context.Context, id uuid.UUID, tests []TestCase) (*TestReport, error) {
	p, l, tests, err := s.testsToRun(ctx, s.flowKind, id, tests, checkFlowTests)
	if err != nil {
		return nil, err
	}
	plan, err := s.flow(l.record).runPlan()
	if err != nil {
		return nil, err
	}
	// A flow's answers are charged as its nodes run; its runs, once it is
	// known that they can.
	if err := chargeRuns(ctx, len(tests)); err != nil {
		return nil, err
	}
	runs := s.flowTests(s.resolverFor(p), plan, "the tests", "ask for fewer tests in one request")
	return s.runFlowTests(ctx, runs, tests)
}

// runFlowTests runs each test and reports it. A run that could not finish
// (the authorizer or the database failing, or the call too large) ends
// them all.
func (s *Service) runFlowTests(ctx context.Context, runs *explainedRuns, tests []TestCase) (*TestReport, error) {
	rep := &TestReport{Passed: true, Total: len(tests), Results: make([]TestResult, 0, len(tests))}
	for _, tc := range tests {
		r := TestResult{Name: tc.Name, Expected: tc.Expect, Actual: json.RawMessage("null")}
		want, werr := expectationOf(tc)
		data, derr := engine.DecodeData(tc.Data, s.engine.Limits)
		switch {
		case werr != nil:
			msg := "expect must be true or false (the result) or a string (the outcome)"
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		case derr != nil:
			msg := fmt.Sprintf("data: %v", derr)
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		default:
			out, err := runs.run(ctx, data, tc.Data)
			if err != nil {
				return nil, err
			}
			r.Explanation = flowExplanation(out)
			r.Passed = want.metBy(out)
			if len(out.Errors) > 0 {
				msg := strings.Join(out.Errors, "; ")
				r.Error = &msg
			} else {
				r.Actual = flowActual(out, want)
			}
			shown := len(r.Explanation) + len(r.Actual)
			if r.Error != nil {
				shown += len(*r.Error)
			}
			if err := runs.explained(ctx, shown); err != nil {
				return nil, err
			}
		}
		if len(r.Expected) == 0 {
			r.Expected = json.RawMessage("null")
		}
		if !r.Passed {
			rep.Passed = false
			rep.Failed++
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// flowActual is what a flow run gave, in the terms the test expected: the
// outcome of the custom node it ended on, or its result when it ended on
// none (null is kept for a run stopped by an error).
func flowActual(out *flow.Result, want flowExpectation) json.RawMessage {
	if want.outcome != nil && out.Outcome != nil {
		b, _ := json.Marshal(*out.Outcome)
		return b
	}
	return json.RawMessage(fmt.Sprint(out.Result))
}

// flowExplanation says where a flow run ended and why, from the last
// node's explanation.
func flowExplanation(out *flow.Result) string {
	// NodeID is the start node, whose value is the flow's result; the path
	// lists the nodes that ran after it.
	var b strings.Builder
	fmt.Fprintf(&b, "The flow's result is %v; the nodes that ran: %s.", out.Result,
		strings.Join(append([]string{out.NodeID}, out.ExecutionPath...), " → "))
	if n := len(out.NodeResponses); n > 0 && out.NodeResponses[n-1].Response != nil {
		b.WriteString(" ")
		b.WriteString(out.NodeResponses[n-1].Response.Explanation)
	}
	return b.String()
}
