package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// bigRule is a policy of n conditions, whose every run answers a trace
// entry and an explanation clause for each: counted 512 bytes a condition
// and three times its text.
func bigRule(n int) string {
	var b strings.Builder
	b.WriteString("A **Person** gets big if the __age__ of the **Person** is at least 1")
	for range n - 1 {
		b.WriteString(" and the __age__ of the **Person** is at least 1")
	}
	b.WriteString(".")
	return b.String()
}

const adultData = `{"Person": {"age": 70}}`

// fitting is how many runs of a rule of n conditions on adultData one
// request may answer: each counts its rule text, 512 bytes a condition
// and three times its text (about 51 bytes), the rule's selector and
// outcome twice, and its data.
func fitting(n int) int {
	rule := bigRule(n)
	return service.DefaultMaxAnswerBytes / (len(rule) + 512*n + 3*(len(rule)-len("A **Person** gets big if .")) + 2*len(`Person"big"`) + len(adultData))
}

func repeated(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestABatchThatWouldAnswerTooMuchIsRefusedBeforeItRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		big := f.publishedPolicy(t, "big", bigRule(200))
		// 1,000 items of 200 conditions answer about 134 MiB.
		_, err := f.svc.RunPolicyBatch(f.as(t, adminKey, ""), big.BaseID, items(repeated(adultData, 1000)...))
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "1000 items of this policy would answer about 134.3 MiB, more than the 64.0 MiB one request may: each answers about 137.6 KiB; ask for at most 476 in one request"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		if fitting(200) != 476 {
			t.Errorf("%d items fit, the message says 476", fitting(200))
		}
		// Nothing of the refused batch is recorded: waitForEvents fails
		// on more events than the one of the batch that fits.
		if _, err := f.svc.RunPolicyBatch(f.as(t, adminKey, ""), big.BaseID, items(repeated(adultData, 476)...)); err != nil {
			t.Fatal(err)
		}
		f.waitForEvents(t, big.BaseID, auditevent.ActionExecuted, 1)

		// A request that has spent some of its bound is told what is left.
		ctx := f.as(t, adminKey, "")
		first, err := f.svc.RunPolicyBatch(ctx, big.BaseID, items(repeated(adultData, 300)...))
		if err != nil {
			t.Fatal(err)
		}
		first.Release()
		_, err = f.svc.RunPolicyBatch(ctx, big.BaseID, items(repeated(adultData, 200)...))
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "200 items of this policy would answer about 26.9 MiB, more than the 23.7 MiB this request has left of the 64.0 MiB one request may: each answers about 137.6 KiB; ask for at most 176 in one request"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
	})
}

func TestARequestsRunsShareWhatItMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		big := f.publishedPolicy(t, "big", bigRule(2000))
		// One request, as a GraphQL document of many run fields is: each
		// run answers about 1.1 MiB.
		request := f.as(t, adminKey, "")
		for i := range fitting(2000) {
			res, err := f.svc.RunPolicy(request, big.BaseID, json.RawMessage(adultData))
			if err != nil {
				t.Fatalf("run %d: %v", i+1, err)
			}
			res.Release()
		}
		_, err := f.svc.RunPolicy(request, big.BaseID, json.RawMessage(adultData))
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		_, err = f.svc.RunRule(request, bigRule(2000), json.RawMessage(adultData))
		wantCode(t, err, service.CodeInvalidArgument)
		// The next request starts afresh.
		res, err := f.svc.RunPolicy(f.as(t, adminKey, ""), big.BaseID, json.RawMessage(adultData))
		if err != nil {
			t.Fatal(err)
		}
		res.Release()
	})
}

func TestTestsThatWouldAnswerTooMuchAreRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		big := f.publishedPolicy(t, "big", bigRule(200))
		tests := make([]service.TestCase, 1000)
		for i := range tests {
			tests[i] = service.TestCase{Name: fmt.Sprint(i), Data: json.RawMessage(adultData), Expect: json.RawMessage("true")}
		}
		_, err := f.svc.TestPolicy(f.as(t, adminKey, ""), big.ID, tests)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "1000 tests of this policy would answer about 134.3 MiB"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		rep, err := f.svc.TestPolicy(f.as(t, adminKey, ""), big.ID, tests[:476])
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Passed || rep.Total != 476 {
			t.Errorf("476 tests: passed %v of %d", rep.Passed, rep.Total)
		}
	})
}

func TestAFlowStopsWhenItsAnswerWouldBeTooLarge(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		big := f.publishedPolicy(t, "big", bigRule(2000))
		// A chain of 100 nodes on a policy whose runs answer about 1.1 MiB
		// each: it stops at the first that would pass 64 MiB.
		fl := f.createFlow(t, admin, chainOf(100, big.BaseID))
		res, err := f.svc.RunFlowVersion(admin, fl.ID, json.RawMessage(adultData))
		if err != nil {
			t.Fatal(err)
		}
		want := "flow stopped: this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request"
		if res.Result || len(res.NodeResponses) != fitting(2000) || len(res.Errors) != 1 || res.Errors[0] != want {
			t.Errorf("result %v after %d nodes, errors %q; want false after %d nodes, %q", res.Result, len(res.NodeResponses), res.Errors, fitting(2000), want)
		}
	})
}

func TestAReplayThatWouldAnswerTooMuchIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A replayed decision of the one-condition senior rule counts
		// about 430 bytes (256, 64 for the replayed clause, its input and
		// its recorded explanation), a single run about 600: each request
		// below may answer 4,000.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 4000 })
		pol := f.publishedPolicy(t, "senior", seniorRule)
		f.recordRuns(t, pol, person(70), person(40), person(70), person(40), person(70))
		f.recordRuns(t, pol, person(70), person(40), person(70), person(40), person(70))
		_, err := f.svc.ReplayPolicy(f.as(t, adminKey, ""), pol.ID, service.ReplayInput{Limit: 10})
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "10 recorded decisions of this policy would answer about 4.2 KiB, more than the 3.9 KiB one request may"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		rep, err := f.svc.ReplayPolicy(f.as(t, adminKey, ""), pol.ID, service.ReplayInput{Limit: 9})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compared != 9 {
			t.Errorf("compared %d, want 9", rep.Compared)
		}
	})
}

func TestPublishingRefusesStoredTestsThatWouldAnswerTooMuch(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 4000 })
		admin := f.as(t, adminKey, "")
		draft := func(n int) *service.SavedPolicy {
			tests := make([]service.TestCase, n)
			for i := range tests {
				tests[i] = service.TestCase{Name: fmt.Sprint(i), Data: json.RawMessage(person(70)), Expect: json.RawMessage("true")}
			}
			name, rule := fmt.Sprintf("senior %d", n), seniorRule
			p, err := f.svc.CreatePolicy(admin, service.Changes{Name: &name, Rule: &rule, Tests: &tests})
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// Each test of the senior rule counts about 800 bytes (a little
		// more on PostgreSQL, whose jsonb writes the data with spaces).
		_, err := f.svc.PublishPolicy(f.as(t, adminKey, ""), draft(7).ID, service.Changes{})
		wantCode(t, err, service.CodeInvalidArgument)
		for _, want := range []string{"7 stored tests of this policy would answer about 5.", " KiB, more than the 3.9 KiB one request may",
			"a policy is published only with stored tests that fit: keep at most 5 of them"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%v, want %q", err, want)
			}
		}
		if _, err := f.svc.PublishPolicy(f.as(t, adminKey, ""), draft(5).ID, service.Changes{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestARequestsChecksShareWhatItMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A check counts 16 bytes a byte of its text and then what it
		// answers: 150 KiB and 146 KiB for the 200-condition rule (9,621
		// bytes, 1,604 tokens), of the 640 KiB each request below may
		// answer.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 640 << 10 })
		rule := bigRule(200)
		request := f.as(t, adminKey, "")
		for i := range 2 {
			if _, err := f.svc.CheckRule(request, rule, nil, true); err != nil {
				t.Fatalf("check %d: %v", i+1, err)
			}
		}
		_, err := f.svc.CheckRule(request, rule, nil, true)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "this request would answer more than 640.0 KiB; ask for fewer runs, checks or records in one request"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		if _, err := f.svc.CheckRule(f.as(t, adminKey, ""), rule, nil, true); err != nil {
			t.Fatal(err)
		}
		// A schema counts its bytes, which the check reads: with one of
		// 100 KiB, the second check of the text is over.
		schema := json.RawMessage(`{"description": "` + strings.Repeat("x", 100<<10) + `"}`)
		request = f.as(t, adminKey, "")
		if _, err := f.svc.CheckRule(request, rule, schema, true); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.CheckRule(request, rule, schema, true)
		wantCode(t, err, service.CodeInvalidArgument)
	})
}

func TestARequestsSavesShareWhatItMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A save counts what a check of its content does: 16 bytes a
		// byte, 150 KiB for the 200-condition rule (9,620 bytes), of the
		// 320 KiB each request below may answer.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 320 << 10 })
		rule := bigRule(200)
		tooMuch := "this request would answer more than 320.0 KiB; ask for fewer runs, checks or records in one request"
		request := f.as(t, adminKey, "")
		var saved []*service.SavedPolicy
		for i := range 2 {
			p, err := f.svc.CreatePolicy(request, service.Changes{Name: ptr(fmt.Sprint("big ", i)), Rule: &rule})
			if err != nil {
				t.Fatalf("save %d: %v", i+1, err)
			}
			saved = append(saved, p)
		}
		_, err := f.svc.CreatePolicy(request, service.Changes{Name: ptr("big 2"), Rule: &rule})
		wantCode(t, err, service.CodeInvalidArgument)
		if err == nil || !strings.Contains(err.Error(), tooMuch) {
			t.Errorf("%v, want %q", err, tooMuch)
		}
		page, err := f.svc.Policies(f.as(t, adminKey, ""), service.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 {
			t.Errorf("%d policies stored, want the 2 that fit", len(page.Items))
		}

		// Renaming a draft answers its rule checked: it counts the rule.
		request = f.as(t, adminKey, "")
		for _, name := range []string{"renamed", "renamed again"} {
			if _, err := f.svc.UpdatePolicyDraft(request, saved[0].ID, service.Changes{Name: ptr(name)}); err != nil {
				t.Fatal(err)
			}
		}
		_, err = f.svc.UpdatePolicyDraft(request, saved[0].ID, service.Changes{Name: ptr("refused")})
		wantCode(t, err, service.CodeInvalidArgument)
		if p, err := f.svc.Policy(f.as(t, adminKey, ""), saved[0].ID); err != nil || p.Name != "renamed again" {
			t.Errorf("the draft is named %q (%v), want the last name that fit", p.Name, err)
		}

		// A flow's definition is counted before it is decoded: this one,
		// 20,481 bytes (a byte more than 320 KiB counts 16 bytes a byte),
		// whose description is no member of a flow, is refused for its
		// size, not its shape.
		definition := `{"formatVersion": 1, "description": "` + strings.Repeat("x", 20442) + `"}`
		_, err = f.svc.CreateFlow(f.as(t, adminKey, ""), service.Changes{Name: ptr("large"), Definition: json.RawMessage(definition)})
		wantCode(t, err, service.CodeInvalidArgument)
		if len(definition) != 20481 || err == nil || !strings.Contains(err.Error(), tooMuch) {
			t.Errorf("a definition of %d bytes: %v, want %q", len(definition), err, tooMuch)
		}
	})
}

func TestAFlowReplayThatWouldAnswerTooMuchIsRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A chain of 10 nodes on a policy of 20 conditions: a run of a
		// node counts about 15 KiB (its text, 512 bytes a condition and
		// three times its text, its framing and its data), a replayed one
		// an eighth of that, so a replayed decision about 18.5 KiB with
		// its explanation, and three fit in 64 KiB.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 64 << 10 })
		admin := f.as(t, adminKey, "")
		twenty := f.publishedPolicy(t, "twenty", bigRule(20))
		fl := f.createFlow(t, admin, chainOf(10, twenty.BaseID))
		f.recordFlowRuns(t, fl, adultData, 5)
		_, err := f.svc.ReplayFlow(f.as(t, adminKey, ""), fl.ID, service.ReplayInput{Limit: 4})
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "the replay would answer more than 64.0 KiB, what one request may; ask for a smaller limit"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		rep, err := f.svc.ReplayFlow(f.as(t, adminKey, ""), fl.ID, service.ReplayInput{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compared != 3 || rep.Errors != 0 {
			t.Errorf("compared %d with %d errors, want 3 without", rep.Compared, rep.Errors)
		}
	})
}

// TestAFlowReplayCountsTheNodesItsExplanationsName: a replayed flow
// answers no trace, but its explanation names every node that ran, and
// that is charged too. 100 custom nodes with ids of 205 characters are
// charged about 14 KiB a replayed decision as they run, and their
// explanation 20 KiB more: in 1 MiB (which saving the flow needs), twenty
// decisions fit and forty do not, which would without their explanations.
func TestAFlowReplayCountsTheNodesItsExplanationsName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 1 << 20 })
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		id := func(i int) string { return fmt.Sprintf("n%03d-%s", i, strings.Repeat("x", 200)) }
		nodes := []string{fmt.Sprintf(`{"id": "s", "type": "start", "policy": %s, "onTrue": %q, "onFalse": %q}`, byBaseID(pol.BaseID), id(0), id(0))}
		for i := range 100 {
			next := ""
			if i < 99 {
				next = fmt.Sprintf(`, "next": %q`, id(i+1))
			}
			nodes = append(nodes, fmt.Sprintf(`{"id": %q, "type": "custom", "outcome": "o"%s}`, id(i), next))
		}
		fl := f.createFlow(t, admin, json.RawMessage(`{"formatVersion": 1, "nodes": [`+strings.Join(nodes, ",")+`]}`))
		f.recordFlowRuns(t, fl, `{"applicant": {"age": 40}}`, 40)
		_, err := f.svc.ReplayFlow(f.as(t, adminKey, ""), fl.ID, service.ReplayInput{Limit: 40})
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "the replay would answer more than 1.0 MiB, what one request may; ask for a smaller limit"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		// Each answers its recorded explanation and the replayed one, of
		// the hundred ids: about 38 KB.
		rep, err := f.svc.ReplayFlow(f.as(t, adminKey, ""), fl.ID, service.ReplayInput{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Compared != 10 || rep.Errors != 0 || rep.Changed != 0 {
			t.Errorf("compared %d with %d errors, %d changed; want 10 unchanged", rep.Compared, rep.Errors, rep.Changed)
		}
	})
}

// TestAFlowCheckCountsAsCheckingItsDefinition checks one stored flow as
// many times as one request may: each check counts 16 bytes for each byte
// of the definition, as a save does.
func TestAFlowCheckCountsAsCheckingItsDefinition(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 1 << 20 })
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, chainOf(30, pol.BaseID))
		stored := db.Client().Record.GetX(context.Background(), fl.ID)
		fits := (1 << 20) / (16 * len(stored.Definition))
		if fits < 2 {
			t.Fatalf("a definition of %d bytes leaves room for %d checks", len(stored.Definition), fits)
		}
		ctx := f.as(t, adminKey, "")
		for i := range fits {
			if _, err := f.svc.FlowValidation(ctx, fl.ID); err != nil {
				t.Fatalf("check %d of %d: %v", i+1, fits, err)
			}
		}
		_, err := f.svc.FlowValidation(ctx, fl.ID)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "this request would answer more than 1.0 MiB"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check %d: %v, want %q", fits+1, err, want)
		}
	})
}

// chainOf is a flow of n policy nodes in a row on one policy, ending in a
// return whichever way each goes.
func chainOf(n int, policy uuid.UUID) json.RawMessage {
	var nodes []string
	for i := range n {
		kind := "policy"
		if i == 0 {
			kind = "start"
		}
		next := fmt.Sprintf("n%d", i+1)
		if i == n-1 {
			next = "end"
		}
		nodes = append(nodes, fmt.Sprintf(`{"id": "n%d", "type": %q, "policy": %s, "onTrue": %q, "onFalse": %q}`, i, kind, byBaseID(policy), next, next))
	}
	nodes = append(nodes, `{"id": "end", "type": "return", "returnValue": true}`)
	return json.RawMessage(`{"formatVersion": 1, "nodes": [` + strings.Join(nodes, ",") + `]}`)
}

func TestAPageOfDecisionsIsChargedTheDataItAnswers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// A decision of the senior rule counts about 625 bytes: 512, its
		// data and its explanation. Seven pass 4,000; two do not.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 4000 })
		pol := f.publishedPolicy(t, "senior", seniorRule)
		f.recordRuns(t, pol, person(70), person(40), person(70), person(40))
		f.recordRuns(t, pol, person(70), person(40), person(70))
		_, err := f.svc.Decisions(f.as(t, adminKey, ""), service.DecisionFilter{BaseID: &pol.BaseID}, service.ListOptions{})
		wantCode(t, err, service.CodeInvalidArgument)
		page, err := f.svc.Decisions(f.as(t, adminKey, ""), service.DecisionFilter{BaseID: &pol.BaseID}, service.ListOptions{Limit: 2})
		if err != nil || len(page.Items) != 2 || page.NextCursor == "" {
			t.Fatalf("a page of two: %+v, %v", page, err)
		}
	})
}

func TestAPageOfTheAuditLogIsChargedItsEvents(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// An event counts 512 bytes: seven pass 4,000, eight do not. Five
		// published policies leave ten events (created, published).
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 4000 })
		for i := range 5 {
			f.publishedPolicy(t, fmt.Sprintf("senior %d", i), seniorRule)
		}
		_, err := f.svc.AuditEvents(f.as(t, adminKey, ""), service.AuditFilter{}, service.ListOptions{})
		wantCode(t, err, service.CodeInvalidArgument)
		page, err := f.svc.AuditEvents(f.as(t, adminKey, ""), service.AuditFilter{}, service.ListOptions{Limit: 7})
		if err != nil || len(page.Items) != 7 || page.NextCursor == "" {
			t.Fatalf("a page of seven: %+v, %v", page, err)
		}
	})
}

// TestAFailedRunsEventKeepsItsErrorCutAndIsChargedForIt: an error may
// quote a value of the data whole, which the event keeps cut to 16 KiB; a
// page of events is charged for the texts they hold. An event answers
// 512 bytes beside its texts, here 16,389 ("error" and its text): of the
// 400,000 bytes below, a page of 23 fits (388,723) and one of 24 does not.
func TestAFailedRunsEventKeepsItsErrorCutAndIsChargedForIt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		data := json.RawMessage(`{"applicant": {"age": {"p": "` + strings.Repeat("x", 17000) + `"}}}`)
		for range 24 {
			res, err := f.svc.RunPolicy(admin, pol.BaseID, data)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error == nil || len(res.Error.Message) < 17000 {
				t.Fatalf("the run's error %.80q does not quote the data whole: the test shows nothing", res.Error)
			}
			res.Release()
		}
		f.waitForLog(t, 2+24)
		// Read by an instance whose answers are bounded, as the runs'
		// answers are not.
		reader, admin := boundedReader(t, db, 400000)
		executed := service.AuditFilter{Action: service.AuditAction("executed")}
		_, err := reader.AuditEvents(admin, executed, service.ListOptions{Limit: 24})
		wantCode(t, err, service.CodeInvalidArgument)
		page, err := reader.AuditEvents(admin, executed, service.ListOptions{Limit: 23})
		if err != nil || len(page.Items) != 23 {
			t.Fatalf("a page of 23: %d events, %v", len(page.Items), err)
		}
		for _, ev := range page.Items {
			text, _ := ev.Details["error"].(string)
			if len(text) != service.MaxStoredExplanation || !strings.HasPrefix(text, "Type error") || !strings.HasSuffix(text, "x … (cut at 16 KiB)") {
				t.Fatalf("the event keeps an error of %d bytes, %.40q … %q; want %d bytes ending in the note of the cut",
					len(text), text, text[max(0, len(text)-40):], service.MaxStoredExplanation)
			}
		}
	})
}

// boundedReader is another instance on db whose answers are bounded to
// maxAnswer bytes, and the admin's context on it.
func boundedReader(t *testing.T, db *database.DB, maxAnswer int) (*service.Service, context.Context) {
	t.Helper()
	az, err := authz.NewEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	reader, err := service.New(service.Config{DB: db, Authorizer: az, MaxAnswerBytes: maxAnswer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reader.Close)
	p, err := reader.Authenticate(context.Background(), adminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	return reader, service.WithPrincipal(context.Background(), p)
}

// TestAnAuditPageIsChargedForItsTextsAsJSONWritesThem: an error that
// quotes a text of quotation marks doubles in JSON, each mark escaped
// once more; the page the charge lets through still fits the answer limit.
func TestAnAuditPageIsChargedForItsTextsAsJSONWritesThem(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		data := json.RawMessage(`{"applicant": {"age": {"p": "` + strings.Repeat(`\"`, 17000) + `"}}}`)
		for range 24 {
			res, err := f.svc.RunPolicy(admin, pol.BaseID, data)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error == nil || strings.Count(res.Error.Message, `"`) < 17000 {
				t.Fatalf("the run's error %.80q does not quote the marks: the test shows nothing", res.Error)
			}
			res.Release()
		}
		f.waitForLog(t, 2+24)
		const limit = 400000
		reader, admin := boundedReader(t, db, limit)
		executed := service.AuditFilter{Action: service.AuditAction("executed")}
		for n := 24; n > 0; n-- {
			page, err := reader.AuditEvents(admin, executed, service.ListOptions{Limit: n})
			if service.CodeOf(err) == service.CodeInvalidArgument {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			answer, err := json.Marshal(page)
			if err != nil {
				t.Fatal(err)
			}
			if len(answer) > limit || n > 12 {
				t.Errorf("a page of %d events is let through and answers %d bytes; the limit is %d", n, len(answer), limit)
			}
			return
		}
		t.Error("no page of these events is let through")
	})
}

// TestALargeValueCountsEachTimeARunShowsIt: a list of 2,000 numbers is
// counted at about 18 KB each time a condition shows it, three times over
// (the condition's property, its evaluation details and the explanation),
// beyond the estimate charged before the run. Of the 1 MiB each request
// below may answer, ten conditions that read it fit and forty do not, in
// every kind of run; a refused run stores no event.
func TestALargeValueCountsEachTimeARunShowsIt(t *testing.T) {
	numbers := make([]string, 2000)
	for i := range numbers {
		numbers[i] = fmt.Sprint(1000 + i)
	}
	data := json.RawMessage(`{"A": {"l": [` + strings.Join(numbers, ",") + `]}}`)
	rule := func(n int) string {
		conds := make([]string, n)
		for i := range conds {
			conds[i] = fmt.Sprintf("the __l__ of the **A** contains %d", 1000+i)
		}
		return "A **A** gets x if " + strings.Join(conds, " and ") + "."
	}
	const tooMuch = "this request would answer more than 1.0 MiB; ask for fewer runs, checks or records in one request"
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 1 << 20 })
		admin := f.as(t, adminKey, "")
		fits := f.publishedPolicy(t, "fits", rule(10))
		big := f.publishedPolicy(t, "big", rule(40))
		fl := f.createFlow(t, admin, adultFlow(byBaseID(big.BaseID)))
		events := audittest.Count(t, db, audittest.Filter{ExceptOperator: true})

		for name, run := range map[string]func() error{
			"a run of a text": func() error {
				res, err := f.svc.RunRule(f.as(t, adminKey, ""), rule(10), data)
				if err == nil && !res.Result.Result {
					t.Errorf("the run that fits answered %v", res.Result.Result)
				}
				return err
			},
			"a stored run": func() error {
				res, err := f.svc.RunPolicy(f.as(t, adminKey, ""), fits.BaseID, data)
				if err == nil {
					res.Release()
				}
				return err
			},
		} {
			if err := run(); err != nil {
				t.Errorf("%s of ten conditions: %v", name, err)
			}
		}
		f.waitForLog(t, events+1) // the stored run's event
		events++

		for name, run := range map[string]func() error{
			"a run of a text": func() error {
				_, err := f.svc.RunRule(f.as(t, adminKey, ""), rule(40), data)
				return err
			},
			"a stored run": func() error {
				_, err := f.svc.RunPolicy(f.as(t, adminKey, ""), big.BaseID, data)
				return err
			},
			"a batch": func() error {
				_, err := f.svc.RunPolicyBatch(f.as(t, adminKey, ""), big.BaseID, []json.RawMessage{data})
				return err
			},
			"a test call": func() error {
				_, err := f.svc.TestPolicy(f.as(t, adminKey, ""), big.ID, []service.TestCase{
					{Name: "big", Data: data, Expect: json.RawMessage("true")}})
				return err
			},
		} {
			err := run()
			wantCode(t, err, service.CodeInvalidArgument)
			if err == nil || !strings.Contains(err.Error(), tooMuch) {
				t.Errorf("%s of forty conditions: %v, want %q", name, err, tooMuch)
			}
		}
		res, err := f.svc.RunFlow(f.as(t, adminKey, ""), fl.BaseID, data)
		if err != nil {
			t.Fatal(err)
		}
		if res.Result || len(res.NodeResponses) != 0 || len(res.Errors) != 1 || res.Errors[0] != "flow stopped: "+tooMuch {
			t.Errorf("the flow answered %v after %d nodes, errors %q; want it stopped before its node's response", res.Result, len(res.NodeResponses), res.Errors)
		}
		f.waitForLog(t, events+1) // the flow's event: the refused runs stored none
	})
}

// TestARequestsRunsShareWhatTheyMayRead: labelled rules, which the trace
// leaves out, read a list of 2,000 numbers (about 18 KB) in 20 conditions,
// 360 KB an item. Of the 1 MiB each request below may read, a batch of two
// items fits and one of three does not.
func TestARequestsRunsShareWhatTheyMayRead(t *testing.T) {
	numbers := make([]string, 2000)
	for i := range numbers {
		numbers[i] = fmt.Sprint(1000 + i)
	}
	item := json.RawMessage(`{"A": {"n": 5, "l": [` + strings.Join(numbers, ",") + `]}}`)
	conds := make([]string, 10)
	for i := range conds {
		conds[i] = fmt.Sprintf("the __l__ of the **A** contains %d", 1000+i)
	}
	rule := "a. A **A** is a if " + strings.Join(conds, " and ") + ".\nb. A **A** is b if " + strings.Join(conds, " and ") +
		".\nA **A** gets x if the __n__ of the **A** is at least 1."
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 1 << 20 })
		pol := f.publishedPolicy(t, "labelled", rule)
		res, err := f.svc.RunPolicyBatch(f.as(t, adminKey, ""), pol.BaseID, []json.RawMessage{item, item})
		if err != nil {
			t.Fatalf("two items: %v", err)
		}
		for i, r := range res.Results {
			if !r.Result.Result || !r.Result.Labels["a"] || !r.Result.Labels["b"] {
				t.Errorf("item %d: result %v, labels %v; want true and both labels", i, r.Result.Result, r.Result.Labels)
			}
		}
		res.Release()
		_, err = f.svc.RunPolicyBatch(f.as(t, adminKey, ""), pol.BaseID, []json.RawMessage{item, item, item})
		wantCode(t, err, service.CodeInvalidArgument)
		const tooMuch = "this request's runs would read more than 1.0 MiB of data values; ask for fewer runs in one request"
		if err == nil || !strings.Contains(err.Error(), tooMuch) {
			t.Errorf("three items: %v, want %q", err, tooMuch)
		}

		// A flow's nodes share the bound too: the third stops the flow.
		fl := f.createFlow(t, f.as(t, adminKey, ""), chainOf(3, pol.BaseID))
		flowRes, err := f.svc.RunFlowVersion(f.as(t, adminKey, ""), fl.ID, item)
		if err != nil {
			t.Fatal(err)
		}
		if flowRes.Result || len(flowRes.NodeResponses) != 2 || len(flowRes.Errors) != 1 || flowRes.Errors[0] != "flow stopped: "+tooMuch {
			t.Errorf("the flow answered %v after %d nodes, errors %q; want false after 2, %q", flowRes.Result, len(flowRes.NodeResponses), flowRes.Errors, "flow stopped: "+tooMuch)
		}

		// So do the runs a flow replay makes: two recorded decisions of a
		// chain of two nodes read what three items may not.
		two := f.createFlow(t, f.as(t, adminKey, ""), chainOf(2, pol.BaseID))
		one := f.createFlow(t, f.as(t, adminKey, ""), chainOf(1, pol.BaseID))
		for _, fl := range []*service.SavedFlow{two, one} {
			if _, err := f.svc.SetFlowDecisionSettings(f.as(t, adminKey, ""), fl.ID, service.DecisionSettingsInput{Enabled: true}); err != nil {
				t.Fatal(err)
			}
		}
		for _, fl := range []*service.SavedFlow{two, two, one, one} {
			if res, err := f.svc.RunFlow(f.as(t, adminKey, ""), fl.BaseID, item); err != nil || !res.Result {
				t.Fatalf("%v, %v", res, err)
			}
		}
		// Records are stored before their runs' events.
		f.waitForEvents(t, two.BaseID, auditevent.ActionExecuted, 2)
		f.waitForEvents(t, one.BaseID, auditevent.ActionExecuted, 2)
		_, err = f.svc.ReplayFlow(f.as(t, adminKey, ""), two.ID, service.ReplayInput{})
		wantCode(t, err, service.CodeInvalidArgument)
		const replayTooMuch = "the replayed runs would read more than 1.0 MiB of data values, what the runs of one request may; ask for a smaller limit"
		if err == nil || !strings.Contains(err.Error(), replayTooMuch) {
			t.Errorf("replaying two decisions of two nodes: %v, want %q", err, replayTooMuch)
		}
		rep, err := f.svc.ReplayFlow(f.as(t, adminKey, ""), one.ID, service.ReplayInput{})
		if err != nil || rep.Compared != 2 || rep.Unchanged != 2 {
			t.Errorf("replaying two decisions of one node: %+v, %v; want 2 unchanged", rep, err)
		}
	})
}

// The requests under way may answer together at most
// MaxAnswersInFlight: one that would take the answers in flight past it is
// refused as unavailable, to be retried, a flow too rather than answering
// false; once a request is done, what it held is free again. Calls whose
// transport does not end them (these tests' own contexts) are not bound.
func TestAnswersInFlightAreBoundAcrossRequests(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes, c.MaxAnswersInFlight = 20_000, 20_000 })
		admin := f.as(t, adminKey, "")
		pol := f.publishedPolicy(t, "adult", adultRule)
		fl := f.createFlow(t, admin, adultFlow(byID(pol.ID)))
		p, ok := service.PrincipalFrom(admin)
		if !ok {
			t.Fatal("no principal")
		}
		ending := func() (context.Context, *service.Call) {
			c := &service.Call{Principal: p, Ends: true}
			return service.WithCall(context.Background(), c), c
		}

		const applicant = `{"applicant": {"age": 40}}`
		// One request takes all it may, which is all in flight.
		full, fullCall := ending()
		runs := 0
		for ; runs < 1_000; runs++ {
			res, err := f.svc.RunPolicy(full, pol.BaseID, json.RawMessage(adultData))
			if err != nil {
				wantCode(t, err, service.CodeInvalidArgument)
				break
			}
			res.Release()
		}
		if runs == 0 || runs == 1_000 {
			t.Fatalf("%d runs fit in one request", runs)
		}

		other, otherCall := ending()
		_, err := f.svc.RunPolicy(other, pol.BaseID, json.RawMessage(adultData))
		wantCode(t, err, service.CodeUnavailable)
		_, err = f.svc.RunFlowVersion(other, fl.ID, json.RawMessage(applicant))
		wantCode(t, err, service.CodeUnavailable)
		// Unbound calls run.
		if res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(adultData)); err != nil {
			t.Fatalf("a call its transport does not end: %v", err)
		} else {
			res.Release()
		}

		fullCall.Done()
		res, err := f.svc.RunFlowVersion(other, fl.ID, json.RawMessage(applicant))
		if err != nil || !res.Result {
			t.Fatalf("once the other request is done: %+v, %v", res, err)
		}
		otherCall.Done()
	})
}

// TestADiffIsChargedWhatItRepeats: each change of a schema diff answers
// its whole path, and each edge of a flow diff the id of the node it
// leaves, so a member name or a node id of 10,000 characters over many
// changes answers far more than the two records hold. Of the 1 MiB each
// request below may answer, 50 such changes fit and 150 do not; 40 such
// edges fit and 150 do not; a request holds one fitting diff, not two.
func TestADiffIsChargedWhatItRepeats(t *testing.T) {
	long := strings.Repeat("n", 10000)
	schema := func(leaves, value int) json.RawMessage {
		members := make([]string, leaves)
		for i := range members {
			members[i] = fmt.Sprintf(`"m%d": {"minimum": %d}`, i, value)
		}
		return json.RawMessage(fmt.Sprintf(`{"properties": {%q: {"properties": {%s}}}}`, long, strings.Join(members, ", ")))
	}
	definition := func(policy uuid.UUID, onTrue ...string) json.RawMessage {
		branch, _ := json.Marshal(onTrue)
		return json.RawMessage(fmt.Sprintf(`{"formatVersion": 1, "nodes": [
			{"id": %q, "type": "start", "policy": %s, "onTrue": %s, "onFalse": "no"},
			{"id": "yes", "type": "return", "returnValue": true},
			{"id": "no", "type": "return", "returnValue": false}]}`, long, byBaseID(policy), branch))
	}
	targets := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint("t", i)
		}
		return out
	}
	const tooMuch = "invalid_argument: this request would answer more than 1.0 MiB; ask for fewer runs, checks or records in one request"
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 1 << 20 })
		adult := f.publishedPolicy(t, "adult", adultRule)
		// policyDiff is a published version of a schema of leaves members
		// and a draft of it with each member changed.
		policyDiff := func(leaves int) (uuid.UUID, uuid.UUID) {
			ctx := f.as(t, adminKey, "")
			created, err := f.svc.CreatePolicy(ctx, service.Changes{Name: ptr(fmt.Sprint("schema of ", leaves)), Rule: ptr(seniorRule), Schema: schema(leaves, 0)})
			if err != nil {
				t.Fatal(err)
			}
			v1, err := f.svc.PublishPolicy(ctx, created.ID, service.Changes{})
			if err != nil {
				t.Fatal(err)
			}
			draft, err := f.svc.PolicyDraftFromVersion(ctx, v1.ID, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.UpdatePolicyDraft(ctx, draft.ID, service.Changes{Schema: schema(leaves, 1)}); err != nil {
				t.Fatal(err)
			}
			return v1.ID, draft.ID
		}
		// flowDiff is a published version of a flow whose start node
		// branches to yes, and a draft of it that branches to n other
		// nodes instead.
		flowDiff := func(n int) (uuid.UUID, uuid.UUID) {
			ctx := f.as(t, adminKey, "")
			created := f.createFlow(t, ctx, definition(adult.BaseID, "yes"))
			v1, err := f.svc.PublishFlow(ctx, created.ID, service.Changes{})
			if err != nil {
				t.Fatal(err)
			}
			draft, err := f.svc.FlowDraftFromVersion(ctx, v1.ID, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.UpdateFlowDraft(ctx, draft.ID, service.Changes{Definition: definition(adult.BaseID, targets(n)...)}); err != nil {
				t.Fatal(err)
			}
			return v1.ID, draft.ID
		}

		from, to := policyDiff(50)
		request := f.as(t, adminKey, "")
		d, err := f.svc.PolicyDiff(request, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if want := "$.properties." + long + ".properties.m0.minimum"; len(d.Schema) != 50 || d.Schema[0].Path != want {
			t.Errorf("%d schema changes, the first at %.40q…, want 50, the first at %.40q…", len(d.Schema), d.Schema[0].Path, want)
		}
		_, err = f.svc.PolicyDiff(request, from, to)
		wantCode(t, err, service.CodeInvalidArgument)
		if err.Error() != tooMuch {
			t.Errorf("a second diff in the request: %v, want %q", err, tooMuch)
		}
		from, to = policyDiff(150)
		_, err = f.svc.PolicyDiff(f.as(t, adminKey, ""), from, to)
		wantCode(t, err, service.CodeInvalidArgument)
		if err.Error() != tooMuch {
			t.Errorf("a schema diff of 150 changes: %v, want %q", err, tooMuch)
		}

		from, to = flowDiff(40)
		fd, err := f.svc.FlowDiff(f.as(t, adminKey, ""), from, to)
		if err != nil {
			t.Fatal(err)
		}
		if len(fd.Edges.Added) != 40 || len(fd.Edges.Removed) != 1 || fd.Edges.Added[0] != (service.Edge{From: long, Branch: "onTrue", To: "t0"}) {
			t.Errorf("%d edges added and %d removed, want 40 and 1", len(fd.Edges.Added), len(fd.Edges.Removed))
		}
		from, to = flowDiff(150)
		_, err = f.svc.FlowDiff(f.as(t, adminKey, ""), from, to)
		wantCode(t, err, service.CodeInvalidArgument)
		if err.Error() != tooMuch {
			t.Errorf("a flow diff of 150 edges: %v, want %q", err, tooMuch)
		}
	})
}

// TestAFlowsTestsAreChargedWhatTheirReportAnswers: a test report answers
// no node's response, only what explains each run. On a chain of 10 nodes
// of a policy of 20 conditions, a node's run counts about 15 KiB, a
// test's an eighth of that, as a replayed decision's does: a test counts
// about 18.5 KiB with its result, and three fit in 64 KiB where not one
// would if each node's whole response counted. Past the bound, the call
// is refused whole rather than its tests failed.
func TestAFlowsTestsAreChargedWhatTheirReportAnswers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 64 << 10 })
		admin := f.as(t, adminKey, "")
		twenty := f.publishedPolicy(t, "twenty", bigRule(20))
		tests := make([]service.TestCase, 4)
		for i := range tests {
			tests[i] = flowTest(fmt.Sprint(i), adultData, `true`)
		}
		fits := f.createFlow(t, admin, chainOf(10, twenty.BaseID), tests[:3]...)
		rep, err := f.svc.TestFlowRecord(f.as(t, adminKey, ""), fits.ID, nil)
		if err != nil || !rep.Passed || rep.Total != 3 || rep.Failed != 0 {
			t.Fatalf("three tests: %+v, %v; want three passing", rep, err)
		}
		_, err = f.svc.TestFlowRecord(f.as(t, adminKey, ""), fits.ID, tests)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "the tests would answer more than 64.0 KiB, what one request may; ask for fewer tests in one request"; err.(*service.Error).Message != want {
			t.Errorf("four tests: %v, want %q", err, want)
		}

		if v, err := f.svc.PublishFlow(f.as(t, adminKey, ""), fits.ID, service.Changes{}); err != nil || *v.Version != 1 {
			t.Fatalf("publishing with three tests: %+v, %v", v, err)
		}
		tooMany := f.createFlow(t, admin, chainOf(10, twenty.BaseID), tests...)
		_, err = f.svc.PublishFlow(f.as(t, adminKey, ""), tooMany.ID, service.Changes{})
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "the stored tests would answer more than 64.0 KiB, what one request may; " +
			"a flow is published only with stored tests that fit: keep fewer of them"; err.(*service.Error).Message != want {
			t.Errorf("publishing with four tests: %v, want %q", err, want)
		}
	})
}

// denseRule is a rule text of about 256 KiB whose lists of short numbers
// make a token of nearly every other byte: its check answers 24.5 MB of
// JSON, 96 bytes a byte of text.
func denseRule() string {
	line := "A **P** is ok if the __a__ of the **P** is in [" + strings.Repeat("1,", 998) + "1].\n"
	return strings.Repeat(line, 262000/len(line))
}

func TestACheckIsChargedWhatItAnswers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		// 16 bytes a byte of text, charged before the check, is 4.2 MB
		// of the 16 MiB a request below may answer; the 24.5 MB the
		// check answers is not.
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes = 16 << 20 })
		_, err := f.svc.CheckRule(f.as(t, adminKey, ""), denseRule(), nil, true)
		wantCode(t, err, service.CodeInvalidArgument)
		if want := "this request would answer more than 16.0 MiB; ask for fewer runs, checks or records in one request"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		// Without its tokens the check answers its diagnostics alone.
		res, err := f.svc.CheckRule(f.as(t, adminKey, ""), denseRule(), nil, false)
		if err != nil {
			t.Fatalf("the check without tokens: %v", err)
		}
		if len(res.Tokens) != 0 || len(res.Diagnostics) == 0 || res.Diagnostics[0].Code != "unused-rule" {
			t.Errorf("the check without tokens: %d tokens, %.200v; want none, and the warnings", len(res.Tokens), res.Diagnostics)
		}
	})
}

// One organization's requests under way hold at most half of what all may
// answer together (or one request's bound, when that is more): answers its
// clients are slow to read leave room for the others'.
func TestAnOrganizationHoldsAtMostItsShareOfTheAnswersInFlight(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixtureWith(t, db, func(c *service.Config) { c.MaxAnswerBytes, c.MaxAnswersInFlight = 20_000, 80_000 })
		pol := f.publishedPolicy(t, "adult", adultRule)
		other, err := f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Beta", Email: "admin@beta.test", Key: "beta-admin-key-0123456789abcdefghijkl"})
		if err != nil {
			t.Fatal(err)
		}
		betaPolicy := f.publishedPolicyAs(t, f.as(t, other.Secret, ""), "adult", adultRule)
		ending := func(key string) (context.Context, *service.Call) {
			p, ok := service.PrincipalFrom(f.as(t, key, ""))
			if !ok {
				t.Fatal("no principal")
			}
			c := &service.Call{Principal: p, Ends: true}
			return service.WithCall(context.Background(), c), c
		}
		// fill runs until the request may answer no more.
		fill := func(ctx context.Context, base uuid.UUID) {
			for range 1_000 {
				res, err := f.svc.RunPolicy(ctx, base, json.RawMessage(adultData))
				if err != nil {
					wantCode(t, err, service.CodeInvalidArgument)
					return
				}
				res.Release()
			}
			t.Fatal("1,000 runs fit in one request")
		}
		first, firstCall := ending(adminKey)
		fill(first, pol.BaseID)
		second, secondCall := ending(adminKey)
		fill(second, pol.BaseID)
		// Acme holds its 40,000 bytes of the 80,000: a third request of its
		// is refused, Beta's runs.
		third, thirdCall := ending(adminKey)
		_, err = f.svc.RunPolicy(third, pol.BaseID, json.RawMessage(adultData))
		wantCode(t, err, service.CodeUnavailable)
		beta, betaCall := ending(other.Secret)
		if res, err := f.svc.RunPolicy(beta, betaPolicy.BaseID, json.RawMessage(adultData)); err != nil {
			t.Fatalf("another organization's run: %v", err)
		} else {
			res.Release()
		}
		firstCall.Done()
		if res, err := f.svc.RunPolicy(third, pol.BaseID, json.RawMessage(adultData)); err != nil {
			t.Fatalf("once one of its requests is done: %v", err)
		} else {
			res.Release()
		}
		secondCall.Done()
		thirdCall.Done()
		betaCall.Done()
	})
}
