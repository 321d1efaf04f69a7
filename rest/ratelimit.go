package rest

import (
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"github.com/verdict/verdict/service"
)

// maxLimited bounds the buckets a limiter keeps in memory. Keys and
// organizations are bounded by what is stored, client addresses are not:
// this is the backstop.
const maxLimited = 10_000

// limiter holds a token bucket per key: an API key, an organization, a
// client address.
type limiter[K comparable] struct {
	perSecond float64
	burst     int
	max       int
	// refilled is how long an unused bucket takes to fill up again; a
	// bucket idle that long is as good as a new one and can be dropped.
	refilled time.Duration

	mu      sync.Mutex
	buckets map[K]*bucket
}

type bucket struct {
	tokens *rate.Limiter
	seen   time.Time // guarded by limiter.mu
	// mu makes taking tokens and giving them back one step: rate gives a
	// cancelled reservation's tokens back only as far as no reservation
	// was made after it, so two refusals that overlap would lose tokens.
	mu sync.Mutex
}

func newLimiter[K comparable](perSecond float64, burst, max int) *limiter[K] {
	return &limiter[K]{
		perSecond: perSecond,
		burst:     burst,
		max:       max,
		refilled:  seconds(float64(burst) / perSecond),
		buckets:   make(map[K]*bucket),
	}
}

// seconds is a span of s seconds, the longest a Duration holds when s is
// longer: a rate as small as 1e-300 a second gives spans no Duration
// holds, which a plain conversion would turn negative.
func seconds(s float64) time.Duration {
	if s >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}

// bucketOf returns key's bucket, made full when it is new.
func (l *limiter[K]) bucketOf(key K, now time.Time) *bucket {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.max {
			l.evict(now)
		}
		b = &bucket{tokens: rate.NewLimiter(rate.Limit(l.perSecond), l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	return b
}

// reserve takes n tokens from b, whose mu the caller holds, or, when
// there are not that many, nothing.
func (b *bucket) reserve(n int, now time.Time) (*rate.Reservation, bool) {
	res := b.tokens.ReserveN(now, n)
	if !res.OK() {
		return nil, false
	}
	if res.DelayFrom(now) <= 0 {
		return res, true
	}
	res.CancelAt(now)
	return nil, false
}

// waitFor is how long until b holds n tokens, b.mu held. More than the
// burst never fit: the wait is then a second, the shortest Retry-After.
func (b *bucket) waitFor(n int, now time.Time) time.Duration {
	res := b.tokens.ReserveN(now, n)
	if !res.OK() {
		return time.Second
	}
	wait := res.DelayFrom(now)
	res.CancelAt(now)
	return wait
}

// allow takes a token of key's bucket, for a caller that never gives it
// back.
func (l *limiter[K]) allow(key K, now time.Time) (time.Duration, bool) {
	b := l.bucketOf(key, now)
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.reserve(1, now); !ok {
		return b.waitFor(1, now), false
	}
	return 0, true
}

// exhausted says whether key's bucket is empty, and how long until it has
// a token again, without taking one.
func (l *limiter[K]) exhausted(key K, now time.Time) (time.Duration, bool) {
	tokens := l.bucketOf(key, now).tokens.TokensAt(now)
	if tokens >= 1 {
		return 0, false
	}
	return seconds((1 - tokens) / l.perSecond), true
}

// evict makes room for one bucket: it drops every bucket that has filled up
// again, and when none has, the one unused the longest (its key starts
// afresh: a little lenient, but the map stays bounded). l.mu is held.
func (l *limiter[K]) evict(now time.Time) {
	var oldest K
	var oldestSeen time.Time
	for key, b := range l.buckets {
		if now.Sub(b.seen) >= l.refilled {
			delete(l.buckets, key)
			continue
		}
		if oldestSeen.IsZero() || b.seen.Before(oldestSeen) {
			oldest, oldestSeen = key, b.seen
		}
	}
	if len(l.buckets) >= l.max {
		delete(l.buckets, oldest)
	}
}

// budgets are the rate limits of runs: one bucket per API key and one per
// organization, so that many keys of one organization cannot take more
// than the organization's share. Either may be nil, for no limit.
type budgets struct {
	perKey *limiter[uuid.UUID]
	perOrg *limiter[uuid.UUID]
}

// take charges n requests or runs to p's key and organization. When
// either budget cannot pay them all, nothing is charged and the error says
// which, and after how many seconds a retry, which takes retry tokens,
// may succeed: the longer of the two budgets' waits. Both buckets are
// held, the key's first, until the charge is made or given back.
func (b *budgets) take(p *service.Principal, n, retry int, now time.Time) error {
	var key, org *bucket
	if b.perKey != nil {
		key = b.perKey.bucketOf(p.KeyID, now)
		key.mu.Lock()
		defer key.mu.Unlock()
	}
	if b.perOrg != nil {
		org = b.perOrg.bucketOf(p.TenantID, now)
		org.mu.Lock()
		defer org.mu.Unlock()
	}
	var fromKey *rate.Reservation
	ok := true
	if key != nil {
		fromKey, ok = key.reserve(n, now)
	}
	if ok && org != nil {
		if _, ok = org.reserve(n, now); !ok && fromKey != nil {
			fromKey.CancelAt(now)
		}
	}
	if ok {
		return nil
	}
	// The wait is the longer of the two budgets' for the whole retry, and
	// the refusal names the budget that keeps it waiting.
	var keyWait, orgWait time.Duration
	if key != nil {
		keyWait = key.waitFor(retry, now)
	}
	if org != nil {
		orgWait = org.waitFor(retry, now)
	}
	if key == nil || orgWait > keyWait {
		return refusal(b.perOrg, orgWait, "the organization's keys together have made more requests and runs than its limit")
	}
	return refusal(b.perKey, keyWait, "this key has made more requests and runs than its limit")
}

// retryLater is a refusal that a retry may get past: a budget's, or the
// bound on bodies in flight's, with the seconds after which a retry may
// succeed, for Retry-After; 0 when no wait would let it through.
type retryLater struct {
	err        *service.Error
	retryAfter int64
}

func (e *retryLater) Error() string { return e.err.Error() }
func (e *retryLater) Unwrap() error { return e.err }

// refusal says why l cannot pay for now.
func refusal[K comparable](l *limiter[K], wait time.Duration, spent string) *retryLater {
	secs := retrySeconds(wait)
	return &retryLater{retryAfter: secs, err: failure(service.CodeRateLimited,
		"%s of %g a second (at most %d at once) allows; retry after %d s", spent, l.perSecond, l.burst, secs)}
}

// fitAtOnce refuses n runs made together (a batch) that are more than a
// budget's burst: no wait would let them through.
func (b *budgets) fitAtOnce(n int) error {
	for _, burst := range []int{burstOf(b.perKey), burstOf(b.perOrg)} {
		if burst > 0 && n > burst {
			return &retryLater{err: failure(service.CodeRateLimited,
				"%d runs at once are more than the rate limit's burst of %d allows, ever: one request makes at most %d runs, "+
					"counting a batch's items, a GraphQL document's runs, and the tests a test call or a publish runs", n, burst, burst)}
		}
	}
	return nil
}

// burstOf is l's burst; 0 for no limiter.
func burstOf[K comparable](l *limiter[K]) int {
	if l == nil {
		return 0
	}
	return l.burst
}

// requestBudget is the run budget of one request. Taking the request in
// paid for one run already, so that a REST run costs one token, as any
// other request does; every further run of the request (GraphQL run
// fields after the first, batch items after the first) costs one more.
type requestBudget struct {
	budgets   *budgets
	principal *service.Principal
	prepaid   atomic.Bool
}

func (r *requestBudget) SpendRuns(n int) error {
	if err := r.budgets.fitAtOnce(n); err != nil {
		return err
	}
	// A retry pays for the request again before its runs: the wait is
	// for all n, the request's token included.
	retry := n
	usedPrepaid := r.prepaid.CompareAndSwap(true, false)
	if usedPrepaid {
		n--
	}
	if n <= 0 {
		return nil
	}
	if err := r.budgets.take(r.principal, n, retry, time.Now()); err != nil {
		// Nothing runs, so the prepaid run stays unspent.
		if usedPrepaid {
			r.prepaid.Store(true)
		}
		return err
	}
	return nil
}

// retrySeconds is a wait as Retry-After gives it: whole seconds, at least 1.
func retrySeconds(wait time.Duration) int64 {
	return max(int64(math.Ceil(wait.Seconds())), 1)
}
