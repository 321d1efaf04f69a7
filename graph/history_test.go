package graph_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const policyDiffQuery = `query($id: ID!, $other: ID!) { policyDiff(id: $id, otherId: $other) {
  baseId from { id status version } to { id status version } name { before after }
  rule { fromLine fromCount toLine toCount lines { kind text } }
  tests { added { name expect } removed { name } changed { name before { expect } after { expect } } }
  schema { path change before after } } }`

func TestBatchDiffAndRollbackOverGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "senior", "rule": seniorRule,
			"schema": map[string]any{"title": "people"}}).Policy.ID, nil)
		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		changedRule := strings.Replace(seniorRule, "65", "60", 1)
		v2 := publishPolicy(t, f, adminKey, draft.CreatePolicyDraftFromVersion.ID, map[string]any{"rule": changedRule,
			"schema": map[string]any{"title": "persons"},
			"tests":  []any{map[string]any{"name": "62", "data": map[string]any{"Person": map[string]any{"age": 62}}, "expect": true}}})

		var batch struct {
			RunPolicyBatch struct {
				Results []struct {
					Result      bool
					Explanation string
				}
				Execution struct{ Total string }
			}
		}
		f.post(t, adminKey, `mutation($id: ID!, $items: [JSON!]!) { runPolicyBatch(input: {baseId: $id, items: $items}) {
			results { result explanation } execution { total } } }`,
			map[string]any{"id": v1.BaseID, "items": []any{map[string]any{"Person": map[string]any{"age": 62}}, map[string]any{"Person": map[string]any{"age": 30}}}}).
			decode(t, &batch)
		if got := batch.RunPolicyBatch.Results; len(got) != 2 || !got[0].Result || got[1].Result || got[0].Explanation == "" {
			t.Errorf("batch results %+v, want true then false of version 2", got)
		}
		f.post(t, adminKey, `mutation($id: ID!, $items: [JSON!]!) { runPolicyVersionBatch(input: {policyId: $id, items: $items}) { results { result } } }`,
			map[string]any{"id": v1.ID, "items": []any{map[string]any{}, 5}}).failure(t, service.CodeInvalidArgument)

		var diff struct {
			PolicyDiff struct {
				From, To struct {
					ID, Status string
					Version    int
				}
				Rule []struct {
					FromLine, FromCount, ToLine, ToCount int
					Lines                                []struct{ Kind, Text string }
				}
				Tests struct {
					Added []struct {
						Name   string
						Expect bool
					}
				}
				Schema []struct {
					Path, Change  string
					Before, After json.RawMessage
				}
			}
		}
		f.post(t, adminKey, policyDiffQuery, map[string]any{"id": v1.ID, "other": v2.ID}).decode(t, &diff)
		d := diff.PolicyDiff
		if d.From.ID != v1.ID || d.From.Status != "PUBLISHED" || d.From.Version != 1 || d.To.Version != 2 {
			t.Errorf("sides %+v %+v", d.From, d.To)
		}
		wantLines := []struct{ Kind, Text string }{{"REMOVED", seniorRule}, {"ADDED", changedRule}}
		if len(d.Rule) != 1 || !reflect.DeepEqual(d.Rule[0].Lines, wantLines) || d.Rule[0].FromLine != 1 || d.Rule[0].ToCount != 1 {
			t.Errorf("rule hunks %+v", d.Rule)
		}
		if len(d.Tests.Added) != 1 || d.Tests.Added[0].Name != "62" || !d.Tests.Added[0].Expect {
			t.Errorf("tests %+v", d.Tests)
		}
		if len(d.Schema) != 1 || d.Schema[0].Path != "$.title" || d.Schema[0].Change != "CHANGED" ||
			string(d.Schema[0].Before) != `"people"` || string(d.Schema[0].After) != `"persons"` {
			t.Errorf("schema %+v", d.Schema)
		}

		var rolled struct{ RollbackPolicy policyData }
		f.post(t, adminKey, `mutation($id: ID!) { rollbackPolicy(input: {id: $id}) { ...P } }`+policyFields, map[string]any{"id": v1.ID}).decode(t, &rolled)
		if r := rolled.RollbackPolicy; r.Version == nil || *r.Version != 3 || r.Rule != seniorRule || r.BaseID != v1.BaseID {
			t.Errorf("rolled back %+v, want version 3 with version 1's rule", r)
		}
		f.post(t, adminKey, policyDiffQuery, map[string]any{"id": v1.ID, "other": "not-an-id"}).nullFailure(t, "policyDiff", service.CodeInvalidArgument)
	})
}

// TestADocumentsDiffsShareWhatTheRequestMayAnswer: a schema diff whose 100
// changes each answer a path of 100,000 characters answers about 10 MB;
// six aliases of it fit in the 64 MiB one request may answer, and the
// seventh, whichever it is, is null with the error other answers past the
// bound have.
func TestADocumentsDiffsShareWhatTheRequestMayAnswer(t *testing.T) {
	long := strings.Repeat("n", 100000)
	schema := func(value int) map[string]any {
		members := map[string]any{}
		for i := range 100 {
			members[fmt.Sprint("m", i)] = map[string]any{"minimum": value}
		}
		return map[string]any{"properties": map[string]any{long: map[string]any{"properties": members}}}
	}
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, map[string]any{"name": "long", "rule": seniorRule,
			"schema": schema(0)}).Policy.ID, nil)
		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		v2 := publishPolicy(t, f, adminKey, draft.CreatePolicyDraftFromVersion.ID, map[string]any{"schema": schema(1)})

		var doc strings.Builder
		doc.WriteString("query($id: ID!, $other: ID!) {")
		for i := range 7 {
			fmt.Fprintf(&doc, " d%d: policyDiff(id: $id, otherId: $other) { schema { change } }", i)
		}
		doc.WriteString(" }")
		r := f.post(t, adminKey, doc.String(), map[string]any{"id": v1.ID, "other": v2.ID})
		var data map[string]*struct{ Schema []struct{ Change string } }
		if err := json.Unmarshal(r.Data, &data); err != nil {
			t.Fatalf("data %.200s: %v", r.Data, err)
		}
		var answered, refused []string
		for name, d := range data {
			switch {
			case d == nil:
				refused = append(refused, name)
			case len(d.Schema) != 100:
				t.Errorf("%s answers %d schema changes, want 100", name, len(d.Schema))
			default:
				answered = append(answered, name)
			}
		}
		if len(answered) != 6 || len(refused) != 1 {
			t.Fatalf("answered %v, refused %v; want six answered and one refused", answered, refused)
		}
		e := r.fieldFailure(t, service.CodeInvalidArgument)
		if want := "this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request"; e.Message != want {
			t.Errorf("message %q, want %q", e.Message, want)
		}
		if !reflect.DeepEqual(e.Path, []any{refused[0]}) {
			t.Errorf("error path %v, want [%s]", e.Path, refused[0])
		}
	})
}

// TestADiffOverGraphQLAnswersNumbersAsStored: a schema's const and a
// test's data that changed only past a float64's precision show as
// changed, answered as stored.
func TestADiffOverGraphQLAnswersNumbersAsStored(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		content := func(id, big string) map[string]any {
			return map[string]any{
				"schema": map[string]any{"properties": map[string]any{"id": map[string]any{"const": json.Number(id)}}},
				"tests": []any{map[string]any{"name": "big", "expect": true,
					"data": map[string]any{"Person": map[string]any{"age": 70, "id": json.Number(big)}}}}}
		}
		input := content("9007199254740993", "12345678901234567890123")
		input["name"], input["rule"] = "exact", seniorRule
		v1 := publishPolicy(t, f, adminKey, createPolicy(t, f, adminKey, input).Policy.ID, nil)
		var draft struct{ CreatePolicyDraftFromVersion policyData }
		f.post(t, adminKey, draftFromVersionMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		v2 := publishPolicy(t, f, adminKey, draft.CreatePolicyDraftFromVersion.ID, content("9007199254740992", "12345678901234567890124"))

		var diff struct {
			PolicyDiff struct {
				Tests  struct{ Changed []struct{ Name string } }
				Schema json.RawMessage
			}
		}
		f.post(t, adminKey, policyDiffQuery, map[string]any{"id": v1.ID, "other": v2.ID}).decode(t, &diff)
		d := diff.PolicyDiff
		if want := `[{"path":"$.properties.id.const","change":"CHANGED","before":9007199254740993,"after":9007199254740992}]`; string(d.Schema) != want {
			t.Errorf("schema %s, want %s", d.Schema, want)
		}
		if want := []struct{ Name string }{{"big"}}; !reflect.DeepEqual(d.Tests.Changed, want) {
			t.Errorf("changed tests %+v, want %+v", d.Tests.Changed, want)
		}
	})
}

// TestAFlowDiffShowsABranchListsNewOrderOverGraphQL: the same branch
// targets in another order end the flow elsewhere, so the node shows
// changed, with its branch lists before and after, and no edge changed.
func TestAFlowDiffShowsABranchListsNewOrderOverGraphQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		w := newFlowWorld(t, db)
		node := func(onTrue ...string) map[string]any {
			return map[string]any{"id": "s", "type": "start", "policy": map[string]any{"id": w.age.ID}, "onTrue": onTrue}
		}
		definition := func(onTrue ...string) map[string]any {
			return map[string]any{"formatVersion": 1, "nodes": []any{node(onTrue...),
				map[string]any{"id": "yes", "type": "return", "returnValue": true},
				map[string]any{"id": "no", "type": "return", "returnValue": false}}}
		}
		v1 := publishFlow(t, w.fixture, adminKey, createFlow(t, w.fixture, adminKey, map[string]any{"name": "order", "definition": definition("yes", "no")}).Flow.ID)
		var draft struct{ CreateFlowDraftFromVersion flowData }
		w.post(t, adminKey, flowDraftMutation, map[string]any{"id": v1.ID}).decode(t, &draft)
		var v2 struct{ PublishFlow flowData }
		w.post(t, adminKey, publishFlowMutation, draftInput(draft.CreateFlowDraftFromVersion.ID, map[string]any{"definition": definition("no", "yes")})).decode(t, &v2)

		var got struct {
			FlowDiff struct {
				Nodes struct {
					Added, Removed []json.RawMessage
					Changed        []struct {
						ID            string
						Before, After json.RawMessage
					}
				}
				Edges struct{ Added, Removed []json.RawMessage }
			}
		}
		w.post(t, adminKey, `query($id: ID!, $other: ID!) { flowDiff(id: $id, otherId: $other) {
			nodes { added removed changed { id before after } } edges { added { from branch to } removed { from branch to } } } }`,
			map[string]any{"id": v1.ID, "other": v2.PublishFlow.ID}).decode(t, &got)
		d := got.FlowDiff
		isNode := func(raw json.RawMessage, onTrue ...string) bool {
			want, _ := json.Marshal(node(onTrue...))
			var a, b any
			return json.Unmarshal(raw, &a) == nil && json.Unmarshal(want, &b) == nil && reflect.DeepEqual(a, b)
		}
		if len(d.Nodes.Added)+len(d.Nodes.Removed)+len(d.Edges.Added)+len(d.Edges.Removed) != 0 || len(d.Nodes.Changed) != 1 ||
			d.Nodes.Changed[0].ID != "s" || !isNode(d.Nodes.Changed[0].Before, "yes", "no") || !isNode(d.Nodes.Changed[0].After, "no", "yes") {
			t.Errorf("diff %+v; want node s changed from onTrue [yes no] to [no yes], nothing else", d)
		}
	})
}
