package service

import (
	"context"
	"encoding/json"
	"fmt"

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

// TestResult is one test's outcome. Actual is the run's result, or null
// when the run failed with an error, which Error then holds.
type TestResult struct {
	Name        string          `json:"name"`
	Expected    json.RawMessage `json:"expected"`
	Actual      *bool           `json:"actual"`
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
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkPolicyTests(tests); err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, s.policyKind, id, authz.ActionRun)
	if err != nil {
		return nil, err
	}
	if tests == nil {
		tests = l.record.Tests
	}
	return s.runTests(s.program(l.record), tests), nil
}

// checkPolicyTests refuses tests whose expect is not true or false.
func checkPolicyTests(tests []TestCase) error {
	for _, tc := range tests {
		var expect bool
		if json.Unmarshal(tc.Expect, &expect) != nil {
			return Invalid("test %q: expect must be true or false", tc.Name)
		}
	}
	return nil
}

// runTests runs each test on the compiled policy.
func (s *Service) runTests(prog *flow.ResolvedPolicy, tests []TestCase) *TestReport {
	rep := &TestReport{Passed: true, Total: len(tests), Results: make([]TestResult, 0, len(tests))}
	for _, tc := range tests {
		r := TestResult{Name: tc.Name, Expected: tc.Expect}
		var expect bool
		data, derr := engine.DecodeData(tc.Data, s.engine.Limits)
		switch {
		case json.Unmarshal(tc.Expect, &expect) != nil:
			msg := "expect must be true or false"
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		case derr != nil:
			msg := fmt.Sprintf("data: %v", derr)
			r.Error, r.Explanation = &msg, "The test cannot run: "+msg+"."
		default:
			res := prog.Evaluate(nil, data, tc.Data)
			res.Explain()
			r.Explanation = res.Explanation
			if res.Error != nil {
				msg := res.Error.Message
				r.Error = &msg
			} else {
				actual := res.Result
				r.Actual = &actual
				r.Passed = actual == expect
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
	return rep
}

// failures describes each failing test of a report, for a refused publish.
func (rep *TestReport) failures() []string {
	var out []string
	for _, r := range rep.Results {
		if r.Passed {
			continue
		}
		actual := "an error"
		if r.Actual != nil {
			actual = fmt.Sprint(*r.Actual)
		}
		out = append(out, fmt.Sprintf("%s: expected %s, got %s. %s", r.Name, r.Expected, actual, r.Explanation))
	}
	return out
}
