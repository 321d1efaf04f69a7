package model

import (
	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/service"
)

// CreateFlowInput is the content of a new flow.
type CreateFlowInput struct {
	Name        string
	Definition  any
	Description *string
	Tests       []*FlowTestInput
}

// UpdateFlowInput is a flow draft (ID, a record or base id) and changes to
// it, to save or to publish; nil leaves a field as it is.
type UpdateFlowInput struct {
	ID          uuid.UUID
	Revision    *int
	Name        *string
	Definition  any
	Description *string
	Tests       []*FlowTestInput
}

// FlowTestInput is a stored flow test to save. Expect is whatever JSON the
// request holds; the service says which values a flow test may expect.
type FlowTestInput struct {
	Name   string
	Data   any
	Expect any
}

// Changes are the service's form of the input.
func (in *CreateFlowInput) Changes() (service.Changes, error) {
	return flowChanges(&in.Name, in.Description, in.Definition, in.Tests)
}

// Changes are the service's form of the input's changes.
func (in *UpdateFlowInput) Changes() (service.Changes, error) {
	c, err := flowChanges(in.Name, in.Description, in.Definition, in.Tests)
	c.Revision = in.Revision
	return c, err
}

func flowChanges(name, description *string, definition any, tests []*FlowTestInput) (service.Changes, error) {
	c := service.Changes{Name: name, Description: description}
	if definition != nil {
		raw, err := JSONText("definition", definition)
		if err != nil {
			return c, err
		}
		c.Definition = raw
	}
	if tests != nil {
		out := make([]service.TestCase, len(tests))
		for i, tc := range tests {
			data, err := JSONText("a test's data", tc.Data)
			if err != nil {
				return c, err
			}
			expect, err := JSONText("a test's expect", tc.Expect)
			if err != nil {
				return c, err
			}
			out[i] = service.TestCase{Name: tc.Name, Data: data, Expect: expect}
		}
		c.Tests = &out
	}
	return c, nil
}

// FlowTest is the testFlow mutation's arguments as the service takes
// them. The one definition argument holds what POST /flow/test takes as
// definition (an object) or as flow (a string of YAML or JSON); what it
// holds is the service's to judge.
func FlowTest(definition, data any) (service.FlowTestInput, error) {
	var in service.FlowTestInput
	raw, err := JSONText("definition", definition)
	if err != nil {
		return in, err
	}
	if _, text := definition.(string); text {
		in.Flow = raw
	} else {
		in.Definition = raw
	}
	if in.Data, err = JSONText("data", data); err != nil {
		return in, err
	}
	return in, nil
}

// FlowRunResult is a flow run result as the schema shows it.
type FlowRunResult struct {
	NodeID        string
	NodeName      string
	Result        bool
	ExecutionPath []string
	FinalOutcome  bool
	Outcome       *string
	Errors        []string
	NodeResponses []*NodeResponse

	run *flow.Result
}

// NewFlowRunResult shapes a result of the service.
func NewFlowRunResult(run *service.FlowResult) *FlowRunResult {
	out := &FlowRunResult{
		NodeID:        run.NodeID,
		NodeName:      run.NodeName,
		Result:        run.Result,
		ExecutionPath: run.ExecutionPath,
		FinalOutcome:  run.FinalOutcome,
		Outcome:       run.Outcome,
		Errors:        run.Errors,
		NodeResponses: make([]*NodeResponse, len(run.NodeResponses)),
		run:           run,
	}
	for i, nr := range run.NodeResponses {
		out.NodeResponses[i] = &NodeResponse{
			NodeID:   nr.NodeID,
			NodeType: nr.NodeType,
			Response: newNodeRunResult(nr.Response),
			Execution: NodeExecution{
				Database: service.Nanos(nr.Execution.Database),
				Engine:   service.Nanos(nr.Execution.Engine),
				Total:    service.Nanos(nr.Execution.Total),
			},
		}
	}
	return out
}

// Raw is the `raw` field: the REST object, which the JSON scalar encodes
// with the flow package's own JSON encoding.
func (r *FlowRunResult) Raw() any { return r.run }

// NodeResponse is what one node of a flow run gave.
type NodeResponse struct {
	NodeID    string
	NodeType  string
	Response  *NodeRunResult
	Execution NodeExecution
}

// NodeExecution is a node's timings, as the service's Nanos so that they
// are written like every other timing.
type NodeExecution struct {
	Database service.Nanos
	Engine   service.Nanos
	Total    service.Nanos
}

// NodeRunResult is a node's policy run result, which has no timings of
// its own.
type NodeRunResult struct {
	Result bool
	Rule   []string
	Data   any
	Error  *string
	Labels any
	// Explanation and Warnings are built from the trace when the flow
	// records the node's response.
	Explanation string
	Warnings    []engine.Warning

	trace engine.Trace
}

func newNodeRunResult(res *engine.Result) *NodeRunResult {
	out := &NodeRunResult{Result: res.Result, Rule: res.Rule, Data: res.Data, trace: res.Trace,
		Explanation: res.Explanation, Warnings: warnings(res.Warnings)}
	if res.Error != nil {
		msg := res.Error.Message
		out.Error = &msg
	}
	if res.Labels != nil {
		out.Labels = res.Labels
	}
	return out
}

// Trace is the `trace` field: nil for a node whose policy was not
// resolved, which has no trace entry.
func (r *NodeRunResult) Trace() *Trace {
	if r.trace.Execution == nil {
		return nil
	}
	return traceOf(r.trace)
}

// NewFlowBatchResult shows a flow batch run's results as runFlowBatch
// answers them.
func NewFlowBatchResult(b *service.FlowBatchResult) *FlowBatchResult {
	out := &FlowBatchResult{Results: make([]*FlowRunResult, len(b.Results)), Execution: &b.Execution}
	for i, res := range b.Results {
		out.Results[i] = NewFlowRunResult(res)
	}
	return out
}
