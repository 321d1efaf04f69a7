package flow

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

// referenceFlow is one line of testdata/reference_flows.jsonl: an assertion
// of the original implementation's test suites about a flow, restated as a
// definition (YAML text or the UI's graph), input and expected outcome.
// Fields named in DivergentFields are ones where Verdict deliberately
// behaves otherwise; Note says how.
type referenceFlow struct {
	ID               string                     `json:"id"`
	Kind             string                     `json:"kind"` // test, validate or store_load
	DefinitionFormat string                     `json:"definition_format"`
	Definition       json.RawMessage            `json:"definition"`
	Input            json.RawMessage            `json:"input"`
	Expect           map[string]json.RawMessage `json:"expect"`
	DivergentFields  []string                   `json:"divergent_fields"`
	Note             string                     `json:"note"`
	MappingNote      string                     `json:"mapping_note"`
}

func loadReferenceFlows(t *testing.T) []referenceFlow {
	return jsonltest.Read[referenceFlow](t, "testdata/reference_flows.jsonl")
}

func TestReferenceFlows(t *testing.T) {
	cases := loadReferenceFlows(t)
	if len(cases) != 14 {
		t.Fatalf("corpus has %d cases, want 14", len(cases))
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			d := parseReferenceDefinition(t, c)
			divergent := map[string]bool{}
			for _, f := range c.DivergentFields {
				divergent[f] = true
			}
			switch c.Kind {
			case "test":
				checkReferenceRun(t, c, d, divergent)
			case "validate":
				checkReferenceValidation(t, c, d, divergent)
			case "store_load":
				checkReferenceStoreLoad(t, c, d)
			default:
				t.Fatalf("unknown kind %q", c.Kind)
			}
		})
	}
}

func parseReferenceDefinition(t *testing.T, c referenceFlow) *Definition {
	t.Helper()
	var d *Definition
	var err error
	switch c.DefinitionFormat {
	case "yaml":
		var text string
		if err := json.Unmarshal(c.Definition, &text); err != nil {
			t.Fatal(err)
		}
		d, err = ParseText(text)
	case "ui_graph":
		d, err = Parse(c.Definition)
	default:
		t.Fatalf("unknown definition format %q", c.DefinitionFormat)
	}
	if err != nil {
		t.Fatalf("parse definition: %v", err)
	}
	return d
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func decodeExpect(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("expectation %s: %v", raw, err)
	}
}

// checkReferenceRun runs a flow as a test run does. Every policy the
// definition refers to resolves to the same small policy: the cases assert
// nothing about what the policy decides. A run refused with a
// *DefinitionError is what the API answers with status 400; any other
// answer is 200.
func checkReferenceRun(t *testing.T, c referenceFlow, d *Definition, divergent map[string]bool) {
	t.Helper()
	input := c.Input
	if len(input) == 0 {
		input = json.RawMessage(`{}`)
	}
	data, err := engine.DecodeData(input, engine.Limits{})
	if err != nil {
		t.Fatalf("DecodeData: %v", err)
	}
	resolver := newFakeResolver(t)
	for _, np := range d.PolicyRefs() {
		var e engine.Engine
		resolver.records[np.Ref.String()] = CompilePolicy(&e, ruleAge)
	}
	res, err := Run(context.Background(), d, data, input, resolver, Options{})
	var de *DefinitionError
	refused := errors.As(err, &de)
	if err != nil && !refused {
		t.Fatalf("Run: %v", err)
	}
	status := 200
	if refused {
		status = 400
	}
	for _, key := range sortedKeys(c.Expect) {
		raw := c.Expect[key]
		switch {
		case key == "status":
			var want int
			decodeExpect(t, raw, &want)
			if divergent[key] {
				// Verdict answers the other way: it refuses what the
				// reference ran, or runs what it refused.
				if status == want {
					t.Errorf("divergent status: got %d, the reference's (%s)", status, c.Note)
				}
			} else if status != want {
				t.Errorf("status = %d (%v), want %d", status, err, want)
			}
		case key == "result" && divergent[key]:
			// The reference's expected result is not Verdict's: here a
			// refused run or a result that differs.
			var want any
			decodeExpect(t, raw, &want)
			if !refused && want == res.Result {
				t.Errorf("divergent result: got %v, the reference's (%s)", res.Result, c.Note)
			}
		case divergent[key]:
			t.Logf("%s not checked: %s", key, c.Note)
		case refused:
			t.Errorf("%s: run refused (%v), want %s", key, err, raw)
		case key == "nodeId" || key == "nodeName":
			var want string
			decodeExpect(t, raw, &want)
			got := res.NodeID
			if key == "nodeName" {
				got = res.NodeName
			}
			if got != want {
				t.Errorf("%s = %q, want %q", key, got, want)
			}
		case key == "result":
			var want bool
			decodeExpect(t, raw, &want)
			if res.Result != want {
				t.Errorf("result = %v, want %v", res.Result, want)
			}
		default:
			t.Errorf("unknown expectation %q: %s", key, raw)
		}
	}
}

// checkReferenceValidation compares the errors of the editor's check with
// the errors a draft save reports. Where the reference has an error that
// Verdict deliberately only warns about, the message must be a warning.
func checkReferenceValidation(t *testing.T, c referenceFlow, d *Definition, divergent map[string]bool) {
	t.Helper()
	p := Validate(d, StageSave)
	for _, key := range sortedKeys(c.Expect) {
		raw := c.Expect[key]
		switch key {
		case "valid":
			var want bool
			decodeExpect(t, raw, &want)
			if divergent[key] {
				want = !want
			}
			if got := len(p.Errors) == 0; got != want {
				t.Errorf("valid = %v, want %v (errors %q)", got, want, p.Errors)
			}
		case "errors":
			var want []string
			decodeExpect(t, raw, &want)
			if !slices.Equal(p.Errors, want) {
				t.Errorf("errors = %q, want %q", p.Errors, want)
			}
		case "errors_contain":
			var want []string
			decodeExpect(t, raw, &want)
			for _, msg := range want {
				switch {
				case !divergent[key] && !slices.Contains(p.Errors, msg):
					t.Errorf("errors %q do not include %q", p.Errors, msg)
				case divergent[key] && (slices.Contains(p.Errors, msg) || !slices.Contains(p.Warnings, msg)):
					t.Errorf("want %q as a warning only; errors %q, warnings %q (%s)", msg, p.Errors, p.Warnings, c.MappingNote)
				}
			}
		case "errors_some_contains":
			var want []string
			decodeExpect(t, raw, &want)
			for _, sub := range want {
				if !slices.ContainsFunc(p.Errors, func(e string) bool { return strings.Contains(e, sub) }) {
					t.Errorf("no error in %q contains %q", p.Errors, sub)
				}
			}
		default:
			t.Errorf("unknown expectation %q: %s", key, raw)
		}
	}
}

// checkReferenceStoreLoad stores a definition in its stored form (the
// normalized JSON) and loads it back, then reads its start node.
func checkReferenceStoreLoad(t *testing.T, c referenceFlow, d *Definition) {
	t.Helper()
	stored, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Parse(stored)
	if err != nil {
		t.Fatalf("load %s: %v", stored, err)
	}
	var start *Node
	for i := range loaded.Nodes {
		if loaded.Nodes[i].Type == TypeStart {
			start = &loaded.Nodes[i]
			break
		}
	}
	if start == nil {
		t.Fatalf("no start node in %s", stored)
	}
	for _, key := range sortedKeys(c.Expect) {
		var want string
		decodeExpect(t, c.Expect[key], &want)
		var got string
		switch key {
		case "start_node_id":
			got = start.ID
		case "start_node_policy_ref":
			if start.Policy != nil {
				got = start.Policy.String()
			}
		default:
			t.Errorf("unknown expectation %q", key)
			continue
		}
		if got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
}
