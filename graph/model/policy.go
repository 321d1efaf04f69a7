package model

import (
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"github.com/verdict/verdict/service"
)

// CreatePolicyInput is the content of a new policy.
type CreatePolicyInput struct {
	Name        string
	Rule        string
	Description *string
	Schema      any
	Tests       []*PolicyTestInput
}

// UpdatePolicyInput is a draft (ID, a record or base id) and changes to
// it, to save or to publish; nil leaves a field as it is. Schema is
// omittable because null means something else than absent: it removes the
// schema.
type UpdatePolicyInput struct {
	ID          uuid.UUID
	Revision    *int
	Name        *string
	Rule        *string
	Description *string
	Schema      graphql.Omittable[any]
	Tests       []*PolicyTestInput
}

// PolicyTestInput is a stored test to save.
type PolicyTestInput struct {
	Name   string
	Data   any
	Expect bool
}

// Changes are the service's form of the input.
func (in *CreatePolicyInput) Changes() (service.Changes, error) {
	c := service.Changes{Name: &in.Name, Rule: &in.Rule, Description: in.Description}
	if in.Schema != nil {
		raw, err := JSONText("schema", in.Schema)
		if err != nil {
			return c, err
		}
		c.Schema = raw
	}
	tests, err := testCases(in.Tests)
	c.Tests = tests
	return c, err
}

// Changes are the service's form of the input's changes.
func (in *UpdatePolicyInput) Changes() (service.Changes, error) {
	c := service.Changes{Name: in.Name, Rule: in.Rule, Description: in.Description, Revision: in.Revision}
	if schema, set := in.Schema.ValueOK(); set {
		raw, err := JSONText("schema", schema)
		if err != nil {
			return c, err
		}
		c.Schema = raw
	}
	tests, err := testCases(in.Tests)
	c.Tests = tests
	return c, err
}

// testCases is nil for no list (leave the tests as they are) and a
// possibly empty list otherwise (replace them).
func testCases(in []*PolicyTestInput) (*[]service.TestCase, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]service.TestCase, len(in))
	for i, tc := range in {
		data, err := JSONText("a test's data", tc.Data)
		if err != nil {
			return nil, err
		}
		expect, _ := json.Marshal(tc.Expect)
		out[i] = service.TestCase{Name: tc.Name, Data: data, Expect: expect}
	}
	return &out, nil
}

// TestExpect is the result a stored test expects. The service stores only
// tests whose expect is a boolean.
func TestExpect(tc *service.TestCase) (bool, error) {
	var expect bool
	err := json.Unmarshal(tc.Expect, &expect)
	return expect, err
}
