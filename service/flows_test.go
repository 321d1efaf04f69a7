package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const (
	adultRule  = "A **applicant** is an adult if the __age__ of the **applicant** is at least 18."
	incomeRule = "A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000."
)

// adultFlow is a start node on the policy ref (a JSON object) with both
// branches ending in returns.
func adultFlow(ref string) json.RawMessage {
	return json.RawMessage(`{"formatVersion": 1, "nodes": [
		{"id": "s", "type": "start", "policy": ` + ref + `, "onTrue": "yes", "onFalse": "no"},
		{"id": "yes", "type": "return", "returnValue": true},
		{"id": "no", "type": "return", "returnValue": false}]}`)
}

// chainFlow runs start on the first policy ref, then on true a policy node
// p on the second; p's false branch ends in a manual review.
func chainFlow(first, second string) json.RawMessage {
	return json.RawMessage(`{"formatVersion": 1, "nodes": [
		{"id": "s", "type": "start", "policy": ` + first + `, "onTrue": "p", "onFalse": "no"},
		{"id": "p", "type": "policy", "policy": ` + second + `, "onTrue": "yes", "onFalse": "review"},
		{"id": "review", "type": "custom", "outcome": "manual review"},
		{"id": "yes", "type": "return", "returnValue": true},
		{"id": "no", "type": "return", "returnValue": false}]}`)
}

func byID(id uuid.UUID) string     { return `{"id": "` + id.String() + `"}` }
func byBaseID(id uuid.UUID) string { return `{"baseId": "` + id.String() + `"}` }

// publishedPolicy is a policy the admin created and published: visible to
// the whole organization.
func (f *fixture) publishedPolicy(t testing.TB, name, rule string) *service.Policy {
	t.Helper()
	return f.publishedPolicyAs(t, f.as(t, adminKey, ""), name, rule)
}

// publishedPolicyAs is publishedPolicy, created and published by admin.
func (f *fixture) publishedPolicyAs(t testing.TB, admin context.Context, name, rule string) *service.Policy {
	t.Helper()
	p, err := f.svc.CreatePolicy(admin, service.Changes{Name: &name, Rule: &rule})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.svc.PublishPolicy(admin, p.ID, service.Changes{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (f *fixture) createFlow(t *testing.T, ctx context.Context, definition json.RawMessage, tests ...service.TestCase) *service.SavedFlow {
	t.Helper()
	c := service.Changes{Name: ptr("flow"), Definition: definition}
	if tests != nil {
		c.Tests = &tests
	}
	fl, err := f.svc.CreateFlow(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	return fl
}

func flowTest(name, data, expect string) service.TestCase {
	return service.TestCase{Name: name, Data: json.RawMessage(data), Expect: json.RawMessage(expect)}
}

func TestAStoredFlowIsNormalizedAndValidatedOnSave(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		yaml := "flow:\n  start:\n    - id: start-1\n      type: start\n      policyId: " + adult.ID.String() +
			"\n      onTrue:\n        - id: t\n          type: return\n          returnValue: true\n"
		text, _ := json.Marshal(yaml)
		saved := f.createFlow(t, admin, text)
		want := `{"formatVersion":1,"nodes":[{"id":"start-1","type":"start","policy":{"ref":"` + adult.ID.String() + `"},"onTrue":"t"},` +
			`{"id":"t","type":"return","returnValue":true}]}`
		if string(saved.Definition) != want {
			t.Errorf("stored definition\n%s\nwant\n%s", saved.Definition, want)
		}
		if len(saved.Validation.Errors) != 0 || !reflect.DeepEqual(saved.Validation.Warnings, []string{`start node "start-1" is missing a FALSE path`}) {
			t.Errorf("validation %+v", saved.Validation)
		}
		if got, err := f.svc.Flow(admin, saved.BaseID); err != nil || string(got.Definition) != want {
			t.Errorf("loaded definition %s, %v; want it as saved", got.Definition, err)
		}
		r, err := db.Client().Record.Get(context.Background(), saved.ID)
		if err != nil || r.Rule != "" || string(r.Schema) != "null" {
			t.Errorf("stored record: rule %q, schema %s, %v", r.Rule, r.Schema, err)
		}

		for name, c := range map[string]service.Changes{
			"a rule":                 {Name: ptr("x"), Definition: adultFlow(byID(adult.ID)), Rule: ptr(adultRule)},
			"a schema":               {Name: ptr("x"), Definition: adultFlow(byID(adult.ID)), Schema: json.RawMessage(`{}`)},
			"no definition":          {Name: ptr("x")},
			"a definition not JSON":  {Name: ptr("x"), Definition: json.RawMessage(`{`)},
			"an unknown version":     {Name: ptr("x"), Definition: json.RawMessage(`{"formatVersion": 2, "nodes": []}`)},
			"a test expecting 1":     {Name: ptr("x"), Definition: adultFlow(byID(adult.ID)), Tests: tests(flowTest("t", `{}`, `1`))},
			"a test expecting null":  {Name: ptr("x"), Definition: adultFlow(byID(adult.ID)), Tests: tests(flowTest("t", `{}`, `null`))},
			"a test with array data": {Name: ptr("x"), Definition: adultFlow(byID(adult.ID)), Tests: tests(flowTest("t", `[]`, `true`))},
		} {
			_, err := f.svc.CreateFlow(admin, c)
			if service.CodeOf(err) != service.CodeInvalidArgument {
				t.Errorf("creating a flow with %s: %v, want invalid_argument", name, err)
			}
		}
		_, err = f.svc.CreateFlow(admin, service.Changes{Name: ptr("x"), Definition: json.RawMessage(`{"formatVersion": "one", "nodes": 5}`)})
		var e *service.Error
		if !errorsAs(err, &e) || e.Message != "invalid flow definition" ||
			!reflect.DeepEqual(e.Details, []string{"formatVersion must be an integer", "nodes must be an array"}) {
			t.Errorf("an undecodable definition: %#v", err)
		}
		if n, _ := db.Client().Base.Query().Count(context.Background()); n != 2 {
			t.Errorf("%d bases after refused creates, want 2", n)
		}
	})
}

func errorsAs(err error, target **service.Error) bool {
	e, ok := err.(*service.Error)
	*target = e
	return ok
}

func TestAFlowPinsOnePolicyAndFloatsAnother(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		fl := f.createFlow(t, admin, chainFlow(byID(adult.ID), byBaseID(income.BaseID)))
		data := json.RawMessage(`{"applicant": {"age": 20, "income": 25000}}`)
		run := func() *service.FlowResult {
			t.Helper()
			res, err := f.svc.RunFlow(admin, fl.BaseID, data)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		// 20 is adult by version 1; 25000 is not enough income by version 1.
		before := run()
		if !before.Result || before.Outcome == nil || *before.Outcome != "manual review" ||
			!reflect.DeepEqual(before.ExecutionPath, []string{"p", "review"}) || before.NodeResponses[1].Response.Result {
			t.Fatalf("before: %+v", before)
		}

		// New versions of both policies: the adult age goes up to 21 (the
		// pinned node keeps 18), the income bar down to 20000 (the floating
		// node follows).
		for _, c := range []struct {
			base     uuid.UUID
			from, to string
		}{{adult.BaseID, "18", "21"}, {income.BaseID, "30000", "20000"}} {
			draft, err := f.svc.PolicyDraftFromVersion(admin, c.base, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.PublishPolicy(admin, draft.ID, service.Changes{Rule: ptr(strings.Replace(draft.Rule, c.from, c.to, 1))}); err != nil {
				t.Fatal(err)
			}
		}
		after := run()
		if !after.Result || after.Outcome != nil || !reflect.DeepEqual(after.ExecutionPath, []string{"p"}) ||
			!after.NodeResponses[0].Response.Result || !after.NodeResponses[1].Response.Result {
			t.Fatalf("after: %+v", after)
		}
		if rule := after.NodeResponses[0].Response.Rule; !reflect.DeepEqual(rule, []string{adultRule}) {
			t.Errorf("the pinned node ran %q, want version 1", rule)
		}
		if rule := after.NodeResponses[1].Response.Rule; !reflect.DeepEqual(rule, []string{strings.Replace(incomeRule, "30000", "20000", 1)}) {
			t.Errorf("the floating node ran %q, want version 2", rule)
		}
	})
}

func TestAFlowCannotRunADeletedPolicy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		for name, ref := range map[string]string{"by id": byID(adult.ID), "by base id": byBaseID(adult.BaseID), "by legacy ref": `{"ref": "` + adult.ID.String() + `"}`} {
			fl := f.createFlow(t, admin, adultFlow(ref))
			if len(fl.Validation.Warnings) != 0 {
				t.Errorf("%s: warnings %v before the delete", name, fl.Validation.Warnings)
			}
			if res, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(`{"applicant": {"age": 20}}`)); err != nil || !res.Result {
				t.Fatalf("%s: before the delete %+v, %v", name, res, err)
			}
		}
		if err := f.svc.DeletePolicy(admin, adult.BaseID); err != nil {
			t.Fatal(err)
		}
		page, err := f.svc.Flows(admin, service.ListOptions{})
		if err != nil || len(page.Items) != 3 {
			t.Fatalf("flows %+v, %v", page, err)
		}
		for _, s := range page.Items {
			fl, err := f.svc.Flow(admin, s.BaseID)
			if err != nil {
				t.Fatal(err)
			}
			var def struct {
				Nodes []struct {
					Policy map[string]string `json:"policy"`
				} `json:"nodes"`
			}
			if err := json.Unmarshal(fl.Definition, &def); err != nil {
				t.Fatal(err)
			}
			ref := ""
			for _, v := range def.Nodes[0].Policy {
				ref = v
			}
			msg := fmt.Sprintf("policy %q referenced by node %q not found", ref, "s")

			res, err := f.svc.RunFlow(admin, s.BaseID, json.RawMessage(`{"applicant": {"age": 20}}`))
			if err != nil {
				t.Fatal(err)
			}
			if res.Result || res.FinalOutcome || !reflect.DeepEqual(res.Errors, []string{msg}) || len(res.NodeResponses) != 1 ||
				res.NodeResponses[0].Response.Error == nil || res.NodeResponses[0].Response.Error.Message != msg {
				t.Errorf("run over a deleted policy: %+v", res)
			}
			_, err = f.svc.PublishFlow(admin, fl.ID, service.Changes{})
			wantCode(t, err, service.CodeNotFound)
			if err.(*service.Error).Message != msg {
				t.Errorf("publish refused with %q, want %q", err.(*service.Error).Message, msg)
			}
			saved, err := f.svc.UpdateFlowDraft(admin, fl.ID, service.Changes{Description: ptr("again")})
			if err != nil || !reflect.DeepEqual(saved.Validation.Warnings, []string{msg}) {
				t.Errorf("saved over a deleted policy: %+v, %v", saved, err)
			}
		}
	})
}

// TestAFlowRecordIsCheckedWithoutChangingIt checks a stored draft as its
// save did, and again once its policy is deleted: whoever may read the
// draft sees its problems, an auditor, who may not run the policy, too;
// its revision stays, and another tenant finds nothing.
func TestAFlowRecordIsCheckedWithoutChangingIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin := as["admin"]
		adult := f.publishedPolicy(t, "adult", adultRule)
		saved := f.createFlow(t, admin, json.RawMessage(`{"formatVersion": 1, "nodes": [
			{"id": "s", "type": "start", "policy": `+byBaseID(adult.BaseID)+`, "onTrue": "yes"},
			{"id": "yes", "type": "return"}]}`))
		want := flow.Problems{
			Errors:   []string{`return node "yes" must have a boolean returnValue`},
			Warnings: []string{`start node "s" is missing a FALSE path`},
		}
		if !reflect.DeepEqual(saved.Validation, want) {
			t.Fatalf("the save found %+v, want %+v", saved.Validation, want)
		}
		as["auditor"] = f.auditor(t)
		for _, who := range []string{"admin", "editor", "viewer", "auditor"} {
			got, err := f.svc.FlowValidation(as[who], saved.ID)
			if err != nil || !reflect.DeepEqual(*got, want) {
				t.Errorf("%s: %+v, %v; want %+v", who, got, err, want)
			}
		}
		_, err := f.svc.FlowValidation(as["other tenant"], saved.ID)
		wantCode(t, err, service.CodeNotFound)

		if err := f.svc.DeletePolicy(admin, adult.BaseID); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.FlowValidation(admin, saved.BaseID)
		want.Warnings = append(want.Warnings, fmt.Sprintf("policy %q referenced by node %q not found", adult.BaseID, "s"))
		if err != nil || !reflect.DeepEqual(*got, want) {
			t.Errorf("after the delete: %+v, %v; want %+v", got, err, want)
		}
		if fl, err := f.svc.Flow(admin, saved.ID); err != nil || fl.Revision != saved.Flow.Revision {
			t.Errorf("after the checks: %+v, %v; want revision %d", fl, err, saved.Flow.Revision)
		}
	})
}

// TestAFlowOfMoreNodesThanAFlowMayHoldIsRefused sends a chain of 1,001
// nodes (the console could not lay it out) to be created, saved over a
// draft and tested: each is refused and nothing changes.
func TestAFlowOfMoreNodesThanAFlowMayHoldIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		chain := func(n int) json.RawMessage {
			nodes := []string{`{"id": "n0", "type": "start", "policy": ` + byBaseID(adult.BaseID) + `, "onTrue": "n1", "onFalse": "no"}`}
			for i := 1; i < n-2; i++ {
				nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "type": "policy", "policy": %s, "onTrue": "n%d", "onFalse": "no"}`, i, byBaseID(adult.BaseID), i+1))
			}
			nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "type": "return", "returnValue": true}`, n-2), `{"id": "no", "type": "return", "returnValue": false}`)
			return json.RawMessage(`{"formatVersion": 1, "nodes": [` + strings.Join(nodes, ",") + `]}`)
		}
		saved := f.createFlow(t, admin, chain(flow.MaxNodes))
		if len(saved.Validation.Errors)+len(saved.Validation.Warnings) != 0 {
			t.Fatalf("a flow of %d nodes: %+v", flow.MaxNodes, saved.Validation)
		}
		tooLong := chain(flow.MaxNodes + 1)
		want := []string{"the definition holds 1001 nodes; a flow may hold at most 1000"}
		for name, call := range map[string]func() error{
			"create": func() error {
				_, err := f.svc.CreateFlow(admin, service.Changes{Name: ptr("long"), Definition: tooLong})
				return err
			},
			"save": func() error {
				_, err := f.svc.UpdateFlowDraft(admin, saved.ID, service.Changes{Definition: tooLong})
				return err
			},
			"test": func() error {
				_, err := f.svc.TestFlow(admin, service.FlowTestInput{Definition: tooLong, Data: json.RawMessage(`{"applicant": {"age": 30}}`)})
				return err
			},
		} {
			var e *service.Error
			if err := call(); !errorsAs(err, &e) || e.Code != service.CodeInvalidArgument || !reflect.DeepEqual(e.Details, want) {
				t.Errorf("%s: %v; want invalid_argument with %q", name, err, want)
			}
		}
		if n, _ := db.Client().Base.Query().Count(context.Background()); n != 2 {
			t.Errorf("%d bases after the refused create, want 2", n)
		}
		fl, err := f.svc.Flow(admin, saved.ID)
		if err != nil {
			t.Fatal(err)
		}
		if fl.Revision != saved.Flow.Revision {
			t.Errorf("revision %d after the refused save, want %d", fl.Revision, saved.Flow.Revision)
		}
	})
}

// TestASaveReportsAtMostTwentyReferencesThatDoNotResolve saves a flow of
// 25 references to policies that do not exist: each is a lookup no cache
// answers, so the save and the check stop looking after twenty, and say
// so.
func TestASaveReportsAtMostTwentyReferencesThatDoNotResolve(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		var nodes, want []string
		for i := range 25 {
			kind, ref := "policy", uuid.Must(uuid.NewV7())
			if i == 0 {
				kind = "start"
			}
			next := fmt.Sprintf("n%d", i+1)
			if i == 24 {
				next = "end"
			}
			nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "type": %q, "policy": {"id": %q}, "onTrue": %q, "onFalse": %q}`, i, kind, ref, next, next))
			if i < 20 {
				want = append(want, fmt.Sprintf("policy %q referenced by node %q not found", ref, fmt.Sprintf("n%d", i)))
			}
		}
		want = append(want, "5 more policy references were not checked, after 20 that did not resolve")
		definition := `{"formatVersion": 1, "nodes": [` + strings.Join(nodes, ",") + `, {"id": "end", "type": "return", "returnValue": true}]}`
		saved := f.createFlow(t, admin, json.RawMessage(definition))
		if len(saved.Validation.Errors) != 0 || !reflect.DeepEqual(saved.Validation.Warnings, want) {
			t.Errorf("the save reported %+v, want the warnings %q", saved.Validation, want)
		}
		checked, err := f.svc.FlowValidation(admin, saved.ID)
		if err != nil || !reflect.DeepEqual(*checked, saved.Validation) {
			t.Errorf("the check reported %+v, %v; want what the save did", checked, err)
		}
	})
}

// TestAFlowOfManyPoliciesResolvesEach runs a chain of twelve nodes, each
// on a policy of its own: more than the resolver keeps without an index.
func TestAFlowOfManyPoliciesResolvesEach(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		var nodes []string
		for i := range 12 {
			pol := f.publishedPolicy(t, fmt.Sprintf("adult %d", i), strings.Replace(adultRule, "18", fmt.Sprint(18+i), 1))
			kind, next := "policy", fmt.Sprintf("n%d", i+1)
			if i == 0 {
				kind = "start"
			}
			if i == 11 {
				next = "yes"
			}
			nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "type": %q, "policy": %s, "onTrue": %q, "onFalse": "no"}`, i, kind, byBaseID(pol.BaseID), next))
		}
		definition := `{"formatVersion": 1, "nodes": [` + strings.Join(nodes, ",") +
			`, {"id": "yes", "type": "return", "returnValue": true}, {"id": "no", "type": "return", "returnValue": false}]}`
		fl := f.createFlow(t, admin, json.RawMessage(definition))
		if len(fl.Validation.Errors)+len(fl.Validation.Warnings) != 0 {
			t.Fatalf("validation %+v", fl.Validation)
		}
		for age, want := range map[int]bool{29: true, 28: false} {
			res, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(fmt.Sprintf(`{"applicant": {"age": %d}}`, age)))
			if err != nil || res.Result != want || len(res.Errors) != 0 {
				t.Errorf("age %d: %+v, %v; want %v", age, res, err, want)
			}
		}
	})
}

func TestAFlowCannotReachAnotherTenantsPolicy(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		admin, beta := as["admin"], as["other tenant"]
		theirs, err := f.svc.CreatePolicy(beta, service.Changes{Name: ptr("theirs"), Rule: ptr(adultRule)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(beta, theirs.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		betaTenant := theirs.Owner.ID
		data := json.RawMessage(`{"applicant": {"age": 20}}`)
		for _, ref := range []string{byID(theirs.ID), byBaseID(theirs.BaseID), `{"ref": "` + theirs.BaseID.String() + `"}`} {
			definition := adultFlow(ref)
			fl := f.createFlow(t, admin, definition)
			if len(fl.Validation.Warnings) != 1 || !strings.HasSuffix(fl.Validation.Warnings[0], `referenced by node "s" not found`) {
				t.Errorf("saved %s: warnings %v", ref, fl.Validation.Warnings)
			}
			_, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{})
			wantCode(t, err, service.CodeNotFound)
			for name, run := range map[string]func() (*service.FlowResult, error){
				"run": func() (*service.FlowResult, error) { return f.svc.RunFlow(admin, fl.BaseID, data) },
				"test": func() (*service.FlowResult, error) {
					return f.svc.TestFlow(admin, service.FlowTestInput{Definition: definition, Data: data})
				},
			} {
				res, err := run()
				if err != nil {
					t.Fatal(err)
				}
				if res.Result || len(res.Errors) != 1 || !strings.HasSuffix(res.Errors[0], `referenced by node "s" not found`) ||
					len(res.NodeResponses) != 1 || len(res.NodeResponses[0].Response.Rule) != 0 {
					t.Errorf("%s over %s: %+v", name, ref, res)
				}
			}
		}
		f.svc.Close() // stores the executed events of the runs
		if n := audittest.Count(t, db, audittest.Filter{Tenant: &betaTenant, Action: auditevent.ActionExecuted}); n != 0 {
			t.Errorf("%d executed events in the other tenant, want 0", n)
		}
		if n := audittest.Count(t, db, audittest.Filter{Tenant: &f.acme.Organization.ID, Action: auditevent.ActionExecuted}); n != 3 {
			t.Errorf("%d executed events in Acme, want 3, one per stored run", n)
		}
	})
}

func TestPublishingAFlowRunsItsTests(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		definition := chainFlow(byID(adult.ID), byBaseID(income.BaseID))
		passing := []service.TestCase{
			flowTest("rich adult", `{"applicant": {"age": 30, "income": 45000}}`, `true`),
			flowTest("minor", `{"applicant": {"age": 15, "income": 90000}}`, `false`),
			flowTest("poor adult", `{"applicant": {"age": 30, "income": 20000}}`, `"manual review"`),
		}
		failing := append(passing[:3:3],
			flowTest("no income", `{"applicant": {"age": 30}}`, `true`),
			flowTest("adult is rejected", `{"applicant": {"age": 30, "income": 45000}}`, `false`),
			flowTest("minor is reviewed", `{"applicant": {"age": 15}}`, `"manual review"`),
			// The run stops on the missing income, fail closed: its false
			// is no answer.
			flowTest("no income is refused", `{"applicant": {"age": 30}}`, `false`),
		)
		draft := f.createFlow(t, admin, definition, failing...)
		before := f.auditActions(t, draft.BaseID)

		_, err := f.svc.PublishFlow(admin, draft.ID, service.Changes{})
		wantCode(t, err, service.CodeConflict)
		if msg := err.(*service.Error).Message; msg != "tests failed: adult is rejected, minor is reviewed, no income, no income is refused" {
			t.Errorf("message %q", msg)
		}
		r, _ := db.Client().Record.Get(context.Background(), draft.ID)
		if r.Status != record.StatusDraft || r.Version != nil || r.Revision != 1 {
			t.Errorf("a refused publish changed the record: %+v", r)
		}
		if after := f.auditActions(t, draft.BaseID); !reflect.DeepEqual(after, before) {
			t.Errorf("a refused publish wrote events: %v", after)
		}

		v1, err := f.svc.PublishFlow(admin, draft.ID, service.Changes{Tests: &passing})
		if err != nil || *v1.Version != 1 || len(v1.Tests) != 3 {
			t.Fatalf("publishing with passing tests: %+v, %v", v1, err)
		}
	})
}

func TestOnlyAuthorsTestFlows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		adult := f.publishedPolicy(t, "adult", adultRule)
		as["auditor"] = f.auditor(t)
		definition, data := adultFlow(byID(adult.ID)), json.RawMessage(`{"applicant": {"age": 20}}`)
		for who, want := range map[string]service.Code{"viewer": service.CodePermissionDenied, "auditor": service.CodePermissionDenied,
			"editor": "", "publisher": "", "admin": ""} {
			res, err := f.svc.TestFlow(as[who], service.FlowTestInput{Definition: definition, Data: data})
			switch {
			case want != "":
				wantCode(t, err, want)
			case err != nil || !res.Result:
				t.Errorf("%s tests a flow: %+v, %v", who, res, err)
			}
		}
		_, err := f.svc.TestFlow(as["editor"], service.FlowTestInput{Definition: definition, Data: json.RawMessage(`[1]`)})
		wantCode(t, err, service.CodeInvalidArgument)
		_, err = f.svc.TestFlow(as["editor"], service.FlowTestInput{Data: data})
		wantCode(t, err, service.CodeInvalidArgument)
		f.svc.Close()
		if n := audittest.Count(t, db, audittest.Filter{Action: auditevent.ActionExecuted}); n != 0 {
			t.Errorf("%d executed events after ad hoc tests, want 0", n)
		}
	})
}

func TestAFlowRunRecordsItsExecution(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, as["admin"], adultFlow(byBaseID(adult.BaseID)))
		if _, err := f.svc.RunFlowVersion(as["viewer"], fl.ID, json.RawMessage(`{"applicant": {"age": 16}}`)); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{`[]`, `"x"`, `null`, ``, `{"applicant": `} {
			_, err := f.svc.RunFlow(as["viewer"], fl.BaseID, json.RawMessage(bad))
			wantCode(t, err, service.CodeInvalidArgument)
		}
		_, err := f.svc.RunFlow(as["viewer"], adult.BaseID, json.RawMessage(`{}`))
		wantCode(t, err, service.CodeNotFound) // a policy is not a flow
		_, err = f.svc.RunFlowVersion(as["viewer"], fl.BaseID, json.RawMessage(`{}`))
		wantCode(t, err, service.CodeNotFound) // a base id is not a record id
		f.svc.Close()
		evs := audittest.Events(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
		if len(evs) != 1 {
			t.Fatalf("executed events %+v", evs)
		}
		ev := evs[0]
		if ev.Kind != auditevent.KindFlow || *ev.BaseID != fl.BaseID || *ev.RecordID != fl.ID || ev.Details["result"] != false ||
			ev.Details["status"] != "draft" || ev.Details["durationNs"] == nil {
			t.Errorf("executed event %+v", ev)
		}
	})
}

func TestAFlowRunThatStoppedRecordsWhyInItsExecution(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byID(adult.ID)))
		finished, err := f.svc.RunFlowVersion(admin, fl.ID, json.RawMessage(`{"applicant": {"age": 20}}`))
		if err != nil || len(finished.Errors) != 0 {
			t.Fatalf("finished run %+v, %v", finished, err)
		}
		stopped, err := f.svc.RunFlowVersion(admin, fl.ID, json.RawMessage(`{"applicant": {}}`))
		want := []any{`node "s": Missing property: property 'age' not found at $.applicant`}
		if err != nil || stopped.Result || !reflect.DeepEqual(stopped.Errors, []string{want[0].(string)}) {
			t.Fatalf("stopped run %+v, %v", stopped, err)
		}
		f.svc.Close()
		evs := audittest.Events(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
		if len(evs) != 2 {
			t.Fatalf("executed events %+v", evs)
		}
		// The finished run approved, the stopped one did not.
		for _, ev := range evs {
			errs, recorded := ev.Details["errors"]
			switch ev.Details["result"] {
			case true:
				if recorded {
					t.Errorf("the finished run recorded errors %v", errs)
				}
			case false:
				if !reflect.DeepEqual(errs, want) {
					t.Errorf("the stopped run recorded %+v, want errors %v", ev.Details, want)
				}
			default:
				t.Errorf("executed event %+v", ev.Details)
			}
		}
	})
}

// fixtureWith is newFixture with the service's configuration in the
// test's hands: an authorizer wrapped by wrap, and a registry.
func fixtureWith(t *testing.T, db *database.DB, wrap func(authz.Authorizer) authz.Authorizer, reg prometheus.Registerer) *fixture {
	t.Helper()
	az, err := authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.Config{DB: db, Authorizer: wrap(az), Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{svc: svc, db: db}
	if f.acme, err = svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Key: adminKey}); err != nil {
		t.Fatal(err)
	}
	return f
}

// runsFail decides as the authorizer it wraps, except that while *down it
// cannot decide whether anyone may run anything.
type runsFail struct {
	authz.Authorizer
	down *bool
}

func (a runsFail) Decide(ctx context.Context, p authz.Principal, action authz.Action, r authz.Resource) (authz.Decision, error) {
	if *a.down && action == authz.ActionRun {
		return authz.Decision{}, fmt.Errorf("%w: down for the test", authz.ErrUnavailable)
	}
	return a.Authorizer.Decide(ctx, p, action, r)
}

// TestFlowsFailClosedWhenTheAuthorizerFails: a policy whose runnability
// cannot be decided is neither evaluated nor skipped; the request fails.
func TestFlowsFailClosedWhenTheAuthorizerFails(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var down bool
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return runsFail{az, &down} }, nil)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		definition := adultFlow(byID(adult.ID))
		fl := f.createFlow(t, admin, definition, flowTest("adult", `{"applicant": {"age": 20}}`, `true`))
		down = true

		saved, err := f.svc.UpdateFlowDraft(admin, fl.ID, service.Changes{Description: ptr("edited")})
		want := []string{`policy "` + adult.ID.String() + `" referenced by node "s" could not be checked: authorization is unavailable`}
		if err != nil || !reflect.DeepEqual(saved.Validation.Warnings, want) {
			t.Errorf("saved while the authorizer fails: %+v, %v", saved, err)
		}
		_, err = f.svc.PublishFlow(admin, fl.ID, service.Changes{})
		wantCode(t, err, service.CodeAuthorizationUnavailable)
		_, err = f.svc.TestFlow(admin, service.FlowTestInput{Definition: definition, Data: json.RawMessage(`{"applicant": {"age": 20}}`)})
		wantCode(t, err, service.CodeAuthorizationUnavailable)
		_, err = f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(`{"applicant": {"age": 20}}`))
		wantCode(t, err, service.CodeAuthorizationUnavailable)
		if r, _ := db.Client().Record.Get(context.Background(), fl.ID); r.Status != record.StatusDraft {
			t.Errorf("published while the authorizer fails: %+v", r)
		}
	})
}

// TestAWarmFlowRunReadsNothingFromTheDatabase counts the run cache's
// misses: once a flow ran, running it again finds its base, record,
// definition, and its policies' bases, records and programs in memory.
func TestAWarmFlowRunReadsNothingFromTheDatabase(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return az }, reg)
		svc := f.svc
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		fl := f.createFlow(t, admin, chainFlow(`{"ref": "`+adult.BaseID.String()+`"}`, byID(income.ID)))
		data := json.RawMessage(`{"applicant": {"age": 20, "income": 40000}}`)
		for i := range 3 {
			before := cacheMisses(t, reg)
			res, err := svc.RunFlow(admin, fl.BaseID, data)
			if err != nil || !res.Result {
				t.Fatalf("run %d: %+v, %v", i, res, err)
			}
			if misses := cacheMisses(t, reg) - before; i > 0 && misses != 0 {
				t.Errorf("run %d missed the cache %v times", i, misses)
			}
		}
	})
}

func cacheMisses(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, fam := range families {
		if fam.GetName() != "verdict_cache_lookups_total" {
			continue
		}
		for _, m := range fam.Metric {
			for _, l := range m.Label {
				if l.GetName() == "result" && l.GetValue() == "miss" {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}

// countsRuns decides as the authorizer it wraps and counts the decisions
// on running something.
type countsRuns struct {
	authz.Authorizer
	runs *atomic.Int64
}

func (a countsRuns) Decide(ctx context.Context, p authz.Principal, action authz.Action, r authz.Resource) (authz.Decision, error) {
	if action == authz.ActionRun {
		a.runs.Add(1)
	}
	return a.Authorizer.Decide(ctx, p, action, r)
}

// sameTwice runs the policy ref at the start node and again at a policy
// node on its true branch.
func sameTwice(ref string) json.RawMessage {
	return json.RawMessage(`{"formatVersion": 1, "nodes": [
		{"id": "s", "type": "start", "policy": ` + ref + `, "onTrue": "p", "onFalse": "no"},
		{"id": "p", "type": "policy", "policy": ` + ref + `, "onTrue": "yes", "onFalse": "no"},
		{"id": "yes", "type": "return", "returnValue": true},
		{"id": "no", "type": "return", "returnValue": false}]}`)
}

func TestAFlowResolvesAndAuthorizesEachPolicyOnceARunOrAPublish(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var runs atomic.Int64
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return countsRuns{az, &runs} }, nil)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, sameTwice(byBaseID(adult.BaseID)),
			flowTest("adult", `{"applicant": {"age": 20}}`, `true`),
			flowTest("minor", `{"applicant": {"age": 10}}`, `false`))

		runs.Store(0)
		res, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(`{"applicant": {"age": 20}}`))
		if err != nil || !res.Result || len(res.NodeResponses) != 2 {
			t.Fatalf("run: %+v, %v", res, err)
		}
		if n := runs.Load(); n != 2 {
			t.Errorf("a run of a flow naming one policy twice asked %d run decisions, want 2 (the flow, the policy)", n)
		}

		runs.Store(0)
		if _, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		if n := runs.Load(); n != 1 {
			t.Errorf("publishing checked the policy and ran two tests with %d run decisions, want 1", n)
		}
	})
}

// TestFlowReadsDecodeEachRevisionOnce counts the definition cache's misses:
// what a save or a publish decoded serves the answer and every later read.
func TestFlowReadsDecodeEachRevisionOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return az }, reg)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		before := cacheLookups(t, reg, "definition", "miss")
		fl := f.createFlow(t, admin, adultFlow(byID(adult.ID)))
		saved, err := f.svc.UpdateFlowDraft(admin, fl.ID, service.Changes{Definition: adultFlow(byBaseID(adult.BaseID))})
		if err != nil {
			t.Fatal(err)
		}
		published, err := f.svc.PublishFlow(admin, fl.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			got, err := f.svc.Flow(admin, fl.BaseID)
			if err != nil || string(got.Definition) != string(saved.Definition) || string(published.Definition) != string(saved.Definition) {
				t.Fatalf("read %s, published %s, saved %s, %v", got.Definition, published.Definition, saved.Definition, err)
			}
		}
		if misses := cacheLookups(t, reg, "definition", "miss") - before; misses != 0 {
			t.Errorf("saving, publishing and reading a flow decoded its definition %v times", misses)
		}
	})
}

func TestTestFlowPicksTheDefinitionAndTheDataByPrecedence(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		runs := adultFlow(byID(adult.ID))
		broken := json.RawMessage(`{"formatVersion": 1, "nodes": []}`)
		adultData, minorData := json.RawMessage(`{"applicant": {"age": 20}}`), json.RawMessage(`{"applicant": {"age": 10}}`)
		for _, tc := range []struct {
			name string
			in   service.FlowTestInput
			want service.Code // "" for a run whose result is true
		}{
			{"definition before flow", service.FlowTestInput{Definition: runs, Flow: broken, Data: adultData}, ""},
			{"flow before nodes and edges", service.FlowTestInput{Flow: runs, Nodes: json.RawMessage(`[]`), Data: adultData}, ""},
			{"flow as text", service.FlowTestInput{Flow: jsonString(string(runs)), Data: adultData}, ""},
			{"data before testData", service.FlowTestInput{Definition: runs, Data: adultData, TestData: minorData}, ""},
			{"testData when data is null", service.FlowTestInput{Definition: runs, Data: json.RawMessage(`null`), TestData: adultData}, ""},
			{"definition as text", service.FlowTestInput{Definition: json.RawMessage(`"formatVersion: 1"`), Data: adultData}, service.CodeInvalidArgument},
			{"definition as an array", service.FlowTestInput{Definition: json.RawMessage(`[]`), Data: adultData}, service.CodeInvalidArgument},
			{"nodes without edges", service.FlowTestInput{Nodes: json.RawMessage(`[]`), Data: adultData}, service.CodeInvalidArgument},
			{"no definition", service.FlowTestInput{Data: adultData}, service.CodeInvalidArgument},
			{"no data", service.FlowTestInput{Definition: runs}, service.CodeInvalidArgument},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res, err := f.svc.TestFlow(admin, tc.in)
				if tc.want != "" {
					wantCode(t, err, tc.want)
					return
				}
				if err != nil || !res.Result {
					t.Errorf("%+v, %v", res, err)
				}
			})
		}
	})
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// cacheLookups is the number of lookups of one run cache with one result.
func cacheLookups(t *testing.T, reg *prometheus.Registry, cache, result string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() != "verdict_cache_lookups_total" {
			continue
		}
		for _, m := range fam.Metric {
			labels := map[string]string{}
			for _, l := range m.Label {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["cache"] == cache && labels["result"] == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
