package flow

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// referenceYAML is a nested YAML definition exactly as the reference UI's
// serialiser writes it.
const referenceYAML = `flow:
  start:
    - id: start-1
      type: start
      policyId: 2d1c6a8e-5b7f-4c1e-9f00-3f4a6b7c8d9e
      policyName: "Age check"
      onTrue:
        - id: return-1718000000001
          type: return
          returnValue: true
      onFalse:
        - id: return-1718000000002
          type: return
          returnValue: false

metadata:
  totalNodes: 3
  totalEdges: 2
  timestamp: 2025-06-17T22:42:27.457Z
`

// fx7Body is a /flow/test body: the nested YAML with policyId P-AGE.
var fx7Body = `{"data": {"applicant": {"age": 20}}, "flow": ` +
	quote(strings.Replace(referenceYAML, "2d1c6a8e-5b7f-4c1e-9f00-3f4a6b7c8d9e", "P-AGE", 1)) + `}`

// fx8Body is the FX 8 request body: a UI graph whose two false branches
// converge on return-2.
const fx8Body = `{
  "testData": {"applicant": {"age": 16}},
  "nodes": [
    {"id": "start-1", "type": "start", "label": "Start", "position": {"x": 0, "y": 0}, "data": null,
     "policyId": "P-AGE", "policyName": "Age check"},
    {"id": "policy-1", "type": "policy", "label": "Policy", "position": {"x": 200, "y": 0}, "data": null,
     "policyId": "P-INCOME", "policyName": "Income check", "calledPath": true},
    {"id": "return-1", "type": "return", "label": "Return True", "position": {"x": 400, "y": 0}, "data": null,
     "returnValue": true},
    {"id": "return-2", "type": "return", "label": "Return False", "position": {"x": 400, "y": 200}, "data": null,
     "returnValue": false}
  ],
  "edges": [
    {"id": "edge-start-1-policy-1", "source": "start-1", "target": "policy-1", "sourceHandle": "true", "label": "True"},
    {"id": "edge-start-1-return-2", "source": "start-1", "target": "return-2", "sourceHandle": "false", "label": "False"},
    {"id": "edge-policy-1-return-1", "source": "policy-1", "target": "return-1", "sourceHandle": "true", "label": "True"},
    {"id": "edge-policy-1-return-2", "source": "policy-1", "target": "return-2", "sourceHandle": "false", "label": "False"}
  ]
}`

// flatYAML is what the reference's flowToFlatYaml writes for FX 8's graph.
const flatYAML = `flow:
  nodes:
    - id: start-1
      type: start
      policyId: P-AGE
      policyName: "Age check"
    - id: policy-1
      type: policy
      policyId: P-INCOME
    - id: return-1
      type: return
      returnValue: true
    - id: return-2
      type: return
      returnValue: false
  edges:
    - from: start-1
      to: policy-1
      condition: true
    - from: start-1
      to: return-2
      condition: false
    - from: policy-1
      to: return-1
      condition: true
    - from: policy-1
      to: return-2
      condition: false
    - from: policy-1
      to: return-1
      condition: default
`

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func strp(s string) *string { return &s }

func mustParse(t *testing.T, raw string) *Definition {
	t.Helper()
	d, err := Parse([]byte(raw))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, raw)
	}
	return d
}

func TestParseReadsEveryForm(t *testing.T) {
	reference := &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "start-1", Type: "start", Policy: &PolicyRef{Ref: "2d1c6a8e-5b7f-4c1e-9f00-3f4a6b7c8d9e"}, PolicyName: "Age check",
			OnTrue: []string{"return-1718000000001"}, OnFalse: []string{"return-1718000000002"}},
		{ID: "return-1718000000001", Type: "return", ReturnValue: true},
		{ID: "return-1718000000002", Type: "return", ReturnValue: false},
	}, Metadata: json.RawMessage(`{"timestamp":"2025-06-17T22:42:27.457Z","totalEdges":2,"totalNodes":3}`)}
	fx7 := &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "start-1", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, PolicyName: "Age check",
			OnTrue: []string{"return-1718000000001"}, OnFalse: []string{"return-1718000000002"}},
		{ID: "return-1718000000001", Type: "return", ReturnValue: true},
		{ID: "return-1718000000002", Type: "return", ReturnValue: false},
	}, Metadata: reference.Metadata}
	fx8 := &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "start-1", Type: "start", Name: "Start", Policy: &PolicyRef{Ref: "P-AGE"}, PolicyName: "Age check",
			OnTrue: []string{"policy-1"}, OnFalse: []string{"return-2"}},
		{ID: "policy-1", Type: "policy", Name: "Policy", Policy: &PolicyRef{Ref: "P-INCOME"}, PolicyName: "Income check",
			OnTrue: []string{"return-1"}, OnFalse: []string{"return-2"}},
		{ID: "return-1", Type: "return", Name: "Return True", ReturnValue: true},
		{ID: "return-2", Type: "return", Name: "Return False", ReturnValue: false},
	}}
	flat := &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "start-1", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, PolicyName: "Age check",
			OnTrue: []string{"policy-1"}, OnFalse: []string{"return-2"}},
		{ID: "policy-1", Type: "policy", Policy: &PolicyRef{Ref: "P-INCOME"},
			OnTrue: []string{"return-1"}, OnFalse: []string{"return-2"}},
		{ID: "return-1", Type: "return", ReturnValue: true},
		{ID: "return-2", Type: "return", ReturnValue: false},
	}}
	v1 := &Definition{FormatVersion: 1, Start: "start-1", Nodes: []Node{
		{ID: "start-1", Type: "start", Name: "Start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"policy-7"}, OnFalse: []string{"return-no"}},
		{ID: "policy-7", Type: "policy", Name: "Income check", Policy: &PolicyRef{BaseID: "B-INCOME"}, OnTrue: []string{"return-yes", "custom-review"}},
		{ID: "custom-review", Type: "custom", Name: "Manual review", Outcome: strp("manual review")},
		{ID: "return-yes", Type: "return", ReturnValue: true},
		{ID: "return-no", Type: "return", ReturnValue: false},
	}, Metadata: json.RawMessage(`{"a":[1,2.50]}`)}
	v1YAML := &Definition{FormatVersion: 1, Start: v1.Start, Nodes: v1.Nodes, Metadata: json.RawMessage(`{"a":[1,2.5]}`)}
	v1JSON := `{"formatVersion": 1, "start": "start-1", "nodes": [
		{"id": "start-1", "type": "start", "name": "Start", "policy": {"id": "P-AGE"}, "onTrue": "policy-7", "onFalse": ["return-no"], "x-unknown": 1},
		{"id": "policy-7", "type": "policy", "name": "Income check", "policy": {"baseId": "B-INCOME"}, "onTrue": ["return-yes", "custom-review"], "onFalse": null},
		{"id": "custom-review", "type": "custom", "name": "Manual review", "outcome": "manual review", "next": []},
		{"id": "return-yes", "type": "return", "returnValue": true},
		{"id": "return-no", "type": "return", "returnValue": false}
	], "metadata": {"a": [1, 2.50]}}`

	tests := []struct {
		name string
		raw  string
		want *Definition
	}{
		{"a v1 object", v1JSON, v1},
		{"a v1 object in a JSON string", quote(v1JSON), v1},
		{"a v1 object in YAML in a JSON string", quote("formatVersion: 1\nstart: start-1\nnodes:\n" +
			"  - {id: start-1, type: start, name: Start, policy: {id: P-AGE}, onTrue: policy-7, onFalse: [return-no]}\n" +
			"  - {id: policy-7, type: policy, name: Income check, policy: {baseId: B-INCOME}, onTrue: [return-yes, custom-review]}\n" +
			"  - {id: custom-review, type: custom, name: Manual review, outcome: manual review}\n" +
			"  - {id: return-yes, type: return, returnValue: true}\n" +
			"  - {id: return-no, type: return, returnValue: false}\n" +
			"metadata: {a: [1, 2.50]}\n"), v1YAML},
		{"the nested YAML in a JSON string", quote(referenceYAML), reference},
		{"the nested YAML as JSON", `{"flow": {"start": [{"id": "start-1", "type": "start",
			"policyId": "2d1c6a8e-5b7f-4c1e-9f00-3f4a6b7c8d9e", "policyName": "Age check",
			"onTrue": [{"id": "return-1718000000001", "type": "return", "returnValue": true}],
			"onFalse": [{"id": "return-1718000000002", "type": "return", "returnValue": false}]}]},
			"metadata": {"totalNodes": 3, "totalEdges": 2, "timestamp": "2025-06-17T22:42:27.457Z"}}`, reference},
		{"the FX 7 body", fx7Body, fx7},
		{"the flow member of the FX 7 body", `{"start": [{"id": "start-1", "type": "start", "policyId": "P-AGE",
			"policyName": "Age check",
			"onTrue": [{"id": "return-1718000000001", "type": "return", "returnValue": true}],
			"onFalse": {"id": "return-1718000000002", "type": "return", "returnValue": false}}]}`,
			&Definition{FormatVersion: 1, Nodes: fx7.Nodes}},
		{"the FX 8 body", fx8Body, fx8},
		{"the flat YAML", quote(flatYAML), flat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.raw)
			if !reflect.DeepEqual(got, tt.want) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(tt.want)
				t.Errorf("got  %s\nwant %s", gj, wj)
			}
		})
	}
}

func TestParseTextTellsJSONFromYAMLByTheFirstCharacter(t *testing.T) {
	for _, text := range []string{
		" \n\t{\"formatVersion\": 1, \"nodes\": []}",
		"\n\nformatVersion: 1\nnodes: []\n",
		"# a comment first\nformatVersion: 1\nnodes: []\n",
		"---\nformatVersion: 1\nnodes: []\n---\n# and empty documents after it\n---\n",
	} {
		d, err := ParseText(text)
		if err != nil || d.FormatVersion != 1 || d.Nodes == nil || len(d.Nodes) != 0 {
			t.Errorf("ParseText(%q) = %+v, %v", text, d, err)
		}
	}
	// YAML flow style is JSON's look-alike, so text starting with '{' must
	// be strict JSON.
	if _, err := ParseText(`{formatVersion: 1, nodes: []}`); err == nil {
		t.Error("YAML flow mapping accepted as JSON")
	}
}

func TestLegacyConversion(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []Node
	}{
		{
			name: "nested: identical copies of a node are merged",
			raw: quote(`flow:
  start:
    - id: s
      type: start
      policyId: P-AGE
      onTrue:
        - id: p
          type: policy
          policyId: P-INCOME
          onFalse:
            - {id: r, type: return, returnValue: false}
      onFalse:
        - {id: r, type: return, returnValue: false}
`),
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"p"}, OnFalse: []string{"r"}},
				{ID: "p", Type: "policy", Policy: &PolicyRef{Ref: "P-INCOME"}, OnFalse: []string{"r"}},
				{ID: "r", Type: "return", ReturnValue: false},
			},
		},
		{
			name: "nested: differing copies are both kept for validation to report",
			raw: `{"flow": {"start": [{"id": "s", "type": "start", "policyId": "P-AGE",
				"onTrue": [{"id": "r", "type": "return", "returnValue": true}],
				"onFalse": [{"id": "r", "type": "return", "returnValue": false}]}]}}`,
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"r"}, OnFalse: []string{"r"}},
				{ID: "r", Type: "return", ReturnValue: true},
				{ID: "r", Type: "return", ReturnValue: false},
			},
		},
		{
			name: "nested: a custom node continues with onTrue then onFalse as next",
			raw: `{"flow": {"start": [{"id": "s", "type": "start", "policyId": "P-AGE",
				"onTrue": [{"id": "c", "type": "custom", "outcome": "ok",
					"onTrue": [{"id": "t", "type": "return", "returnValue": true}],
					"onFalse": [{"id": "f", "type": "return", "returnValue": false}]}]}]}}`,
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"c"}},
				{ID: "c", Type: "custom", Outcome: strp("ok"), Next: []string{"t", "f"}},
				{ID: "t", Type: "return", ReturnValue: true},
				{ID: "f", Type: "return", ReturnValue: false},
			},
		},
		{
			name: "nested: a node's next list is nested as its branches are, and kept",
			raw: quote(`flow:
  start:
    - id: s
      type: start
      policyId: P-AGE
      onTrue:
        - {id: c, type: custom, outcome: review, next: [{id: r, type: return, returnValue: false}]}
      onFalse:
        - {id: r2, type: return, returnValue: false}
`),
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"c"}, OnFalse: []string{"r2"}},
				{ID: "c", Type: "custom", Outcome: strp("review"), Next: []string{"r"}},
				{ID: "r", Type: "return", ReturnValue: false},
				{ID: "r2", Type: "return", ReturnValue: false},
			},
		},
		{
			name: "nested: an unset returnValue and a null outcome survive as written",
			raw: quote(`flow:
  start:
    - id: s
      type: start
      policyId: P-AGE
      onTrue:
        - id: r
          type: return
          returnValue: undefined
      onFalse:
        - id: c
          type: custom
          outcome: null
`),
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"r"}, OnFalse: []string{"c"}},
				{ID: "r", Type: "return", ReturnValue: "undefined"},
				{ID: "c", Type: "custom"},
			},
		},
		{
			name: "nested: a converging branch written as an empty key is an empty branch",
			raw: quote(`flow:
  start:
    - id: s
      type: start
      policyId: P-AGE
      onTrue:
        - id: r
          type: return
          returnValue: true
      onFalse:
`),
			want: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"r"}},
				{ID: "r", Type: "return", ReturnValue: true},
			},
		},
		{
			name: "UI graph: the later edge wins, other handles are ignored, custom edges become next",
			raw: `{"nodes": [
				{"id": "s", "type": "start", "label": "Begin", "policyId": "P-AGE", "position": {"x": 1, "y": 2}},
				{"id": "a", "type": "return", "label": "A", "returnValue": true},
				{"id": "b", "type": "return", "returnValue": false},
				{"id": "c", "type": "custom", "label": "Review"},
				{"id": "x", "type": "return", "returnValue": true}],
			 "edges": [
				{"source": "s", "target": "a", "sourceHandle": "true"},
				{"source": "s", "target": "c", "sourceHandle": "true"},
				{"source": "s", "target": "b", "sourceHandle": "false"},
				{"source": "s", "target": "x", "sourceHandle": "other"},
				{"source": "s", "target": "x"},
				{"source": "c", "target": "a", "sourceHandle": "false"},
				{"source": "c", "target": "b", "sourceHandle": "true"}]}`,
			want: []Node{
				{ID: "s", Type: "start", Name: "Begin", Policy: &PolicyRef{Ref: "P-AGE"}, OnTrue: []string{"c"}, OnFalse: []string{"b"}},
				{ID: "a", Type: "return", Name: "A", ReturnValue: true},
				{ID: "b", Type: "return", ReturnValue: false},
				{ID: "c", Type: "custom", Name: "Review", Outcome: strp(""), Next: []string{"b", "a"}},
				{ID: "x", Type: "return", ReturnValue: true},
			},
		},
		{
			name: "UI graph: an unset returnValue stays unset",
			raw:  `{"nodes": [{"id": "s", "type": "start"}, {"id": "r", "type": "return"}], "edges": null}`,
			want: []Node{{ID: "s", Type: "start"}, {ID: "r", Type: "return"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.raw).Nodes
			if !reflect.DeepEqual(got, tt.want) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(tt.want)
				t.Errorf("got  %s\nwant %s", gj, wj)
			}
		})
	}
}

func TestParseRejectsWhatItCannotDecode(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"not JSON", `{"formatVersion": 1,`, []string{"not valid JSON: it ends too early"}},
		{"a syntax error", `{"formatVersion": 1 "nodes": []}`, []string{"not valid JSON: invalid character '\"' after object key:value pair (at byte 21)"}},
		{"trailing data", `{"formatVersion": 1, "nodes": []} {}`, []string{"not valid JSON: unexpected data after the value"}},
		{"not an object", `[1]`, []string{"a flow definition must be an object"}},
		{"null", `null`, []string{"a flow definition must be an object"}},
		{"YAML that does not parse", quote("flow:\n  start: [\n"), []string{"not valid YAML: line 2: did not find expected node content"}},
		{"YAML holding a scalar", quote("just text"), []string{"a flow definition must be an object"}},
		{"YAML holding nothing", quote("# No start node found"), []string{"not valid YAML: the text holds no definition"}},
		{"YAML with a non-string key", quote("formatVersion: 1\nnodes: []\n1: x\n"), []string{"not valid YAML: mapping keys must be strings"}},
		{"YAML of two documents", quote("---\nformatVersion: 1\nnodes: []\n---\n---\nformatVersion: 1\nnodes: []\n"),
			[]string{"not valid YAML: the text holds more than one document (parted by ---); send one definition"}},
		{"YAML of a document and one that does not parse", quote("formatVersion: 1\nnodes: []\n---\nflow: [\n"),
			[]string{"not valid YAML: line 4: did not find expected node content"}},
		{"YAML with a key given twice", quote("formatVersion: 1\nnodes: []\nmetadata:\n  a: 1\n  b: 2\n  a: 3\n  a: 4\n"),
			[]string{`not valid YAML: line 6: mapping key "a" already defined at line 4`}},
		{"YAML with a long key given twice", quote("formatVersion: 1\nnodes: []\nmetadata:\n  " + strings.Repeat("k", 100) + ": 1\n  " + strings.Repeat("k", 100) + ": 2\n"),
			[]string{`not valid YAML: line 5: mapping key "` + strings.Repeat("k", 40) + `…" already defined at line 4`}},
		{"YAML with a mapping past the limit of keys", quote("formatVersion: 1\nnodes: []\nmetadata: {" + yamlKeys(maxYAMLKeys+1) + "}\n"),
			[]string{"not valid YAML: line 3: a mapping holds 1001 keys; the limit is 1000"}},
		{"YAML whose aliases multiply a text", quote(aliasBomb(1000, 100, 40)),
			[]string{"not valid YAML: its aliases (*name) repeat what their anchors (&name) hold into more than " +
				strconv.FormatInt(maxYAMLExpansion(len(aliasBomb(1000, 100, 40))), 10) + " bytes; write the definition with fewer of them"}},
		{"YAML with an anchor holding an alias of itself", quote("formatVersion: 1\nnodes: []\nmetadata: &m [*m]\n"),
			[]string{"not valid YAML: anchor 'm' value contains itself"}},
		{"YAML with an infinite number", quote("formatVersion: 1\nnodes:\n- {id: r, type: return, returnValue: .inf}\n"),
			[]string{"not valid YAML: infinite and NaN numbers are not allowed"}},
		{"formatVersion missing", `{"nodes": []}`, []string{"formatVersion is required"}},
		{"formatVersion null", `{"formatVersion": null, "nodes": []}`, []string{"formatVersion is required"}},
		{"formatVersion unknown", `{"formatVersion": 2, "nodes": []}`, []string{"unsupported formatVersion 2"}},
		{"formatVersion a string", `{"formatVersion": "1", "nodes": []}`, []string{"formatVersion must be an integer"}},
		{"formatVersion a fraction", `{"formatVersion": 1.5, "nodes": []}`, []string{"formatVersion must be an integer"}},
		{"nodes missing", `{"formatVersion": 1}`, []string{"nodes is required"}},
		{"every wrong member type at once", `{"formatVersion": 1, "start": 5, "nodes": [
			7,
			{"id": 1, "type": true, "name": [], "policy": "P", "policyName": 1, "onTrue": 3, "onFalse": [1], "next": {}, "outcome": 2},
			{"id": "p", "type": "policy", "policy": {"id": 1, "baseId": 2, "ref": 3}},
			{"id": "q", "type": "policy", "policy": {"ref": "A"}, "policyId": "B"}
		], "metadata": []}`, []string{
			"definition: start must be a string",
			"node at index 0 must be an object",
			"node at index 1: id must be a string",
			"node at index 1: type must be a string",
			"node at index 1: name must be a string",
			"node at index 1: policy must be an object",
			"node at index 1: policyName must be a string",
			"node at index 1: onTrue must be a node id or an array of node ids",
			"node at index 1: onFalse must be a node id or an array of node ids",
			"node at index 1: next must be a node id or an array of node ids",
			"node at index 1: outcome must be a string",
			"node at index 2: policy: id must be a string",
			"node at index 2: policy: baseId must be a string",
			"node at index 2: policy: ref must be a string",
			"node at index 3: policyId and policy.ref differ",
			"metadata must be an object",
		}},
		{"several flow.start entries", `{"flow": {"start": [{"id": "a", "type": "start"}, {"id": "b", "type": "start"}]}}`,
			[]string{"flow.start has 2 entries; a flow has exactly one start node"}},
		{"flow.start not a list", `{"flow": {"start": "s"}}`, []string{"flow.start must be a list of nodes"}},
		{"flow neither nested nor flat", `{"flow": {}}`, []string{"flow must hold start or nodes"}},
		{"flow of the wrong type", `{"flow": 1}`, []string{"flow must be an object or a string"}},
		{"nested nodes of the wrong types", `{"flow": {"start": [{"id": "s", "type": "start", "policyId": 5,
			"onTrue": [{"id": 2}, {"type": "return", "onFalse": [3]}], "onFalse": "r"}]}}`, []string{
			`node "s": policyId must be a string`,
			`node "s": onFalse must be a list of nodes`,
			`a node in onTrue of node "s": id must be a string`,
			`a node in onTrue of node "s" has no id`,
			`a node in onFalse of a node without an id must be an object`,
		}},
		// The nested form lists its nodes by nesting, not by index: a node
		// without an id is named by where it is.
		{"nested nodes without ids", quote("flow:\n  start:\n    - type: start\n      policyId: P\n" +
			"      onTrue:\n        - type: return\n          returnValue: true\n" +
			"      onFalse:\n        - id: ''\n          type: custom\n          outcome: refused\n" +
			"          next:\n            - id: ~\n              type: return\n              returnValue: false\n"), []string{
			`the node in flow.start has no id`,
			`a node in onTrue of a node without an id has no id`,
			`a node in onFalse of a node without an id has no id`,
			`a node in next of a node without an id has no id`,
		}},
		{"a nested node without an id under one with an id", `{"flow": {"start": [{"id": "s", "type": "start", "policyId": "P",
			"onTrue": [{"type": "return", "returnValue": true}], "onFalse": {"id": "f", "type": "return", "returnValue": false}}]}}`,
			[]string{`a node in onTrue of node "s" has no id`}},
		{"UI graph parts of the wrong types", `{"nodes": [1, {"id": "s", "label": 2}], "edges": [2, {"source": 1, "target": "s", "sourceHandle": "true"}]}`, []string{
			"node at index 0 of nodes must be an object",
			"node at index 1 of nodes: label must be a string",
			"edge at index 0 must be an object",
			"edge at index 1: source must be a string",
		}},
		{"UI graph edges not a list", `{"nodes": [], "edges": {}}`, []string{"edges must be an array"}},
		{"flat edges of the wrong types", `{"flow": {"nodes": [], "edges": [{"from": "a", "to": 1}]}}`,
			[]string{"edge at index 0 of flow.edges: to must be a string"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.raw))
			var de *DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("Parse = %+v, %v; want a *DefinitionError", d, err)
			}
			if !reflect.DeepEqual(de.Details, tt.want) {
				t.Errorf("details\n got %q\nwant %q", de.Details, tt.want)
			}
			if want := "invalid flow definition: " + strings.Join(tt.want, "; "); err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestMarshalWritesTheNormalizedV1Form(t *testing.T) {
	d := mustParse(t, fx8Body)
	d.Nodes[0].OnTrue = []string{"policy-1", "return-1"}
	d.Nodes[3].ReturnValue = "undefined"
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"formatVersion":1,"nodes":[` +
		`{"id":"start-1","type":"start","name":"Start","policy":{"ref":"P-AGE"},"policyName":"Age check","onTrue":["policy-1","return-1"],"onFalse":"return-2"},` +
		`{"id":"policy-1","type":"policy","name":"Policy","policy":{"ref":"P-INCOME"},"policyName":"Income check","onTrue":"return-1","onFalse":"return-2"},` +
		`{"id":"return-1","type":"return","name":"Return True","returnValue":true},` +
		`{"id":"return-2","type":"return","name":"Return False","returnValue":"undefined"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRoundTripKeepsTheDefinitionAndItsProblems(t *testing.T) {
	for _, raw := range roundTripSamples() {
		d, err := Parse([]byte(raw))
		if err != nil {
			t.Fatalf("Parse(%s): %v", raw, err)
		}
		checkRoundTrip(t, d)
	}
}

// checkRoundTrip asserts that the stored form of d parses back to d, both
// through Parse and through json.Unmarshal, with the same problems.
func checkRoundTrip(t *testing.T, d *Definition) {
	t.Helper()
	stored, err := json.Marshal(d)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := Parse(stored)
	if err != nil {
		t.Fatalf("Parse(%s): %v", stored, err)
	}
	if !reflect.DeepEqual(back, d) {
		t.Fatalf("round trip changed the definition\nstored %s\n  back %#v\n  want %#v", stored, back, d)
	}
	var viaJSON Definition
	if err := json.Unmarshal(stored, &viaJSON); err != nil || !reflect.DeepEqual(&viaJSON, d) {
		t.Fatalf("json.Unmarshal(%s) = %#v, %v", stored, viaJSON, err)
	}
	for _, stage := range []Stage{StageSave, StagePublish, StageRun} {
		if a, b := Validate(d, stage), Validate(back, stage); !reflect.DeepEqual(a, b) {
			t.Fatalf("stage %d: problems %v became %v", stage, a, b)
		}
	}
}

// roundTripSamples are definitions in every form, valid and invalid; they
// also seed FuzzParse.
func roundTripSamples() []string {
	return []string{
		quote(referenceYAML),
		fx7Body,
		fx8Body,
		quote(flatYAML),
		`{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {}, "onTrue": ["a", "b"], "next": "c", "returnValue": "no"},
			{"id": "", "type": "webhook"}, {"id": "r", "type": "return", "returnValue": 1.50, "onTrue": "s"},
			{"id": "c", "type": "custom", "outcome": "<&>"}], "metadata": {"z": {"y": [null, true, "\u00e9"]}}}`,
		`{"flow": {"start": [{"id": "s", "type": "start", "policyId": "P-AGE", "returnValue": false,
			"onTrue": [{"id": "r", "type": "return", "returnValue": true}],
			"onFalse": [{"id": "r", "type": "return", "returnValue": "undefined"}]}]}, "metadata": {"totalNodes": 2}}`,
		`{"formatVersion": 1, "start": "x", "nodes": null}`,
	}
}

// The definition takes the members of its format version only; a node's
// member that no node type has, or its policy's that no reference has, is
// ignored and reported.
func TestParseRefusesUnknownDefinitionMembersAndReportsIgnoredNodeMembers(t *testing.T) {
	_, err := Parse([]byte(`{"formatVersion": 1, "nodes": [], "zzz": 1, "aaa": 2}`))
	var de *DefinitionError
	if !errors.As(err, &de) || !reflect.DeepEqual(de.Details, []string{
		`unknown member "aaa"; a definition of format version 1 has formatVersion, start, nodes, metadata`,
		`unknown member "zzz"; a definition of format version 1 has formatVersion, start, nodes, metadata`,
	}) {
		t.Errorf("Parse: %v", err)
	}
	d, ignored, err := ParseReporting([]byte(`"formatVersion: 1\nnodes: [{id: s, type: start, policy: {id: P, zzz: 1, aaa: 2}, color: red, outcome: x}]"`))
	if err != nil || len(d.Nodes) != 1 || *d.Nodes[0].Policy != (PolicyRef{ID: "P"}) || !reflect.DeepEqual(ignored, []string{
		`node "s" has a member "color" that no node has; it is ignored and not stored`,
		`node "s" has a policy member "aaa" that no policy reference has; it is ignored and not stored`,
		`node "s" has a policy member "zzz" that no policy reference has; it is ignored and not stored`,
	}) {
		t.Errorf("ParseReporting: %+v, %q, %v", d, ignored, err)
	}
}

// yamlKeys is n keys of a YAML flow mapping, each different.
func yamlKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d: %d", i, i)
	}
	return strings.Join(keys, ", ")
}

// aliasBomb is a definition whose metadata repeats a text of size bytes
// through a list of wide aliases of it, itself aliased long times.
func aliasBomb(size, wide, long int) string {
	return "formatVersion: 1\nnodes: []\nmetadata:\n  s: &s " + strings.Repeat("a", size) +
		"\n  l1: &l1 [" + strings.TrimSuffix(strings.Repeat("*s,", wide), ",") + "]" +
		"\n  l2: [" + strings.TrimSuffix(strings.Repeat("*l1,", long), ",") + "]\n"
}

// Aliases that repeat a node or two, as a definition may use them, read as
// the node they repeat.
func TestParseReadsYAMLAliases(t *testing.T) {
	d, err := Parse([]byte(quote("formatVersion: 1\nnodes:\n- {id: s, type: start, policyId: P, onTrue: y, onFalse: n}\n" +
		"- &yes {id: y, type: return, returnValue: true}\n- {id: n, type: return, returnValue: false}\n" +
		"metadata: {owner: &o risk-team, reviewer: *o, template: *yes}\n")))
	if err != nil {
		t.Fatal(err)
	}
	var metadata struct {
		Owner, Reviewer string
		Template        map[string]any
	}
	if err := json.Unmarshal(d.Metadata, &metadata); err != nil {
		t.Fatal(err)
	}
	if metadata.Reviewer != "risk-team" || metadata.Template["id"] != "y" {
		t.Errorf("metadata %+v", metadata)
	}
}

func TestParseReadsAYAMLMappingOfAsManyKeysAsTheLimit(t *testing.T) {
	d, err := Parse([]byte(quote("formatVersion: 1\nnodes:\n- {id: s, type: start, policyId: P}\nmetadata: {" + yamlKeys(maxYAMLKeys) + "}\n")))
	if err != nil {
		t.Fatal(err)
	}
	var metadata map[string]int
	if err := json.Unmarshal(d.Metadata, &metadata); err != nil {
		t.Fatal(err)
	}
	if len(metadata) != maxYAMLKeys || metadata["k999"] != 999 {
		t.Errorf("metadata of %d keys, k999 = %d", len(metadata), metadata["k999"])
	}
}
