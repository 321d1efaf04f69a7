package rest

import (
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/time/rate"
)

// maxLimitedKeys bounds the buckets kept in memory. Only authenticated keys
// get one, so the stored keys bound the map already; this is the backstop.
const maxLimitedKeys = 10_000

// limiter holds a token bucket per API key.
type limiter struct {
	perSecond float64
	burst     int
	max       int
	// refilled is how long an unused bucket takes to fill up again; a
	// bucket idle that long is as good as a new one and can be dropped.
	refilled time.Duration

	mu      sync.Mutex
	buckets map[uuid.UUID]*bucket
}

type bucket struct {
	tokens *rate.Limiter
	seen   time.Time // guarded by limiter.mu
}

func newLimiter(perSecond float64, burst, max int) *limiter {
	return &limiter{
		perSecond: perSecond,
		burst:     burst,
		max:       max,
		refilled:  time.Duration(float64(burst) / perSecond * float64(time.Second)),
		buckets:   make(map[uuid.UUID]*bucket),
	}
}

// allow takes a token from key's bucket. When there is none, it says how
// long until there is one.
func (l *limiter) allow(key uuid.UUID, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.max {
			l.evict(now)
		}
		b = &bucket{tokens: rate.NewLimiter(rate.Limit(l.perSecond), l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	l.mu.Unlock()

	res := b.tokens.ReserveN(now, 1)
	if !res.OK() {
		return time.Second, false
	}
	if wait := res.DelayFrom(now); wait > 0 {
		res.CancelAt(now)
		return wait, false
	}
	return 0, true
}

// evict makes room for one bucket: it drops every bucket that has filled up
// again, and when none has, the one unused the longest (its key starts
// afresh: a little lenient, but the map stays bounded). l.mu is held.
func (l *limiter) evict(now time.Time) {
	var oldest uuid.UUID
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
