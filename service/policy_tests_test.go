package service_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func seniorTest(name string, age int, expect string) service.TestCase {
	return service.TestCase{Name: name, Data: json.RawMessage(fmt.Sprintf(`{"Person": {"age": %d}}`, age)), Expect: json.RawMessage(expect)}
}

func TestAPolicyTestExpectsTrueOrFalseAndNothingElse(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		for _, expect := range []string{`null`, `"true"`, `1`, `{}`} {
			tests := []service.TestCase{seniorTest("senior", 70, expect)}
			_, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior " + expect), Rule: ptr(seniorRule), Tests: &tests})
			wantCode(t, err, service.CodeInvalidArgument)
			if want := `test "senior": expect must be true or false`; !strings.HasSuffix(err.Error(), want) {
				t.Errorf("expect %s: %v, want %q", expect, err, want)
			}
		}
		if n, err := db.Client().Base.Query().Count(admin); err != nil || n != 0 {
			t.Errorf("refused policies stored %d bases (%v)", n, err)
		}

		v1 := f.publishedPolicy(t, "senior", seniorRule)
		_, err := f.svc.TestPolicy(admin, v1.ID, []service.TestCase{seniorTest("minor", 10, `null`)})
		wantCode(t, err, service.CodeInvalidArgument)
	})
}

func TestATestToRunNeedsANameDataAndExpect(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		flowV1 := f.createFlow(t, admin, adultFlow(byBaseID(f.publishedPolicy(t, "adult", adultRule).BaseID)))
		// Data no run accepts is refused as a stored test's is.
		for data, want := range map[string]string{
			`[1]`:                              "tests[0] (t): data must be a JSON object",
			`{"Person": {"name": "a\u0000b"}}`: "NUL",
		} {
			tc := service.TestCase{Name: "t", Data: json.RawMessage(data), Expect: json.RawMessage(`true`)}
			_, err := f.svc.TestPolicy(admin, v1.ID, []service.TestCase{tc})
			wantCode(t, err, service.CodeInvalidArgument)
			_, flowErr := f.svc.TestFlowRecord(admin, flowV1.ID, []service.TestCase{tc})
			wantCode(t, flowErr, service.CodeInvalidArgument)
			for _, err := range []error{err, flowErr} {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("data %s: %v, want %q", data, err, want)
				}
			}
		}
		for name, tc := range map[string]service.TestCase{
			"no name":   seniorTest("", 70, `true`),
			"no data":   {Name: "senior", Expect: json.RawMessage(`true`)},
			"no expect": {Name: "senior", Data: json.RawMessage(`{"Person": {"age": 70}}`)},
		} {
			_, err := f.svc.TestPolicy(admin, v1.ID, []service.TestCase{tc})
			wantCode(t, err, service.CodeInvalidArgument)
			_, flowErr := f.svc.TestFlowRecord(admin, flowV1.ID, []service.TestCase{tc})
			wantCode(t, flowErr, service.CodeInvalidArgument)
			for _, err := range []error{err, flowErr} {
				if want := "each test needs a name, data and expect"; err == nil || !strings.HasSuffix(err.Error(), want) {
					t.Errorf("%s: %v, want %q", name, err, want)
				}
			}
		}
		// A report names each test once, as a save requires.
		twice := []service.TestCase{seniorTest("senior", 70, `true`), seniorTest("senior", 40, `false`)}
		_, err := f.svc.TestPolicy(admin, v1.ID, twice)
		wantCode(t, err, service.CodeInvalidArgument)
		_, flowErr := f.svc.TestFlowRecord(admin, flowV1.ID, twice)
		wantCode(t, flowErr, service.CodeInvalidArgument)
		for _, err := range []error{err, flowErr} {
			if want := `two tests are named "senior"`; err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Errorf("two tests of one name: %v, want %q", err, want)
			}
		}
	})
}

func TestEachTestIsARunChargedBeforeAnyRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		stored := []service.TestCase{seniorTest("senior", 70, `true`), seniorTest("adult", 40, `false`), seniorTest("at 65", 65, `true`)}
		draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule), Tests: &stored})
		if err != nil {
			t.Fatal(err)
		}
		adult := f.publishedPolicy(t, "adult", adultRule)
		flowDraft := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)),
			flowTest("adult", `{"applicant": {"age": 30}}`, `true`), flowTest("minor", `{"applicant": {"age": 15}}`, `false`))

		refusing := service.WithRunBudget(admin, &countingBudget{refuse: true})
		_, err = f.svc.TestPolicy(refusing, draft.ID, nil)
		wantCode(t, err, service.CodeRateLimited)
		_, err = f.svc.TestFlowRecord(refusing, flowDraft.ID, nil)
		wantCode(t, err, service.CodeRateLimited)
		_, err = f.svc.PublishPolicy(refusing, draft.ID, service.Changes{})
		wantCode(t, err, service.CodeRateLimited)
		_, err = f.svc.PublishFlow(refusing, flowDraft.ID, service.Changes{})
		wantCode(t, err, service.CodeRateLimited)
		for _, id := range []uuid.UUID{draft.BaseID, flowDraft.BaseID} {
			if r, err := db.Client().Record.Query().Where(record.StatusEQ(record.StatusPublished), record.BaseIDEQ(id)).Count(admin); err != nil || r != 0 {
				t.Errorf("a publish refused for its tests' runs published %d records (%v)", r, err)
			}
		}

		b := &countingBudget{}
		ctx := service.WithRunBudget(admin, b)
		if rep, err := f.svc.TestPolicy(ctx, draft.ID, nil); err != nil || !rep.Passed || rep.Total != 3 {
			t.Fatalf("the stored tests: %+v, %v", rep, err)
		}
		if _, err := f.svc.TestPolicy(ctx, draft.ID, stored[:2]); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.TestFlowRecord(ctx, flowDraft.ID, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(ctx, draft.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishFlow(ctx, flowDraft.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		if want := []int{3, 2, 2, 3, 2}; !reflect.DeepEqual(b.spent, want) {
			t.Errorf("spent %v, want %v", b.spent, want)
		}
	})
}

func TestNoCallHoldsMoreTestsThanABatchHoldsItems(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxBatchItems = 2 })
		admin := f.as(t, adminKey, "")
		three := []service.TestCase{seniorTest("a", 70, `true`), seniorTest("b", 71, `true`), seniorTest("c", 72, `true`)}
		const want = "tests holds 3 tests; the limit is 2"
		_, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule), Tests: &three})
		wantCode(t, err, service.CodeInvalidArgument)
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("creating: %v, want %q", err, want)
		}
		v1 := f.publishedPolicy(t, "senior", seniorRule)
		_, err = f.svc.UpdatePolicyDraft(admin, v1.ID, service.Changes{Tests: &three})
		wantCode(t, err, service.CodeInvalidArgument)
		_, err = f.svc.TestPolicy(admin, v1.ID, three)
		wantCode(t, err, service.CodeInvalidArgument)
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("testing: %v, want %q", err, want)
		}
		if rep, err := f.svc.TestPolicy(admin, v1.ID, three[:2]); err != nil || rep.Total != 2 {
			t.Errorf("two tests: %+v, %v", rep, err)
		}
	})
}

func TestSavingTestsLeavesTheCallersBytesAsTheyWere(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		// A test whose data and expect are slices of one body, as a decoder
		// may hand them over, the data with room after it.
		body := []byte(`{"Person": {"age": 70}}, "expect": true}`)
		tests := []service.TestCase{{Name: "senior", Data: body[:23], Expect: body[35:39]}}
		created, err := f.svc.CreatePolicy(f.as(t, adminKey, ""), service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule), Tests: &tests})
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != `{"Person": {"age": 70}}, "expect": true}` || string(created.Tests[0].Expect) != "true" {
			t.Errorf("the body became %s, the stored expect %s", body, created.Tests[0].Expect)
		}
	})
}

// A test whose run stops on an error fails whatever it expects, a flow's as
// a policy's: the false a stopped flow answers is a refusal to decide, and
// a test expecting false must not pass on a flow that cannot run.
func TestATestWhoseRunStopsOnAnErrorFails(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)))
		stopped := flowTest("no age", `{"applicant": {}}`, `false`)
		rep, err := f.svc.TestFlowRecord(admin, fl.ID, []service.TestCase{stopped, flowTest("minor", `{"applicant": {"age": 15}}`, `false`)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Passed || rep.Failed != 1 || rep.Results[0].Passed || string(rep.Results[0].Actual) != "null" || rep.Results[0].Error == nil ||
			!rep.Results[1].Passed || string(rep.Results[1].Actual) != "false" {
			t.Errorf("report %+v", rep)
		}
		policyRep, err := f.svc.TestPolicy(admin, adult.ID, []service.TestCase{stopped})
		if err != nil {
			t.Fatal(err)
		}
		if policyRep.Passed || policyRep.Results[0].Passed || string(policyRep.Results[0].Actual) != "null" {
			t.Errorf("the policy's report %+v", policyRep)
		}
	})
}

// A flow test that expects an outcome, of a run that ended on no custom
// node, reports the result the run ended with rather than nothing.
func TestAFlowTestExpectingAnOutcomeSaysWhatTheRunGave(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)))
		rep, err := f.svc.TestFlowRecord(admin, fl.ID, []service.TestCase{flowTest("review", `{"applicant": {"age": 30}}`, `"manual review"`)})
		if err != nil {
			t.Fatal(err)
		}
		if r := rep.Results[0]; rep.Passed || r.Passed || string(r.Actual) != "true" || r.Error != nil {
			t.Errorf("report %+v, result %+v, actual %s", rep, r, r.Actual)
		}
	})
}
