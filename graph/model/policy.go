package model

import (
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"

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

// UpdatePolicyInput holds changes to a draft; nil leaves a field as it is.
// Schema is omittable because null means something else than absent: it
// removes the schema.
type UpdatePolicyInput struct {
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
		raw, err := jsonText("schema", in.Schema)
		if err != nil {
			return c, err
		}
		c.Schema = raw
	}
	tests, err := testCases(in.Tests)
	c.Tests = tests
	return c, err
}

// Changes are the service's form of the input; a nil input changes
// nothing.
func (in *UpdatePolicyInput) Changes() (service.Changes, error) {
	if in == nil {
		return service.Changes{}, nil
	}
	c := service.Changes{Name: in.Name, Rule: in.Rule, Description: in.Description}
	if schema, set := in.Schema.ValueOK(); set {
		raw, err := jsonText("schema", schema)
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
		data, err := jsonText("a test's data", tc.Data)
		if err != nil {
			return nil, err
		}
		expect, _ := json.Marshal(tc.Expect)
		out[i] = service.TestCase{Name: tc.Name, Data: data, Expect: expect}
	}
	return &out, nil
}

// jsonText writes a JSON scalar's value as the service takes it: as JSON
// text, which it then validates as REST's.
func jsonText(what string, v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, service.Invalid("%s is not JSON: %v", what, err)
	}
	return raw, nil
}

// TestExpect is the result a stored test expects. The service stores only
// tests whose expect is a boolean.
func TestExpect(tc *service.TestCase) (bool, error) {
	var expect bool
	err := json.Unmarshal(tc.Expect, &expect)
	return expect, err
}
