package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// records are the stored records' ids and revisions, and each one's tests.
func records(t *testing.T, db *database.DB) []string {
	t.Helper()
	var out []string
	for _, r := range db.Client().Record.Query().Order(ent.Asc(record.FieldID)).AllX(context.Background()) {
		out = append(out, fmt.Sprintf("%s r%d %s", r.ID, r.Revision, jsonOfTests(t, r.Tests)))
	}
	return out
}

func jsonOfTests(t *testing.T, tests any) string {
	t.Helper()
	b, err := json.Marshal(tests)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantInvalid checks that err is invalid_argument with this message.
func wantInvalid(t *testing.T, err error, message string) {
	t.Helper()
	var e *service.Error
	if !errorsAs(err, &e) || e.Code != service.CodeInvalidArgument || e.Message != message {
		t.Errorf("error %v, want invalid_argument %q", err, message)
	}
}

// A stored test's data is refused at save as a run would refuse it,
// rather than stored to fail every publish after.
func TestAStoredTestsDataIsCheckedAsARunsData(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		draft, err := f.svc.PolicyDraftFromVersion(admin, pol.BaseID, false)
		if err != nil {
			t.Fatal(err)
		}
		flow := f.createFlow(t, admin, adultFlow(byID(pol.ID)))
		name, rule := "big", adultRule
		for _, tc := range []struct{ data, message string }{
			{`{"a": {"b": 1e400}}`, "tests[0] (t): data holds the number 1e400 (at byte 13), larger than any number a rule can compare (about 1.8e308)"},
			{`{"a": "x\u0000"}`, `tests[0] (t): data must not contain a NUL character (\u0000)`},
			{`[]`, "tests[0] (t): data must be a JSON object"},
			{``, "tests[0] (t): data is required and must be a JSON object"},
		} {
			tests := &[]service.TestCase{{Name: "t", Data: json.RawMessage(tc.data), Expect: json.RawMessage(`true`)}}
			before := records(t, db)
			_, err := f.svc.CreatePolicy(admin, service.Changes{Name: &name, Rule: &rule, Tests: tests})
			wantInvalid(t, err, tc.message)
			_, err = f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Tests: tests})
			wantInvalid(t, err, tc.message)
			_, err = f.svc.CreateFlow(admin, service.Changes{Name: &name, Definition: adultFlow(byID(pol.ID)), Tests: tests})
			wantInvalid(t, err, tc.message)
			_, err = f.svc.UpdateFlowDraft(admin, flow.ID, service.Changes{Tests: tests})
			wantInvalid(t, err, tc.message)
			if after := records(t, db); !reflect.DeepEqual(after, before) {
				t.Errorf("refusing test data %s changed the stored records:\n%v\n%v", tc.data, before, after)
			}
		}
	})
}

// An escaped UTF-16 surrogate that is not half of a pair, which
// PostgreSQL's jsonb refuses, is stored as the replacement character that
// decoding reads it as, in a test's data and in a schema alike, on either
// database; a pair stays the character it writes.
func TestALoneSurrogateIsStoredAsTheReplacementCharacter(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		name, rule := "surrogates", adultRule
		tests := &[]service.TestCase{{Name: "t", Data: json.RawMessage(`{"a": "\ud800, \\ud800, \udc00\ud83d\ude00\ud83d"}`), Expect: json.RawMessage(`false`)}}
		schema := json.RawMessage(`{"description": "\udfff"}`)
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: &name, Rule: &rule, Tests: tests, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		stored := db.Client().Record.GetX(context.Background(), pol.ID)
		var data struct{ A string }
		if err := json.Unmarshal(stored.Tests[0].Data, &data); err != nil {
			t.Fatal(err)
		}
		if want := "\ufffd, \\ud800, \ufffd\U0001F600\ufffd"; data.A != want {
			t.Errorf("the test's data holds %+q, want %+q", data.A, want)
		}
		if strings.Contains(string(stored.Tests[0].Data), `"\ud800`) {
			t.Errorf("the test's data is stored as %s", stored.Tests[0].Data)
		}
		var sch struct{ Description string }
		if err := json.Unmarshal(stored.Schema, &sch); err != nil || sch.Description != "\ufffd" {
			t.Errorf("the schema is stored as %s", stored.Schema)
		}
	})
}

// Run data holding a NUL character is refused wherever data is run, as
// every text refuses it, and no decision record keeps it.
func TestRunDataWithANulCharacterIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		saved := f.createFlow(t, admin, adultFlow(byID(pol.ID)))
		flow, err := f.svc.PublishFlow(admin, saved.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		nul := json.RawMessage(`{"applicant": {"age": 30, "name": "a\u0000"}}`)
		plain := json.RawMessage(`{"applicant": {"age": 30}}`)
		const message = `data must not contain a NUL character (\u0000)`
		for name, run := range map[string]func() error{
			"a rule":           func() error { _, err := f.svc.RunRule(admin, adultRule, nul); return err },
			"a policy":         func() error { _, err := f.svc.RunPolicy(admin, pol.BaseID, nul); return err },
			"a policy version": func() error { _, err := f.svc.RunPolicyVersion(admin, pol.ID, nul); return err },
			"a flow":           func() error { _, err := f.svc.RunFlow(admin, flow.BaseID, nul); return err },
			"a flow version":   func() error { _, err := f.svc.RunFlowVersion(admin, flow.ID, nul); return err },
			"a flow being tested": func() error {
				_, err := f.svc.TestFlow(admin, service.FlowTestInput{Definition: adultFlow(byID(pol.ID)), Data: nul})
				return err
			},
		} {
			if err := run(); err == nil || err.Error() != "invalid_argument: "+message {
				t.Errorf("running %s on data with a NUL: %v, want invalid_argument %q", name, err, message)
			}
		}
		items := []json.RawMessage{plain, nul}
		_, err = f.svc.RunPolicyBatch(admin, pol.BaseID, items)
		wantInvalid(t, err, "items[1]: "+message)
		_, err = f.svc.RunFlowBatch(admin, flow.BaseID, service.Items{List: items})
		wantInvalid(t, err, "items[1]: "+message)
		// A flow tested unsaved is refused a NUL in its definition as a
		// saved one is.
		_, err = f.svc.TestFlow(admin, service.FlowTestInput{Data: plain, Definition: json.RawMessage(`{"formatVersion": 1, "nodes": [
			{"id": "s\u0000", "type": "start", "policy": ` + byID(pol.ID) + `}]}`)})
		wantInvalid(t, err, `definition must not contain a NUL character (\u0000)`)
		// Runs are recorded after they answer: once a later run's record
		// is in, a refused run's would be too.
		f.recordRuns(t, pol, string(plain))
		if rows := storedRows(t, db); len(rows) != 1 {
			t.Errorf("decision records %v, want the one of the run with no NUL", rows)
		}
	})
}

// A run's result holds what was decoded of its data until it is released,
// however many runs read their data in between: the objects a trace shows
// stay as they were. The rule reads an object and a name inside it, so
// its runs decode their data whole, into maps a later run reuses once
// this one is released.
func TestARunsDecodedDataStaysUntilItsResultIsReleased(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "addressed", `A **Person** gets addressed if the __address__ of the **Person** is not empty and the __address.city__ of the **Person** is not empty.`)
		answer := func(run *service.RunResult) string {
			t.Helper()
			b, err := run.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			// The timings differ from run to run.
			return string(b[:strings.LastIndex(string(b), `"execution":`)])
		}
		run := func(data string) *service.RunResult {
			t.Helper()
			res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(data))
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		const oslo = `{"Person": {"address": {"city": "Oslo"}}}`
		want := run(oslo)
		wanted := answer(want)
		want.Release()
		if !strings.Contains(wanted, `"value":{"city":"Oslo"}`) {
			t.Fatalf("the answer does not show the address: %s", wanted)
		}

		held := run(oslo)
		for i := range 20 {
			other := run(fmt.Sprintf(`{"Person": {"address": {"city": "Rome", "zip": "%d"}}}`, i))
			other.Release()
		}
		if got := answer(held); got != wanted {
			t.Errorf("after other runs, the held answer is\n%s\nwant\n%s", got, wanted)
		}
		held.Release()
	})
}
