package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/verdict/verdict/engine"
)

// Result is a flow run result (docs/flows.md). Outcome is nil unless the run ended on
// a custom node; the slices are never nil.
type Result struct {
	NodeID        string         `json:"nodeId"`
	NodeName      string         `json:"nodeName"`
	Result        bool           `json:"result"`
	ExecutionPath []string       `json:"executionPath"`
	FinalOutcome  bool           `json:"finalOutcome"`
	Outcome       *string        `json:"outcome"`
	Errors        []string       `json:"errors"`
	NodeResponses []NodeResponse `json:"nodeResponses"`
}

// NodeResponse is the entry of one evaluated node (start, policy, custom).
type NodeResponse struct {
	NodeID    string         `json:"nodeId"`
	NodeType  string         `json:"nodeType"`
	Response  *engine.Result `json:"response"`
	Execution NodeExecution  `json:"execution"`
}

// responseJSON is engine.Result's shape with a trace that can be null, as
// it is for a node whose policy was not found.
type responseJSON struct {
	Result bool            `json:"result"`
	Trace  *engine.Trace   `json:"trace"`
	Rule   []string        `json:"rule"`
	Data   any             `json:"data"`
	Error  *engine.Error   `json:"error"`
	Labels map[string]bool `json:"labels"`
}

// MarshalJSON writes a response without a trace entry with "trace": null,
// and leaves '<', '>' and '&' unescaped like engine.Error does, so that an
// encoder that does not escape HTML shows messages as written.
func (r NodeResponse) MarshalJSON() ([]byte, error) {
	var resp any = r.Response
	if res := r.Response; res != nil && res.Trace.Execution == nil {
		resp = responseJSON{Result: res.Result, Rule: res.Rule, Data: res.Data, Error: res.Error, Labels: res.Labels}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		NodeID    string        `json:"nodeId"`
		NodeType  string        `json:"nodeType"`
		Response  any           `json:"response"`
		Execution NodeExecution `json:"execution"`
	}{r.NodeID, r.NodeType, resp, r.Execution})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// NodeExecution is a node's timing: Database is the time spent resolving
// its policy, Engine the time spent evaluating it, Total the whole node.
type NodeExecution struct {
	Database Nanos `json:"database"`
	Engine   Nanos `json:"engine"`
	Total    Nanos `json:"total"`
}

// Nanos is a duration in nanoseconds, written as a JSON string of digits
// like every timing of the API.
type Nanos int64

func (n Nanos) MarshalJSON() ([]byte, error) {
	b := append([]byte{'"'}, strconv.FormatInt(int64(n), 10)...)
	return append(b, '"'), nil
}

// UnmarshalJSON reads the string form, and a bare number too.
func (n *Nanos) UnmarshalJSON(b []byte) error {
	s := string(b)
	if unquoted, err := strconv.Unquote(s); err == nil {
		s = unquoted
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return errors.New("flow: a duration must be a string of digits")
	}
	*n = Nanos(v)
	return nil
}
