package graph_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// The policies the flow tests use.
const (
	ageRule    = "A **applicant** is an adult if the __age__ of the **applicant** is at least 18."
	incomeRule = "A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000."
)

const flowFields = `fragment F on Flow {
  id baseId name description definition
  tests { name data expect }
  status version owner { kind id } createdBy createdAt updatedAt publishedAt revision
}`

const createFlowMutation = `mutation Create($input: CreateFlowInput!) {
  createFlow(input: $input) { flow { ...F } validation { errors warnings } }
}` + flowFields

const updateFlowMutation = `mutation Update($input: UpdateFlowDraftInput!) {
  updateFlowDraft(input: $input) { flow { ...F } validation { errors warnings } }
}` + flowFields

const publishFlowMutation = `mutation Publish($input: PublishFlowInput!) {
  publishFlow(input: $input) { ...F }
}` + flowFields

const flowDraftMutation = `mutation Draft($id: ID!, $replace: Boolean) {
  createFlowDraftFromVersion(input: {id: $id, replace: $replace}) { ...F }
}` + flowFields

const flowQuery = `query Flow($id: ID!) { flow(id: $id) { ...F } }` + flowFields

const deleteFlowMutation = `mutation Delete($id: ID!) { deleteFlow(input: {id: $id}) }`

const flowRunFields = `
fragment FR on FlowRunResult {
  nodeId nodeName result executionPath finalOutcome outcome errors raw
  nodeResponses {
    nodeId nodeType
    execution { database engine total }
    response {
      result rule data error labels
      trace {
        execution {
          label selector outcome result
          conditions {
            __typename
            ... on ComparisonCondition { selector operator result property { path value } value { type value } }
            ... on ReferenceCondition { selector ruleName result }
          }
        }
      }
    }
  }
}`

const runFlowMutation = `mutation Run($baseId: ID!, $data: JSON!) { runFlow(input: {baseId: $baseId, data: $data}) { ...FR } }` + flowRunFields

const runFlowVersionMutation = `mutation Run($flowId: ID!, $data: JSON!) { runFlowVersion(input: {flowId: $flowId, data: $data}) { ...FR } }` + flowRunFields

const runFlowBatchMutation = `mutation Run($baseId: ID!, $items: [JSON!]!) { runFlowBatch(input: {baseId: $baseId, items: $items}) { results { ...FR } execution { total } } }` + flowRunFields

const runFlowVersionBatchMutation = `mutation Run($flowId: ID!, $items: [JSON!]!) { runFlowVersionBatch(input: {flowId: $flowId, items: $items}) { results { ...FR } } }` + flowRunFields

const testFlowMutation = `mutation Test($definition: JSON!, $data: JSON!) { testFlow(input: {definition: $definition, data: $data}) { ...FR } }` + flowRunFields

type flowData struct {
	ID, BaseID, Name, Description string
	Definition                    json.RawMessage
	Tests                         []struct {
		Name         string
		Data, Expect json.RawMessage
	}
	Status                          string
	Version                         *int
	Owner                           struct{ Kind, ID string }
	CreatedBy, CreatedAt, UpdatedAt string
	PublishedAt                     *string
	Revision                        int
}

type savedFlow struct {
	Flow       flowData
	Validation struct{ Errors, Warnings []string }
}

type flowRunData struct {
	NodeID, NodeName string
	Result           bool
	ExecutionPath    []string
	FinalOutcome     bool
	Outcome          *string
	Errors           []string
	Raw              json.RawMessage
	NodeResponses    []struct {
		NodeID, NodeType string
		Execution        struct{ Database, Engine, Total string }
		Response         struct {
			Result bool
			Rule   []string
			Data   json.RawMessage
			Error  *string
			Labels json.RawMessage
			Trace  *struct{ Execution []ruleTrace }
		}
	}
}

// flowWorld is Acme with P-AGE and P-INCOME published.
type flowWorld struct {
	*fixture
	age, income policyData
}

func newFlowWorld(t *testing.T, db *database.DB) *flowWorld {
	t.Helper()
	f := newFixture(t, db)
	w := &flowWorld{fixture: f}
	w.age = publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "P-AGE", "rule": ageRule}).Policy.ID, nil)
	w.income = publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "P-INCOME", "rule": incomeRule}).Policy.ID, nil)
	return w
}

// chained is the flow of docs/flows.md: an adult with enough income passes, one
// without is for manual review, a minor fails.
func (w *flowWorld) chained() map[string]any {
	return map[string]any{"formatVersion": 1, "nodes": []any{
		map[string]any{"id": "s", "type": "start", "name": "Adult?", "policy": map[string]any{"id": w.age.ID}, "onTrue": "p", "onFalse": "no"},
		map[string]any{"id": "p", "type": "policy", "policy": map[string]any{"baseId": w.income.BaseID}, "onTrue": "yes", "onFalse": "review"},
		map[string]any{"id": "yes", "type": "return", "returnValue": true},
		map[string]any{"id": "review", "type": "custom", "outcome": "manual review"},
		map[string]any{"id": "no", "type": "return", "returnValue": false},
	}}
}

func createFlow(t *testing.T, f *fixture, key string, input map[string]any) savedFlow {
	t.Helper()
	var got struct{ CreateFlow savedFlow }
	f.post(t, key, createFlowMutation, map[string]any{"input": input}).decode(t, &got)
	return got.CreateFlow
}

func publishFlow(t *testing.T, f *fixture, key, id string) flowData {
	t.Helper()
	var got struct{ PublishFlow flowData }
	f.post(t, key, publishFlowMutation, draftInput(id, nil)).decode(t, &got)
	return got.PublishFlow
}

// failureWithDetails checks an invalid-definition error and returns its
// details.
func failureWithDetails(t *testing.T, res response) []string {
	t.Helper()
	e := res.failure(t, service.CodeInvalidArgument)
	if e.Message != "invalid flow definition" {
		t.Errorf("message %q, want \"invalid flow definition\"", e.Message)
	}
	list, _ := e.Extensions["details"].([]any)
	details := make([]string, len(list))
	for i, d := range list {
		details[i], _ = d.(string)
	}
	if len(details) == 0 || slices.Contains(details, "") {
		t.Fatalf("extensions %v, want a list of details", e.Extensions)
	}
	return details
}

func TestAFlowIsCreatedEditedPublishedRedraftedAndDeletedOverGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		admin := w.boot.User.ID.String()
		editor := member(t, w.fixture, "edith", authz.RoleEditor)

		created := createFlow(t, w.fixture, adminKey, map[string]any{
			"name": "Loan", "definition": w.chained(),
			"tests": []any{
				map[string]any{"name": "adult with income", "data": map[string]any{"applicant": map[string]any{"age": 30, "income": 45000}}, "expect": true},
				map[string]any{"name": "adult without", "data": map[string]any{"applicant": map[string]any{"age": 30, "income": 100}}, "expect": "manual review"},
			},
		})
		fl := created.Flow
		if fl.Status != "DRAFT" || fl.Version != nil || fl.Revision != 1 || fl.Owner.Kind != "USER" || fl.Owner.ID != admin ||
			fl.CreatedBy != admin || fl.ID == fl.BaseID || len(fl.Tests) != 2 || string(fl.Tests[1].Expect) != `"manual review"` {
			t.Fatalf("created %+v", fl)
		}
		var def struct {
			FormatVersion int
			Nodes         []map[string]any
		}
		if err := json.Unmarshal(fl.Definition, &def); err != nil || def.FormatVersion != 1 || len(def.Nodes) != 5 {
			t.Errorf("definition %s (%v), want the normalized v1 form", fl.Definition, err)
		}
		if len(created.Validation.Errors) != 0 || len(created.Validation.Warnings) != 0 {
			t.Errorf("validation %+v, want none", created.Validation)
		}

		var updated struct{ UpdateFlowDraft savedFlow }
		w.post(t, adminKey, updateFlowMutation, draftInput(fl.BaseID, map[string]any{
			"description": "loans", "definition": map[string]any{"formatVersion": 1, "nodes": []any{
				map[string]any{"id": "s", "type": "start", "policy": map[string]any{"id": w.age.ID}},
			}},
		})).decode(t, &updated)
		u := updated.UpdateFlowDraft
		if u.Flow.ID != fl.ID || u.Flow.Revision != 2 || u.Flow.Description != "loans" || u.Flow.Name != "Loan" ||
			!reflect.DeepEqual(u.Validation.Warnings, []string{`start node "s" is missing a TRUE path`, `start node "s" is missing a FALSE path`}) {
			t.Errorf("updated %+v", u)
		}
		w.post(t, adminKey, updateFlowMutation, draftInput(fl.ID, map[string]any{"definition": w.chained()})).
			decode(t, &updated)

		w.post(t, editor, publishFlowMutation, draftInput(fl.ID, nil)).failure(t, service.CodePermissionDenied)
		v1 := publishFlow(t, w.fixture, adminKey, fl.ID)
		if v1.ID != fl.ID || v1.Status != "PUBLISHED" || v1.Version == nil || *v1.Version != 1 || v1.PublishedAt == nil ||
			v1.Owner.Kind != "ORGANIZATION" || v1.Owner.ID != w.boot.Organization.ID.String() {
			t.Fatalf("published %+v", v1)
		}
		w.post(t, adminKey, updateFlowMutation, draftInput(v1.ID, map[string]any{"name": "x"})).
			failure(t, service.CodeConflict)

		var draft struct{ CreateFlowDraftFromVersion flowData }
		w.post(t, editor, flowDraftMutation, map[string]any{"id": v1.BaseID}).decode(t, &draft)
		d := draft.CreateFlowDraftFromVersion
		if d.Status != "DRAFT" || d.ID == v1.ID || d.BaseID != v1.BaseID || string(d.Definition) != string(v1.Definition) {
			t.Fatalf("draft from version 1: %+v", d)
		}
		e := w.post(t, adminKey, flowDraftMutation, map[string]any{"id": v1.ID}).failure(t, service.CodeConflict)
		if !strings.Contains(e.Message, d.ID) {
			t.Errorf("the conflict %q does not name the draft %s", e.Message, d.ID)
		}
		var replaced struct{ CreateFlowDraftFromVersion flowData }
		w.post(t, adminKey, flowDraftMutation, map[string]any{"id": v1.ID, "replace": true}).decode(t, &replaced)
		if r := replaced.CreateFlowDraftFromVersion; r.ID != d.ID || r.Revision != d.Revision+1 {
			t.Errorf("replacing the draft gave %+v", r)
		}

		var hist struct {
			FlowVersions struct {
				BaseID   string
				Draft    *flowData
				Versions []flowData
			}
		}
		w.post(t, adminKey, `query H($id: ID!) { flowVersions(id: $id) { baseId draft { ...F } versions { ...F } } }`+flowFields,
			map[string]any{"id": v1.ID}).decode(t, &hist)
		if h := hist.FlowVersions; h.BaseID != v1.BaseID || h.Draft == nil || h.Draft.ID != d.ID || len(h.Versions) != 1 || h.Versions[0].ID != v1.ID {
			t.Errorf("history %+v", h)
		}
		var loaded struct{ Flow flowData }
		w.post(t, adminKey, flowQuery, map[string]any{"id": v1.BaseID}).decode(t, &loaded)
		if loaded.Flow.ID != v1.ID {
			t.Errorf("flow(baseId) is %s, want the latest version %s", loaded.Flow.ID, v1.ID)
		}

		const flowsQuery = `query L($first: Int, $after: String, $query: String) {
		  flows(first: $first, after: $after, query: $query) {
		    edges { cursor node { baseId name owner { kind id } latestVersion latestVersionId draftId hasDraft updatedAt } }
		    pageInfo { hasNextPage endCursor }
		  }
		}`
		createFlow(t, w.fixture, adminKey, map[string]any{"name": "Other", "definition": w.chained()})
		var list struct {
			Flows struct {
				Edges []struct {
					Cursor string
					Node   struct {
						BaseID, Name    string
						LatestVersion   *int
						LatestVersionID *string
						DraftID         *string
						HasDraft        bool
					}
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
		}
		w.post(t, adminKey, flowsQuery, map[string]any{"first": 1}).decode(t, &list)
		if c := list.Flows; len(c.Edges) != 1 || c.Edges[0].Node.Name != "Other" || !c.PageInfo.HasNextPage ||
			c.PageInfo.EndCursor == nil || *c.PageInfo.EndCursor != c.Edges[0].Cursor {
			t.Fatalf("first page %+v", c)
		}
		w.post(t, adminKey, flowsQuery, map[string]any{"after": *list.Flows.PageInfo.EndCursor}).decode(t, &list)
		if c := list.Flows; len(c.Edges) != 1 || c.PageInfo.HasNextPage {
			t.Fatalf("second page %+v", c)
		} else if n := c.Edges[0].Node; n.BaseID != v1.BaseID || n.LatestVersion == nil || *n.LatestVersion != 1 ||
			n.LatestVersionID == nil || *n.LatestVersionID != v1.ID || !n.HasDraft || n.DraftID == nil || *n.DraftID != d.ID {
			t.Errorf("summary %+v", n)
		}

		w.post(t, editor, deleteFlowMutation, map[string]any{"id": v1.BaseID}).failure(t, service.CodePermissionDenied)
		var deleted struct{ DeleteFlow bool }
		w.post(t, adminKey, deleteFlowMutation, map[string]any{"id": v1.BaseID}).decode(t, &deleted)
		if !deleted.DeleteFlow {
			t.Fatal("deleteFlow = false, want true")
		}
		data := map[string]any{"applicant": map[string]any{"age": 30, "income": 45000}}
		w.post(t, adminKey, flowQuery, map[string]any{"id": v1.ID}).nullFailure(t, "flow", service.CodeDeleted)
		w.post(t, adminKey, runFlowMutation, map[string]any{"baseId": v1.BaseID, "data": data}).failure(t, service.CodeDeleted)
		w.post(t, adminKey, runFlowVersionMutation, map[string]any{"flowId": v1.ID, "data": data}).failure(t, service.CodeDeleted)
		w.post(t, adminKey, deleteFlowMutation, map[string]any{"id": v1.BaseID}).failure(t, service.CodeDeleted)
	})
}

func TestFlowRunsGiveTypedResults(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		stored := createFlow(t, w.fixture, adminKey, map[string]any{"name": "Loan", "definition": w.chained()}).Flow

		run := func(t *testing.T, applicant map[string]any) map[string]flowRunData {
			t.Helper()
			data := map[string]any{"applicant": applicant}
			var byBase struct{ RunFlow flowRunData }
			w.post(t, adminKey, runFlowMutation, map[string]any{"baseId": stored.BaseID, "data": data}).decode(t, &byBase)
			var byRecord struct{ RunFlowVersion flowRunData }
			w.post(t, adminKey, runFlowVersionMutation, map[string]any{"flowId": stored.ID, "data": data}).decode(t, &byRecord)
			var tested struct{ TestFlow flowRunData }
			w.post(t, adminKey, testFlowMutation, map[string]any{"definition": w.chained(), "data": data}).decode(t, &tested)
			// A batch of the item twice answers it twice, as a single run.
			var batch struct {
				RunFlowBatch struct {
					Results   []flowRunData
					Execution struct{ Total string }
				}
			}
			w.post(t, adminKey, runFlowBatchMutation, map[string]any{"baseId": stored.BaseID, "items": []any{data, data}}).decode(t, &batch)
			var versionBatch struct {
				RunFlowVersionBatch struct{ Results []flowRunData }
			}
			w.post(t, adminKey, runFlowVersionBatchMutation, map[string]any{"flowId": stored.ID, "items": []any{data, data}}).decode(t, &versionBatch)
			if len(batch.RunFlowBatch.Results) != 2 || len(versionBatch.RunFlowVersionBatch.Results) != 2 || batch.RunFlowBatch.Execution.Total == "" {
				t.Fatalf("batches of two: %+v, %+v", batch, versionBatch)
			}
			return map[string]flowRunData{"runFlow": byBase.RunFlow, "runFlowVersion": byRecord.RunFlowVersion, "testFlow": tested.TestFlow,
				"runFlowBatch[0]": batch.RunFlowBatch.Results[0], "runFlowBatch[1]": batch.RunFlowBatch.Results[1],
				"runFlowVersionBatch[1]": versionBatch.RunFlowVersionBatch.Results[1]}
		}

		t.Run("two policies pass", func(t *testing.T) {
			for name, got := range run(t, map[string]any{"age": 30, "income": 45000}) {
				if got.NodeID != "s" || got.NodeName != "Adult?" || !got.Result || !got.FinalOutcome || got.Outcome != nil ||
					!reflect.DeepEqual(got.ExecutionPath, []string{"p"}) || len(got.Errors) != 0 || len(got.NodeResponses) != 2 {
					t.Fatalf("%s: %+v", name, got)
				}
				for i, want := range []struct {
					id, typ, rule, path string
				}{{"s", "START", ageRule, "$.applicant.age"}, {"p", "POLICY", incomeRule, "$.applicant.income"}} {
					nr := got.NodeResponses[i]
					if nr.NodeID != want.id || nr.NodeType != want.typ || !nr.Response.Result || nr.Response.Error != nil ||
						!reflect.DeepEqual(nr.Response.Rule, []string{want.rule}) || string(nr.Response.Data) != `{"applicant":{"age":30,"income":45000}}` {
						t.Errorf("%s: node response %d: %+v", name, i, nr)
					}
					for _, v := range []string{nr.Execution.Database, nr.Execution.Engine, nr.Execution.Total} {
						if v == "" || strings.Trim(v, "0123456789") != "" {
							t.Errorf("%s: node %s execution %+v, want strings of digits", name, nr.NodeID, nr.Execution)
						}
					}
					tr := nr.Response.Trace
					if tr == nil || len(tr.Execution) != 1 || len(tr.Execution[0].Conditions) != 1 {
						t.Fatalf("%s: node %s trace %+v", name, nr.NodeID, tr)
					}
					c := tr.Execution[0].Conditions[0]
					if c.Typename != "ComparisonCondition" || c.Property == nil || c.Property.Path != want.path || !c.Result || c.Value == nil || c.Value.Type != "NUMBER" {
						t.Errorf("%s: node %s condition %+v", name, nr.NodeID, c)
					}
				}
				var raw struct {
					NodeID        string
					ExecutionPath []string
					NodeResponses []struct {
						Response struct {
							Trace struct {
								Execution []struct{ Selector struct{ Value string } }
							}
						}
					}
				}
				if err := json.Unmarshal(got.Raw, &raw); err != nil || raw.NodeID != "s" || !reflect.DeepEqual(raw.ExecutionPath, []string{"p"}) ||
					len(raw.NodeResponses) != 2 || raw.NodeResponses[1].Response.Trace.Execution[0].Selector.Value != "applicant" {
					t.Errorf("%s: raw %s (%v), want the REST shape", name, got.Raw, err)
				}
			}
		})

		t.Run("a custom node gives the outcome", func(t *testing.T) {
			for name, got := range run(t, map[string]any{"age": 30, "income": 100}) {
				if !got.Result || got.Outcome == nil || *got.Outcome != "manual review" ||
					!reflect.DeepEqual(got.ExecutionPath, []string{"p", "review"}) || len(got.NodeResponses) != 3 {
					t.Fatalf("%s: %+v", name, got)
				}
				review := got.NodeResponses[2]
				if review.NodeType != "CUSTOM" || review.Response.Trace == nil || len(review.Response.Trace.Execution) != 1 ||
					review.Response.Trace.Execution[0].Selector != "custom_response" || review.Response.Trace.Execution[0].Outcome != "manual review" ||
					review.Execution.Database != "0" || review.Execution.Engine != "0" {
					t.Errorf("%s: custom node response %+v", name, review)
				}
			}
		})

		t.Run("a policy error stops the flow without an error", func(t *testing.T) {
			for name, got := range run(t, map[string]any{"age": 30}) {
				if got.Result || got.FinalOutcome || len(got.Errors) != 1 || !strings.HasPrefix(got.Errors[0], `node "p": Missing property`) ||
					len(got.NodeResponses) != 2 || got.NodeResponses[1].Response.Error == nil {
					t.Errorf("%s: %+v", name, got)
				}
			}
		})

		t.Run("an unresolvable policy has no trace", func(t *testing.T) {
			def := w.chained()
			def["nodes"].([]any)[1].(map[string]any)["policy"] = map[string]any{"id": "00000000-0000-0000-0000-000000000000"}
			var got struct{ TestFlow flowRunData }
			w.post(t, adminKey, testFlowMutation, map[string]any{"definition": def, "data": map[string]any{"applicant": map[string]any{"age": 30}}}).decode(t, &got)
			r := got.TestFlow
			if r.Result || len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "not found") || len(r.NodeResponses) != 2 {
				t.Fatalf("run %+v", r)
			}
			if p := r.NodeResponses[1].Response; p.Trace != nil || p.Rule == nil || len(p.Rule) != 0 || p.Error == nil || *p.Error != r.Errors[0] {
				t.Errorf("node response %+v, want no trace, no rule and the error", p)
			}
		})
	})
}

func TestTestFlowTakesEveryFormOfDefinitionAndNeedsAnEditor(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		data := map[string]any{"applicant": map[string]any{"age": 20}}
		legacy := "flow:\n  start:\n    - id: start-1\n      type: start\n      policyId: " + w.age.ID + "\n" +
			"      onTrue:\n        - id: return-1\n          type: return\n          returnValue: true\n" +
			"      onFalse:\n        - id: return-2\n          type: return\n          returnValue: false\n"
		graph := map[string]any{
			"nodes": []any{
				map[string]any{"id": "s", "type": "start", "label": "Start", "policyId": w.age.ID, "data": nil},
				map[string]any{"id": "t", "type": "return", "label": "Return True", "returnValue": true, "data": nil},
			},
			"edges": []any{map[string]any{"id": "e", "source": "s", "target": "t", "sourceHandle": "true"}},
		}
		for name, def := range map[string]any{"legacy YAML text": legacy, "a UI graph": graph, "a v1 definition": w.chained()} {
			t.Run(name, func(t *testing.T) {
				var got struct{ TestFlow flowRunData }
				w.post(t, adminKey, testFlowMutation, map[string]any{"definition": def, "data": data}).decode(t, &got)
				if len(got.TestFlow.NodeResponses) == 0 || got.TestFlow.NodeResponses[0].NodeType != "START" || !got.TestFlow.NodeResponses[0].Response.Result {
					t.Errorf("run %+v", got.TestFlow)
				}
			})
		}

		viewer := member(t, w.fixture, "vera", authz.RoleViewer)
		w.post(t, viewer, testFlowMutation, map[string]any{"definition": w.chained(), "data": data}).failure(t, service.CodePermissionDenied)
		for name, vars := range map[string]map[string]any{
			"a definition that is a number": {"definition": 5, "data": data},
			"data that is not an object":    {"definition": w.chained(), "data": []any{1}},
		} {
			t.Run(name+" is an invalid argument", func(t *testing.T) {
				w.post(t, adminKey, testFlowMutation, vars).failure(t, service.CodeInvalidArgument)
			})
		}
		// An empty list is a list, written in the document or sent as a
		// variable, as in a REST body: not a definition left out.
		const notAnObject = "definition must be a JSON object: a flow definition"
		for name, res := range map[string]response{
			"in the document": w.post(t, adminKey, `mutation { testFlow(input: {definition: [], data: {applicant: {age: 20}}}) { result } }`, nil),
			"as a variable":   w.post(t, adminKey, testFlowMutation, map[string]any{"definition": []any{}, "data": data}),
		} {
			if e := res.failure(t, service.CodeInvalidArgument); e.Message != notAnObject {
				t.Errorf("an empty list %s: %q, want %q", name, e.Message, notAnObject)
			}
		}
		// So is one within a value written in the document.
		var echoed struct {
			RunRule struct{ Data json.RawMessage }
		}
		w.post(t, adminKey, `mutation { runRule(input: {rule: "A **applicant** is an adult if the __age__ of the **applicant** is at least 18.",
			data: {applicant: {age: 20, tags: [], nested: [[], {list: []}]}}}) { data } }`, nil).decode(t, &echoed)
		if got := string(echoed.RunRule.Data); got != `{"applicant":{"age":20,"nested":[[],{"list":[]}],"tags":[]}}` {
			t.Errorf("the data written in the document came back as %s", got)
		}
	})
}

func TestInvalidFlowDefinitionsListEveryProblemInTheDetails(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		data := map[string]any{"applicant": map[string]any{"age": 30}}
		broken := map[string]any{"formatVersion": 1, "nodes": []any{
			map[string]any{"id": "s", "type": "start", "policy": map[string]any{"id": w.age.ID}, "onTrue": "nowhere", "onFalse": "w"},
			map[string]any{"id": "w", "type": "webhook"},
		}}

		t.Run("testFlow", func(t *testing.T) {
			details := failureWithDetails(t, w.post(t, adminKey, testFlowMutation, map[string]any{"definition": broken, "data": data}))
			for _, want := range []string{`Referenced node "nowhere" not found`, `unknown node type: webhook (node "w")`} {
				if !slices.Contains(details, want) {
					t.Errorf("details %q lack %q", details, want)
				}
			}
		})
		t.Run("createFlow of a definition that cannot be read", func(t *testing.T) {
			failureWithDetails(t, w.post(t, adminKey, createFlowMutation, map[string]any{"input": map[string]any{
				"name": "future", "definition": map[string]any{"formatVersion": 7, "nodes": []any{}},
			}}))
		})
		t.Run("publishFlow of a definition that does not validate", func(t *testing.T) {
			saved := createFlow(t, w.fixture, adminKey, map[string]any{"name": "broken", "definition": broken})
			if len(saved.Validation.Errors) == 0 {
				t.Errorf("saved with validation %+v, want its errors", saved.Validation)
			}
			details := failureWithDetails(t, w.post(t, adminKey, publishFlowMutation, draftInput(saved.Flow.ID, nil)))
			if !reflect.DeepEqual(details, saved.Validation.Errors) {
				t.Errorf("details %q, want the saved errors %q", details, saved.Validation.Errors)
			}
		})
		t.Run("publishFlow of a definition whose policy does not resolve", func(t *testing.T) {
			def := w.chained()
			def["nodes"].([]any)[1].(map[string]any)["policy"] = map[string]any{"id": "00000000-0000-0000-0000-000000000000"}
			saved := createFlow(t, w.fixture, adminKey, map[string]any{"name": "dangling", "definition": def})
			w.post(t, adminKey, publishFlowMutation, draftInput(saved.Flow.ID, nil)).failure(t, service.CodeNotFound)
		})
		t.Run("publishFlow of a flow whose test fails", func(t *testing.T) {
			saved := createFlow(t, w.fixture, adminKey, map[string]any{"name": "tested", "definition": w.chained(), "tests": []any{
				map[string]any{"name": "a minor passes", "data": map[string]any{"applicant": map[string]any{"age": 10}}, "expect": true},
			}})
			e := w.post(t, adminKey, publishFlowMutation, draftInput(saved.Flow.ID, nil)).failure(t, service.CodeConflict)
			if !strings.Contains(e.Message, "a minor passes") {
				t.Errorf("message %q does not name the failing test", e.Message)
			}
		})
		t.Run("a test expecting neither a boolean nor a string", func(t *testing.T) {
			w.post(t, adminKey, createFlowMutation, map[string]any{"input": map[string]any{"name": "x", "definition": w.chained(), "tests": []any{
				map[string]any{"name": "odd", "data": data, "expect": 3},
			}}}).failure(t, service.CodeInvalidArgument)
		})
	})
}

func TestFlowIdsOfAnotherOrganizationAreNotFound(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		fl := publishFlow(t, w.fixture, adminKey, createFlow(t, w.fixture, adminKey, map[string]any{"name": "Loan", "definition": w.chained()}).Flow.ID)
		beta, err := w.svc.Operator().Bootstrap(t.Context(), service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		data := map[string]any{"applicant": map[string]any{"age": 30, "income": 45000}}
		for _, id := range []string{fl.ID, fl.BaseID} {
			w.post(t, beta.Secret, flowQuery, map[string]any{"id": id}).nullFailure(t, "flow", service.CodeNotFound)
			w.post(t, beta.Secret, flowDraftMutation, map[string]any{"id": id}).failure(t, service.CodeNotFound)
			w.post(t, beta.Secret, deleteFlowMutation, map[string]any{"id": id}).failure(t, service.CodeNotFound)
		}
		w.post(t, beta.Secret, runFlowMutation, map[string]any{"baseId": fl.BaseID, "data": data}).failure(t, service.CodeNotFound)
		w.post(t, beta.Secret, runFlowVersionMutation, map[string]any{"flowId": fl.ID, "data": data}).failure(t, service.CodeNotFound)
		// Beta's own flow cannot reach Acme's policies: the node is not
		// found, and the run says so without failing.
		var got struct{ TestFlow flowRunData }
		w.post(t, beta.Secret, testFlowMutation, map[string]any{"definition": w.chained(), "data": data}).decode(t, &got)
		if got.TestFlow.Result || len(got.TestFlow.Errors) != 1 || !strings.Contains(got.TestFlow.Errors[0], "not found") {
			t.Errorf("Beta's run of Acme's policies: %+v", got.TestFlow)
		}
	})
}
