package authz

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

func TestEmbeddedFailsClosedWhenThePolicyDoesNotAnswerWithADecision(t *testing.T) {
	modules := []struct {
		name   string
		module string
	}{
		{"an undefined decision", `package verdict.authz
other := true`},
		{"a decision that is not an object", `package verdict.authz
decision := true`},
		{"an allow that is not a boolean", `package verdict.authz
decision := {"allow": "yes", "reason": "allowed"}`},
		{"a decision without a reason", `package verdict.authz
decision := {"allow": true}`},
		{"a decision with two values", `package verdict.authz
decision := {"allow": true, "reason": "a"} if input.action
decision := {"allow": true, "reason": "b"} if input.action`},
		// Without strict builtin errors the failing call would be undefined,
		// its negation true, and the decision an allow.
		{"a builtin that fails", `package verdict.authz
decision := {"allow": true, "reason": "allowed"} if not to_number(input.action) > 0`},
	}
	for _, m := range modules {
		t.Run(m.name+" is unavailable", func(t *testing.T) {
			e, err := newEmbedded(m.module, time.Second, nil)
			if err != nil {
				t.Fatalf("newEmbedded: %v", err)
			}
			d, err := e.Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("err = %v, want ErrUnavailable", err)
			}
			if d.Allow {
				t.Errorf("decision allows on error: %+v", d)
			}
		})
	}
}

func TestEmbeddedQueryThatOutlivesItsDeadlineIsUnavailable(t *testing.T) {
	// Nine million iterations: seconds of work, cut short by the deadline.
	const slow = `package verdict.authz
decision := {"allow": true, "reason": "allowed"} if {
	count([1 | some i in numbers.range(1, 3000); some j in numbers.range(1, 3000)]) > 0
}`
	e, err := newEmbedded(slow, 10*time.Millisecond, nil)
	if err != nil {
		t.Fatalf("newEmbedded: %v", err)
	}
	d, err := e.Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrUnavailable wrapping context.DeadlineExceeded", err)
	}
	if d.Allow {
		t.Errorf("decision allows on timeout: %+v", d)
	}
}

func TestEmbeddedRefusesACallerWhoseContextIsDone(t *testing.T) {
	az := newTestEmbedded(t)
	p, a, r := userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy
	mustDecide(t, az, p, a, r) // cached now: a done context must still be refused

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := az.Decide(ctx, p, a, r)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrUnavailable wrapping context.Canceled", err)
	}
	if d.Allow {
		t.Errorf("decision allows on a cancelled context: %+v", d)
	}
}

func TestNonPositiveTimeoutIsRejectedAtConstruction(t *testing.T) {
	if _, err := NewEmbedded(WithTimeout(0)); err == nil {
		t.Error("NewEmbedded accepted a zero timeout")
	}
	if _, err := NewRemote("http://127.0.0.1:8181", WithTimeout(-time.Second)); err == nil {
		t.Error("NewRemote accepted a negative timeout")
	}
}

func TestCachedDecisionsEqualFreshOnesForEveryInput(t *testing.T) {
	cached := newTestEmbedded(t)
	fresh, err := newEmbedded(policySource, decisionTimeout, nil)
	if err != nil {
		t.Fatalf("newEmbedded: %v", err)
	}
	// Twice, so the second pass reads every decision from the cache.
	for range 2 {
		forEveryInput(func(p Principal, a Action, r Resource) {
			if got, want := mustDecide(t, cached, p, a, r), mustDecide(t, fresh, p, a, r); got != want {
				t.Errorf("%+v %s %+v: cached %+v, fresh %+v", p, a, r, got, want)
			}
		})
	}
}

func TestDecisionCacheNeverHoldsMoreThanItsBound(t *testing.T) {
	c := newDecisionCache(3)
	for i := range 10 {
		c.put(decisionKey{p: Principal{KeyID: string(rune('a' + i))}}, Decision{})
		if len(c.entries) > 3 {
			t.Fatalf("after %d puts the cache holds %d entries", i+1, len(c.entries))
		}
	}
	last := decisionKey{p: Principal{KeyID: "j"}}
	if _, ok := c.get(last); !ok {
		t.Error("the latest decision is not cached")
	}
}

func TestConcurrentDecisionsAgreeWithSequentialOnes(t *testing.T) {
	az := newTestEmbedded(t)
	fresh, err := newEmbedded(policySource, decisionTimeout, nil)
	if err != nil {
		t.Fatalf("newEmbedded: %v", err)
	}
	type call struct {
		p Principal
		a Action
		r Resource
		d Decision
	}
	var calls []call
	forEveryInput(func(p Principal, a Action, r Resource) {
		calls = append(calls, call{p, a, r, mustDecide(t, fresh, p, a, r)})
	})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < len(calls); i += 8 {
				c := calls[i]
				d, err := az.Decide(context.Background(), c.p, c.a, c.r)
				if err != nil || d != c.d {
					t.Errorf("%+v %s %+v: got %+v, %v; want %+v", c.p, c.a, c.r, d, err, c.d)
				}
			}
		})
	}
	wg.Wait()
}

// forEveryInput calls f with every principal shape, action and resource the
// other tests name.
func forEveryInput(f func(Principal, Action, Resource)) {
	var principals []Principal
	for _, s := range allScopes {
		for _, role := range allRoles {
			principals = append(principals, userKey(role, s))
		}
		principals = append(principals, orgKey(s))
	}
	for _, p := range principals {
		for _, row := range roleMatrix {
			for _, a := range allActions {
				f(p, a, row.r)
			}
		}
	}
}
