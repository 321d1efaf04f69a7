package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const (
	ssnRule = `A **Person** gets flagged if the __ssn__ of the **Person** is not equal to "999-99-9999" and the __age__ of the **Person** is at least 65.`
	// secretData holds values the mask hides: a text, a number within an
	// array of objects, and one the rule reads.
	secretData = `{"Person": {"age": 70, "ssn": "123-45-6789", "cards": [{"number": 4111111111111111}, {"number": 5500000000000004}]}}`
)

// secrets are longer than any hex group of an id, so a random id cannot
// contain one and fail the search of the stored row by chance.
var secrets = []string{"123-45-6789", "4111111111111111", "5500000000000004"}

// storedRows is every column of every decision record as text, read with
// plain SQL, so that nothing the service does on reading can hide what
// the table holds.
func storedRows(t *testing.T, db *database.DB) []string {
	t.Helper()
	rows, err := db.SQL().QueryContext(context.Background(),
		`SELECT id, organization_id, kind, base_id, record_id, version, revision, at, result, explanation, duration_ns, actor_kind, actor_id, input FROM decision_records`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		cols := make([]any, 14)
		ptrs := make([]any, len(cols))
		for i := range cols {
			ptrs[i] = &cols[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range cols {
			if raw, ok := c.([]byte); ok {
				c = string(raw)
			}
			fmt.Fprintf(&b, "%v|", c)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMaskedValuesNeverReachTheDecisionTable(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "screening", ssnRule)
		set, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.Person.ssn", "$.Person.cards.number"}})
		if err != nil {
			t.Fatal(err)
		}
		if !set.Enabled || set.SampleRate != 1 || set.BaseID != pol.BaseID || len(set.Mask) != 2 {
			t.Fatalf("settings %+v", set)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(secretData))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Result.Result || !strings.Contains(res.Explanation, "123-45-6789") {
			t.Fatalf("the run answered %v, %q: the caller sees its own data unmasked", res.Result.Result, res.Explanation)
		}
		res.Release()
		f.waitForLog(t, 4) // created, published, edited, executed

		rows := storedRows(t, db)
		for _, row := range rows {
			for _, secret := range secrets {
				if strings.Contains(row, secret) {
					t.Errorf("the stored row holds the masked value %s: %s", secret, row)
				}
			}
		}
		stored := db.Client().DecisionRecord.Query().OnlyX(context.Background())
		wantInput := `{"Person":{"age":70,"cards":[{"number":"[masked]"},{"number":"[masked]"}],"ssn":"[masked]"}}`
		if stored.Input != wantInput {
			t.Errorf("stored input %s, want %s", stored.Input, wantInput)
		}
		if !strings.Contains(stored.Explanation, `ssn of the Person is "[masked]"`) {
			t.Errorf("stored explanation %q does not show the ssn masked", stored.Explanation)
		}
		if stored.RecordID != pol.ID || *stored.Version != 1 || !stored.Result || stored.ActorID != f.acme.User.ID ||
			stored.ActorKind != decisionrecord.ActorKindUser || stored.BaseID != pol.BaseID {
			t.Errorf("stored %+v", stored)
		}

		// The run's executed event names the record.
		executed := audittest.Events(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
		if len(executed) != 1 {
			t.Fatalf("%d executed events, want the run's one", len(executed))
		}
		ev := executed[0]
		if ev.Details["decisionId"] != stored.ID.String() {
			t.Errorf("the executed event's details %v do not name decision %s", ev.Details, stored.ID)
		}
	})
}

// TestAMaskHidesEverySpellingARuleMayRead sends the masked members under
// other spellings than the mask's paths: a rule reads them all the same,
// so the mask hides them all.
func TestAMaskHidesEverySpellingARuleMayRead(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "screening", ssnRule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.Person.ssn", "$.Person.cards.number"}}); err != nil {
			t.Fatal(err)
		}
		data := `{"person": {"AGE": 70, "SSN": "123-45-6789", "s_s_n": "4111111111111111", "cards": [{"Number": 5500000000000004}], "ssn2": "kept"}}`
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Result.Result || !strings.Contains(res.Explanation, "123-45-6789") {
			t.Fatalf("the run answered %v, %q; want true, reading the SSN", res.Result.Result, res.Explanation)
		}
		res.Release()
		f.waitForEvents(t, pol.BaseID, auditevent.ActionExecuted, 1)

		for _, row := range storedRows(t, db) {
			for _, secret := range secrets {
				if strings.Contains(row, secret) {
					t.Errorf("the stored row holds the masked value %s: %s", secret, row)
				}
			}
		}
		stored := db.Client().DecisionRecord.Query().OnlyX(context.Background())
		wantInput := `{"person":{"AGE":70,"SSN":"[masked]","cards":[{"Number":"[masked]"}],"s_s_n":"[masked]","ssn2":"kept"}}`
		if stored.Input != wantInput {
			t.Errorf("stored input %s, want %s", stored.Input, wantInput)
		}
		if !strings.Contains(stored.Explanation, `ssn of the Person is "[masked]"`) {
			t.Errorf("stored explanation %q does not show the ssn masked", stored.Explanation)
		}
	})
}

// TestARepeatedMemberCarriesNoMaskedValueToTheTable sends data that
// repeats a member, a run reading the last: the earlier ones, masked
// values among them, are stored nowhere, and a masked member without text
// (null, an empty list) is masked too.
func TestARepeatedMemberCarriesNoMaskedValueToTheTable(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "screening", ssnRule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.Person.ssn", "$.Person.cards"}}); err != nil {
			t.Fatal(err)
		}
		runs := []struct{ data, stored string }{
			{`{"Person": {"age": 70, "ssn": "123-45-6789", "ssn": null, "cards": [4111111111111111], "cards": []}}`,
				`{"Person":{"age":70,"cards":"[masked]","ssn":"[masked]"}}`},
			{`{"Person": {"ssn": "123-45-6789", "cards": [5500000000000004]}, "Person": {"age": 70}}`,
				`{"Person":{"age":70}}`},
		}
		for _, run := range runs {
			res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(run.data))
			if err != nil {
				t.Fatal(err)
			}
			res.Release()
		}
		f.waitForEvents(t, pol.BaseID, auditevent.ActionExecuted, len(runs))

		for _, row := range storedRows(t, db) {
			for _, secret := range secrets {
				if strings.Contains(row, secret) {
					t.Errorf("the stored row holds the masked value %s: %s", secret, row)
				}
			}
		}
		var stored []string
		for _, d := range db.Client().DecisionRecord.Query().AllX(context.Background()) {
			stored = append(stored, d.Input)
		}
		slices.Sort(stored)
		want := []string{runs[0].stored, runs[1].stored}
		slices.Sort(want)
		if !slices.Equal(stored, want) {
			t.Errorf("stored inputs %q, want %q", stored, want)
		}
	})
}

// TestMaskedValuesAreHiddenAsTheExplanationWritesThem runs on data whose
// masked texts an explanation writes with escapes (quotes; <, > and & it
// leaves as they are), and a masked list of 1,000 numbers
// that it shows whole: no form of a value reaches the table, and each is
// hidden where the explanation shows it.
func TestMaskedValuesAreHiddenAsTheExplanationWritesThem(t *testing.T) {
	const rule = `A **Person** gets flagged if the __note__ of the **Person** is equal to "none" and the __codes__ of the **Person** contains 7.`
	codes := make([]string, 1_000)
	for i := range codes {
		codes[i] = fmt.Sprint(4_000_000_000 + i)
	}
	data := fmt.Sprintf(`{"Person": {"note": "said \"4711-0815\" <b>&amp;", "codes": [%s]}}`, strings.Join(codes, ","))
	secrets := append([]string{`said "4711-0815" <b>&amp;`, `said \"4711-0815\" <b>&amp;`, "4711-0815"}, codes...)
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "notes", rule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.Person.note", "$.Person.codes"}}); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Explanation, `\"4711-0815\"`) || !strings.Contains(res.Explanation, codes[len(codes)-1]) {
			t.Fatalf("the run's explanation %.200q does not show the values: the test shows nothing", res.Explanation)
		}
		res.Release()
		f.waitForLog(t, 4) // created, published, edited, executed

		for _, row := range storedRows(t, db) {
			for _, secret := range secrets {
				if strings.Contains(row, secret) {
					t.Fatalf("the stored row holds the masked value %s: %.300s", secret, row)
				}
			}
		}
		stored := db.Client().DecisionRecord.Query().OnlyX(context.Background())
		want := `Person gets flagged: no — the note of the Person is "[masked]", which is not equal to "none"; ` +
			`the codes of the Person is [` + strings.Repeat("[masked],", len(codes)-1) + `[masked]], which does not contain 7.`
		if stored.Explanation != want {
			t.Errorf("stored explanation %.300q, want %q", stored.Explanation, want)
		}
	})
}

// TestMaskedNumbersAndKeysAreHiddenAsTheExplanationWritesThem runs on a
// masked number below 1e-6, which the explanation writes with an exponent
// (1.2345e-7, not as sent), and a masked object whose key the run's error
// quotes: neither reaches the decision or the audit table.
func TestMaskedNumbersAndKeysAreHiddenAsTheExplanationWritesThem(t *testing.T) {
	const rule = `A **Person** gets flagged if the __ssn__ of the **Person** is equal to "x" or the __profile__ of the **Person** is equal to 5.`
	const data = `{"Person": {"ssn": 0.00000012345, "profile": {"acctKEY7788": "SECRETP2"}}}`
	secrets := []string{"1.2345e-7", "0.00000012345", "acctKEY7788", "SECRETP2"}
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "tiny", rule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.Person.ssn", "$.Person.profile"}}); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Explanation, "is 1.2345e-7,") || !strings.Contains(res.Explanation, "acctKEY7788") {
			t.Fatalf("the run's explanation %q does not show the values: the test shows nothing", res.Explanation)
		}
		res.Release()
		f.waitForLog(t, 4) // created, published, edited, executed

		for _, row := range storedRows(t, db) {
			for _, secret := range secrets {
				if strings.Contains(row, secret) {
					t.Errorf("the stored row holds the masked %s: %.300s", secret, row)
				}
			}
		}
	})
}

// TestMaskedValuesNeverReachTheAuditLog runs a policy and a flow on data
// whose masked value is an object, which the rule cannot compare: the
// run's error quotes it, and the error its `executed` event keeps shows
// it masked, as read from the table.
func TestMaskedValuesNeverReachTheAuditLog(t *testing.T) {
	const secret = "SECRET-4711-0815"
	data := json.RawMessage(`{"applicant": {"age": {"passport": "` + secret + `"}}}`)
	const want = `Type error: Unsupported JSON value type: {"passport":"[masked]"}`
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)))
		mask := service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.applicant.age.passport"}}
		if _, err := f.svc.SetPolicyDecisionSettings(admin, adult.ID, mask); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.SetFlowDecisionSettings(admin, fl.ID, mask); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, adult.BaseID, data)
		if err != nil {
			t.Fatal(err)
		}
		if res.Error == nil || !strings.Contains(res.Error.Message, secret) {
			t.Fatalf("the run's error %+v does not quote the data: the test shows nothing", res.Error)
		}
		res.Release()
		flowRes, err := f.svc.RunFlow(admin, fl.BaseID, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(flowRes.Errors) != 1 || !strings.Contains(flowRes.Errors[0], secret) {
			t.Fatalf("the flow's errors %q do not quote the data: the test shows nothing", flowRes.Errors)
		}
		f.waitForLog(t, 2+1+2+2) // the policy created and published, the flow created, two settings, two runs

		rows, err := db.SQL().QueryContext(context.Background(), `SELECT details FROM audit_executions`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var details []string
		for rows.Next() {
			var d []byte
			if err := rows.Scan(&d); err != nil {
				t.Fatal(err)
			}
			details = append(details, string(d))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if len(details) != 2 {
			t.Fatalf("%d executed events stored, want 2", len(details))
		}
		for _, d := range details {
			var kept struct {
				Error  *string  `json:"error"`
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal([]byte(d), &kept); err != nil {
				t.Fatalf("details %s: %v", d, err)
			}
			switch {
			case strings.Contains(d, secret):
				t.Errorf("the stored event holds the masked value: %s", d)
			case kept.Error != nil && *kept.Error != want:
				t.Errorf("the policy run's stored error %q, want %q", *kept.Error, want)
			case kept.Error == nil && (len(kept.Errors) != 1 || !strings.Contains(kept.Errors[0], want)):
				t.Errorf("the flow run's stored errors %q, want one holding %q", kept.Errors, want)
			}
		}
		for _, row := range storedRows(t, db) {
			if strings.Contains(row, secret) {
				t.Errorf("the stored decision holds the masked value: %s", row)
			}
		}
	})
}

// TestADecisionKeepsAtMostSixteenKiBOfExplanation: a run whose
// explanation shows a list of 3,000 numbers (some 27 KB) is recorded with
// its explanation cut, saying so; reading the decision recomputes it whole.
func TestADecisionKeepsAtMostSixteenKiBOfExplanation(t *testing.T) {
	const rule = `A **Person** gets flagged if the __codes__ of the **Person** contains 7.`
	codes := make([]string, 3_000)
	for i := range codes {
		codes[i] = fmt.Sprint(1_000_000 + i)
	}
	data := json.RawMessage(fmt.Sprintf(`{"Person": {"codes": [%s]}}`, strings.Join(codes, ",")))
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "codes", rule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, data)
		if err != nil {
			t.Fatal(err)
		}
		full := res.Explanation
		res.Release()
		if len(full) <= service.MaxStoredExplanation {
			t.Fatalf("the explanation is %d bytes: the test shows nothing", len(full))
		}
		f.waitForLog(t, 4) // created, published, edited, executed

		stored := db.Client().DecisionRecord.Query().OnlyX(context.Background())
		const cut = " … (cut at 16 KiB: reading the decision recomputes the run in full)"
		kept := service.MaxStoredExplanation - len(cut)
		if len(stored.Explanation) != service.MaxStoredExplanation || stored.Explanation != full[:kept]+cut {
			t.Errorf("stored %d bytes ending %q; want the first %d of the explanation and %q",
				len(stored.Explanation), stored.Explanation[max(0, len(stored.Explanation)-80):], kept, cut)
		}
		d, err := f.svc.Decision(admin, stored.ID)
		if err != nil || d.Explanation != stored.Explanation || d.Recomputed == nil || d.Recomputed.Explanation != full {
			t.Errorf("the decision read: %v; want the stored explanation, and the whole one recomputed", err)
		}
	})
}

func TestDecisionSettingsRefuseBadInputAndStoreNothing(t *testing.T) {
	long := "$." + strings.Repeat("a", service.MaxMaskPathLength)
	many := make([]string, service.MaxMaskPaths+1)
	for i := range many {
		many[i] = fmt.Sprintf("$.a%d", i)
	}
	cases := []struct {
		name string
		in   service.DecisionSettingsInput
	}{
		{"a sample rate of zero", service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.0)}},
		{"a sample rate above one", service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(1.5)}},
		{"a path without $.", service.DecisionSettingsInput{Enabled: true, Mask: []string{"Person.ssn"}}},
		{"a path with an empty step", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.Person..ssn"}}},
		{"a path with a list position", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.Person.cards[0]"}}},
		{"a path with a wildcard in brackets", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.Person.cards[*].number"}}},
		{"a path that is only $", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$"}}},
		{"an empty path, as a null in the list decodes", service.DecisionSettingsInput{Enabled: true, Mask: []string{""}}},
		{"a path with a wildcard", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.*"}}},
		{"a path with a step no rule can name", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$.Person._"}}},
		{"a path of 33 steps", service.DecisionSettingsInput{Enabled: true, Mask: []string{"$" + strings.Repeat(".a", 33)}}},
		{"a path that is too long", service.DecisionSettingsInput{Enabled: true, Mask: []string{long}}},
		{"too many paths", service.DecisionSettingsInput{Enabled: true, Mask: many}},
	}
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "screening", ssnRule)
		events := db.Client().AuditEvent.Query().CountX(context.Background())
		for _, c := range cases {
			_, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, c.in)
			if service.CodeOf(err) != service.CodeInvalidArgument {
				t.Errorf("%s: error %v, want invalid_argument", c.name, err)
			}
		}
		got, err := f.svc.PolicyDecisionSettings(admin, pol.BaseID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Enabled || got.SampleRate != 1 || len(got.Mask) != 0 {
			t.Errorf("after refused changes the settings are %+v, want the defaults", got)
		}
		if n := db.Client().AuditEvent.Query().CountX(context.Background()); n != events {
			t.Errorf("%d audit events after refused changes, want %d", n, events)
		}
	})
}

func TestDecisionSettingsAreForEditorsAndVisibleToViewers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		pol := f.publishedPolicy(t, "screening", ssnRule)
		viewerKey, _ := f.member(t, "viewer@acme.test", authz.RoleViewer)
		editorKey, _ := f.member(t, "editor@acme.test", authz.RoleEditor)
		viewer, editor := f.as(t, viewerKey, ""), f.as(t, editorKey, "")
		on := service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.5)}

		_, err := f.svc.SetPolicyDecisionSettings(viewer, pol.ID, on)
		wantCode(t, err, service.CodePermissionDenied)
		if _, err := f.svc.SetPolicyDecisionSettings(editor, pol.ID, on); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.PolicyDecisionSettings(viewer, pol.ID)
		if err != nil || !got.Enabled || got.SampleRate != 0.5 {
			t.Fatalf("a viewer reads %+v, %v", got, err)
		}
		// Besides the setup's, whose members and keys the operator made.
		edited := db.Client().AuditEvent.Query().Where(auditevent.ActionEQ(auditevent.ActionEdited),
			auditevent.ActorKindNEQ(auditevent.ActorKindOperator)).AllX(context.Background())
		if len(edited) != 1 || *edited[0].BaseID != pol.BaseID || edited[0].Details["fields"].([]any)[0] != "decisionRecords" {
			t.Errorf("edited events %+v", edited)
		}

		// Another tenant's base is not found, like one that exists nowhere.
		other, err := f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Beta", Email: "admin@beta.test", Key: "beta-admin-key-0123456789abcdefghijkl"})
		if err != nil {
			t.Fatal(err)
		}
		beta := f.as(t, other.Secret, "")
		_, err = f.svc.PolicyDecisionSettings(beta, pol.ID)
		wantCode(t, err, service.CodeNotFound)
		_, err = f.svc.SetPolicyDecisionSettings(beta, pol.BaseID, on)
		wantCode(t, err, service.CodeNotFound)
		_, err = f.svc.SetPolicyDecisionSettings(beta, uuid.Must(uuid.NewV7()), on)
		wantCode(t, err, service.CodeNotFound)
		// A policy's id is no flow's.
		_, err = f.svc.FlowDecisionSettings(viewer, pol.ID)
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestADecisionSettingAsItWasRecordsNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "screening", ssnRule)
		edited := func() int {
			return db.Client().AuditEvent.Query().Where(auditevent.ActionEQ(auditevent.ActionEdited),
				auditevent.BaseID(pol.BaseID)).CountX(context.Background())
		}
		updated := func() time.Time { return db.Client().Base.GetX(context.Background(), pol.BaseID).UpdatedAt }
		set := func(in service.DecisionSettingsInput, events int) {
			t.Helper()
			*f.clock = f.clock.Add(time.Second)
			if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, in); err != nil {
				t.Fatal(err)
			}
			if n := edited(); n != events {
				t.Errorf("after setting %+v: %d edited events, want %d", in, n, events)
			}
		}
		// A base never set holds the defaults, an empty mask among them.
		was := updated()
		set(service.DecisionSettingsInput{}, 0)
		set(service.DecisionSettingsInput{SampleRate: ptr(1.0), Mask: []string{}}, 0)
		if now := updated(); !now.Equal(was) {
			t.Errorf("the unchanged base was updated at %v, before %v", now, was)
		}
		on := service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.5), Mask: []string{"$.Person.ssn"}}
		set(on, 1)
		set(on, 1)
		set(service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.5), Mask: []string{"$.Person.name"}}, 2)
		set(service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.25), Mask: []string{"$.Person.name"}}, 3)
		set(service.DecisionSettingsInput{SampleRate: ptr(0.25), Mask: []string{"$.Person.name"}}, 4)
		got, err := f.svc.PolicyDecisionSettings(admin, pol.BaseID)
		if err != nil || got.Enabled || got.SampleRate != 0.25 || !slices.Equal(got.Mask, []string{"$.Person.name"}) {
			t.Errorf("the settings are %+v, %v", got, err)
		}
	})
}

// recordRuns turns recording on for pol and runs it once per data, as the
// admin, then waits until every record is stored.
func (f *fixture) recordRuns(t *testing.T, pol *service.Policy, data ...string) {
	t.Helper()
	admin := f.as(t, adminKey, "")
	if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	// Records are stored before their runs' events: once the events are
	// in, so are the records.
	before := audittest.Count(t, f.db, audittest.Filter{Tenant: &f.acme.Organization.ID, ExceptOperator: true})
	for _, d := range data {
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(d))
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
		*f.clock = f.clock.Add(time.Second)
	}
	f.waitForLog(t, before+len(data))
}

// recordFlowRuns turns recording on for fl's base and runs it n times on
// data, waiting until every run is stored.
func (f *fixture) recordFlowRuns(t *testing.T, fl *service.SavedFlow, data string, n int) {
	t.Helper()
	if _, err := f.svc.SetFlowDecisionSettings(f.as(t, adminKey, ""), fl.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	before := audittest.Count(t, f.db, audittest.Filter{Tenant: &f.acme.Organization.ID, ExceptOperator: true})
	for range n {
		// A request each, with a bound of its own on what it answers.
		if _, err := f.svc.RunFlow(f.as(t, adminKey, ""), fl.BaseID, json.RawMessage(data)); err != nil {
			t.Fatal(err)
		}
	}
	f.waitForLog(t, before+n)
}

func person(age int) string { return fmt.Sprintf(`{"Person": {"age": %d}}`, age) }

func TestDecisionsAreReadByAdminsAndAuditorsNewestFirst(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		f.recordRuns(t, pol, person(70), person(30), person(80))
		admin, auditor := f.as(t, adminKey, ""), f.auditor(t)
		editorKey, _ := f.member(t, "editor@acme.test", authz.RoleEditor)

		_, err := f.svc.Decisions(f.as(t, editorKey, ""), service.DecisionFilter{}, service.ListOptions{})
		wantCode(t, err, service.CodePermissionDenied)

		var seen []uuid.UUID
		o := service.ListOptions{Limit: 2}
		for {
			page, err := f.svc.Decisions(auditor, service.DecisionFilter{BaseID: &pol.BaseID}, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range page.Items {
				seen = append(seen, d.ID)
			}
			if page.NextCursor == "" {
				break
			}
			o.Cursor = page.NextCursor
		}
		all, err := f.svc.Decisions(admin, service.DecisionFilter{}, service.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 3 || len(all.Items) != 3 || seen[0] != all.Items[0].ID || string(all.Items[0].Data) != `{"Person":{"age":80}}` {
			t.Fatalf("paged %v, listed %+v", seen, all.Items)
		}
		no := false
		falses, err := f.svc.Decisions(admin, service.DecisionFilter{Result: &no}, service.ListOptions{})
		if err != nil || len(falses.Items) != 1 || string(falses.Items[0].Data) != `{"Person":{"age":30}}` {
			t.Fatalf("result=false lists %+v, %v", falses, err)
		}
		until := all.Items[0].At
		older, err := f.svc.Decisions(admin, service.DecisionFilter{Until: &until}, service.ListOptions{})
		if err != nil || len(older.Items) != 2 {
			t.Fatalf("until the newest lists %+v, %v", older, err)
		}

		d, err := f.svc.Decision(auditor, all.Items[1].ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Recomputed == nil || d.Recomputed.Result || d.Note != nil || len(d.Recomputed.Trace.Execution) != 1 ||
			d.Recomputed.Explanation != d.Explanation {
			t.Fatalf("decision %+v recomputed %+v", d, d.Recomputed)
		}
		_, err = f.svc.Decision(f.as(t, editorKey, ""), d.ID)
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.Decision(admin, uuid.Must(uuid.NewV7()))
		wantCode(t, err, service.CodeNotFound)

		// Another tenant's admin finds neither the record nor any in its list.
		other, err := f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Beta", Email: "admin@beta.test", Key: "beta-admin-key-0123456789abcdefghijkl"})
		if err != nil {
			t.Fatal(err)
		}
		beta := f.as(t, other.Secret, "")
		_, err = f.svc.Decision(beta, d.ID)
		wantCode(t, err, service.CodeNotFound)
		if page, err := f.svc.Decisions(beta, service.DecisionFilter{}, service.ListOptions{}); err != nil || len(page.Items) != 0 {
			t.Errorf("another tenant lists %+v, %v", page, err)
		}
	})
}

func TestADraftThatChangedIsNotRecomputed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		rule := "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."
		draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("draft"), Rule: &rule})
		if err != nil {
			t.Fatal(err)
		}
		f.recordRuns(t, draft.Policy, person(70))
		changed := "A **Person** gets senior_discount if the __age__ of the **Person** is at least 75."
		if _, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: &changed}); err != nil {
			t.Fatal(err)
		}
		list, err := f.svc.Decisions(admin, service.DecisionFilter{}, service.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := f.svc.Decision(admin, list.Items[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Recomputed != nil || d.Note == nil || !strings.Contains(*d.Note, "changed since") || d.Version != nil || d.Revision != 1 {
			t.Fatalf("decision %+v", d)
		}
	})
}

func TestSamplingRecordsAShareOfRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{Enabled: true, SampleRate: ptr(0.25)}); err != nil {
			t.Fatal(err)
		}
		const runs = 400
		for range runs {
			res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(person(70)))
			if err != nil {
				t.Fatal(err)
			}
			res.Release()
		}
		f.waitForLog(t, 2+1+runs) // created, published, edited, the runs
		// Each run is recorded with probability 1/4: 100 expected, and
		// outside 40–180 with a probability far below one in a billion.
		n := db.Client().DecisionRecord.Query().CountX(context.Background())
		if n < 40 || n > 180 {
			t.Errorf("%d of %d runs recorded at a sample rate of 0.25", n, runs)
		}
		// Turned off, runs record nothing.
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{Enabled: false}); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(person(70)))
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
		f.waitForLog(t, 2+1+runs+1+1)
		if after := db.Client().DecisionRecord.Query().CountX(context.Background()); after != n {
			t.Errorf("%d records after a run with recording off, want %d", after, n)
		}
	})
}

func TestExpiredDecisionsAreRemovedByTheRetention(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		reg := prometheus.NewRegistry()
		f := newFixtureWith(t, db, func(c *service.Config) { c.Registerer = reg })
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		// Two records a second apart at noon, and one at noon the next day.
		first := *f.clock
		f.recordRuns(t, pol, person(70), person(71))
		*f.clock = first.Add(24 * time.Hour)
		f.recordRuns(t, pol, person(72))
		partitioned := db.Dialect() == dialect.Postgres

		expire := func(cutoff time.Time, want int, wantLeft ...string) {
			t.Helper()
			*f.clock = cutoff.Add(service.DefaultDecisionRetention)
			n, err := f.svc.ExpireDecisions(ctx)
			if err != nil || n != want {
				t.Fatalf("expired %d, %v at the cutoff %s; want %d", n, err, cutoff, want)
			}
			var left []string
			for _, r := range db.Client().DecisionRecord.Query().Order(decisionrecord.ByAt()).AllX(ctx) {
				left = append(left, r.Input)
			}
			if !slices.Equal(left, wantLeft) {
				t.Fatalf("left %v at the cutoff %s, want %v", left, cutoff, wantLeft)
			}
		}
		// The cutoff half a second after the first record: SQLite deletes
		// exactly that one; PostgreSQL drops whole days, and that day has
		// not ended yet.
		if partitioned {
			expire(first.Add(500*time.Millisecond), 0, `{"Person":{"age":70}}`, `{"Person":{"age":71}}`, `{"Person":{"age":72}}`)
		} else {
			expire(first.Add(500*time.Millisecond), 1, `{"Person":{"age":71}}`, `{"Person":{"age":72}}`)
		}
		// The cutoff in the second day: the first day is gone everywhere.
		want := 1
		if partitioned {
			want = 2
		}
		expire(first.Add(13*time.Hour), want, `{"Person":{"age":72}}`)
		if got := expiredCounted(t, reg); got != 2 {
			t.Errorf("verdict_decision_records_expired_total = %v, want 2", got)
		}
		if partitioned {
			// The day dropped, and today and the days ahead prepared.
			var days []string
			rows, err := db.SQL().QueryContext(ctx, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
				WHERE i.inhparent = 'decision_records'::regclass ORDER BY c.relname`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name string
				if err := rows.Scan(&name); err != nil {
					t.Fatal(err)
				}
				days = append(days, name)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			// The first expiry ran on 2030-01-31 and the second on
			// 2030-02-01, each preparing its day and the three after it.
			want := []string{"decision_records_20300102", "decision_records_20300131", "decision_records_20300201",
				"decision_records_20300202", "decision_records_20300203", "decision_records_20300204"}
			if !slices.Equal(days, want) {
				t.Errorf("partitions %v, want %v", days, want)
			}
		}
		// Nothing left to expire.
		n, err := f.svc.ExpireDecisions(ctx)
		if err != nil || n != 0 {
			t.Errorf("expiring again removed %d, %v", n, err)
		}
	})
}

// expiredCounted is the counter of decision records removed for their age.
func expiredCounted(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() == "verdict_decision_records_expired_total" {
			return fam.Metric[0].GetCounter().GetValue()
		}
	}
	t.Fatal("no verdict_decision_records_expired_total")
	return 0
}

func TestReplayComparesADraftWithTheRecordedDecisions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		// Replayed newest first, the input without an age comes right after
		// one with an age and is decoded into its maps.
		f.recordRuns(t, pol, `{"Person": {}}`, person(70), person(30), person(80), person(66))
		draft, err := f.svc.PolicyDraftFromVersion(admin, pol.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		stricter := "A **Person** gets senior_discount if the __age__ of the **Person** is at least 75."
		if _, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: &stricter}); err != nil {
			t.Fatal(err)
		}
		events := db.Client().AuditEvent.Query().CountX(context.Background())

		rep, err := f.svc.ReplayPolicy(admin, draft.ID, service.ReplayInput{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compared != 5 || rep.Changed != 2 || rep.Unchanged != 2 || rep.Errors != 1 || len(rep.Items) != 5 {
			t.Fatalf("replay %+v", rep)
		}
		// The changed come first, newest first: 66, then 70.
		first, second := rep.Items[0], rep.Items[1]
		if !first.Changed || !second.Changed || !first.Before.Result || first.After.Result ||
			!strings.Contains(first.After.Explanation, "66") || !strings.Contains(second.After.Explanation, "70") ||
			!strings.Contains(first.Before.Explanation, "at least 65") || !strings.Contains(first.After.Explanation, "at least 75") {
			t.Errorf("changed items %+v, %+v", first, second)
		}
		// The recorded run failed as the replayed one does, and says so.
		failed := rep.Items[2]
		if failed.After.Error == nil || !strings.Contains(*failed.After.Error, "age") {
			t.Errorf("the failed item %+v", failed)
		} else if failed.Before.Error == nil || *failed.Before.Error != *failed.After.Error {
			t.Errorf("the failed item's recorded error %v, want %q", failed.Before.Error, *failed.After.Error)
		}
		if rep.Items[3].Changed || rep.Items[4].Changed || rep.Items[3].Before.Error != nil || rep.Items[4].Before.Error != nil {
			t.Errorf("unchanged items %+v", rep.Items[3:])
		}
		read, err := f.svc.Decision(admin, failed.DecisionID)
		if err != nil || read.Error == nil || *read.Error != *failed.Before.Error {
			t.Errorf("the failed decision reads %+v, %v; want its error", read, err)
		}

		limited, err := f.svc.ReplayPolicy(admin, draft.ID, service.ReplayInput{Limit: 1})
		if err != nil || limited.Compared != 1 || limited.Changed != 1 {
			t.Errorf("a replay of the newest one: %+v, %v", limited, err)
		}
		since := rep.Items[0].At
		recent, err := f.svc.ReplayPolicy(admin, draft.ID, service.ReplayInput{Since: &since})
		if err != nil || recent.Compared != 1 {
			t.Errorf("a replay since the newest: %+v, %v", recent, err)
		}
		// Records are timed in whole microseconds; a finer since is not
		// rounded down onto the newest.
		justAfter := since.Add(100 * time.Nanosecond)
		if none, err := f.svc.ReplayPolicy(admin, draft.ID, service.ReplayInput{Since: &justAfter}); err != nil || none.Compared != 0 {
			t.Errorf("a replay since just after the newest: %+v, %v", none, err)
		}
		for _, bad := range []service.ReplayInput{{Limit: service.MaxReplayLimit + 1}, {Limit: -1}, {Since: &since, Until: &since}} {
			_, err := f.svc.ReplayPolicy(admin, draft.ID, bad)
			wantCode(t, err, service.CodeInvalidArgument)
		}
		if n := db.Client().AuditEvent.Query().CountX(context.Background()); n != events {
			t.Errorf("replays stored %d audit events", n-events)
		}
		if n := db.Client().DecisionRecord.Query().CountX(context.Background()); n != 5 {
			t.Errorf("%d decision records after replays, want the 5 recorded", n)
		}
	})
}

// Whoever may publish a policy may replay against it: publishers and admins
// may, editors, viewers and auditors may not.
func TestReplayIsForThoseWhoMayPublishTheBase(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		f.recordRuns(t, pol, person(70))
		editorKey, _ := f.member(t, "editor@acme.test", authz.RoleEditor)
		viewerKey, _ := f.member(t, "viewer@acme.test", authz.RoleViewer)
		publisherKey, _ := f.member(t, "publisher@acme.test", authz.RolePublisher)
		for name, ctx := range map[string]context.Context{"an editor": f.as(t, editorKey, ""),
			"a viewer": f.as(t, viewerKey, ""), "an auditor": f.auditor(t)} {
			_, err := f.svc.ReplayPolicy(ctx, pol.ID, service.ReplayInput{})
			if service.CodeOf(err) != service.CodePermissionDenied {
				t.Errorf("%s replays: %v, want permission_denied", name, err)
			}
		}
		for name, key := range map[string]string{"the publisher": publisherKey, "the admin": adminKey} {
			rep, err := f.svc.ReplayPolicy(f.as(t, key, ""), pol.BaseID, service.ReplayInput{})
			if err != nil || rep.Compared != 1 || rep.Unchanged != 1 {
				t.Fatalf("%s replays %+v, %v", name, rep, err)
			}
		}
		other, err := f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Beta", Email: "admin@beta.test", Key: "beta-admin-key-0123456789abcdefghijkl"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.ReplayPolicy(f.as(t, other.Secret, ""), pol.ID, service.ReplayInput{})
		wantCode(t, err, service.CodeNotFound)
	})
}

func TestAFlowRecordsAndReplaysItsRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)))
		if _, err := f.svc.SetFlowDecisionSettings(admin, fl.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.applicant.name"}}); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{`{"applicant": {"age": 16, "name": "Zed Zulu"}}`, `{"applicant": {"age": 40, "name": "Yan"}}`} {
			if _, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(d)); err != nil {
				t.Fatal(err)
			}
		}
		f.waitForLog(t, 2+1+1+2) // the policy created and published, the flow created, its settings edited, two runs
		for _, row := range storedRows(t, db) {
			if strings.Contains(row, "Zed Zulu") || strings.Contains(row, "Yan") {
				t.Errorf("the stored row holds a masked name: %s", row)
			}
		}
		list, err := f.svc.Decisions(admin, service.DecisionFilter{BaseID: &fl.BaseID}, service.ListOptions{})
		if err != nil || len(list.Items) != 2 || list.Items[0].Kind != "flow" {
			t.Fatalf("flow decisions %+v, %v", list, err)
		}
		d, err := f.svc.Decision(admin, list.Items[0].ID)
		if err != nil || d.Recomputed == nil || d.Note != nil || d.Recomputed.Flow == nil || d.Recomputed.Result != d.Result {
			t.Fatalf("a flow decision %+v, %v", d, err)
		}
		rep, err := f.svc.ReplayFlow(admin, fl.ID, service.ReplayInput{})
		if err != nil || rep.Compared != 2 || rep.Unchanged != 2 {
			t.Fatalf("flow replay %+v, %v", rep, err)
		}
		// A policy's id is no flow's to replay.
		_, err = f.svc.ReplayFlow(admin, adult.ID, service.ReplayInput{})
		wantCode(t, err, service.CodeNotFound)
	})
}

// TestAPolicyReplayCountsAnAnswerWhereARunFailedAsAChange: a recorded run
// that stopped on an error answered false without deciding; a draft that
// answers a clean false for its input decides otherwise. One that stops
// as the recorded run did is counted among the errors.
func TestAPolicyReplayCountsAnAnswerWhereARunFailedAsAChange(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		// A null age cannot be compared (a type error), a missing one not
		// read; both runs stop on an error.
		f.recordRuns(t, pol, `{"Person": {}}`, `{"Person": {"age": null}}`)
		draft, err := f.svc.PolicyDraftFromVersion(admin, pol.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		known := "A **Person** gets senior_discount if the __age__ of the **Person** is not empty."
		if _, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: &known}); err != nil {
			t.Fatal(err)
		}
		rep, err := f.svc.ReplayPolicy(admin, draft.ID, service.ReplayInput{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compared != 2 || rep.Changed != 1 || rep.Errors != 1 || rep.Unchanged != 0 {
			t.Fatalf("replay %+v; want 1 changed, 1 error", rep)
		}
		changed, failed := rep.Items[0], rep.Items[1]
		if !changed.Changed || changed.Before.Result || changed.After.Result || changed.Before.Error == nil || changed.After.Error != nil ||
			changed.Before.Outcome != nil || changed.After.Outcome != nil {
			t.Errorf("the changed item %+v; want a recorded false with an error, a replayed false without", changed)
		}
		if failed.Changed || failed.Before.Error == nil || failed.After.Error == nil || !strings.Contains(*failed.After.Error, "age") {
			t.Errorf("the failed item %+v; want the missing age's error before and after", failed)
		}
	})
}

// TestAFlowReplayComparesOutcomesAndErrors: a flow's decision is kept
// with the outcome its run ended on, and a replayed run decides otherwise
// when it ends on another outcome with the same result, answers where the
// recorded run stopped on an error, or stops on one where it answered.
// One that stops as the recorded one did is counted among the errors.
func TestAFlowReplayComparesOutcomesAndErrors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		income := f.publishedPolicy(t, "income", incomeRule)
		wealth := f.publishedPolicy(t, "wealth", "A **applicant** is wealthy if the __wealth__ of the **applicant** is greater than 1000000.")
		fl := f.createFlow(t, admin, chainFlow(byID(adult.ID), byID(income.ID)))
		if _, err := f.svc.SetFlowDecisionSettings(admin, fl.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		// Oldest first: a manual review, a yes, a run stopped on the
		// missing income, a no.
		inputs := []string{
			`{"applicant": {"age": 30, "income": 20000}}`,
			`{"applicant": {"age": 30, "income": 45000}}`,
			`{"applicant": {"age": 30}}`,
			`{"applicant": {"age": 15}}`,
		}
		before := audittest.Count(t, db, audittest.Filter{Tenant: &f.acme.Organization.ID, ExceptOperator: true})
		for _, d := range inputs {
			if _, err := f.svc.RunFlow(f.as(t, adminKey, ""), fl.BaseID, json.RawMessage(d)); err != nil {
				t.Fatal(err)
			}
			*f.clock = f.clock.Add(time.Second)
		}
		f.waitForLog(t, before+len(inputs))
		list, err := f.svc.Decisions(admin, service.DecisionFilter{BaseID: &fl.BaseID}, service.ListOptions{})
		if err != nil || len(list.Items) != 4 {
			t.Fatalf("decisions %+v, %v", list, err)
		}
		minor, stopped, rich, review := list.Items[0], list.Items[1], list.Items[2], list.Items[3]
		if review.Outcome == nil || *review.Outcome != "manual review" || rich.Outcome != nil || stopped.Outcome != nil || minor.Outcome != nil {
			t.Errorf("recorded outcomes %v, %v, %v, %v; want only the review's", review.Outcome, rich.Outcome, stopped.Outcome, minor.Outcome)
		}
		if read, err := f.svc.Decision(admin, review.ID); err != nil || read.Outcome == nil || *read.Outcome != "manual review" {
			t.Errorf("the review's decision reads %+v, %v", read, err)
		}

		type want struct {
			changed, unchanged, errors int
			// order is the decisions as the replay lists them.
			order []service.Decision
		}
		for _, c := range []struct {
			name, onTrue, extra string
			want                want
		}{
			// Too little income is a yes now: the review's run answers
			// true as before, but ends elsewhere.
			{"the review answers yes", `"p"`, `{"id": "p", "type": "policy", "policy": ` + byID(income.ID) + `, "onTrue": "yes", "onFalse": "yes"}`,
				want{1, 2, 1, []service.Decision{review, stopped, minor, rich}}},
			// Adults are refused without reading their income: the run
			// that stopped on it answers a clean false now.
			{"adults are refused", `"no"`, ``,
				want{3, 1, 0, []service.Decision{stopped, rich, review, minor}}},
			// Adults are asked for a wealth none has: the runs that
			// answered stop now.
			{"adults stop on their wealth", `"w"`, `{"id": "w", "type": "policy", "policy": ` + byID(wealth.ID) + `, "onTrue": "yes", "onFalse": "no"}`,
				want{2, 1, 1, []service.Decision{rich, review, stopped, minor}}},
		} {
			nodes := []string{`{"id": "s", "type": "start", "policy": ` + byID(adult.ID) + `, "onTrue": ` + c.onTrue + `, "onFalse": "no"}`,
				`{"id": "yes", "type": "return", "returnValue": true}`, `{"id": "no", "type": "return", "returnValue": false}`}
			if c.extra != "" {
				nodes = append(nodes, c.extra)
			}
			definition := json.RawMessage(`{"formatVersion": 1, "nodes": [` + strings.Join(nodes, ",") + `]}`)
			if _, err := f.svc.UpdateFlowDraft(admin, fl.ID, service.Changes{Definition: definition}); err != nil {
				t.Fatal(err)
			}
			rep, err := f.svc.ReplayFlow(admin, fl.ID, service.ReplayInput{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Compared != 4 || rep.Changed != c.want.changed || rep.Unchanged != c.want.unchanged || rep.Errors != c.want.errors {
				t.Errorf("%s: compared %d, changed %d, unchanged %d, errors %d; want 4, %d, %d, %d", c.name,
					rep.Compared, rep.Changed, rep.Unchanged, rep.Errors, c.want.changed, c.want.unchanged, c.want.errors)
				continue
			}
			for i, it := range rep.Items {
				if it.DecisionID != c.want.order[i].ID || it.Changed != (i < c.want.changed) {
					t.Errorf("%s: item %d is %s, changed %v; want %s, changed %v", c.name, i, it.DecisionID, it.Changed, c.want.order[i].ID, i < c.want.changed)
				}
				if it.DecisionID == review.ID && (it.Before.Outcome == nil || *it.Before.Outcome != "manual review") {
					t.Errorf("%s: the review's recorded outcome %v", c.name, it.Before.Outcome)
				}
			}
		}
	})
}

// TestEachReplayedDecisionIsARunChargedBeforeAnyRuns: a replay charges
// the rate limits one run for each decision it replays, all before the
// first, as a batch charges its items; refused, it runs none.
func TestEachReplayedDecisionIsARunChargedBeforeAnyRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "senior", seniorRule)
		f.recordRuns(t, pol, person(70), person(40), person(70))
		adult := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byBaseID(adult.BaseID)))
		if _, err := f.svc.SetFlowDecisionSettings(admin, fl.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		before := audittest.Count(t, f.db, audittest.Filter{Tenant: &f.acme.Organization.ID, ExceptOperator: true})
		for _, d := range []string{`{"applicant": {"age": 16}}`, `{"applicant": {"age": 40}}`} {
			if _, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(d)); err != nil {
				t.Fatal(err)
			}
		}
		f.waitForLog(t, before+2)

		refusing := service.WithRunBudget(admin, &countingBudget{refuse: true})
		_, err := f.svc.ReplayPolicy(refusing, pol.ID, service.ReplayInput{})
		wantCode(t, err, service.CodeRateLimited)
		_, err = f.svc.ReplayFlow(refusing, fl.ID, service.ReplayInput{})
		wantCode(t, err, service.CodeRateLimited)

		b := &countingBudget{}
		ctx := service.WithRunBudget(admin, b)
		if rep, err := f.svc.ReplayPolicy(ctx, pol.ID, service.ReplayInput{}); err != nil || rep.Compared != 3 {
			t.Fatalf("policy replay %+v, %v", rep, err)
		}
		if rep, err := f.svc.ReplayPolicy(ctx, pol.ID, service.ReplayInput{Limit: 2}); err != nil || rep.Compared != 2 {
			t.Fatalf("policy replay of two %+v, %v", rep, err)
		}
		if rep, err := f.svc.ReplayFlow(ctx, fl.ID, service.ReplayInput{}); err != nil || rep.Compared != 2 {
			t.Fatalf("flow replay %+v, %v", rep, err)
		}
		if want := []int{3, 2, 2}; !reflect.DeepEqual(b.spent, want) {
			t.Errorf("spent %v, want %v", b.spent, want)
		}
	})
}

func TestAFlowDecisionIsRecomputedWithThePolicyRecordsItsNodesRan(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		adult := f.publishedPolicy(t, "adult", adultRule)
		// A policy that is only a draft: the flow runs its draft.
		named := `A **applicant** is named if the __name__ of the **applicant** is equal to "[masked]".`
		draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("named"), Rule: &named})
		if err != nil {
			t.Fatal(err)
		}
		fl := f.createFlow(t, admin, chainFlow(byBaseID(adult.BaseID), byBaseID(draft.BaseID)))
		if _, err := f.svc.SetFlowDecisionSettings(admin, fl.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.applicant.name"}}); err != nil {
			t.Fatal(err)
		}
		// An adult whose masked name the draft reads: the run ended in a
		// manual review; the recomputed one sees the masked name.
		res, err := f.svc.RunFlow(admin, fl.BaseID, json.RawMessage(`{"applicant": {"age": 19, "name": "Zed"}}`))
		if err != nil || !slices.Equal(res.ExecutionPath, []string{"p", "review"}) || res.Outcome == nil || *res.Outcome != "manual review" {
			t.Fatalf("the run: %+v, %v", res, err)
		}
		f.waitForLog(t, 2+1+1+1+1) // adult created and published, the draft, the flow, its settings, the run

		// adult's base now resolves to a stricter version 2; the decision
		// is recomputed with version 1, which ran.
		v2, err := f.svc.PolicyDraftFromVersion(admin, adult.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		stricter := strings.Replace(adultRule, "18", "21", 1)
		if _, err := f.svc.UpdatePolicyDraft(admin, v2.ID, service.Changes{Rule: &stricter}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PublishPolicy(admin, v2.ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
		list, err := f.svc.Decisions(admin, service.DecisionFilter{BaseID: &fl.BaseID}, service.ListOptions{})
		if err != nil || len(list.Items) != 1 {
			t.Fatalf("flow decisions %+v, %v", list, err)
		}
		d, err := f.svc.Decision(admin, list.Items[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		draftRec := db.Client().Record.GetX(ctx, draft.ID)
		wantPolicies := []service.FlowPolicy{
			{Ref: flow.PolicyRef{BaseID: adult.BaseID.String()}, RecordID: adult.ID, Revision: db.Client().Record.GetX(ctx, adult.ID).Revision},
			{Ref: flow.PolicyRef{BaseID: draft.BaseID.String()}, RecordID: draft.ID, Revision: draftRec.Revision},
		}
		if !reflect.DeepEqual(d.Policies, wantPolicies) {
			t.Errorf("recorded policies %+v, want %+v", d.Policies, wantPolicies)
		}
		rc := d.Recomputed
		if d.Note != nil || rc == nil || rc.Flow == nil {
			t.Fatalf("not recomputed: %+v, note %v", rc, d.Note)
		}
		// Version 1 let 19 through to the draft, which now matches the
		// masked name, where version 2 would have said false at the start
		// node.
		if !rc.Result || rc.Error != nil || rc.Flow.Outcome != nil || !slices.Equal(rc.Flow.ExecutionPath, []string{"p"}) ||
			len(rc.Flow.NodeResponses) != 2 || rc.Flow.NodeResponses[0].NodeID != "s" || !rc.Flow.NodeResponses[0].Response.Result ||
			len(rc.Flow.NodeResponses[0].Response.Trace.Execution) != 1 ||
			!strings.Contains(rc.Flow.NodeResponses[0].Response.Explanation, "the age of the applicant is 19, which is at least 18") ||
			rc.Explanation != `The flow's result is true; the nodes that ran: s → p. `+rc.Flow.NodeResponses[1].Response.Explanation {
			t.Errorf("recomputed %+v, flow %+v", rc, rc.Flow)
		}
		if !d.Result || !strings.Contains(d.Explanation, "the nodes that ran: s → p → review.") {
			t.Errorf("the recorded run %v, %q; want the run's", d.Result, d.Explanation)
		}

		// Once the draft the flow ran on changed, the run is not
		// recomputed, and the note says why.
		if _, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Rule: ptr(adultRule)}); err != nil {
			t.Fatal(err)
		}
		d, err = f.svc.Decision(admin, list.Items[0].ID)
		if err != nil || d.Recomputed != nil || d.Note == nil ||
			*d.Note != "the policy draft "+draft.ID.String()+" that the flow's reference "+draft.BaseID.String()+" resolved to has changed since, so the run cannot be recomputed" {
			t.Errorf("after the draft changed: %+v, note %v, %v", d.Recomputed, d.Note, err)
		}
	})
}

// A run error that quotes an object quotes it whole, so that a masked
// value inside it is hidden there too: quoting the start of the object
// left the start of the value, with nothing whole to hide.
func TestAMaskedValueInAnObjectARunErrorQuotesIsHidden(t *testing.T) {
	const rule = `A **P** is ok if the __card__ of the **P** is at least 1.`
	const data = `{"P": {"card": {"aaaaaaaaaaaaaaaaaaaa": 1, "number": "4111222233334444"}}}`
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "cards", rule)
		if _, err := f.svc.SetPolicyDecisionSettings(admin, pol.ID, service.DecisionSettingsInput{
			Enabled: true, Mask: []string{"$.P.card.number"}}); err != nil {
			t.Fatal(err)
		}
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		if res.Error == nil || !strings.Contains(res.Error.Message, "4111") {
			t.Fatalf("the run's error %v does not quote the value: the test shows nothing", res.Error)
		}
		res.Release()
		f.waitForLog(t, 4) // created, published, edited, executed
		for _, row := range storedRows(t, db) {
			if strings.Contains(row, "4111") {
				t.Fatalf("the stored row holds the start of the masked value: %.300s", row)
			}
		}
	})
}

// No index holds a decision's result: a page filtered by it walks a
// bounded part of the records, and may end short, or empty, with a cursor
// to go on from. Paging on reads every matching record once, in order.
func TestDecisionsByResultWalkABoundedPartOfTheRecords(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(cfg *service.Config) { cfg.ListScan = 2 })
		pol := f.publishedPolicy(t, "seniors", "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.")
		f.recordRuns(t, pol, person(30), person(70), person(80), person(90), person(20), person(75), person(85))
		admin := f.as(t, adminKey, "")
		all, err := f.svc.Decisions(admin, service.DecisionFilter{}, service.ListOptions{})
		if err != nil || len(all.Items) != 7 {
			t.Fatalf("unfiltered: %+v, %v", all, err)
		}
		no := false
		var want []uuid.UUID
		for _, d := range all.Items {
			if !d.Result {
				want = append(want, d.ID)
			}
		}
		for _, filter := range []service.DecisionFilter{{Result: &no}, {Result: &no, BaseID: &pol.BaseID}} {
			var got []uuid.UUID
			short := 0
			o := service.ListOptions{Limit: 2}
			for pages := 0; ; pages++ {
				if pages > len(all.Items) {
					t.Fatal("more pages than records")
				}
				page, err := f.svc.Decisions(admin, filter, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range page.Items {
					got = append(got, d.ID)
				}
				if page.NextCursor == "" {
					break
				}
				if len(page.Items) < o.Limit {
					short++
				}
				o.Cursor = page.NextCursor
			}
			if !slices.Equal(got, want) || short == 0 {
				t.Errorf("filter %+v: paged %v with %d short pages; want %v, and short pages", filter, got, short, want)
			}
		}
	})
}
