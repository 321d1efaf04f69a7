package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// The policies the flow tests use.
const (
	ageRule    = "A **applicant** is an adult if the __age__ of the **applicant** is at least 18."
	incomeRule = "A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000."
)

// flowWorld is Acme's team with P-AGE and P-INCOME stored and published
// B-INCOME is income.BaseID.
type flowWorld struct {
	*fixture
	as          map[string]member
	age, income service.Policy
	// storedRuns counts the runs of stored flows, each of which stores an
	// executed event a little after it answers.
	storedRuns int
}

func newFlowWorld(t *testing.T, db *database.DB) *flowWorld {
	t.Helper()
	f := newFixture(t, db, noRateLimit)
	w := &flowWorld{fixture: f, as: f.team(t)}
	w.age = w.publishedPolicy(t, "P-AGE", ageRule)
	w.income = w.publishedPolicy(t, "P-INCOME", incomeRule)
	return w
}

func (w *flowWorld) publishedPolicy(t *testing.T, name, rule string) service.Policy {
	t.Helper()
	admin := w.as["admin"]
	r := w.call(t, admin, http.MethodPost, "/policy", map[string]string{"name": name, "rule": rule})
	wantStatus(t, r, http.StatusCreated)
	draft := decodeStrict[service.SavedPolicy](t, r)
	r = w.call(t, admin, http.MethodPut, "/policy/"+draft.ID.String(), `{"status": "published"}`)
	wantStatus(t, r, http.StatusCreated)
	return decodeStrict[service.Policy](t, r)
}

// ids fills the placeholders into a definition: P-AGE, P-INCOME and
// B-INCOME.
func (w *flowWorld) ids(definition string) string {
	return strings.NewReplacer("P-AGE", w.age.ID.String(), "P-INCOME", w.income.ID.String(),
		"B-INCOME", w.income.BaseID.String()).Replace(definition)
}

// createFlow stores a definition as a new draft of the admin's.
func (w *flowWorld) createFlow(t *testing.T, definition string) service.SavedFlow {
	t.Helper()
	r := w.call(t, w.as["admin"], http.MethodPost, "/flow", `{"name": "flow", "definition": `+w.ids(definition)+`}`)
	wantStatus(t, r, http.StatusCreated)
	return decodeStrict[service.SavedFlow](t, r)
}

// flowRun is a flow run result with exactly the members docs/flows.md lists.
type flowRun struct {
	NodeID        string         `json:"nodeId"`
	NodeName      string         `json:"nodeName"`
	Result        bool           `json:"result"`
	ExecutionPath []string       `json:"executionPath"`
	FinalOutcome  bool           `json:"finalOutcome"`
	Outcome       *string        `json:"outcome"`
	Errors        []string       `json:"errors"`
	NodeResponses []nodeResponse `json:"nodeResponses"`
}

type nodeResponse struct {
	NodeID   string `json:"nodeId"`
	NodeType string `json:"nodeType"`
	Response struct {
		Result bool            `json:"result"`
		Trace  json.RawMessage `json:"trace"`
		Rule   []string        `json:"rule"`
		Data   json.RawMessage `json:"data"`
		Error  *string         `json:"error"`
		Labels json.RawMessage `json:"labels"`

		Explanation string           `json:"explanation"`
		Warnings    []engine.Warning `json:"warnings"`
	} `json:"response"`
	Execution struct {
		Database string `json:"database"`
		Engine   string `json:"engine"`
		Total    string `json:"total"`
	} `json:"execution"`
}

// decodeRun reads a flow run result strictly: every member present,
// no other, timings as strings of digits. The timings are then cleared,
// so that results of different runs compare equal.
func decodeRun(t *testing.T, w *httptest.ResponseRecorder) flowRun {
	t.Helper()
	wantStatus(t, w, http.StatusOK)
	wantMembers(t, w.Body.Bytes(), "nodeId", "nodeName", "result", "executionPath", "finalOutcome", "outcome", "errors", "nodeResponses")
	run := decodeStrict[flowRun](t, w)
	for i := range run.NodeResponses {
		e := &run.NodeResponses[i].Execution
		for _, v := range []string{e.Database, e.Engine, e.Total} {
			if !digits.MatchString(v) {
				t.Errorf("node %s: execution %+v, want strings of digits", run.NodeResponses[i].NodeID, *e)
			}
		}
		e.Database, e.Engine, e.Total = "", "", ""
	}
	return run
}

func wantMembers(t *testing.T, body []byte, names ...string) {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		t.Fatalf("%s is not an object: %v", body, err)
	}
	var got []string
	for name := range members {
		got = append(got, name)
	}
	sort.Strings(got)
	want := slices.Clone(names)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("members %v, want %v", got, want)
	}
}

// runEverywhere runs a definition on data through POST /flow/test, and
// stored as a draft through both run routes; the three answers must agree
// but for their timings.
func (w *flowWorld) runEverywhere(t *testing.T, definition, data string) flowRun {
	t.Helper()
	admin := w.as["admin"]
	tested := decodeRun(t, w.call(t, admin, http.MethodPost, "/flow/test", `{"definition": `+w.ids(definition)+`, "data": `+data+`}`))
	fl := w.createFlow(t, definition)
	for _, path := range []string{"/run/flow/" + fl.BaseID.String(), "/run/flow_version/" + fl.ID.String()} {
		w.storedRuns++
		if stored := decodeRun(t, w.call(t, admin, http.MethodPost, path, data)); !reflect.DeepEqual(stored, tested) {
			t.Errorf("POST %s answered\n%+v\nPOST /flow/test\n%+v", path, stored, tested)
		}
	}
	return tested
}

// errorWithDetails is the error shape of an invalid flow definition.
type errorWithDetails struct {
	Error struct {
		Code    service.Code `json:"code"`
		Message string       `json:"message"`
		Details []string     `json:"details"`
	} `json:"error"`
}

// wantDetails checks an invalid-definition answer and returns its details.
func wantDetails(t *testing.T, w *httptest.ResponseRecorder) []string {
	t.Helper()
	if w.Code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400; body %s", w.Code, w.Body)
	}
	body := decodeStrict[errorWithDetails](t, w)
	if body.Error.Code != service.CodeInvalidArgument || body.Error.Message != "invalid flow definition" || len(body.Error.Details) == 0 {
		t.Fatalf("error %s, want invalid_argument \"invalid flow definition\" with details", w.Body)
	}
	return body.Error.Details
}

func compact(t *testing.T, raw string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// fx2 chains P-AGE, then B-INCOME, to a return or a custom node (the flow of
// docs/flows.md).
const fx2 = `{"formatVersion": 1, "nodes": [
	{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "p", "onFalse": "no"},
	{"id": "p", "type": "policy", "policy": {"baseId": "B-INCOME"}, "onTrue": "yes", "onFalse": "review"},
	{"id": "yes", "type": "return", "returnValue": true},
	{"id": "review", "type": "custom", "outcome": "manual review"},
	{"id": "no", "type": "return", "returnValue": false}]}`

func TestTheWorkedFlowExamples(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]

		t.Run("FX 1 a minimal flow", func(t *testing.T) {
			const fx1 = `{"formatVersion": 1, "nodes": [
				{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "t", "onFalse": "f"},
				{"id": "t", "type": "return", "returnValue": true},
				{"id": "f", "type": "return", "returnValue": false}]}`
			for data, want := range map[string]bool{`{"applicant": {"age": 20}}`: true, `{"applicant": {"age": 16}}`: false} {
				run := w.runEverywhere(t, fx1, data)
				if run.Result != want || run.FinalOutcome != want || run.Outcome != nil || len(run.ExecutionPath) != 0 || len(run.Errors) != 0 ||
					run.NodeID != "s" || run.NodeName != "Start" || len(run.NodeResponses) != 1 {
					t.Fatalf("%s: %+v", data, run)
				}
				s := run.NodeResponses[0]
				if s.NodeID != "s" || s.NodeType != "start" || s.Response.Result != want || !reflect.DeepEqual(s.Response.Rule, []string{ageRule}) ||
					string(s.Response.Data) != compact(t, data) || s.Response.Error != nil || !strings.Contains(string(s.Response.Trace), `"execution"`) {
					t.Errorf("%s: start entry %+v", data, s)
				}
			}
		})

		t.Run("FX 2 chained policies", func(t *testing.T) {
			run := w.runEverywhere(t, fx2, `{"applicant": {"age": 30, "income": 45000}}`)
			if !run.Result || !run.FinalOutcome || run.Outcome != nil || !reflect.DeepEqual(run.ExecutionPath, []string{"p"}) ||
				len(run.NodeResponses) != 2 || run.NodeResponses[1].NodeType != "policy" || !reflect.DeepEqual(run.NodeResponses[1].Response.Rule, []string{incomeRule}) {
				t.Errorf("enough income: %+v", run)
			}
			run = w.runEverywhere(t, fx2, `{"applicant": {"age": 30, "income": 20000}}`)
			if !run.Result || !run.FinalOutcome || run.Outcome == nil || *run.Outcome != "manual review" ||
				!reflect.DeepEqual(run.ExecutionPath, []string{"p", "review"}) || len(run.NodeResponses) != 3 {
				t.Fatalf("too little income: %+v", run)
			}
			if review := run.NodeResponses[2]; review.NodeID != "review" || review.NodeType != "custom" || !review.Response.Result ||
				!reflect.DeepEqual(review.Response.Rule, []string{"Custom response: manual review"}) ||
				compact(t, string(review.Response.Trace)) != `{"execution":[{"selector":{"value":"custom_response"},"outcome":{"value":"manual review"},"conditions":[],"result":true}]}` {
				t.Errorf("custom entry %+v, trace %s", review, review.Response.Trace)
			}
			run = w.runEverywhere(t, fx2, `{"applicant": {"age": 15, "income": 90000}}`)
			if run.Result || run.FinalOutcome || len(run.ExecutionPath) != 0 || len(run.NodeResponses) != 1 {
				t.Errorf("a minor: %+v", run)
			}
		})

		t.Run("FX 3 a start node without branches", func(t *testing.T) {
			const fx3 = `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`
			run := w.runEverywhere(t, fx3, `{"applicant": {"age": 20}}`)
			if !run.Result || len(run.ExecutionPath) != 0 || len(run.NodeResponses) != 1 {
				t.Errorf("run: %+v", run)
			}
			fl := w.createFlow(t, fx3)
			want := []string{`start node "s" is missing a TRUE path`, `start node "s" is missing a FALSE path`}
			if len(fl.Validation.Errors) != 0 || !reflect.DeepEqual(fl.Validation.Warnings, want) {
				t.Errorf("validation %+v", fl.Validation)
			}
			wantStatus(t, w.call(t, admin, http.MethodPut, "/flow/"+fl.ID.String(), `{"status": "published"}`), http.StatusCreated)
		})

		t.Run("FX 4 a policy error stops the flow", func(t *testing.T) {
			run := w.runEverywhere(t, fx2, `{"applicant": {"age": 30}}`)
			const missing = "Missing property: property 'income' not found at $.applicant"
			if run.Result || run.FinalOutcome || run.Outcome != nil || !reflect.DeepEqual(run.ExecutionPath, []string{"p"}) ||
				!reflect.DeepEqual(run.Errors, []string{`node "p": ` + missing}) || len(run.NodeResponses) != 2 {
				t.Fatalf("run: %+v", run)
			}
			if p := run.NodeResponses[1].Response; p.Result || p.Error == nil || *p.Error != missing {
				t.Errorf("p's response %+v", p)
			}
			if !strings.Contains(w.call(t, admin, http.MethodPost, "/flow/test", `{"definition": `+w.ids(fx2)+`, "data": {"applicant": {"age": 30}}}`).Body.String(), `"outcome":null`) {
				t.Error("outcome is not null in the body")
			}
		})

		t.Run("FX 5 an unresolvable policy", func(t *testing.T) {
			const zero = "00000000-0000-0000-0000-000000000000"
			fx5 := strings.Replace(fx2, `{"baseId": "B-INCOME"}`, `{"id": "`+zero+`"}`, 1)
			run := w.runEverywhere(t, fx5, `{"applicant": {"age": 30}}`)
			msg := `policy "` + zero + `" referenced by node "p" not found`
			if run.Result || run.FinalOutcome || !reflect.DeepEqual(run.ExecutionPath, []string{"p"}) ||
				!reflect.DeepEqual(run.Errors, []string{msg}) || len(run.NodeResponses) != 2 {
				t.Fatalf("run: %+v", run)
			}
			p := run.NodeResponses[1]
			if p.NodeID != "p" || p.Response.Result || string(p.Response.Trace) != "null" || p.Response.Rule == nil || len(p.Response.Rule) != 0 ||
				p.Response.Error == nil || *p.Response.Error != msg || string(p.Response.Data) != `{"applicant":{"age":30}}` || string(p.Response.Labels) != "null" {
				t.Errorf("p's entry %+v", p)
			}
		})

		t.Run("FX 6 invalid definitions", func(t *testing.T) {
			for _, tc := range []struct {
				name, definition string
				want             func(details []string) bool
			}{
				{"an unknown node type", `{"formatVersion": 1, "nodes": [
					{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "w", "onFalse": "f"},
					{"id": "w", "type": "webhook"}, {"id": "f", "type": "return", "returnValue": false}]}`,
					func(d []string) bool { return reflect.DeepEqual(d, []string{`unknown node type: webhook (node "w")`}) }},
				{"a cycle", `{"formatVersion": 1, "nodes": [
					{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "a"},
					{"id": "a", "type": "policy", "policy": {"id": "P-AGE"}, "onTrue": "b"},
					{"id": "b", "type": "policy", "policy": {"id": "P-AGE"}, "onFalse": "a"}]}`,
					func(d []string) bool {
						return slices.Contains(d, `Circular reference detected involving node "a"`) || slices.Contains(d, `Circular reference detected involving node "b"`)
					}},
				{"a policy node without a policy", `{"formatVersion": 1, "nodes": [
					{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "p"},
					{"id": "p", "type": "policy", "onTrue": "t"}, {"id": "t", "type": "return", "returnValue": true}]}`,
					func(d []string) bool { return reflect.DeepEqual(d, []string{`policy node "p" must have a Policy ID`}) }},
			} {
				t.Run(tc.name, func(t *testing.T) {
					waitForExecuted(t, db, w.storedRuns)
					before := rowCounts(t, db)
					details := wantDetails(t, w.call(t, admin, http.MethodPost, "/flow/test", `{"definition": `+w.ids(tc.definition)+`, "data": {"applicant": {"age": 30}}}`))
					if !tc.want(details) {
						t.Errorf("details %q", details)
					}
					if after := rowCounts(t, db); !equalCounts(before, after) {
						t.Errorf("rows changed from %v to %v", before, after)
					}
				})
			}
			orphan := strings.Replace(fx2, `{"id": "no"`, `{"id": "orphan", "type": "return", "returnValue": true}, {"id": "no"`, 1)
			if run := w.runEverywhere(t, orphan, `{"applicant": {"age": 30, "income": 45000}}`); !run.Result || len(run.Errors) != 0 {
				t.Errorf("a flow with an orphan node: %+v", run)
			}
		})

		t.Run("FX 7 legacy YAML", func(t *testing.T) {
			yaml := "flow:\n  start:\n    - id: start-1\n      type: start\n      policyId: P-AGE\n      policyName: \"Age check\"\n" +
				"      onTrue:\n        - id: return-1718000000001\n          type: return\n          returnValue: true\n" +
				"      onFalse:\n        - id: return-1718000000002\n          type: return\n          returnValue: false\n\n" +
				"metadata:\n  totalNodes: 3\n  totalEdges: 2\n  timestamp: 2025-06-17T22:42:27.457Z\n"
			text, err := json.Marshal(w.ids(yaml))
			if err != nil {
				t.Fatal(err)
			}
			run := decodeRun(t, w.call(t, admin, http.MethodPost, "/flow/test", `{"data": {"applicant": {"age": 20}}, "flow": `+string(text)+`}`))
			if !run.Result || !run.FinalOutcome || run.NodeID != "start-1" || run.NodeName != "Start" || len(run.ExecutionPath) != 0 ||
				len(run.NodeResponses) != 1 || !reflect.DeepEqual(run.NodeResponses[0].Response.Rule, []string{ageRule}) {
				t.Errorf("run: %+v", run)
			}
		})

		t.Run("FX 8 a UI graph", func(t *testing.T) {
			graph := w.ids(`"nodes": [
				{"id": "start-1", "type": "start", "label": "Start", "position": {"x": 0, "y": 0}, "policyId": "P-AGE", "data": null},
				{"id": "policy-1", "type": "policy", "label": "Policy", "position": {"x": 0, "y": 100}, "policyId": "P-INCOME", "data": null},
				{"id": "return-1", "type": "return", "label": "Return True", "position": {"x": 0, "y": 200}, "returnValue": true, "data": null},
				{"id": "return-2", "type": "return", "label": "Return False", "position": {"x": 100, "y": 200}, "returnValue": false, "data": null}],
				"edges": [
				{"id": "edge-start-1-policy-1", "source": "start-1", "target": "policy-1", "sourceHandle": "true", "label": "True"},
				{"id": "edge-start-1-return-2", "source": "start-1", "target": "return-2", "sourceHandle": "false", "label": "False"},
				{"id": "edge-policy-1-return-1", "source": "policy-1", "target": "return-1", "sourceHandle": "true", "label": "True"},
				{"id": "edge-policy-1-return-2", "source": "policy-1", "target": "return-2", "sourceHandle": "false", "label": "False"}]`)
			for _, tc := range []struct {
				data string
				want bool
				path []string
			}{
				{`{"applicant": {"age": 16}}`, false, []string{}},
				{`{"applicant": {"age": 30, "income": 20000}}`, false, []string{"policy-1"}},
				{`{"applicant": {"age": 30, "income": 45000}}`, true, []string{"policy-1"}},
			} {
				run := decodeRun(t, w.call(t, admin, http.MethodPost, "/flow/test", `{"testData": `+tc.data+`, `+graph+`}`))
				if run.Result != tc.want || run.FinalOutcome != tc.want || !reflect.DeepEqual(run.ExecutionPath, tc.path) ||
					run.NodeID != "start-1" || run.NodeName != "Start" || len(run.Errors) != 0 {
					t.Errorf("%s: %+v", tc.data, run)
				}
			}
		})
	})
}

// validationRow is a validation problem with a definition that has it,
// and what each stage does with that definition.
type validationRow struct {
	name       string
	definition string // a JSON value: an object, or a string of YAML
	problem    string // the message, or its beginning when it ends in "..."
	// save: "reject" (400), "error" or "warning" (200, reported as such).
	// publish: "reject" (400), "not found" (404), "publishes" (201).
	// test: "reject" (400), "node error" (200, in errors), "runs" (200).
	save, publish, test string
}

// nodes makes a v1 definition of node objects.
func nodes(list ...string) string {
	return `{"formatVersion": 1, "nodes": [` + strings.Join(list, ", ") + `]}`
}

const (
	yes = `{"id": "yes", "type": "return", "returnValue": true}`
	no  = `{"id": "no", "type": "return", "returnValue": false}`
	// start branches on P-AGE to yes and no.
	start = `{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "yes", "onFalse": "no"}`
)

var validationRows = []validationRow{
	{"YAML that does not parse", `"flow: [unclosed"`, "not valid YAML: ...", "reject", "reject", "reject"},
	{"no formatVersion", `{"nodes": [` + start + `, ` + yes + `, ` + no + `]}`, "formatVersion is required", "reject", "reject", "reject"},
	{"an unknown formatVersion", `{"formatVersion": 2, "nodes": [` + start + `]}`, "unsupported formatVersion 2", "reject", "reject", "reject"},
	{"a member of the wrong type", nodes(`{"id": 7, "type": "return", "returnValue": true}`), "node at index 0: id must be a string", "reject", "reject", "reject"},
	{"no start node", nodes(`{"id": "p", "type": "policy", "policy": {"id": "P-AGE"}, "onTrue": "yes", "onFalse": "no"}`, yes, no),
		"No start node found in the flow", "error", "reject", "reject"},
	{"two start nodes", nodes(start, `{"id": "s2", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "yes", "onFalse": "no"}`, yes, no),
		"Flow must have exactly one start node", "error", "reject", "reject"},
	{"start naming a node that is not a start node", `{"formatVersion": 1, "start": "yes", "nodes": [` + start + `, ` + yes + `, ` + no + `]}`,
		"start must reference a start node", "error", "reject", "reject"},
	{"a duplicate id", nodes(start, yes, no, `{"id": "yes", "type": "return", "returnValue": false}`), `Duplicate node id "yes"`, "error", "reject", "reject"},
	{"an empty id", nodes(start, yes, no, `{"type": "return", "returnValue": false}`), "Node at index 3 has no id", "error", "reject", "reject"},
	{"an unknown node type", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "w", "onFalse": "no"}`, `{"id": "w", "type": "webhook"}`, no),
		`unknown node type: webhook (node "w")`, "error", "reject", "reject"},
	{"a branch to a missing node", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "ghost", "onFalse": "no"}`, no),
		`Referenced node "ghost" not found`, "error", "reject", "reject"},
	{"a branch to the start node", nodes(start, `{"id": "p", "type": "policy", "policy": {"id": "P-AGE"}, "onTrue": "s", "onFalse": "no"}`, yes, no),
		`Node "s" cannot be a branch target`, "error", "reject", "reject"},
	{"a return node with branches", nodes(start, `{"id": "yes", "type": "return", "returnValue": true, "onTrue": "no"}`, no),
		`return node "yes" cannot have branches`, "error", "reject", "reject"},
	{"a cycle", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "a", "onFalse": "no"}`,
		`{"id": "a", "type": "policy", "policy": {"id": "P-AGE"}, "onTrue": "b", "onFalse": "no"}`,
		`{"id": "b", "type": "policy", "policy": {"id": "P-AGE"}, "onTrue": "yes", "onFalse": "a"}`, yes, no),
		"Circular reference detected involving node ...", "error", "reject", "reject"},
	{"a policy node without a policy", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "p", "onFalse": "no"}`,
		`{"id": "p", "type": "policy", "onTrue": "yes", "onFalse": "no"}`, yes, no),
		`policy node "p" must have a Policy ID`, "error", "reject", "reject"},
	{"a return node without a boolean", nodes(start, `{"id": "yes", "type": "return", "returnValue": "undefined"}`, no),
		`return node "yes" must have a boolean returnValue`, "error", "reject", "reject"},
	{"a custom node without an outcome", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "c", "onFalse": "no"}`, `{"id": "c", "type": "custom"}`, no),
		`custom node "c" must have an outcome`, "error", "reject", "reject"},
	{"an unreachable node", nodes(start, yes, no, `{"id": "orphan", "type": "return", "returnValue": true}`),
		`Node "orphan" is not connected to the flow`, "error", "reject", "runs"},
	{"a missing FALSE branch", nodes(`{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "yes"}`, yes),
		`start node "s" is missing a FALSE path`, "warning", "publishes", "runs"},
	{"a policy that does not resolve", nodes(`{"id": "s", "type": "start", "policy": {"baseId": "01900000-0000-7000-8000-000000000000"}, "onTrue": "yes", "onFalse": "no"}`, yes, no),
		`policy "01900000-0000-7000-8000-000000000000" referenced by node "s" not found`, "warning", "not found", "node error"},
}

// in says whether list holds the row's problem.
func (row validationRow) in(list []string) bool {
	prefix, isPrefix := strings.CutSuffix(row.problem, "...")
	for _, p := range list {
		if p == row.problem || isPrefix && strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

func TestEveryValidationRowAtEveryStage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		for _, row := range validationRows {
			t.Run(row.name, func(t *testing.T) {
				definition := w.ids(row.definition)
				member := "definition"
				if strings.HasPrefix(definition, `"`) {
					member = "flow" // a text definition; /flow/test takes objects as definition
				}
				r := w.call(t, admin, http.MethodPost, "/flow/test", `{"`+member+`": `+definition+`, "data": {"applicant": {"age": 20}}}`)
				switch row.test {
				case "reject":
					if details := wantDetails(t, r); !row.in(details) {
						t.Errorf("test: details %q", details)
					}
				case "runs":
					if run := decodeRun(t, r); !run.Result || len(run.Errors) != 0 {
						t.Errorf("test: %+v", run)
					}
				case "node error":
					if run := decodeRun(t, r); run.Result || !row.in(run.Errors) {
						t.Errorf("test: %+v", run)
					}
				}

				fl := w.createFlow(t, nodes(start, yes, no))
				path := "/flow/" + fl.ID.String()
				r = w.call(t, admin, http.MethodPut, path, `{"status": "draft", "definition": `+definition+`}`)
				switch row.save {
				case "reject":
					if details := wantDetails(t, r); !row.in(details) {
						t.Errorf("save: details %q", details)
					}
				default:
					wantStatus(t, r, http.StatusOK)
					saved := decodeStrict[service.SavedFlow](t, r)
					list := saved.Validation.Errors
					if row.save == "warning" {
						list = saved.Validation.Warnings
					}
					if !row.in(list) {
						t.Errorf("save: validation %+v, want the problem among the %ss", saved.Validation, row.save)
					}
				}

				before := storedRecord(t, db, fl.ID)
				r = w.call(t, admin, http.MethodPut, path, `{"status": "published", "definition": `+definition+`}`)
				switch row.publish {
				case "reject":
					if details := wantDetails(t, r); !row.in(details) {
						t.Errorf("publish: details %q", details)
					}
				case "not found":
					wantError(t, r, http.StatusNotFound, service.CodeNotFound)
					if msg := decodeStrict[errorBody](t, r).Error.Message; msg != row.problem {
						t.Errorf("publish: message %q", msg)
					}
				case "publishes":
					wantStatus(t, r, http.StatusCreated)
					return
				}
				if after := storedRecord(t, db, fl.ID); after != before {
					t.Errorf("a refused publish changed the record from %+v to %+v", before, after)
				}
			})
		}
	})
}

func TestTheFlowLifecycleOverREST(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		editor, publisher, viewer, admin := w.as["editor"], w.as["publisher"], w.as["viewer"], w.as["admin"]
		definition := w.ids(fx2)

		r := w.call(t, publisher, http.MethodPost, "/flow", `{"name": "Loan", "definition": `+definition+`,
			"tests": [{"name": "rich adult", "data": {"applicant": {"age": 30, "income": 45000}}, "expect": true},
			          {"name": "poor adult", "data": {"applicant": {"age": 30, "income": 100}}, "expect": "manual review"}]}`)
		wantStatus(t, r, http.StatusCreated)
		wantMembers(t, r.Body.Bytes(), "id", "baseId", "name", "description", "definition", "tests", "status", "version", "owner",
			"createdBy", "createdAt", "updatedAt", "publishedAt", "revision", "validation")
		created := decodeStrict[service.SavedFlow](t, r)
		if created.Status != "draft" || created.Version != nil || created.Owner != (service.Owner{Kind: authz.OwnerUser, ID: publisher.id}) ||
			created.CreatedBy != publisher.id || len(created.Tests) != 2 || created.PublishedAt != nil ||
			created.Validation.Errors == nil || len(created.Validation.Errors) != 0 || created.Validation.Warnings == nil || len(created.Validation.Warnings) != 0 ||
			!strings.HasPrefix(string(created.Definition), `{"formatVersion":1,"nodes":[{"id":"s","type":"start","policy":{"id":"`) {
			t.Fatalf("created %s", r.Body)
		}
		if rec := storedRecord(t, db, created.ID); rec.Status != record.StatusDraft || rec.Revision != 1 {
			t.Fatalf("stored after create: %+v", rec)
		}

		// Before any version, a run by base runs the draft.
		if run := decodeRun(t, w.call(t, viewer, http.MethodPost, "/run/flow/"+created.BaseID.String(), `{"applicant": {"age": 30, "income": 45000}}`)); !run.Result {
			t.Errorf("run of the draft: %+v", run)
		}
		r = w.call(t, publisher, http.MethodPut, "/flow/"+created.ID.String(), `{"status": "draft", "description": "loans"}`)
		wantStatus(t, r, http.StatusOK)
		if edited := decodeStrict[service.SavedFlow](t, r); edited.Revision != 2 || edited.Description != "loans" || string(edited.Definition) != string(created.Definition) {
			t.Fatalf("edited %s", r.Body)
		}
		wantError(t, w.call(t, editor, http.MethodPut, "/flow/"+created.ID.String(), `{"status": "draft", "name": "mine"}`), http.StatusForbidden, service.CodePermissionDenied)
		wantError(t, w.call(t, editor, http.MethodPut, "/flow/"+created.ID.String(), `{"status": "published"}`), http.StatusForbidden, service.CodePermissionDenied)
		if w.listedFlow(t, viewer, created.BaseID) || !w.listedFlow(t, publisher, created.BaseID) {
			t.Error("a never-published flow must be listed to its creator only")
		}

		r = w.call(t, publisher, http.MethodPut, "/flow/"+created.ID.String(), `{"status": "published"}`)
		wantStatus(t, r, http.StatusCreated)
		wantMembers(t, r.Body.Bytes(), "id", "baseId", "name", "description", "definition", "tests", "status", "version", "owner",
			"createdBy", "createdAt", "updatedAt", "publishedAt", "revision")
		v1 := decodeStrict[service.Flow](t, r)
		if v1.ID != created.ID || v1.Status != "published" || v1.Version == nil || *v1.Version != 1 ||
			v1.Owner != (service.Owner{Kind: authz.OwnerOrganization, ID: w.acme.Organization.ID}) || v1.PublishedAt == nil {
			t.Fatalf("version 1: %s", r.Body)
		}
		if !w.listedFlow(t, viewer, created.BaseID) {
			t.Error("a published flow is not listed to the organization")
		}
		for _, body := range []string{`{"status": "draft", "name": "x"}`, `{"status": "published"}`} {
			wantError(t, w.call(t, publisher, http.MethodPut, "/flow/"+v1.ID.String(), body), http.StatusConflict, service.CodeConflict)
		}

		// HEAD makes no draft: the GET after it makes the first.
		r = w.call(t, editor, http.MethodHead, "/flow/"+created.BaseID.String()+"/draft", nil)
		if r.Code != http.StatusMethodNotAllowed || r.Header().Get("Allow") != "GET" {
			t.Fatalf("HEAD on /draft: %d, Allow %q", r.Code, r.Header().Get("Allow"))
		}
		r = w.call(t, editor, http.MethodGet, "/flow/"+created.BaseID.String()+"/draft", nil)
		wantStatus(t, r, http.StatusCreated)
		draft := decodeStrict[service.Flow](t, r)
		wantError(t, w.call(t, editor, http.MethodGet, "/flow/"+created.BaseID.String()+"/draft", nil), http.StatusConflict, service.CodeConflict)
		wantError(t, w.call(t, editor, http.MethodGet, "/flow/"+created.BaseID.String()+"/draft?replace=maybe", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		r = w.call(t, editor, http.MethodGet, "/flow/"+created.BaseID.String()+"/draft?replace=true", nil)
		wantStatus(t, r, http.StatusCreated)
		if again := decodeStrict[service.Flow](t, r); again.ID != draft.ID {
			t.Fatalf("replacing the draft made %s, want %s", again.ID, draft.ID)
		}
		// Version 2 drops the manual review: too little income is a no.
		v2def := strings.Replace(definition, `"onFalse": "review"`, `"onFalse": "no"`, 1)
		v2def = strings.Replace(v2def, `{"id": "review", "type": "custom", "outcome": "manual review"},`, "", 1)
		wantError(t, w.call(t, publisher, http.MethodPut, "/flow/"+draft.ID.String(), `{"status": "published", "definition": `+v2def+`}`),
			http.StatusConflict, service.CodeConflict) // its stored test still expects the review
		r = w.call(t, publisher, http.MethodPut, "/flow/"+draft.ID.String(), `{"status": "published", "definition": `+v2def+`,
			"tests": [{"name": "poor adult", "data": {"applicant": {"age": 30, "income": 100}}, "expect": false}]}`)
		wantStatus(t, r, http.StatusCreated)

		r = w.call(t, viewer, http.MethodGet, "/flow/"+created.BaseID.String()+"/versions", nil)
		wantStatus(t, r, http.StatusOK)
		hist := decodeStrict[service.FlowVersions](t, r)
		if hist.BaseID != created.BaseID || hist.Draft != nil || len(hist.Versions) != 2 || *hist.Versions[0].Version != 2 || *hist.Versions[1].Version != 1 {
			t.Fatalf("versions %s", r.Body)
		}
		r = w.call(t, viewer, http.MethodGet, "/flow/"+v1.ID.String(), nil)
		wantStatus(t, r, http.StatusOK)
		if got := decodeStrict[service.Flow](t, r); string(got.Definition) != string(created.Definition) || *got.Version != 1 {
			t.Errorf("GET version 1: %s", r.Body)
		}

		poor := `{"applicant": {"age": 30, "income": 100}}`
		if run := decodeRun(t, w.call(t, viewer, http.MethodPost, "/run/flow/"+created.BaseID.String(), poor)); run.Result || run.Outcome != nil {
			t.Errorf("the latest version: %+v", run)
		}
		if run := decodeRun(t, w.call(t, viewer, http.MethodPost, "/run/flow_version/"+v1.ID.String(), poor)); !run.Result || run.Outcome == nil {
			t.Errorf("version 1: %+v", run)
		}
		waitForExecuted(t, db, 3)

		wantError(t, w.call(t, editor, http.MethodDelete, "/flow/"+created.BaseID.String(), nil), http.StatusForbidden, service.CodePermissionDenied)
		r = w.call(t, admin, http.MethodDelete, "/flow/"+v1.ID.String(), nil)
		wantStatus(t, r, http.StatusNoContent)
		if r.Body.Len() != 0 {
			t.Errorf("a 204 with a body: %s", r.Body)
		}
		if w.listedFlow(t, admin, created.BaseID) {
			t.Error("a deleted flow is still listed")
		}
		for _, tc := range []struct{ method, path, body string }{
			{http.MethodGet, "/flow/" + created.BaseID.String(), ""},
			{http.MethodGet, "/flow/" + v1.ID.String(), ""},
			{http.MethodGet, "/flow/" + created.BaseID.String() + "/versions", ""},
			{http.MethodGet, "/flow/" + created.BaseID.String() + "/draft", ""},
			{http.MethodPut, "/flow/" + created.BaseID.String(), `{"status": "draft", "name": "x"}`},
			{http.MethodPost, "/run/flow/" + created.BaseID.String(), `{}`},
			{http.MethodPost, "/run/flow_version/" + v1.ID.String(), `{}`},
			// Each id where the other kind goes.
			{http.MethodPost, "/run/flow/" + v1.ID.String(), `{}`},
			{http.MethodPost, "/run/flow_version/" + created.BaseID.String(), `{}`},
			{http.MethodDelete, "/flow/" + created.BaseID.String(), ""},
		} {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			wantError(t, w.call(t, admin, tc.method, tc.path, body), http.StatusGone, service.CodeDeleted)
		}

		var actions []string
		for _, ev := range audittest.Events(t, db, audittest.Filter{Base: &created.BaseID}) {
			actions = append(actions, string(ev.Action))
			if ev.Kind != auditevent.KindFlow {
				t.Errorf("%s event of kind %s", ev.Action, ev.Kind)
			}
		}
		if got := strings.Join(actions, ","); got != "created,executed,edited,published,edited,edited,published,executed,executed,deleted" {
			t.Errorf("audit %s", got)
		}
	})
}

func (w *flowWorld) listedFlow(t *testing.T, m member, baseID uuid.UUID) bool {
	t.Helper()
	r := w.call(t, m, http.MethodGet, "/flows?limit=200", nil)
	wantStatus(t, r, http.StatusOK)
	for _, s := range decodeStrict[service.Page[service.FlowSummary]](t, r).Items {
		if s.BaseID == baseID {
			return true
		}
	}
	return false
}

func TestFlowListsPageAndFilter(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		for _, name := range []string{"alpha", "beta", "alphabet"} {
			wantStatus(t, w.call(t, admin, http.MethodPost, "/flow", `{"name": "`+name+`", "definition": `+w.ids(nodes(start, yes, no))+`}`), http.StatusCreated)
		}
		var names []string
		for cursor, pages := "", 0; pages < 5; pages++ {
			r := w.call(t, admin, http.MethodGet, "/flows?limit=2&cursor="+cursor, nil)
			wantStatus(t, r, http.StatusOK)
			page := decodeStrict[service.Page[service.FlowSummary]](t, r)
			for _, s := range page.Items {
				names = append(names, s.Name)
				if !s.HasDraft || s.DraftID == nil || s.LatestVersion != nil || s.Owner.Kind != authz.OwnerUser {
					t.Errorf("summary %+v", s)
				}
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		if strings.Join(names, ",") != "alphabet,beta,alpha" {
			t.Errorf("pages gave %v; policies must not be listed", names)
		}
		r := w.call(t, admin, http.MethodGet, "/flows?q=ALPHA", nil)
		wantStatus(t, r, http.StatusOK)
		if page := decodeStrict[service.Page[service.FlowSummary]](t, r); len(page.Items) != 2 {
			t.Errorf("q=ALPHA gave %s", r.Body)
		}
		wantError(t, w.call(t, admin, http.MethodGet, "/flows?groupId="+uuid.Must(uuid.NewV7()).String(), nil), http.StatusNotFound, service.CodeNotFound)
		wantError(t, w.call(t, admin, http.MethodGet, "/flows?limit=0", nil), http.StatusBadRequest, service.CodeInvalidArgument)
		wantError(t, w.call(t, admin, http.MethodGet, "/flows?cursor=nonsense", nil), http.StatusBadRequest, service.CodeInvalidArgument)
	})
}

func TestFlowRequestsAcrossTenantsAndRoles(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		fl := w.createFlow(t, nodes(start, yes, no))
		other, viewer := w.as["other tenant"], w.as["viewer"]
		for _, id := range []uuid.UUID{fl.ID, fl.BaseID} {
			for _, tc := range []struct{ method, path, body string }{
				{http.MethodGet, "/flow/" + id.String(), ""},
				{http.MethodGet, "/flow/" + id.String() + "/versions", ""},
				{http.MethodGet, "/flow/" + id.String() + "/draft", ""},
				{http.MethodPut, "/flow/" + id.String(), `{"status": "draft", "name": "taken"}`},
				{http.MethodPut, "/flow/" + id.String(), `{"status": "published"}`},
				{http.MethodDelete, "/flow/" + id.String(), ""},
				{http.MethodPost, "/run/flow/" + id.String(), `{"applicant": {"age": 20}}`},
				{http.MethodPost, "/run/flow_version/" + id.String(), `{"applicant": {"age": 20}}`},
			} {
				var body any
				if tc.body != "" {
					body = tc.body
				}
				wantError(t, w.call(t, other, tc.method, tc.path, body), http.StatusNotFound, service.CodeNotFound)
			}
		}
		// The other tenant's ad hoc test cannot reach Acme's policy either.
		r := w.call(t, other, http.MethodPost, "/flow/test", `{"definition": `+w.ids(nodes(start, yes, no))+`, "data": {"applicant": {"age": 20}}}`)
		if run := decodeRun(t, r); run.Result || len(run.Errors) != 1 || !strings.HasSuffix(run.Errors[0], `referenced by node "s" not found`) {
			t.Errorf("another tenant's test: %+v", run)
		}
		refused := w.call(t, viewer, http.MethodPost, "/flow/test", `{"definition": `+w.ids(nodes(start, yes, no))+`, "data": {}}`)
		const notToTest = "testing a flow takes the permission to create one: not allowed to create (role_forbids_action)"
		if got := decodeStrict[errorWithDetails](t, refused).Error.Message; refused.Code != http.StatusForbidden || got != notToTest {
			t.Errorf("a viewer's test: %d %q, want 403 %q", refused.Code, got, notToTest)
		}
		wantError(t, w.call(t, viewer, http.MethodPost, "/flow", `{"name": "x", "definition": `+w.ids(nodes(start, yes, no))+`}`),
			http.StatusForbidden, service.CodePermissionDenied)
		// What is wrong with a definition is told to those who may save
		// it: a viewer's invalid one, new or an edit, is refused as the
		// viewer's, before it is read.
		for _, definition := range []string{`"formatVersion: 1\nnodes: []\nmetadata: {a: 1, a: 2}\n"`, `{"formatVersion": 7}`} {
			wantError(t, w.call(t, viewer, http.MethodPost, "/flow", `{"name": "x", "definition": `+definition+`}`),
				http.StatusForbidden, service.CodePermissionDenied)
			wantError(t, w.call(t, viewer, http.MethodPut, "/flow/"+fl.ID.String(), `{"status": "draft", "definition": `+definition+`}`),
				http.StatusForbidden, service.CodePermissionDenied)
			wantDetails(t, w.call(t, w.as["editor"], http.MethodPost, "/flow", `{"name": "x", "definition": `+definition+`}`))
		}
		if run := decodeRun(t, w.call(t, viewer, http.MethodPost, "/run/flow_version/"+fl.ID.String(), `{"applicant": {"age": 20}}`)); !run.Result {
			t.Errorf("a viewer runs the flow: %+v", run)
		}
	})
}

// A definition's members are those of its format version: an unknown one
// is refused by name; a node's unknown member, which the format lets a
// node carry, is dropped with a warning. A policy reference that is not
// an id, and an outcome longer than a name, are refused when sent, saved
// or tested.
func TestADefinitionSentIsHeldToItsFormat(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.as["admin"]
		outcome := func(n int) string {
			return `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}, "onTrue": "c", "onFalse": "c"},
				{"id": "c", "type": "custom", "outcome": "` + strings.Repeat("é", n) + `"}]}`
		}
		before := rowCounts(t, db)
		for _, tc := range []struct {
			definition string
			details    []string
		}{
			{`{"formatVersion": 1, "zzz": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE"}}]}`,
				[]string{`unknown member "zzz"; a definition of format version 1 has formatVersion, start, nodes, metadata`}},
			{`{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "nope"}}]}`,
				[]string{`node "s": the policy reference "nope" is not a valid id`}},
			{`{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"baseId": "{B-INCOME}"}}]}`,
				[]string{`node "s": the policy reference "{` + w.income.BaseID.String() + `}" is not a valid id`}},
			{outcome(201), []string{`node "c": the outcome is 201 characters long; the limit is 200`}},
		} {
			definition := w.ids(tc.definition)
			for _, r := range []*httptest.ResponseRecorder{
				w.call(t, admin, http.MethodPost, "/flow", `{"name": "f", "definition": `+definition+`}`),
				w.call(t, admin, http.MethodPost, "/flow/test", `{"definition": `+definition+`, "data": {"applicant": {"age": 20}}}`),
			} {
				if got := wantDetails(t, r); !reflect.DeepEqual(got, tc.details) {
					t.Errorf("%s: details %q, want %q", tc.definition, got, tc.details)
				}
			}
		}
		if after := rowCounts(t, db); !reflect.DeepEqual(after, before) {
			t.Errorf("refused definitions changed the rows from %v to %v", before, after)
		}

		saved := w.createFlow(t, outcome(200))
		if len(saved.Validation.Errors) != 0 {
			t.Errorf("an outcome of 200 characters: %+v", saved.Validation)
		}
		saved = w.createFlow(t, `{"formatVersion": 1, "nodes": [{"id": "s", "type": "start", "policy": {"id": "P-AGE", "color": 1}, "zzz": 1, "onTrue": "r", "onFalse": "r"},
			{"id": "r", "type": "return", "returnValue": true}]}`)
		for _, want := range []string{`node "s" has a member "zzz" that no node has; it is ignored and not stored`,
			`node "s" has a policy member "color" that no policy reference has; it is ignored and not stored`} {
			if !slices.Contains(saved.Validation.Warnings, want) || strings.Contains(string(saved.Definition), "zzz") || strings.Contains(string(saved.Definition), "color") {
				t.Errorf("saved %s with warnings %q, want the member dropped with %q", saved.Definition, saved.Validation.Warnings, want)
			}
		}
	})
}
