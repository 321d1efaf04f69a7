package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/graphqltest"
	"github.com/verdict/verdict/service"
)

func TestTheWorstDocumentsAreRefusedBeforeTheyAreValidated(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, doc := range graphqltest.Refused() {
			t.Run(doc.Name, func(t *testing.T) {
				res := f.post(t, adminKey, doc.Query, nil)
				e := res.failure(t, service.CodeInvalidArgument)
				if !strings.Contains(e.Message, "limit of") {
					t.Errorf("message %q names no limit", e.Message)
				}
				if res.Status != http.StatusUnprocessableEntity {
					t.Errorf("status %d, want 422 as for any document that does not validate", res.Status)
				}
			})
		}
	})
}

func TestTheLimitsRefuseWhatIsOverThemAndAdmitWhatIsNot(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, tc := range []struct {
			name    string
			config  graph.Config
			query   string
			refusal string
		}{
			{"four fields", graph.Config{MaxFields: 4}, `{ viewer { role organization { name } } }`, ""},
			{"five fields", graph.Config{MaxFields: 4}, `{ viewer { role organization { id name } } }`, "5 fields and fragments once its fragments are expanded, more than the limit of 4"},
			{"a fragment spread twice counts twice", graph.Config{MaxFields: 6}, `{ viewer { ...V } a: viewer { ...V } } fragment V on Viewer { role }`, ""},
			{"a fragment spread thrice counts thrice", graph.Config{MaxFields: 6}, `{ viewer { ...V } a: viewer { ...V } b: viewer { ...V } } fragment V on Viewer { role }`, "9 fields and fragments"},
			{"inline fragments count", graph.Config{MaxFields: 4}, `{ viewer { ... on Viewer { ... on Viewer { role } } } __typename }`, "5 fields and fragments"},
			{"every operation counts", graph.Config{MaxFields: 4}, `query A { viewer { role } } query B { viewer { role } } query C { viewer { role } }`, "6 fields"},
			{"two fields under one key", graph.Config{MaxSameName: 2}, `{ a: viewer { role } a: viewer { role } }`, ""},
			{"three fields under one key, one from a fragment", graph.Config{MaxSameName: 2},
				`{ viewer { role } viewer { role } ...V } fragment V on Query { viewer { role } }`, "3 fields answer as viewer, more than the limit of 2"},
			{"the selections under one key are merged", graph.Config{MaxSameName: 2},
				`{ a: viewer { role } a: viewer { role role } }`, "3 fields answer as a.role"},
			{"a field without arguments under two names, below one with arguments", graph.Config{},
				`{ node(id: "x") { a: id b: id } }`, "id is selected as both a and b: a field without arguments answers the same under each name; select it once"},
			{"the same, from two fragments on one type", graph.Config{},
				`{ node(id: "x") { ...A ...B } } fragment A on Policy { a: name } fragment B on Policy { b: name }`, "name is selected as both a and b"},
			{"the same, deeper", graph.Config{},
				`{ node(id: "x") { ... on Policy { owner { a: id b: id } } } }`, "id is selected as both a and b"},
			{"a field under one name in each fragment on another type", graph.Config{},
				`mutation { runRule(input: {rule: "x", data: {}}) { trace { execution { conditions {
				  ... on ComparisonCondition { comparedAt: selector } ... on ReferenceCondition { referencedAt: selector } } } } } }`, ""},
			{"the same in a fragment on the selection's own type", graph.Config{},
				`mutation { runRule(input: {rule: "x", data: {}}) { raw ... on PolicyRunResult { x: raw } } }`, "raw is selected as both raw and x"},
			{"the same in a named fragment on the selection's own type", graph.Config{},
				`mutation { runRule(input: {rule: "x", data: {}}) { raw ...R } } fragment R on PolicyRunResult { ... on PolicyRunResult { x: raw } }`,
				"raw is selected as both raw and x"},
			{"the same in a fragment on an interface of the selection's type", graph.Config{},
				`{ policies(first: 1) { edges { node { ... on PolicySummary { summaryId: id } ... on Node { nodeId: id } } } } }`, "id is selected as both summaryId and nodeId"},
			{"a field under one name in the selection and in a fragment on a narrower type", graph.Config{},
				`mutation { runRule(input: {rule: "x", data: {}}) { trace { execution { conditions { __typename ... on ComparisonCondition { t: __typename } } } } } }`, ""},
			{"a field without arguments under two names at the top", graph.Config{}, `{ a: viewer { role } b: viewer { role } }`, ""},
			{"five lists searched by name or counted", graph.Config{},
				`{ a0: policies(first: 1, query: "zz0") { pageInfo { hasNextPage } } a1: policies(first: 1, query: "zz1") { pageInfo { hasNextPage } } a2: policies(first: 1, query: "zz2") { pageInfo { hasNextPage } } b: auditEvents(first: 1) { totalCount } c: auditEvents(first: 1, filter: {kind: POLICY}) { pageInfo { hasNextPage } } m: members(first: 1) { totalCount } }`, ""},
			{"six lists searched by name or counted", graph.Config{},
				`{ a0: policies(first: 1, query: "zz0") { pageInfo { hasNextPage } } a1: policies(first: 1, query: "zz1") { pageInfo { hasNextPage } } a2: policies(first: 1, query: "zz2") { pageInfo { hasNextPage } } a3: policies(first: 1, query: "zz3") { pageInfo { hasNextPage } } a4: policies(first: 1, query: "zz4") { pageInfo { hasNextPage } } b: decisions(first: 1) { totalCount } }`,
				"the operation searches by name, counts or filters the audit log or decisions under 6 names, more than the limit of 5: each reads a whole list"},
			{"six searches, from fragments, in lists of groups", graph.Config{},
				`{ groups(first: 1) { edges { node { ...G } } } } fragment G on Group { a0: policies(first: 1, query: "zz0") { pageInfo { hasNextPage } } a1: policies(first: 1, query: "zz1") { pageInfo { hasNextPage } } a2: policies(first: 1, query: "zz2") { pageInfo { hasNextPage } } a3: policies(first: 1, query: "zz3") { pageInfo { hasNextPage } } a4: policies(first: 1, query: "zz4") { pageInfo { hasNextPage } } a5: policies(first: 1, query: "zz5") { pageInfo { hasNextPage } } }`, "under 6 names"},
			{"searches under one key count once, and a null query none", graph.Config{},
				`{ a0: policies(first: 1, query: "zz0") { pageInfo { hasNextPage } } a1: policies(first: 1, query: "zz1") { pageInfo { hasNextPage } } a2: policies(first: 1, query: "zz2") { pageInfo { hasNextPage } } a3: policies(first: 1, query: "zz3") { pageInfo { hasNextPage } } a4: policies(first: 1, query: "zz4") { pageInfo { hasNextPage } } a0: policies(first: 1, query: "zz0") { pageInfo { hasNextPage } } n: flows(first: 1, query: null) { pageInfo { hasNextPage } } }`, ""},
			{"the audit log filtered by base or time six times", graph.Config{},
				`{ e0: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } e1: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } e2: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } e3: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } e4: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } e5: auditEvents(first: 1, filter: {since: "2026-01-01T00:00:00Z"}) { pageInfo { hasNextPage } } }`, ""},
			{"the audit log filtered by what a variable holds, six times", graph.Config{},
				`query($f: AuditFilter) { e0: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } e1: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } e2: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } e3: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } e4: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } e5: auditEvents(first: 1, filter: $f) { pageInfo { hasNextPage } } }`, "under 6 names"},
			{"twenty tokens", graph.Config{MaxTokens: 20}, `{ a: viewer { role } b: viewer { role } c: viewer { role } }`, ""},
			{"twenty-one tokens", graph.Config{MaxTokens: 20}, `{ a: viewer { role } b: viewer { role } c: viewer { role } __typename }`, "exceeded token limit of 20"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				limited := &fixture{svc: f.svc, boot: f.boot, graph: authenticated(f.svc, graph.NewHandler(f.svc, tc.config))}
				res := limited.post(t, adminKey, tc.query, nil)
				if tc.refusal == "" {
					res.decode(t, &map[string]any{})
					return
				}
				if e := res.failure(t, service.CodeInvalidArgument); !strings.Contains(e.Message, tc.refusal) {
					t.Errorf("message %q, want it to say %q", e.Message, tc.refusal)
				}
			})
		}
	})
}

// TestAFragmentThatSpreadsItselfIsLeftToValidation: the limits expand
// fragments, through the fields of others too, before validation refuses a
// cycle; they stop at one.
func TestAFragmentThatSpreadsItselfIsLeftToValidation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, query := range []string{
			`{ ...A } fragment A on Query { viewer { role } ...A }`,
			`{ ...A } fragment A on Query { viewer { role ...A } }`,
			`{ node(id: "x") { ...A } } fragment A on Policy { a: name ...B } fragment B on Policy { owner { ...A } }`,
		} {
			res := f.post(t, adminKey, query, nil)
			said := false
			for _, e := range res.Errors {
				said = said || strings.HasPrefix(e.Message, `Cannot spread fragment "A" within itself`)
			}
			if res.Status != http.StatusUnprocessableEntity || !said {
				t.Errorf("%s: status %d, errors %+v; want 422 saying A spreads itself", query, res.Status, res.Errors)
			}
		}
	})
}

func TestValidationReportsAtMostMaxErrorsAndSaysThereWereMore(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, doc := range graphqltest.Costly() {
			t.Run(doc.Name, func(t *testing.T) {
				res := f.post(t, adminKey, doc.Query, nil)
				if len(res.Errors) != doc.Errors {
					t.Fatalf("%d errors, want %d: %.300v", len(res.Errors), doc.Errors, res.Errors)
				}
				for _, e := range res.Errors {
					if e.Extensions["code"] != string(service.CodeInvalidArgument) {
						t.Fatalf("error %q has code %v, want invalid_argument", e.Message, e.Extensions["code"])
					}
				}
				if doc.Errors <= graph.DefaultMaxErrors {
					return
				}
				if last := res.Errors[graph.DefaultMaxErrors].Message; last != "more errors were found; only the first 50 are shown" {
					t.Errorf("last error %q", last)
				}
			})
		}
	})
}

func TestErrorsOfResolversAreCappedToo(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withConfig(graph.Config{MaxErrors: 3}))
		res := f.post(t, adminKey, `{ n0: node(id: "nope") { id } n1: node(id: "nope") { id } n2: node(id: "nope") { id }
			n3: node(id: "nope") { id } n4: node(id: "nope") { id } }`, nil)
		if len(res.Errors) != 4 {
			t.Fatalf("%d errors, want 3 and one saying there were more: %+v", len(res.Errors), res.Errors)
		}
		for _, e := range res.Errors {
			if e.Extensions["code"] != string(service.CodeInvalidArgument) {
				t.Errorf("error %q has code %v, want invalid_argument", e.Message, e.Extensions["code"])
			}
		}
		if last := res.Errors[3].Message; last != "more errors were found; only the first 3 are shown" {
			t.Errorf("last error %q", last)
		}
	})
}

func TestAnOperationWhoseRequestEndedResolvesNoFurtherField(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		ctx, end := context.WithCancel(context.Background())
		defer end()
		// The request ends while its first field is being resolved.
		az := &endingAuthorizer{end: end}
		f := newFixture(t, db, withAuthorizer(az))
		az.next = mustEmbedded(t)

		body, _ := json.Marshal(map[string]any{"query": `mutation {
			a: createGroup(input: {name: "A"}) { id }
			b: createGroup(input: {name: "B"}) { id }
			c: createGroup(input: {name: "C"}) { id }
		}`})
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/graphql", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		res := f.send(t, adminKey, r)

		if az.decisions.Load() != 1 {
			t.Errorf("%d authorization decisions, want 1: the fields after the first ran", az.decisions.Load())
		}
		gone := 0
		for _, e := range res.Errors {
			if e.Message == "the request ended before this field was resolved" && e.Extensions["code"] == string(service.CodeUnavailable) {
				gone++
			}
		}
		if gone != 2 {
			t.Errorf("want b and c refused as unresolved, got errors %+v", res.Errors)
		}
	})
}

// endingAuthorizer ends the request on the first decision it is asked.
type endingAuthorizer struct {
	next      authz.Authorizer
	end       context.CancelFunc
	decisions atomic.Int64
}

func (a *endingAuthorizer) Decide(ctx context.Context, p authz.Principal, act authz.Action, r authz.Resource) (authz.Decision, error) {
	if a.decisions.Add(1) == 1 {
		defer a.end()
	}
	return a.next.Decide(ctx, p, act, r)
}

func mustEmbedded(t *testing.T) authz.Authorizer {
	az, err := authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout))
	if err != nil {
		t.Fatal(err)
	}
	return az
}

// BenchmarkWorstDocuments measures what answering each worst document
// costs, from the request to its response: the time and memory of one
// refusal or one answer listing its first errors, and the CPU time the
// process spent on it (cpu-ms/op, garbage collection included), which a
// loaded machine leaves the same where it stretches the time.
func BenchmarkWorstDocuments(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db)
		for _, doc := range graphqltest.All() {
			body, err := json.Marshal(map[string]any{"query": doc.Query})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(doc.Name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				before := cpuTime(b)
				for b.Loop() {
					r := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("x-api-key", adminKey)
					w := httptest.NewRecorder()
					f.graph.ServeHTTP(w, r)
					if w.Code != http.StatusOK && w.Code != http.StatusUnprocessableEntity {
						b.Fatalf("status %d: %.200s", w.Code, w.Body)
					}
				}
				b.ReportMetric(float64(cpuTime(b)-before)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			})
		}
	})
}

func TestRequestsPastMaxConcurrentWaitForTheirTurn(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		az := &blockingAuthorizer{next: mustEmbedded(t), entered: make(chan struct{}), release: make(chan struct{})}
		f := newFixture(t, db, withAuthorizer(az), withConfig(graph.Config{MaxConcurrent: 1}))

		first := make(chan response)
		go func() { first <- f.post(t, adminKey, `{ viewer { role } }`, nil) }()
		<-az.entered // the first request holds the only turn

		// A request whose client has gone while it waits never runs.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		body, _ := json.Marshal(map[string]any{"query": `{ viewer { role } }`})
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/graphql", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		p, err := f.svc.Authenticate(context.Background(), adminKey, "")
		if err != nil {
			t.Fatal(err)
		}
		res := f.send(t, "", r.WithContext(service.WithPrincipal(ctx, p)))
		res.failure(t, service.CodeUnavailable)
		if res.Status != http.StatusServiceUnavailable {
			t.Errorf("status %d, want 503", res.Status)
		}

		close(az.release)
		(<-first).decode(t, &map[string]any{})
		f.post(t, adminKey, `{ viewer { role } }`, nil).decode(t, &map[string]any{})
		if n := az.decisions.Load(); n != 2 {
			t.Errorf("%d authorization decisions, want 2: the request that left while waiting ran", n)
		}
	})
}

// A client that sends its body slowly holds no turn while it does: with
// one turn, another request runs while the body is unfinished.
func TestASlowBodyHoldsNoTurn(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withConfig(graph.Config{MaxConcurrent: 1}))
		body, err := json.Marshal(map[string]any{"query": `{ viewer { role } }`})
		if err != nil {
			t.Fatal(err)
		}
		pr, pw := io.Pipe()
		r := httptest.NewRequest(http.MethodPost, "/graphql", pr)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("x-api-key", adminKey)
		slow := make(chan int)
		go func() {
			w := httptest.NewRecorder()
			f.graph.ServeHTTP(w, r)
			slow <- w.Code
		}()
		// The write returns once the handler reads the body.
		if _, err := pw.Write(body[:1]); err != nil {
			t.Fatal(err)
		}
		other := make(chan response)
		go func() { other <- f.post(t, adminKey, `{ viewer { role } }`, nil) }()
		select {
		case res := <-other:
			res.decode(t, &map[string]any{})
		case <-time.After(time.Minute):
			t.Fatal("a request waited for the turn of a body still being sent")
		}
		if _, err := pw.Write(body[1:]); err != nil {
			t.Fatal(err)
		}
		pw.Close()
		if code := <-slow; code != http.StatusOK {
			t.Errorf("the slow request answered %d", code)
		}
	})
}

// blockingAuthorizer holds its first decision until release is closed,
// telling entered when it is there.
type blockingAuthorizer struct {
	next             authz.Authorizer
	entered, release chan struct{}
	decisions        atomic.Int64
}

func (a *blockingAuthorizer) Decide(ctx context.Context, p authz.Principal, act authz.Action, r authz.Resource) (authz.Decision, error) {
	if a.decisions.Add(1) == 1 {
		close(a.entered)
		<-a.release
	}
	return a.next.Decide(ctx, p, act, r)
}

// cpuTime is the user and system time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
