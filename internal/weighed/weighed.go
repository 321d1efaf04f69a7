// Package weighed is an LRU cache bounded in bytes, as estimated for each
// entry, as well as in entries: a count alone bounds nothing when one
// entry may hold a few bytes or a few megabytes.
package weighed

import (
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"
)

// LRU is what golang-lru's caches, expiring or not, offer: the cache a
// Cache bounds.
type LRU[K comparable, V any] interface {
	Get(K) (V, bool)
	Peek(K) (V, bool)
	Add(K, V) bool
	Remove(K) bool
	RemoveOldest() (K, V, bool)
	Purge()
	Len() int
}

// Cache is an LRU that also keeps within a number of bytes, as weigh
// estimates each entry: adding past the bound evicts the least recently
// used entries until what is left fits, the new one last. Every removal
// (eviction, expiry, Remove, Purge) takes its weight off through the
// LRU's eviction callback. Reads go to the LRU as they are.
type Cache[K comparable, V any] struct {
	LRU[K, V]
	weigh func(K, V) int64
	limit int64
	// adding serializes adds, so that a key added twice at once is
	// counted once.
	adding sync.Mutex
	total  atomic.Int64
}

// newCache bounds the LRU that make makes, handing it the callback that
// uncounts what it removes.
func newCache[K comparable, V any](limit int64, weigh func(K, V) int64, make func(evicted func(K, V)) LRU[K, V]) *Cache[K, V] {
	c := &Cache[K, V]{weigh: weigh, limit: limit}
	c.LRU = make(func(k K, v V) { c.total.Add(-c.weigh(k, v)) })
	return c
}

// Add keeps v under k, replacing what k held, and evicts until the cache
// fits its bound again; it reports nothing of what it evicted.
func (c *Cache[K, V]) Add(k K, v V) bool {
	c.adding.Lock()
	defer c.adding.Unlock()
	// Removed first, the value replaced is uncounted by the callback,
	// once, even if another removes it meanwhile.
	c.LRU.Remove(k)
	c.LRU.Add(k, v)
	c.total.Add(c.weigh(k, v))
	for c.total.Load() > c.limit {
		if _, _, ok := c.LRU.RemoveOldest(); !ok {
			break
		}
	}
	return false
}

// Bytes is what the cache holds, as weighed.
func (c *Cache[K, V]) Bytes() int64 { return c.total.Load() }

// NewLRU is a Cache over golang-lru's LRU of at most size entries, which
// expire only when pushed out.
func NewLRU[K comparable, V any](size int, limit int64, weigh func(K, V) int64) (*Cache[K, V], error) {
	var err error
	c := newCache(limit, weigh, func(evicted func(K, V)) LRU[K, V] {
		var l *lru.Cache[K, V]
		l, err = lru.NewWithEvict(size, evicted)
		return l
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// MinExpiry is the shortest expiry of an expiring Cache. Its LRU drops
// expired entries every hundredth of the expiry: below 100ns that is no
// interval at all, which panics, and well above it the LRU still spends
// its time looking for entries to drop.
const MinExpiry = time.Millisecond

// NewExpirable is a Cache over golang-lru's expiring LRU of at most size
// entries, each of which also expires expiry after it was added. An
// expiry below MinExpiry is MinExpiry; 0 or less is none.
func NewExpirable[K comparable, V any](size int, limit int64, expiry time.Duration, weigh func(K, V) int64) *Cache[K, V] {
	if expiry > 0 {
		expiry = max(expiry, MinExpiry)
	}
	return newCache(limit, weigh, func(evicted func(K, V)) LRU[K, V] {
		return expirable.NewLRU(size, evicted, expiry)
	})
}
