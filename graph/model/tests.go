package model

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// TestPolicyInput names a policy record and, optionally, tests to run on
// it instead of its stored ones.
type TestPolicyInput struct {
	PolicyID uuid.UUID
	Tests    []*PolicyTestCaseInput
}

// PolicyTestCaseInput is a test to run; data and expect stay JSON text,
// for the service to check.
type PolicyTestCaseInput struct {
	Name   string
	Data   json.RawMessage
	Expect json.RawMessage
}

// Cases are the service's form of the tests: nil when none were given.
func (in *TestPolicyInput) Cases() []service.TestCase {
	if in.Tests == nil {
		return nil
	}
	out := make([]service.TestCase, len(in.Tests))
	for i, tc := range in.Tests {
		out[i] = service.TestCase{Name: tc.Name, Data: tc.Data, Expect: tc.Expect}
	}
	return out
}

// TestFlowRecordInput names a flow record and, optionally, tests to run on
// it instead of its stored ones.
type TestFlowRecordInput struct {
	FlowID uuid.UUID
	Tests  []*PolicyTestCaseInput
}

// Cases are the service's form of the tests: nil when none were given.
func (in *TestFlowRecordInput) Cases() []service.TestCase {
	return (&TestPolicyInput{Tests: in.Tests}).Cases()
}
