package service

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/verdict/verdict/flow"
)

// A flow run whose request ended (the client went away, the server is
// stopping) is cut short: unavailable, not an internal error, which would
// be logged as a fault of the server's.
func TestAFlowRunCutShortByItsRequestIsNoInternalError(t *testing.T) {
	d, err := flow.Parse([]byte(`{"formatVersion": 1, "nodes": [
		{"id": "s", "type": "start", "policy": {"id": "00000000-0000-0000-0000-000000000001"}, "onTrue": "yes"},
		{"id": "yes", "type": "return", "returnValue": true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := flow.Prepare(d)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	var s Service
	_, err = s.execute(ended, nil, plan, map[string]any{}, json.RawMessage(`{}`), flow.Options{})
	if CodeOf(err) != CodeUnavailable || err.Error() != "unavailable: the request ended before the flow finished" {
		t.Errorf("%v, want unavailable: the request ended before the flow finished", err)
	}
}
