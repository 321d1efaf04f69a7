package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/verdict/verdict/engine"
)

// run executes d on the JSON input with a fresh fake resolver.
func run(t *testing.T, d *Definition, input string, opts Options) (*Result, error) {
	t.Helper()
	data, err := engine.DecodeData([]byte(input), engine.Limits{})
	if err != nil {
		t.Fatalf("DecodeData(%s): %v", input, err)
	}
	return Run(context.Background(), d, data, json.RawMessage(input), newFakeResolver(t), opts)
}

// entry is what the tests check of a nodeResponses entry.
type entry struct {
	id, typ string
	result  bool
	rule    []string
	err     string
}

// outcome is what the tests check of a run result.
type outcome struct {
	result  bool
	outcome *string
	path    []string
	errors  []string
	entries []entry
}

func summarize(t *testing.T, res *Result, input string) outcome {
	t.Helper()
	if res.NodeName == "" || res.FinalOutcome != res.Result {
		t.Errorf("nodeName %q, finalOutcome %v, result %v", res.NodeName, res.FinalOutcome, res.Result)
	}
	got := outcome{result: res.Result, outcome: res.Outcome, path: res.ExecutionPath, errors: res.Errors}
	for _, nr := range res.NodeResponses {
		e := entry{id: nr.NodeID, typ: nr.NodeType, result: nr.Response.Result, rule: nr.Response.Rule}
		if nr.Response.Error != nil {
			e.err = nr.Response.Error.Message
		}
		if raw, ok := nr.Response.Data.(engine.DataText); !ok || string(raw) != input {
			t.Errorf("node %s: response.data = %v, want the input", nr.NodeID, nr.Response.Data)
		}
		got.entries = append(got.entries, e)
	}
	return got
}

var (
	ageLines    = []string{ruleAge}
	incomeLines = []string{ruleIncome}
	reviewLines = []string{"Custom response: manual review"}
)

func TestRunWorkedExamples(t *testing.T) {
	fx5 := fx2()
	fx5.Nodes[1].Policy = &PolicyRef{ID: "00000000-0000-0000-0000-000000000000"}
	startOnly := &Definition{FormatVersion: 1, Nodes: []Node{{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}}}}
	withOrphan := withNodes(fx1(), Node{ID: "o", Type: "return", ReturnValue: "undefined"})

	tests := []struct {
		name  string
		def   *Definition
		input string
		want  outcome
	}{
		{"FX 1: an adult", fx1(), `{"applicant": {"age": 20}}`, outcome{
			result: true, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: true, rule: ageLines}},
		}},
		{"FX 1: a minor", fx1(), `{"applicant": {"age": 16}}`, outcome{
			result: false, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: false, rule: ageLines}},
		}},
		{"FX 2: enough income", fx2(), `{"applicant": {"age": 30, "income": 45000}}`, outcome{
			result: true, path: []string{"p"}, errors: []string{},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "p", typ: "policy", result: true, rule: incomeLines},
			},
		}},
		{"FX 2: manual review", fx2(), `{"applicant": {"age": 30, "income": 20000}}`, outcome{
			result: true, outcome: strp("manual review"), path: []string{"p", "review"}, errors: []string{},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "p", typ: "policy", result: false, rule: incomeLines},
				{id: "review", typ: "custom", result: true, rule: reviewLines},
			},
		}},
		{"FX 2: a minor", fx2(), `{"applicant": {"age": 15, "income": 90000}}`, outcome{
			result: false, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: false, rule: ageLines}},
		}},
		{"FX 3: a start node without branches", startOnly, `{"applicant": {"age": 20}}`, outcome{
			result: true, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: true, rule: ageLines}},
		}},
		{"FX 4: a policy error stops the flow", fx2(), `{"applicant": {"age": 30}}`, outcome{
			result: false, path: []string{"p"},
			errors: []string{`node "p": Missing property: property 'income' not found at $.applicant`},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "p", typ: "policy", result: false, rule: incomeLines, err: "Missing property: property 'income' not found at $.applicant"},
			},
		}},
		{"FX 5: an unresolvable policy stops the flow", fx5, `{"applicant": {"age": 30}}`, outcome{
			result: false, path: []string{"p"},
			errors: []string{`policy "00000000-0000-0000-0000-000000000000" referenced by node "p" not found`},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "p", typ: "policy", result: false, rule: []string{}, err: `policy "00000000-0000-0000-0000-000000000000" referenced by node "p" not found`},
			},
		}},
		{"FX 6: an orphan node does not stop a run", withOrphan, `{"applicant": {"age": 20}}`, outcome{
			result: true, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: true, rule: ageLines}},
		}},
		{"FX 7: legacy YAML", mustParse(t, fx7Body), `{"applicant": {"age": 20}}`, outcome{
			result: true, path: []string{}, errors: []string{},
			entries: []entry{{id: "start-1", typ: "start", result: true, rule: ageLines}},
		}},
		{"FX 8: a UI graph with converging false branches", mustParse(t, fx8Body), `{"applicant": {"age": 16}}`, outcome{
			result: false, path: []string{}, errors: []string{},
			entries: []entry{{id: "start-1", typ: "start", result: false, rule: ageLines}},
		}},
		{"FX 8: the shared return reached from the policy node", mustParse(t, fx8Body), `{"applicant": {"age": 40, "income": 100}}`, outcome{
			result: false, path: []string{"policy-1"}, errors: []string{},
			entries: []entry{
				{id: "start-1", typ: "start", result: true, rule: ageLines},
				{id: "policy-1", typ: "policy", result: false, rule: incomeLines},
			},
		}},
		{"a policy that does not parse fails closed", func() *Definition {
			d := fx1()
			d.Nodes[0].Policy = &PolicyRef{Ref: "P-BROKEN"}
			return d
		}(), `{"applicant": {"age": 20}}`, outcome{
			result: false, path: []string{},
			errors: []string{"node \"s\": Parse error:  --> 1:1\n  = expected rule (A **selector** ... if ...)"},
			entries: []entry{{id: "s", typ: "start", result: false, rule: []string{ruleBroken},
				err: "Parse error:  --> 1:1\n  = expected rule (A **selector** ... if ...)"}},
		}},
		{"a legacy returnValue false forces the false branch", func() *Definition {
			d := fx1()
			d.Nodes[0].ReturnValue = false
			return d
		}(), `{"applicant": {"age": 20}}`, outcome{
			result: false, path: []string{}, errors: []string{},
			entries: []entry{{id: "s", typ: "start", result: true, rule: ageLines}},
		}},
		{"the last child of a branch wins and a custom node continues with next", &Definition{FormatVersion: 1, Nodes: []Node{
			{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"c", "p"}},
			{ID: "c", Type: "custom", Outcome: strp("first"), Next: []string{"t"}},
			{ID: "p", Type: "policy", Policy: &PolicyRef{Ref: "B-INCOME"}, OnTrue: []string{"c2"}},
			{ID: "c2", Type: "custom", Outcome: strp("second")},
			{ID: "t", Type: "return", ReturnValue: true},
		}}, `{"applicant": {"age": 20, "income": 40000}}`, outcome{
			result: true, outcome: strp("second"), path: []string{"c", "p", "c2"}, errors: []string{},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "c", typ: "custom", result: true, rule: []string{"Custom response: first"}},
				{id: "p", typ: "policy", result: true, rule: incomeLines},
				{id: "c2", typ: "custom", result: true, rule: []string{"Custom response: second"}},
			},
		}},
		{"a return after a custom node clears the outcome", &Definition{FormatVersion: 1, Nodes: []Node{
			{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"c"}},
			{ID: "c", Type: "custom", Outcome: strp(""), Next: []string{"f"}},
			{ID: "f", Type: "return", ReturnValue: false},
		}}, `{"applicant": {"age": 20}}`, outcome{
			result: false, path: []string{"c"}, errors: []string{},
			entries: []entry{
				{id: "s", typ: "start", result: true, rule: ageLines},
				{id: "c", typ: "custom", result: true, rule: []string{"Custom response: "}},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := run(t, tt.def, tt.input, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(t, res, tt.input); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("\n got %+v\nwant %+v", got, tt.want)
			}
			start := tt.def.Nodes[0]
			if res.NodeID != start.ID || res.NodeName != "Start" {
				t.Errorf("nodeId %q, nodeName %q", res.NodeID, res.NodeName)
			}
		})
	}
}

func TestRunRejectsAnInvalidDefinitionWithoutRunningIt(t *testing.T) {
	cyclic := withNodes(func() *Definition { d := fx1(); d.Nodes[0].OnTrue = []string{"a"}; return d }(),
		Node{ID: "a", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"b"}},
		Node{ID: "b", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnFalse: []string{"a"}},
	)
	tests := []struct {
		name string
		def  *Definition
		want []string
	}{
		{"FX 6: an unknown node type", func() *Definition {
			d := fx1()
			d.Nodes[1] = Node{ID: "w", Type: "webhook"}
			d.Nodes[0].OnTrue = []string{"w"}
			return d
		}(),
			[]string{`unknown node type: webhook (node "w")`}},
		{"FX 6: a cycle", cyclic, []string{`Circular reference detected involving node "a"`}},
		{"FX 6: a policy node without a policy", func() *Definition { d := fx2(); d.Nodes[1].Policy = nil; return d }(),
			[]string{`policy node "p" must have a Policy ID`}},
		{"no start node", &Definition{FormatVersion: 1}, []string{"No start node found in the flow"}},
		{"no definition", nil, []string{"No start node found in the flow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resolver := newFakeResolver(t)
			data := map[string]any{}
			res, err := Run(context.Background(), tt.def, data, nil, resolver, Options{})
			var de *DefinitionError
			if !errors.As(err, &de) || res != nil {
				t.Fatalf("Run = %v, %v; want a *DefinitionError", res, err)
			}
			if !reflect.DeepEqual(de.Details, tt.want) || de.Message() != "invalid flow definition" {
				t.Errorf("details %q, want %q", de.Details, tt.want)
			}
			plan, err := Prepare(tt.def)
			if !errors.As(err, &de) || plan != nil || !reflect.DeepEqual(de.Details, tt.want) {
				t.Errorf("Prepare = %v, %v; want the details of Run", plan, err)
			}
			if len(resolver.calls) != 0 {
				t.Errorf("resolver called %d times", len(resolver.calls))
			}
		})
	}
}

func TestRunRespondsToAPolicyThatDoesNotParseLikeAStoredRun(t *testing.T) {
	d := fx1()
	d.Nodes[0].Policy = &PolicyRef{ID: "P-BROKEN"}
	input := `{"applicant": {"age": 20}}`
	res, err := run(t, d, input, Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := newFakeResolver(t).records["P-BROKEN"].ParseErrors
	if len(errs) == 0 {
		t.Fatal("P-BROKEN parses")
	}
	want := engine.ParseFailure(ruleBroken, errs, engine.DataText(input), []string{ruleBroken})
	want.Explain()
	if got := res.NodeResponses[0].Response; !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestRunReturnsResolverFailuresOtherThanNotFound(t *testing.T) {
	down := errors.New("database is down")
	resolver := newFakeResolver(t)
	resolver.err = down
	res, err := Run(context.Background(), fx1(), map[string]any{}, nil, resolver, Options{})
	if err != down || res != nil {
		t.Errorf("Run = %v, %v; want %v", res, err, down)
	}
}

func TestRunRefusesDataThatIsNotAnObject(t *testing.T) {
	_, err := Run(context.Background(), fx1(), []any{}, nil, newFakeResolver(t), Options{})
	if !errors.Is(err, engine.ErrDataNotObject) {
		t.Errorf("err = %v", err)
	}
}

// doubling branches twice from every policy node into the next layer, so
// the executions double with each layer.
func doubling() *Definition {
	return &Definition{FormatVersion: 1, Nodes: []Node{
		{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"a", "a"}},
		{ID: "a", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"b", "b"}},
		{ID: "b", Type: "policy", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"t", "t"}},
		{ID: "t", Type: "return", ReturnValue: true},
	}}
}

func TestRunStopsAfterTheMaximumOfNodeExecutions(t *testing.T) {
	d := doubling()
	input := `{"applicant": {"age": 20}}`
	res, err := run(t, d, input, Options{})
	if err != nil || !res.Result || len(res.Errors) != 0 || len(res.NodeResponses) != 7 {
		t.Fatalf("within the default limit: %+v, %v", res, err)
	}
	res, err = run(t, d, input, Options{MaxNodeExecutions: 5})
	if err != nil {
		t.Fatal(err)
	}
	// s, a, b, t, t: the second b is the sixth execution.
	want := outcome{
		result: false, path: []string{"a", "b"},
		errors: []string{"flow stopped: more than 5 node executions"},
		entries: []entry{
			{id: "s", typ: "start", result: true, rule: ageLines},
			{id: "a", typ: "policy", result: true, rule: ageLines},
			{id: "b", typ: "policy", result: true, rule: ageLines},
		},
	}
	if got := summarize(t, res, input); !reflect.DeepEqual(got, want) {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}

// cancelling cancels its context when asked for a policy.
type cancelling struct {
	*fakeResolver
	cancel context.CancelFunc
}

func (c cancelling) ResolvePolicy(ctx context.Context, ref PolicyRef) (*ResolvedPolicy, error) {
	c.cancel()
	return c.fakeResolver.ResolvePolicy(ctx, ref)
}

func TestRunStopsBetweenNodesWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	resolver := cancelling{newFakeResolver(t), cancel}
	res, err := Run(ctx, fx2(), map[string]any{"applicant": map[string]any{"age": 30.0, "income": 1.0}}, nil, resolver, Options{})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("Run = %v, %v; want context.Canceled", res, err)
	}
	if len(resolver.calls) != 1 {
		t.Errorf("resolved %d policies after the context ended, want 1", len(resolver.calls))
	}
}

func TestRunEchoesDecodedDataWithoutRawInput(t *testing.T) {
	data := map[string]any{"applicant": map[string]any{"age": 30.0}}
	res, err := Run(context.Background(), fx1(), data, nil, newFakeResolver(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.NodeResponses[0].Response.Data; !reflect.DeepEqual(got, data) {
		t.Errorf("data = %v", got)
	}
}

// TestAPlanRunsLikeRunHoweverOftenAndConcurrentlyItRuns prepares each
// definition once and runs its inputs interleaved, in several goroutines at
// once: every result must be the one a fresh Run gives.
func TestAPlanRunsLikeRunHoweverOftenAndConcurrentlyItRuns(t *testing.T) {
	type input struct {
		json string
		opts Options
	}
	unresolved := fx2()
	unresolved.Nodes[1].Policy = &PolicyRef{ID: "00000000-0000-0000-0000-000000000000"}
	broken := fx1()
	broken.Nodes[0].Policy = &PolicyRef{Ref: "P-BROKEN"}
	tests := []struct {
		name   string
		def    *Definition
		inputs []input
	}{
		{"FX 2: every path, and a policy error", fx2(), []input{
			{json: `{"applicant": {"age": 30, "income": 45000}}`},
			{json: `{"applicant": {"age": 30, "income": 20000}}`},
			{json: `{"applicant": {"age": 15, "income": 90000}}`},
			{json: `{"applicant": {"age": 30}}`},
		}},
		{"FX 5: an unresolvable policy", unresolved, []input{
			{json: `{"applicant": {"age": 30}}`},
			{json: `{"applicant": {"age": 10}}`},
		}},
		{"FX 8: converging branches", mustParse(t, fx8Body), []input{
			{json: `{"applicant": {"age": 16}}`},
			{json: `{"applicant": {"age": 40, "income": 100}}`},
			{json: `{"applicant": {"age": 40, "income": 100000}}`},
		}},
		{"a policy that does not parse", broken, []input{{json: `{"applicant": {"age": 20}}`}}},
		{"within and beyond the limit of node executions", doubling(), []input{
			{json: `{"applicant": {"age": 20}}`},
			{json: `{"applicant": {"age": 20}}`, opts: Options{MaxNodeExecutions: 5}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Results are compared as callers see them, encoded: the
			// unexported parts are shared by design between runs.
			want := make([]string, len(tt.inputs))
			for i, in := range tt.inputs {
				res, err := run(t, tt.def, in.json, in.opts)
				if err != nil {
					t.Fatal(err)
				}
				want[i] = encoded(t, untimed(res))
			}
			plan, err := Prepare(tt.def)
			if err != nil {
				t.Fatal(err)
			}
			resolver := newFakeResolver(t)
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for k := range 25 {
						i := (g + k) % len(tt.inputs)
						in := tt.inputs[i]
						data, err := engine.DecodeData([]byte(in.json), engine.Limits{})
						if err != nil {
							t.Error(err)
							return
						}
						got, err := plan.Run(context.Background(), data, json.RawMessage(in.json), resolver, in.opts)
						if err != nil {
							t.Errorf("run %d of %s: %v", k, in.json, err)
							return
						}
						if enc := encoded(t, untimed(got)); enc != want[i] {
							t.Errorf("run %d of %s:\n got %s\nwant %s", k, in.json, enc, want[i])
							return
						}
						if got.Outcome != nil {
							// Results are the caller's to change.
							*got.Outcome = "changed"
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// encoded is res as callers receive it. It reads only what is exported,
// never the parse failure runs of one plan share, whose explanation
// another run may be writing at the same time.
func encoded(t *testing.T, res *Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// untimed zeroes the timings of a result, the only part that differs from
// one run to the next.
func untimed(res *Result) *Result {
	for i := range res.NodeResponses {
		res.NodeResponses[i].Execution = NodeExecution{}
	}
	return res
}

// fx2ReviewJSON is the whole result of FX 2's manual-review run, with the
// timings zeroed.
const fx2ReviewJSON = `{
  "nodeId": "s",
  "nodeName": "Start",
  "result": true,
  "executionPath": ["p", "review"],
  "finalOutcome": true,
  "outcome": "manual review",
  "errors": [],
  "nodeResponses": [
    {"nodeId": "s", "nodeType": "start",
     "response": {"result": true,
       "trace": {"execution": [{"selector": {"value": "applicant"}, "outcome": {"value": "an adult"},
         "conditions": [{"selector": {"value": "applicant"},
           "property": {"path": "$.applicant.age", "value": 30}, "operator": "GreaterThanOrEqual",
           "value": {"type": "number", "value": 18},
           "evaluation_details": {"left_value": {"type": "number", "value": 30},
             "right_value": {"type": "number", "value": 18}, "comparison_result": true},
           "result": true}],
         "result": true}]},
       "rule": ["A **applicant** is an adult if the __age__ of the **applicant** is at least 18."],
       "data": {"applicant": {"age": 30, "income": 20000}}, "error": null, "labels": null,
                   "explanation": "applicant is an adult: yes — the age of the applicant is 30, which is at least 18.", "warnings": []},
     "execution": {"database": "0", "engine": "0", "total": "0"}},
    {"nodeId": "p", "nodeType": "policy",
     "response": {"result": false,
       "trace": {"execution": [{"selector": {"value": "applicant"}, "outcome": {"value": "enough income"},
         "conditions": [{"selector": {"value": "applicant"},
           "property": {"path": "$.applicant.income", "value": 20000}, "operator": "GreaterThan",
           "value": {"type": "number", "value": 30000},
           "evaluation_details": {"left_value": {"type": "number", "value": 20000},
             "right_value": {"type": "number", "value": 30000}, "comparison_result": false},
           "result": false}],
         "result": false}]},
       "rule": ["A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000."],
       "data": {"applicant": {"age": 30, "income": 20000}}, "error": null, "labels": null,
                   "explanation": "applicant has enough income: no — the income of the applicant is 20000, which is not greater than 30000.", "warnings": []},
     "execution": {"database": "0", "engine": "0", "total": "0"}},
    {"nodeId": "review", "nodeType": "custom",
     "response": {"result": true,
       "trace": {"execution": [{"selector": {"value": "custom_response"}, "outcome": {"value": "manual review"},
         "conditions": [], "result": true}]},
       "rule": ["Custom response: manual review"],
       "data": {"applicant": {"age": 30, "income": 20000}}, "error": null, "labels": null,
                   "explanation": "The flow ended on a custom node that answers \"manual review\".", "warnings": []},
     "execution": {"database": "0", "engine": "0", "total": "0"}}
  ]
}`

// fx5JSON is the unresolved node's entry of FX 5.
const fx5JSON = `{"nodeId": "p", "nodeType": "policy",
  "response": {"result": false, "trace": null, "rule": [], "data": {"applicant": {"age": 30}},
    "error": "policy \"00000000-0000-0000-0000-000000000000\" referenced by node \"p\" not found", "labels": null,
                "explanation": "Nothing was evaluated: policy \"00000000-0000-0000-0000-000000000000\" referenced by node \"p\" not found.", "warnings": []},
  "execution": {"database": "0", "engine": "0", "total": "0"}}`

func TestResultJSON(t *testing.T) {
	digits := regexp.MustCompile(`^"[0-9]+"$`)
	zero := func(t *testing.T, res *Result) {
		for i := range res.NodeResponses {
			e := &res.NodeResponses[i].Execution
			for _, n := range []*Nanos{&e.Database, &e.Engine, &e.Total} {
				b, _ := json.Marshal(*n)
				if !digits.Match(b) {
					t.Errorf("timing %s is not a string of digits", b)
				}
				*n = 0
			}
		}
	}
	t.Run("FX 2 manual review, whole result", func(t *testing.T) {
		res, err := run(t, fx2(), `{"applicant": {"age": 30, "income": 20000}}`, Options{})
		if err != nil {
			t.Fatal(err)
		}
		zero(t, res)
		assertJSON(t, res, fx2ReviewJSON)
	})
	t.Run("FX 5 unresolved node, trace null", func(t *testing.T) {
		d := fx2()
		d.Nodes[1].Policy = &PolicyRef{ID: "00000000-0000-0000-0000-000000000000"}
		res, err := run(t, d, `{"applicant": {"age": 30}}`, Options{})
		if err != nil {
			t.Fatal(err)
		}
		zero(t, res)
		assertJSON(t, res.NodeResponses[1], fx5JSON)
	})
	t.Run("a message keeps its arrows when HTML is not escaped", func(t *testing.T) {
		nr := NodeResponse{NodeID: "s", NodeType: "start", Response: &engine.Result{
			Rule: []string{}, Error: &engine.Error{Kind: engine.KindParse, Message: "Parse error:  --> 1:4"}}}
		b, err := nr.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want := `{"nodeId":"s","nodeType":"start","response":{"result":false,"trace":null,"rule":[],"data":null,"error":"Parse error:  --> 1:4","labels":null,"explanation":"","warnings":[]},"execution":{"database":"0","engine":"0","total":"0"}}`
		if string(b) != want {
			t.Errorf("got  %s\nwant %s", b, want)
		}
	})
	t.Run("Nanos reads what it writes", func(t *testing.T) {
		for raw, want := range map[string]Nanos{`"530900"`: 530900, `"0"`: 0, `12`: 12} {
			var n Nanos
			if err := json.Unmarshal([]byte(raw), &n); err != nil || n != want {
				t.Errorf("Unmarshal(%s) = %d, %v", raw, n, err)
			}
		}
		var n Nanos
		if err := json.Unmarshal([]byte(`"1.5"`), &n); err == nil {
			t.Error(`"1.5" accepted`)
		}
	})
}

// assertJSON compares v's encoding with the expected JSON, ignoring layout.
func assertJSON(t *testing.T, v any, want string) {
	t.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAResolvedPolicyEvaluatesIntoTheResultItIsGiven(t *testing.T) {
	var e engine.Engine
	rp := CompilePolicy(&e, ruleAge)
	input := json.RawMessage(`{"applicant": {"age": 20}}`)
	data, err := engine.DecodeData(input, engine.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	fresh := rp.Evaluate(nil, data, input)
	reused := new(engine.Result)
	if got := rp.Evaluate(reused, data, input); got != reused || !reflect.DeepEqual(got, fresh) {
		t.Errorf("evaluated into %p, given %p; %+v, want %+v", got, reused, got, fresh)
	}
	if !fresh.Result || !reflect.DeepEqual(fresh.Rule, []string{ruleAge}) || !reflect.DeepEqual(fresh.Data, input) {
		t.Errorf("result %+v", fresh)
	}

	broken := CompilePolicy(&e, ruleBroken)
	if broken.Program != nil || len(broken.ParseErrors) == 0 {
		t.Fatalf("%q compiled: %+v", ruleBroken, broken)
	}
	want := engine.ParseFailure(ruleBroken, broken.ParseErrors, input, []string{ruleBroken})
	if got := broken.Evaluate(new(engine.Result), data, input); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestACustomNodeSaysWhetherTheFlowEndsThereOrGoesOn(t *testing.T) {
	for _, tt := range []struct {
		name string
		next []string
		want string
	}{
		{"ends", nil, `The flow ended on a custom node that answers "manual review".`},
		{"goes on", []string{"f"}, `The custom node answers "manual review", and the flow goes on to its next node.`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			def := &Definition{FormatVersion: 1, Nodes: []Node{
				{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{"c"}},
				{ID: "c", Type: "custom", Outcome: strp("manual review"), Next: tt.next},
				{ID: "f", Type: "return", ReturnValue: false},
			}}
			if tt.next == nil {
				def.Nodes[0].OnFalse = []string{"f"}
			}
			res, err := run(t, def, `{"applicant": {"age": 20}}`, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.NodeResponses[1].Response.Explanation; got != tt.want {
				t.Errorf("explanation %q, want %q", got, tt.want)
			}
		})
	}
}

// TestARunAnswersNoMoreThanItsNodesWereCharged: what a run answers stays
// within what Spend was charged for its nodes, for nodes whose answers are
// mostly their own texts: a thousand executions of custom nodes with long
// ids and outcomes, and of policy nodes with long ids, each echoing the
// input.
func TestARunAnswersNoMoreThanItsNodesWereCharged(t *testing.T) {
	long := func(prefix string, i int) string {
		return fmt.Sprintf("%s%03d-%s", prefix, i, strings.Repeat("x", 250))
	}
	custom := &Definition{FormatVersion: 1, Nodes: []Node{{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{long("c", 0)}}}}
	policies := &Definition{FormatVersion: 1, Nodes: []Node{{ID: "s", Type: "start", Policy: &PolicyRef{ID: "P-AGE"}, OnTrue: []string{long("p", 0)}}}}
	for i := range 998 {
		var next []string
		if i < 997 {
			next = []string{long("c", i+1)}
		}
		outcome := long("outcome ", i)
		custom.Nodes = append(custom.Nodes, Node{ID: long("c", i), Type: TypeCustom, Outcome: &outcome, Next: next})
		policy := Node{ID: long("p", i), Type: TypePolicy, Policy: &PolicyRef{ID: "P-AGE"}}
		if i < 997 {
			policy.OnTrue = []string{long("p", i+1)}
		}
		policies.Nodes = append(policies.Nodes, policy)
	}
	for name, d := range map[string]*Definition{"custom nodes": custom, "policy nodes": policies} {
		t.Run(name, func(t *testing.T) {
			charged := 0
			res, err := run(t, d, `{"applicant": {"age": 20}}`, Options{Spend: func(n int) error { charged += n; return nil }})
			if err != nil || len(res.Errors) != 0 || len(res.NodeResponses) != 999 {
				t.Fatalf("%d nodes ran, errors %v, %v", len(res.NodeResponses), res.Errors, err)
			}
			// A test or replay answers the nodes that ran, in words, too.
			answer := len(encoded(t, res)) + len(strings.Join(res.ExecutionPath, " → "))
			if answer > charged || charged > 4*answer {
				t.Errorf("the run answers %d bytes, charged %d", answer, charged)
			}
		})
	}
}
