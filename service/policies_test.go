package service_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const seniorRule = "A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."

// team adds members of every authoring role to Acme and returns a context
// acting as each.
func (f *fixture) team(t *testing.T) map[string]context.Context {
	t.Helper()
	ctx := context.Background()
	op := f.svc.Operator()
	out := map[string]context.Context{"admin": f.as(t, adminKey, "")}
	for _, m := range []struct {
		name string
		role authz.Role
	}{{"editor", authz.RoleEditor}, {"editor2", authz.RoleEditor}, {"publisher", authz.RolePublisher}, {"viewer", authz.RoleViewer}} {
		email := m.name + "@acme.test"
		if _, err := op.CreateUser(ctx, email, m.name); err != nil {
			t.Fatal(err)
		}
		if err := op.AddMember(ctx, f.acme.Organization.ID, email, m.role); err != nil {
			t.Fatal(err)
		}
		k, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, UserEmail: email, Scope: authz.ScopeAdmin})
		if err != nil {
			t.Fatal(err)
		}
		out[m.name] = f.as(t, k.Secret, "")
	}
	beta, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
	if err != nil {
		t.Fatal(err)
	}
	out["other tenant"] = f.as(t, beta.Secret, "")
	return out
}

func (f *fixture) as(t testing.TB, key, org string) context.Context {
	t.Helper()
	p, err := f.svc.Authenticate(context.Background(), key, org)
	if err != nil {
		t.Fatal(err)
	}
	return service.WithPrincipal(context.Background(), p)
}

func ptr[T any](v T) *T { return &v }

func tests(cases ...service.TestCase) *[]service.TestCase { return &cases }

func testCase(name, data string, expect bool) service.TestCase {
	e, _ := json.Marshal(expect)
	return service.TestCase{Name: name, Data: json.RawMessage(data), Expect: e}
}

func (f *fixture) auditActions(t *testing.T, base uuid.UUID) []string {
	t.Helper()
	var out []string
	for _, ev := range audittest.Events(t, f.db, audittest.Filter{Base: &base}) {
		out = append(out, string(ev.Action))
	}
	return out
}

func TestThePolicyLifecycle(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		as := f.team(t)
		editor, publisher := as["editor"], as["publisher"]

		own, err := f.svc.CreatePolicy(editor, service.Changes{Name: ptr("own"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.PublishPolicy(editor, own.ID, service.Changes{})
		wantCode(t, err, service.CodePermissionDenied)
		_, err = f.svc.PublishPolicy(publisher, own.ID, service.Changes{})
		wantCode(t, err, service.CodePermissionDenied) // a never-published draft is its creator's

		created, err := f.svc.CreatePolicy(publisher, service.Changes{Name: ptr("Senior discount"), Rule: ptr(seniorRule),
			Tests: tests(testCase("70 is senior", `{"Person": {"age": 70}}`, true))})
		if err != nil {
			t.Fatal(err)
		}
		if created.Status != "draft" || created.Version != nil || created.Owner.Kind != authz.OwnerUser || len(created.Validation.Errors) != 0 {
			t.Fatalf("created %+v", created)
		}
		edited, err := f.svc.UpdatePolicyDraft(publisher, created.ID, service.Changes{Description: ptr("for the over-65s")})
		if err != nil || edited.Revision != 2 || edited.Description != "for the over-65s" || edited.ID != created.ID {
			t.Fatalf("edited %+v, %v", edited, err)
		}
		v1, err := f.svc.PublishPolicy(publisher, created.ID, service.Changes{})
		if err != nil {
			t.Fatal(err)
		}
		if v1.Status != "published" || *v1.Version != 1 || v1.Owner.Kind != authz.OwnerOrganization || v1.PublishedAt == nil {
			t.Fatalf("v1 %+v", v1)
		}
		_, err = f.svc.UpdatePolicyDraft(editor, v1.ID, service.Changes{Name: ptr("x")})
		wantCode(t, err, service.CodeConflict)
		_, err = f.svc.PublishPolicy(publisher, v1.ID, service.Changes{})
		wantCode(t, err, service.CodeConflict)

		for want := 2; want <= 3; want++ {
			draft, err := f.svc.PolicyDraftFromVersion(editor, created.BaseID, false)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.svc.PolicyDraftFromVersion(editor, created.BaseID, false)
			wantCode(t, err, service.CodeConflict)
			again, err := f.svc.PolicyDraftFromVersion(editor, created.BaseID, true)
			if err != nil || again.ID != draft.ID {
				t.Fatalf("replacing the draft: %+v, %v", again, err)
			}
			v, err := f.svc.PublishPolicy(publisher, draft.ID, service.Changes{Rule: ptr(strings.Replace(seniorRule, "65", "60", 1))})
			if err != nil || *v.Version != want {
				t.Fatalf("version %d: %+v, %v", want, v, err)
			}
		}
		hist, err := f.svc.PolicyVersions(as["viewer"], created.BaseID, service.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if hist.Draft != nil || len(hist.Versions) != 3 || *hist.Versions[0].Version != 3 || *hist.Versions[2].Version != 1 {
			t.Fatalf("history %+v", hist)
		}
		want := []string{"created", "edited", "published", "edited", "edited", "published", "edited", "edited", "published"}
		if got := f.auditActions(t, created.BaseID); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("audit %v, want %v", got, want)
		}

		// Runs: by base the latest version (60), by record the first (65).
		data := json.RawMessage(`{"Person": {"age": 62}}`)
		latest, err := f.svc.RunPolicy(as["viewer"], created.BaseID, data)
		if err != nil || !latest.Result.Result || len(latest.Rule) != 1 {
			t.Fatalf("run latest: %+v, %v", latest, err)
		}
		first, err := f.svc.RunPolicyVersion(as["viewer"], v1.ID, data)
		if err != nil || first.Result.Result {
			t.Fatalf("run version 1: %+v, %v", first, err)
		}
		latest.Release()
		first.Release()

		if err := f.svc.DeletePolicy(editor, created.BaseID); service.CodeOf(err) != service.CodePermissionDenied {
			t.Fatalf("editor deletes: %v", err)
		}
		if err := f.svc.DeletePolicy(as["admin"], v1.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Policy(as["admin"], created.BaseID)
		wantCode(t, err, service.CodeDeleted)
		_, err = f.svc.RunPolicyVersion(as["admin"], v1.ID, data)
		wantCode(t, err, service.CodeDeleted)
		_, err = f.svc.RunPolicy(as["admin"], created.BaseID, data)
		wantCode(t, err, service.CodeDeleted)
		page, err := f.svc.Policies(as["publisher"], service.ListOptions{})
		if err != nil || len(page.Items) != 0 {
			t.Fatalf("list after delete: %+v, %v", page, err)
		}
	})
}

func TestPublishingIsGated(t *testing.T) {
	f := newMemFixture(t)
	admin := f.as(t, adminKey, "")
	broken, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("wip"), Rule: ptr("A **P** is ok if __a__ of **P** is bigger than 1.")})
	if err != nil {
		t.Fatal(err)
	}
	if len(broken.Validation.Errors) != 1 || !strings.HasPrefix(broken.Validation.Errors[0], "Parse error:  --> 1:") {
		t.Errorf("validation %+v", broken.Validation)
	}
	_, err = f.svc.PublishPolicy(admin, broken.ID, service.Changes{})
	wantCode(t, err, service.CodeConflict)
	const notParsed = "the rule does not parse: line 1, column 33: `is bigger than` is not a comparison Verdict knows. Did you mean `is greater than`?"
	if msg := err.(*service.Error).Message; msg != notParsed {
		t.Errorf("refused publish of a rule that does not parse: %q, want %q", msg, notParsed)
	}

	gated, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: ptr(seniorRule), Tests: tests(
		testCase("70 is senior", `{"Person": {"age": 70}}`, true),
		testCase("young is senior", `{"Person": {"age": 20}}`, true),
		testCase("missing age", `{"Person": {}}`, false),
	)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.PublishPolicy(admin, gated.ID, service.Changes{})
	wantCode(t, err, service.CodeConflict)
	if msg := err.(*service.Error).Message; msg != "tests failed: missing age, young is senior" {
		t.Errorf("message %q", msg)
	}
	rec, _ := f.store.Record(context.Background(), gated.ID)
	if rec.Status != record.StatusDraft || rec.Version != nil {
		t.Errorf("a refused publish changed the record: %+v", rec)
	}
	_, err = f.svc.CreatePolicy(admin, service.Changes{Name: ptr("x"), Rule: ptr(seniorRule), Tests: tests(
		service.TestCase{Name: "bad", Data: json.RawMessage(`[1]`), Expect: json.RawMessage(`true`)})})
	wantCode(t, err, service.CodeInvalidArgument)
	_, err = f.svc.CreatePolicy(admin, service.Changes{Name: ptr(" "), Rule: ptr(seniorRule)})
	wantCode(t, err, service.CodeInvalidArgument)
}

func TestVisibilityAndTenantIsolation(t *testing.T) {
	f := newMemFixture(t)
	as := f.team(t)
	mine, err := f.svc.CreatePolicy(as["editor"], service.Changes{Name: ptr("mine"), Rule: ptr(seniorRule)})
	if err != nil {
		t.Fatal(err)
	}
	listed := func(who string) bool {
		page, err := f.svc.Policies(as[who], service.ListOptions{})
		if err != nil {
			t.Fatalf("%s lists: %v", who, err)
		}
		for _, s := range page.Items {
			if s.BaseID == mine.BaseID {
				return true
			}
		}
		return false
	}
	if !listed("editor") || listed("editor2") || listed("viewer") || listed("admin") {
		t.Error("a never-published policy must be listed to its creator only")
	}
	if _, err := f.svc.Policy(as["editor2"], mine.ID); err != nil {
		t.Errorf("another editor loads it by id: %v", err)
	}
	_, err = f.svc.UpdatePolicyDraft(as["editor2"], mine.ID, service.Changes{Name: ptr("taken")})
	wantCode(t, err, service.CodePermissionDenied)
	_, err = f.svc.Policy(as["other tenant"], mine.ID)
	wantCode(t, err, service.CodeNotFound)
	_, err = f.svc.RunPolicy(as["other tenant"], mine.BaseID, json.RawMessage(`{}`))
	wantCode(t, err, service.CodeNotFound)

	if _, err := f.svc.PublishPolicy(as["admin"], mine.ID, service.Changes{}); err != nil {
		t.Fatal(err)
	}
	if !listed("editor2") || !listed("viewer") {
		t.Error("a published policy must be listed to the organization")
	}
	_, err = f.svc.Policy(as["other tenant"], mine.BaseID)
	wantCode(t, err, service.CodeNotFound)
}

func TestListsPageWithACursor(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		for _, name := range []string{"alpha", "beta", "gamma", "delta", "alphabet"} {
			if _, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr(name), Rule: ptr(seniorRule)}); err != nil {
				t.Fatal(err)
			}
		}
		var names []string
		cursor := ""
		for pages := 0; ; pages++ {
			page, err := f.svc.Policies(admin, service.ListOptions{Limit: 2, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page.Items {
				names = append(names, s.Name)
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		if strings.Join(names, ",") != "alphabet,delta,gamma,beta,alpha" {
			t.Errorf("pages gave %v", names)
		}
		page, err := f.svc.Policies(admin, service.ListOptions{Query: "ALPHA"})
		if err != nil || len(page.Items) != 2 {
			t.Errorf("q=ALPHA: %+v, %v", page, err)
		}
		_, err = f.svc.Policies(admin, service.ListOptions{Limit: 201})
		wantCode(t, err, service.CodeInvalidArgument)
		_, err = f.svc.Policies(admin, service.ListOptions{Cursor: "nonsense"})
		wantCode(t, err, service.CodeInvalidArgument)
	})
}

// policyNames are the names of the policies the search q lists to ctx.
func policyNames(t *testing.T, f *fixture, ctx context.Context, q string) []string {
	t.Helper()
	page, err := f.svc.Policies(ctx, service.ListOptions{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range page.Items {
		names = append(names, p.Name)
	}
	return names
}

// TestAReplacedDraftGivesItsBaseTheVersionsName renames a draft, then
// replaces it with the published version's content: the summary and the
// search show the name the draft has again, held by every record.
func TestAReplacedDraftGivesItsBaseTheVersionsName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "Original", seniorRule)
		draft, err := f.svc.PolicyDraftFromVersion(admin, v1.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.UpdatePolicyDraft(admin, draft.ID, service.Changes{Name: ptr("Work in progress"), Description: ptr("unfinished")}); err != nil {
			t.Fatal(err)
		}
		named := func(q string) []string { return policyNames(t, f, admin, q) }
		if got := named("progress"); !slices.Equal(got, []string{"Work in progress"}) {
			t.Fatalf("the edited draft's base is listed as %q", got)
		}
		replaced, err := f.svc.PolicyDraftFromVersion(admin, v1.ID, true)
		if err != nil || replaced.Name != "Original" || replaced.Description != v1.Description {
			t.Fatalf("replaced %+v, %v", replaced, err)
		}
		if got := named("Original"); !slices.Equal(got, []string{"Original"}) {
			t.Errorf("q=Original lists %q", got)
		}
		if got := named("progress"); len(got) != 0 {
			t.Errorf("q=progress still lists %q", got)
		}
		stored := db.Client().Base.GetX(context.Background(), v1.BaseID)
		if stored.Name != "Original" || stored.Description != v1.Description {
			t.Errorf("the base is named %q, %q", stored.Name, stored.Description)
		}

		// A draft of an older version has that version's name, and so has
		// its base while the draft is there.
		v2, err := f.svc.PublishPolicy(admin, draft.ID, service.Changes{Name: ptr("Renamed")})
		if err != nil || v2.Name != "Renamed" {
			t.Fatalf("v2 %+v, %v", v2, err)
		}
		if got := named("Renamed"); !slices.Equal(got, []string{"Renamed"}) {
			t.Errorf("after publishing, q=Renamed lists %q", got)
		}
		if _, err := f.svc.PolicyDraftFromVersion(admin, v1.ID, false); err != nil {
			t.Fatal(err)
		}
		if got := named("Original"); !slices.Equal(got, []string{"Original"}) {
			t.Errorf("with a draft of v1, q=Original lists %q", got)
		}
	})
}

// TestASearchFoldsEveryLetter searches names by letters of any case, not
// ASCII ones alone, and by LIKE's wildcards as written: on both databases
// a name is found by its own spelling, in lower and in upper case.
func TestASearchFoldsEveryLetter(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		searchFolds(t, db, true)
	})
	// PostgreSQL folds letters as its database's LC_CTYPE does, and C
	// folds ASCII letters alone: a name is still found by its own
	// spelling, and in any case of its ASCII letters.
	t.Run("postgres, LC_CTYPE C", func(t *testing.T) {
		searchFolds(t, dbtest.PostgresCtype(t, "C"), false)
	})
}

func searchFolds(t *testing.T, db *database.DB, everyLetter bool) {
	t.Helper()
	f := newFixture(t, db)
	admin := f.as(t, adminKey, "")
	for _, name := range []string{"Überprüfung", "Ökonomie 100%", "a_b", "ab"} {
		if _, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr(name), Rule: ptr(seniorRule)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.CreateGroup(admin, service.GroupChanges{Name: ptr("Émile")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateKey(admin, service.KeyRequest{Name: "Schlüssel der Ärzte", Scope: authz.ScopeView}); err != nil {
		t.Fatal(err)
	}
	// folds: found only where every letter folds.
	for _, c := range []struct {
		q     string
		want  []string
		folds bool
	}{
		{"Überprüfung", []string{"Überprüfung"}, false},
		{"ÜBERPRüFUNG", []string{"Überprüfung"}, false},
		{"überprüfung", []string{"Überprüfung"}, true},
		{"ÜBERPRÜFUNG", []string{"Überprüfung"}, true},
		{"ökonomie 100%", []string{"Ökonomie 100%"}, true},
		{"Ökonomie 100%", []string{"Ökonomie 100%"}, false},
		{"0%", []string{"Ökonomie 100%"}, false},
		{"a_b", []string{"a_b"}, false},
		{"_", []string{"a_b"}, false},
	} {
		if c.folds && !everyLetter {
			continue
		}
		if names := policyNames(t, f, admin, c.q); !slices.Equal(names, c.want) {
			t.Errorf("q=%s found %q, want %q", c.q, names, c.want)
		}
	}
	group, key := "éMILE", "ärzte"
	if !everyLetter {
		group, key = "ÉMILE", "Ärzte"
	}
	if page, err := f.svc.Groups(admin, service.ListOptions{Query: group}); err != nil || len(page.Items) != 1 {
		t.Errorf("groups q=%s: %+v, %v", group, page, err)
	}
	if page, err := f.svc.Keys(admin, service.ListOptions{Query: key}); err != nil || len(page.Items) != 1 {
		t.Errorf("keys q=%s: %+v, %v", key, page, err)
	}
}

func TestConcurrentPublishesOfOneDraftHaveOneWinner(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		draft, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("race"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		const racers = 8
		var wg sync.WaitGroup
		codes := make([]service.Code, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := f.svc.PublishPolicy(admin, draft.ID, service.Changes{})
				codes[i] = "ok"
				if err != nil {
					codes[i] = service.CodeOf(err)
				}
			}()
		}
		wg.Wait()
		wins := 0
		for _, c := range codes {
			switch c {
			case "ok":
				wins++
			case service.CodeConflict:
			default:
				t.Errorf("a losing publish answered %s, want conflict", c)
			}
		}
		if wins != 1 {
			t.Fatalf("%d publishes won, want exactly 1 (%v)", wins, codes)
		}
		recs, _ := db.Client().Record.Query().Where(record.BaseID(draft.BaseID)).All(context.Background())
		if len(recs) != 1 || recs[0].Status != record.StatusPublished || *recs[0].Version != 1 {
			t.Errorf("records after the race: %+v", recs)
		}
		if got := f.auditActions(t, draft.BaseID); strings.Join(got, ",") != "created,published" {
			t.Errorf("audit %v", got)
		}
	})
}

func TestExecutedEventsAreStoredByClose(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("runs"), Rule: ptr(seniorRule)})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(`{"Person": {"age": 70}}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Release()
		}
		f.svc.Close()
		if n := audittest.Count(t, db, audittest.Filter{Base: &pol.BaseID, Action: auditevent.ActionExecuted}); n != 300 {
			t.Errorf("%d executed events stored, want 300", n)
		}
	})
}

// TestSavingAPolicyCompilesItForItsRuns counts the program cache's misses:
// the compile that answers a save serves the draft's runs.
func TestSavingAPolicyCompilesItForItsRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		f := fixtureWith(t, db, func(az authz.Authorizer) authz.Authorizer { return az }, reg)
		admin := f.as(t, adminKey, "")
		rule := seniorRule
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: &rule})
		if err != nil {
			t.Fatal(err)
		}
		before := cacheLookups(t, reg, "program", "miss")
		res, err := f.svc.RunPolicy(admin, pol.BaseID, json.RawMessage(`{"Person": {"age": 70}}`))
		if err != nil || !res.Result.Result {
			t.Fatalf("run: %+v, %v", res, err)
		}
		if misses := cacheLookups(t, reg, "program", "miss") - before; misses != 0 {
			t.Errorf("running a saved draft compiled it %v more times", misses)
		}
	})
}

// TestARefusedPublishWithANewRuleLeavesTheDraftAsItWas: the rule a
// publish brings is checked apart from the draft's compiled program.
func TestARefusedPublishWithANewRuleLeavesTheDraftAsItWas(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		rule := seniorRule
		pol, err := f.svc.CreatePolicy(admin, service.Changes{Name: ptr("senior"), Rule: &rule})
		if err != nil {
			t.Fatal(err)
		}
		data := json.RawMessage(`{"Person": {"age": 70}}`)
		if _, err := f.svc.RunPolicy(admin, pol.BaseID, data); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.PublishPolicy(admin, pol.ID, service.Changes{Rule: ptr("not a rule")})
		wantCode(t, err, service.CodeConflict)
		res, err := f.svc.RunPolicy(admin, pol.BaseID, data)
		if err != nil || !res.Result.Result || res.Result.Error != nil {
			t.Errorf("the draft after a refused publish ran %+v, %v", res.Result, err)
		}
	})
}

func TestDraftsReplacedAtOnceAllSucceed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		admin := f.as(t, adminKey, "")
		v1 := f.publishedPolicy(t, "Original", seniorRule)
		const requests = 24
		errs := make(chan error, requests)
		for range requests {
			go func() {
				_, err := f.svc.PolicyDraftFromVersion(admin, v1.ID, true)
				errs <- err
			}()
		}
		for range requests {
			if err := <-errs; err != nil {
				t.Errorf("a replace answered %v", err)
			}
		}
		drafts := db.Client().Record.Query().Where(record.BaseID(v1.BaseID), record.StatusEQ(record.StatusDraft)).CountX(context.Background())
		base := db.Client().Base.GetX(context.Background(), v1.BaseID)
		if drafts != 1 || base.DraftRecordID == nil {
			t.Errorf("the base has %d drafts, its draft %v", drafts, base.DraftRecordID)
		}
	})
}
