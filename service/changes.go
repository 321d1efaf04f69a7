package service

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/internal/weighed"
	"github.com/verdict/verdict/storage"
)

// ChangeFeed delivers the changes committed on the database by every
// instance sharing it (changefeed.Listener).
type ChangeFeed interface {
	Subscribe(changefeed.Subscriber)
}

// DefaultCacheExpiry is how long a cached base, record or authenticated
// key may be used when Config leaves CacheExpiry unset.
const DefaultCacheExpiry = 5 * time.Second

// MinCacheExpiry is the shortest CacheExpiry: a shorter one is taken as
// it. The expiring caches look for expired entries every hundredth of the
// expiry, which must stay an interval they can keep.
const MinCacheExpiry = weighed.MinExpiry

// staleable is a cache that committed changes can make stale.
type staleable interface {
	// drop removes what the change concerns.
	drop(changefeed.Change)
	// clear removes everything that can change.
	clear()
}

// cacheSet is every cache of the service that a change can make stale, and
// the one place changes reach them: this instance's own changes once they
// commit (announce), every instance's through the change feed. A new cache
// joins by being listed in newCacheSet.
type cacheSet struct {
	caches []staleable
	clears prometheus.Counter
}

func newCacheSet(reg prometheus.Registerer, caches ...staleable) (*cacheSet, error) {
	cs := &cacheSet{caches: caches, clears: prometheus.NewCounter(prometheus.CounterOpts{
		Name: "verdict_cache_clears_total",
		Help: "Times every cached base, record and key was dropped because change notifications may have been missed.",
	})}
	if reg != nil {
		if err := reg.Register(cs.clears); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// Changed implements changefeed.Subscriber.
func (cs *cacheSet) Changed(c changefeed.Change) {
	for _, cache := range cs.caches {
		cache.drop(c)
	}
}

// Missed implements changefeed.Subscriber.
func (cs *cacheSet) Missed() {
	cs.clears.Inc()
	for _, cache := range cs.caches {
		cache.clear()
	}
}

// changed announces c and records the audit events that describe it, in
// tx: a change commits with both or not at all.
func (s *Service) changed(ctx context.Context, tx storage.Tx, c changefeed.Change, evs ...event) error {
	if err := s.announce(ctx, tx, c); err != nil {
		return err
	}
	return s.appendEvents(ctx, tx, evs...)
}

// announce makes a change of tx known once tx commits: to every instance
// listening on the database, in the transaction itself, and to this
// instance's caches directly, which need not wait for the notification.
func (s *Service) announce(ctx context.Context, tx storage.Tx, c changefeed.Change) error {
	if err := tx.Announce(ctx, c); err != nil {
		return unavailable(err)
	}
	// Also when the commit failed: it may have happened all the same, and
	// dropping an entry is always safe.
	tx.OnCommit(func() { s.caches.Changed(c) })
	return nil
}
