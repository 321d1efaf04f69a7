package graph_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const runRuleMutation = `mutation Run($rule: String!, $data: JSON!) {
  runRule(input: {rule: $rule, data: $data}) {
    result
    rule
    data
    error
    labels
    execution { orchestrator { go database total } engine total }
    trace {
      execution {
        label selector outcome result
        conditions {
          __typename
          ... on ComparisonCondition {
            selector operator result
            property { path value }
            value { type value }
            evaluationDetails {
              leftValue { type value }
              rightValue { type value }
              comparisonResult
            }
          }
          ... on ReferenceCondition {
            selector ruleName referencedRuleOutcome result
            propertyCheck { propertyName propertyValue }
          }
        }
      }
    }
    raw
  }
}`

// A helper rule referred to by the golden rule, which also compares: both
// kinds of condition, and a label.
const vehicleRule = "2.1.3. A **Vehicle** passes the emissions test if the __co2__ of the **Vehicle** is less than 120.\n" +
	"A **Vehicle** gets road approval if the **Vehicle** passes the emissions test and the __age__ of the **Vehicle** is less than 10."

type runResult struct {
	Result    bool
	Rule      []string
	Data      json.RawMessage
	Error     *string
	Labels    map[string]bool
	Execution struct {
		Orchestrator  struct{ Go, Database, Total string }
		Engine, Total string
	}
	Trace struct {
		Execution []ruleTrace
	}
	Raw json.RawMessage
}

type ruleTrace struct {
	Label      *string
	Selector   string
	Outcome    string
	Result     bool
	Conditions []condition
}

// condition holds the fields of either member of the ConditionTrace union.
type condition struct {
	Typename string `json:"__typename"`
	Selector string
	Result   bool

	Operator          string
	Property          *engine.PropertyTrace
	Value             *engine.TypedValue
	EvaluationDetails *struct {
		LeftValue, RightValue engine.TypedValue
		ComparisonResult      bool
	}

	RuleName              string
	ReferencedRuleOutcome *string
	PropertyCheck         *struct {
		PropertyName  string
		PropertyValue any
	}
}

// shown is a trace value as the schema shows it: its type is a ValueType,
// the engine's name in capitals.
func shown(v engine.TypedValue) engine.TypedValue {
	v.Type = strings.ToUpper(v.Type)
	return v
}

func runRule(t *testing.T, f *fixture, key, rule string, data map[string]any) runResult {
	t.Helper()
	var got struct{ RunRule runResult }
	f.post(t, key, runRuleMutation, map[string]any{"rule": rule, "data": data}).decode(t, &got)
	return got.RunRule
}

// serviceRun is what the service itself gives for the same run.
func serviceRun(t *testing.T, f *fixture, rule string, data map[string]any) *service.RunResult {
	t.Helper()
	p, err := f.svc.Authenticate(t.Context(), adminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.RunRule(service.WithPrincipal(t.Context(), p), rule, raw)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// jsonValue is v as it reads back from JSON, for comparing values that
// went through different encoders.
func jsonValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRunRuleGivesTheServiceResultWithATypedTrace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		data := map[string]any{"Vehicle": map[string]any{"co2": 95, "age": 3}}
		got := runRule(t, f, adminKey, vehicleRule, data)
		want := serviceRun(t, f, vehicleRule, data)

		if !got.Result || !want.Result.Result {
			t.Fatalf("result = %v (service: %v), want true; error %v", got.Result, want.Result.Result, got.Error)
		}
		if got.Error != nil {
			t.Errorf("error = %q, want null", *got.Error)
		}
		if !reflect.DeepEqual(got.Rule, want.Rule) {
			t.Errorf("rule = %q, want %q", got.Rule, want.Rule)
		}
		if g, w := jsonValue(t, got.Data), jsonValue(t, data); !reflect.DeepEqual(g, w) {
			t.Errorf("data = %v, want %v", g, w)
		}
		if !reflect.DeepEqual(got.Labels, want.Labels) || !got.Labels["2.1.3"] {
			t.Errorf("labels = %v, want %v", got.Labels, want.Labels)
		}
		for name, v := range map[string]string{
			"engine": got.Execution.Engine, "total": got.Execution.Total,
			"orchestrator.go": got.Execution.Orchestrator.Go, "orchestrator.database": got.Execution.Orchestrator.Database,
			"orchestrator.total": got.Execution.Orchestrator.Total,
		} {
			if v == "" || strings.Trim(v, "0123456789") != "" {
				t.Errorf("execution.%s = %q, want a string of digits", name, v)
			}
		}

		if len(got.Trace.Execution) != 1 || len(want.Trace.Execution) != 1 {
			t.Fatalf("trace has %d entries (service: %d), want the golden rule's only", len(got.Trace.Execution), len(want.Trace.Execution))
		}
		g, w := got.Trace.Execution[0], want.Trace.Execution[0]
		if g.Label != nil || g.Selector != w.Selector.Value || g.Outcome != w.Outcome.Value || g.Result != w.Result {
			t.Errorf("golden rule = label %v, %q, %q, %v; want no label, %+v", g.Label, g.Selector, g.Outcome, g.Result, w)
		}
		if len(g.Conditions) != 2 || len(w.Conditions) != 2 {
			t.Fatalf("conditions: %d (service: %d), want 2", len(g.Conditions), len(w.Conditions))
		}

		ref, wref := g.Conditions[0], w.Conditions[0]
		if ref.Typename != "ReferenceCondition" || !wref.Reference {
			t.Fatalf("first condition is a %s, want a ReferenceCondition", ref.Typename)
		}
		if ref.Selector != wref.Selector.Value || ref.RuleName != wref.RuleName || ref.Result != wref.Result ||
			ref.ReferencedRuleOutcome == nil || *ref.ReferencedRuleOutcome != wref.ReferencedRuleOutcome || ref.PropertyCheck != nil {
			t.Errorf("reference condition = %+v, want %+v", ref, wref)
		}

		cmp, wcmp := g.Conditions[1], w.Conditions[1]
		if cmp.Typename != "ComparisonCondition" || wcmp.Reference {
			t.Fatalf("second condition is a %s, want a ComparisonCondition", cmp.Typename)
		}
		if cmp.Selector != wcmp.Selector.Value || wcmp.Operator != "LessThan" || cmp.Operator != "LESS_THAN" || cmp.Result != wcmp.Result {
			t.Errorf("comparison = %q %q %v, want %+v", cmp.Selector, cmp.Operator, cmp.Result, wcmp)
		}
		if cmp.Property == nil || cmp.Property.Path != "$.Vehicle.age" || cmp.Property.Path != wcmp.Property.Path ||
			!reflect.DeepEqual(jsonValue(t, cmp.Property.Value), jsonValue(t, wcmp.Property.Value)) {
			t.Errorf("property = %+v, want %+v", cmp.Property, wcmp.Property)
		}
		if cmp.Value == nil || !reflect.DeepEqual(jsonValue(t, *cmp.Value), jsonValue(t, shown(wcmp.Value))) {
			t.Errorf("value = %+v, want %+v", cmp.Value, wcmp.Value)
		}
		if cmp.EvaluationDetails == nil || !wcmp.Compared ||
			!reflect.DeepEqual(jsonValue(t, *cmp.EvaluationDetails), jsonValue(t, map[string]any{
				"LeftValue": shown(wcmp.Details.LeftValue), "RightValue": shown(wcmp.Details.RightValue), "ComparisonResult": wcmp.Details.ComparisonResult,
			})) {
			t.Errorf("evaluation details = %+v, want %+v", cmp.EvaluationDetails, wcmp.Details)
		}

		// raw is the REST object: the service's result as JSON. Only the
		// timings differ between two runs.
		var gotRaw, wantRaw map[string]any
		if err := json.Unmarshal(got.Raw, &gotRaw); err != nil {
			t.Fatalf("raw %s: %v", got.Raw, err)
		}
		wantRaw = jsonValue(t, want).(map[string]any)
		if _, ok := gotRaw["execution"].(map[string]any)["orchestrator"]; !ok {
			t.Errorf("raw has no execution.orchestrator: %s", got.Raw)
		}
		delete(gotRaw, "execution")
		delete(wantRaw, "execution")
		if !reflect.DeepEqual(gotRaw, wantRaw) {
			t.Errorf("raw = %v\nwant %v", gotRaw, wantRaw)
		}
	})
}

func TestRunRuleThatDoesNotParseIsAResultWithAnError(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		res := runRule(t, f, adminKey, "A **Person** is happy if the", map[string]any{"Person": map[string]any{}})
		if res.Result {
			t.Error("result = true, want false")
		}
		if res.Error == nil || !strings.HasPrefix(*res.Error, "Parse error:") {
			t.Fatalf("error = %v, want one beginning with \"Parse error:\"", res.Error)
		}
		if res.Labels != nil {
			t.Errorf("labels = %v, want null", res.Labels)
		}
		if len(res.Trace.Execution) != 1 || res.Trace.Execution[0].Label == nil || *res.Trace.Execution[0].Label != "Parse Error" {
			t.Fatalf("trace = %+v, want the synthetic parse-error entry", res.Trace)
		}
		c := res.Trace.Execution[0].Conditions
		if len(c) != 1 || c[0].Typename != "ComparisonCondition" || c[0].Selector != "rule_syntax" || c[0].EvaluationDetails == nil {
			t.Errorf("parse-error condition = %+v", c)
		}
		var raw struct{ Error string }
		if err := json.Unmarshal(res.Raw, &raw); err != nil || raw.Error != *res.Error {
			t.Errorf("raw error = %q (%v), want %q", raw.Error, err, *res.Error)
		}
	})
}

func TestRunRuleRefusesDataThatIsNotAnObject(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		const rule = "A **P** is ok if the __a__ of the **P** is 1."
		for name, data := range map[string]any{
			"an array":  []any{1, 2},
			"a string":  "{}",
			"a number":  42,
			"a boolean": true,
		} {
			t.Run("as a variable holding "+name, func(t *testing.T) {
				f.post(t, adminKey, runRuleMutation, map[string]any{"rule": rule, "data": data}).
					failure(t, service.CodeInvalidArgument)
			})
		}
		t.Run("as a literal list", func(t *testing.T) {
			f.post(t, adminKey, `mutation { runRule(input: {rule: "`+rule+`", data: [1, 2]}) { result } }`, nil).
				failure(t, service.CodeInvalidArgument)
		})
		t.Run("as null", func(t *testing.T) {
			f.post(t, adminKey, runRuleMutation, map[string]any{"rule": rule, "data": nil}).
				failure(t, service.CodeInvalidArgument)
		})
	})
}

func TestRunRuleAcceptsDataWrittenAsALiteral(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		var got struct{ RunRule runResult }
		f.post(t, adminKey, `mutation {
			runRule(input: {rule: "A **P** is ok if the __a__ of the **P** is greater than 1.", data: {P: {a: 2, tags: ["x <y>"]}}}) { result data }
		}`, nil).decode(t, &got)
		if !got.RunRule.Result {
			t.Error("result = false, want true")
		}
		want := map[string]any{"P": map[string]any{"a": 2, "tags": []any{"x <y>"}}}
		if g, w := jsonValue(t, got.RunRule.Data), jsonValue(t, want); !reflect.DeepEqual(g, w) {
			t.Errorf("data = %s, want %v", got.RunRule.Data, want)
		}
	})
}

func TestAnAuditorMayNotRunRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		ctx, op := t.Context(), f.svc.Operator()
		if _, err := op.CreateUser(ctx, "audrey@acme.test", "Audrey"); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, f.boot.Organization.ID, "audrey@acme.test", authz.RoleAuditor); err != nil {
			t.Fatal(err)
		}
		key, err := op.CreateKey(ctx, service.KeyInput{
			Organization: f.boot.Organization.ID, UserEmail: "audrey@acme.test", Name: "audit", Scope: authz.ScopeView,
		})
		if err != nil {
			t.Fatal(err)
		}
		res := f.post(t, key.Secret, runRuleMutation, map[string]any{
			"rule": "A **P** is ok if the __a__ of the **P** is 1.", "data": map[string]any{"P": map[string]any{"a": 1}},
		})
		e := res.failure(t, service.CodePermissionDenied)
		if len(e.Path) != 1 || e.Path[0] != "runRule" {
			t.Errorf("path = %v, want [runRule]", e.Path)
		}

		var v viewerData
		f.post(t, key.Secret, viewerQuery, nil).decode(t, &v)
		if v.Viewer.Role != "AUDITOR" || v.Viewer.Key.Scope != "VIEW" {
			t.Errorf("auditor's viewer: role %s, scope %s", v.Viewer.Role, v.Viewer.Key.Scope)
		}
	})
}

func TestAnUnreachableAuthorizerDeniesEverything(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		az, err := authz.NewRemote("http://127.0.0.1:1")
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, withAuthorizer(az))
		f.post(t, adminKey, runRuleMutation, map[string]any{
			"rule": "A **P** is ok if the __a__ of the **P** is 1.", "data": map[string]any{"P": map[string]any{"a": 1}},
		}).failure(t, service.CodeAuthorizationUnavailable)
		f.post(t, adminKey, viewerQuery, nil).failure(t, service.CodeAuthorizationUnavailable)
	})
}
