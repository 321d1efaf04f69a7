package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// limitedServer replaces f's server with one that mounts GraphQL and has
// the limits cfg sets; the rates are so low that no token comes back
// while a test runs.
func (f *fixture) limitedServer(cfg Config) {
	cfg.Registerer = prometheus.NewRegistry()
	cfg.GraphQL = graph.NewHandler(f.svc, graph.Config{})
	f.srv = newServer(f.svc, cfg)
}

// runAliases is a GraphQL document with n runRule fields.
func runAliases(n int) string {
	var b strings.Builder
	b.WriteString("mutation {")
	for i := range n {
		fmt.Fprintf(&b, ` r%d: runRule(input: {rule: "A **P** is ok if __a__ is empty.", data: {P: {}}}) { result }`, i)
	}
	b.WriteString("}")
	doc, _ := json.Marshal(map[string]string{"query": b.String()})
	return string(doc)
}

func TestRunsNotRequestsSpendTheBudget(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 5, OrgRateLimit: -1})
		w := f.do(http.MethodPost, "/graphql", strings.NewReader(runAliases(8)), append(key(adminKey), "Content-Type", "application/json")...)
		var answer struct {
			Data   map[string]*struct{ Result *bool }
			Errors []struct {
				Path       []string
				Extensions struct{ Code string }
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("answer %s: %v", w.Body, err)
		}
		// The request paid for the first run, four more tokens made four
		// more runs, the last three were refused: each is null, and the
		// runs made still answer.
		for i := range 8 {
			if got, ran := answer.Data[fmt.Sprintf("r%d", i)], i < 5; (got != nil) != ran || ran && got.Result == nil {
				t.Errorf("r%d answers %+v; want a result: %v", i, got, ran)
			}
		}
		var refused []string
		for _, e := range answer.Errors {
			if e.Extensions.Code != string(service.CodeRateLimited) {
				t.Errorf("refused run %v has code %q, want rate_limited", e.Path, e.Extensions.Code)
			}
			refused = append(refused, strings.Join(e.Path, "."))
		}
		if got := strings.Join(refused, " "); got != "r5 r6 r7" {
			t.Errorf("refused %q, want r5 r6 r7: %s", got, w.Body)
		}
		wantError(t, f.run(adultRun, key(adminKey)...), 429, service.CodeRateLimited)
	})
}

func TestAnOrganizationsKeysShareItsBudget(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 100, OrgRateLimit: 0.001, OrgRateBurst: 3})
		ctx := context.Background()
		op := f.svc.Operator()
		second, err := op.CreateKey(ctx, service.KeyInput{Organization: f.acme.Organization.ID, Name: "second", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		beta, err := op.Bootstrap(ctx, service.BootstrapInput{Organization: "Beta", Email: "boss@beta.test"})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, f.run(adultRun, key(adminKey)...), 200)
		wantStatus(t, f.run(adultRun, key(second.Secret)...), 200)
		wantStatus(t, f.run(adultRun, key(adminKey)...), 200)
		w := f.run(adultRun, key(second.Secret)...)
		wantError(t, w, 429, service.CodeRateLimited)
		if w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "organization") {
			t.Errorf("the organization's refusal: Retry-After %q, body %s", w.Header().Get("Retry-After"), w.Body)
		}
		wantStatus(t, f.run(adultRun, key(beta.Secret)...), 200)
	})
}

// countKeyLookups counts the queries of API keys db answers from now on.
func countKeyLookups(db *database.DB) *atomic.Int64 {
	var n atomic.Int64
	db.Client().APIKey.Intercept(ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			n.Add(1)
			return next.Query(ctx, q)
		})
	}))
	return &n
}

func TestBadKeysCostNoLookups(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		t.Run("a repeated bad key is looked up once", func(t *testing.T) {
			f := newFixture(t, db)
			f.limitedServer(Config{RateLimit: -1, OrgRateLimit: -1, AuthFailureLimit: -1})
			lookups := countKeyLookups(db)
			for range 20 {
				wantError(t, f.run(adultRun, key("rest-test-unknown-key-0123456789abcdef")...), 401, service.CodeUnauthenticated)
			}
			if n := lookups.Load(); n != 1 {
				t.Errorf("20 requests with one unknown key made %d key lookups, want 1", n)
			}
		})
		t.Run("a known key naming other organizations is looked up once", func(t *testing.T) {
			f := newFixture(t, db, unbootstrapped)
			f.limitedServer(Config{RateLimit: -1, OrgRateLimit: -1, AuthFailureLimit: -1})
			lookups := countKeyLookups(db)
			for i := range 20 {
				other := fmt.Sprintf("00000000-0000-7000-8000-%012d", i)
				wantError(t, f.run(adultRun, append(key(adminKey), "x-org-id", other)...), 403, service.CodePermissionDenied)
			}
			if n := lookups.Load(); n != 1 {
				t.Errorf("20 requests naming other organizations made %d key lookups, want 1", n)
			}
		})
		t.Run("an address that fails too often is refused before any lookup", func(t *testing.T) {
			f := newFixture(t, db, unbootstrapped)
			f.limitedServer(Config{RateLimit: -1, OrgRateLimit: -1, AuthFailureLimit: 0.001, AuthFailureBurst: 3})
			lookups := countKeyLookups(db)
			from := func(addr, secret string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodPost, "/run", strings.NewReader(adultRun))
				r.RemoteAddr = addr
				r.Header.Set("x-api-key", secret)
				w := httptest.NewRecorder()
				f.srv.ServeHTTP(w, r)
				return w
			}
			for i := range 3 {
				wantError(t, from("192.0.2.7:1000", fmt.Sprintf("rest-test-guess-%02d-0123456789abcdefghij", i)), 401, service.CodeUnauthenticated)
			}
			for i := range 50 {
				w := from("192.0.2.7:1001", fmt.Sprintf("rest-test-flood-%02d-0123456789abcdefghij", i))
				wantError(t, w, 429, service.CodeRateLimited)
				if i == 0 && w.Header().Get("Retry-After") == "" {
					t.Error("the refusal has no Retry-After")
				}
			}
			if n := lookups.Load(); n != 3 {
				t.Errorf("3 failures and 50 refused requests made %d key lookups, want 3", n)
			}
			// Another address is not refused.
			wantError(t, from("198.51.100.9:1000", "rest-test-other-address-0123456789abcdef"), 401, service.CodeUnauthenticated)
		})
	})
}

// batchOf is a batch run body of n copies of seniorData.
func batchOf(n int) string {
	return `{"items": [` + strings.TrimSuffix(strings.Repeat(seniorData+", ", n), ", ") + `]}`
}

func TestABatchCostsOneRunPerItem(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, noRateLimit)
		headers := append(key(adminKey), "Content-Type", "application/json")
		w := f.do(http.MethodPost, "/policy", strings.NewReader(seniorPolicy), headers...)
		wantStatus(t, w, http.StatusCreated)
		pol := decodeStrict[service.SavedPolicy](t, w)
		batch := "/run/policy_version/" + pol.ID.String() + "/batch"

		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 5, OrgRateLimit: -1})
		// The request pays for the first item, four more tokens for the rest.
		w = f.do(http.MethodPost, batch, strings.NewReader(batchOf(5)), headers...)
		wantStatus(t, w, http.StatusOK)
		if got := decodeStrict[service.BatchResult](t, w); len(got.Results) != 5 {
			t.Errorf("%d results, want 5", len(got.Results))
		}
		w = f.do(http.MethodPost, batch, strings.NewReader(batchOf(1)), headers...)
		wantError(t, w, http.StatusTooManyRequests, service.CodeRateLimited)
		if w.Header().Get("Retry-After") == "" {
			t.Error("a refused batch has no Retry-After")
		}

		// More than the burst never fits, and says so.
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 5, OrgRateLimit: -1})
		w = f.do(http.MethodPost, batch, strings.NewReader(batchOf(6)), headers...)
		wantError(t, w, http.StatusTooManyRequests, service.CodeRateLimited)
		if !strings.Contains(w.Body.String(), "6 runs at once are more than the rate limit's burst of 5 allows, ever") {
			t.Errorf("the refusal does not name the burst: %s", w.Body)
		}
		if got := w.Header().Get("Retry-After"); got != "" {
			t.Errorf("a batch that never fits is told to retry after %s s", got)
		}
		// It spent only its request's token: four runs still fit.
		wantStatus(t, f.do(http.MethodPost, batch, strings.NewReader(batchOf(4)), headers...), http.StatusOK)

		// Over GraphQL, a batch costs its items too.
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 3, OrgRateLimit: -1})
		doc := func(n int) string {
			return `{"query": "mutation($id: ID!, $items: [JSON!]!) { runPolicyVersionBatch(input: {policyId: $id, items: $items}) { results { result } } }",
				"variables": {"id": "` + pol.ID.String() + `", "items": ` + strings.TrimPrefix(strings.TrimSuffix(batchOf(n), "}"), `{"items": `) + `}}`
		}
		w = f.do(http.MethodPost, "/graphql", strings.NewReader(doc(3)), headers...)
		if !strings.Contains(w.Body.String(), `{"results":[{"result":true},{"result":true},{"result":true}]}`) {
			t.Errorf("a batch of three within the budget: %s", w.Body)
		}
		f.limitedServer(Config{RateLimit: 0.001, RateBurst: 3, OrgRateLimit: -1})
		w = f.do(http.MethodPost, "/graphql", strings.NewReader(doc(4)), headers...)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"code":"rate_limited"`) || !strings.Contains(w.Body.String(), `"data":{"runPolicyVersionBatch":null}`) {
			t.Errorf("a batch of four on a budget of three: %d %s", w.Code, w.Body)
		}
	})
}

// A client that waits the Retry-After of a refused batch is let through:
// the wait covers the retried request's own token as well as its runs.
func TestABatchRetriedAfterItsRetryAfterFits(t *testing.T) {
	b := &budgets{perKey: newLimiter[uuid.UUID](1, 10, 10)}
	p := &service.Principal{KeyID: uuid.New(), TenantID: uuid.New()}
	t0 := time.Unix(1_800_000_000, 0)
	// batch takes what a batch of n items costs at now: its request's
	// token, then the n-1 further runs.
	batch := func(n int, now time.Time) error {
		if err := b.take(p, 1, 1, now); err != nil {
			return err
		}
		return b.take(p, n-1, n, now)
	}
	if err := batch(9, t0); err != nil {
		t.Fatalf("the first batch of nine on a burst of ten: %v", err)
	}
	err := batch(9, t0)
	var refused *retryLater
	if !errors.As(err, &refused) {
		t.Fatalf("the second batch at once: %v, want a refusal", err)
	}
	if refused.retryAfter != 9 {
		t.Errorf("Retry-After %d, want 9: one token is left after the request's, nine are needed again", refused.retryAfter)
	}
	if err := batch(9, t0.Add(time.Duration(refused.retryAfter)*time.Second)); err != nil {
		t.Errorf("retried after %d s: %v", refused.retryAfter, err)
	}
}

// A rate so small that a bucket refills in more time than a Duration
// holds keeps its buckets and its waits positive.
func TestATinyRateKeepsItsBucketsAndWaits(t *testing.T) {
	l := newLimiter[uuid.UUID](1e-300, 1, 10)
	if l.refilled <= 0 {
		t.Fatalf("refilled in %v, want the longest Duration", l.refilled)
	}
	key, now := uuid.New(), time.Unix(1_800_000_000, 0)
	if _, ok := l.allow(key, now); !ok {
		t.Fatal("the first request of a full bucket was refused")
	}
	if wait, empty := l.exhausted(key, now); !empty || wait <= 0 {
		t.Errorf("after the bucket's one token: wait %v, empty %v; want a positive wait", wait, empty)
	}
}

// A refusal waits for both budgets: the key's may hold the batch again
// long before the organization's does.
func TestARefusalWaitsForBothBudgets(t *testing.T) {
	b := &budgets{perKey: newLimiter[uuid.UUID](1, 10, 10), perOrg: newLimiter[uuid.UUID](0.5, 10, 10)}
	p := &service.Principal{KeyID: uuid.New(), TenantID: uuid.New()}
	t0 := time.Unix(1_800_000_000, 0)
	if err := b.take(p, 10, 10, t0); err != nil {
		t.Fatal(err)
	}
	// Five seconds on, the key holds 5 tokens and the organization 2.5:
	// ten more come to the key in 5 s, to the organization in 15 s.
	var refused *retryLater
	if err := b.take(p, 10, 10, t0.Add(5*time.Second)); !errors.As(err, &refused) || refused.retryAfter != 15 ||
		!strings.HasPrefix(refused.err.Message, "the organization's keys together") {
		t.Fatalf("refusal %v, want the organization's with Retry-After 15", err)
	}
	if err := b.take(p, 10, 10, t0.Add(20*time.Second)); err != nil {
		t.Errorf("retried after 15 s: %v", err)
	}
}

// Refusals at once give back all they took: a reservation rate cancels
// gives back only as far as none was made after it, which another
// refusal's may be.
func TestRefusalsAtOnceLoseNoTokens(t *testing.T) {
	b := &budgets{perKey: newLimiter[uuid.UUID](1e-9, 1000, 10)}
	p := &service.Principal{KeyID: uuid.New(), TenantID: uuid.New()}
	now := time.Unix(1_800_000_000, 0)
	if err := b.take(p, 500, 500, now); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 2_000 {
				if b.take(p, 600, 600, now) == nil {
					t.Error("600 tokens taken of 500")
					return
				}
			}
		})
	}
	wg.Wait()
	if left := b.perKey.bucketOf(p.KeyID, now).tokens.TokensAt(now); left < 499.999 || left > 500.001 {
		t.Errorf("%v tokens left, want 500", left)
	}
}
