package authz

import "sync"

// decisionCacheSize bounds the cache: a key is a dozen short strings, so a
// full cache stays around two megabytes.
const decisionCacheSize = 4096

// decisionCache remembers the embedded policy's decisions. The policy is a
// function of its input alone and is fixed when the Embedded is built, so a
// stored decision never goes stale. Errors are never stored.
type decisionCache struct {
	mu      sync.RWMutex
	max     int
	entries map[decisionKey]Decision
}

// decisionKey is the whole input, so two requests share an entry only when
// the policy sees exactly the same thing.
type decisionKey struct {
	p Principal
	a Action
	r Resource
}

func newDecisionCache(max int) *decisionCache {
	return &decisionCache{max: max, entries: make(map[decisionKey]Decision)}
}

// get and put accept a nil cache so that an uncached Embedded needs no
// separate path.
func (c *decisionCache) get(k decisionKey) (Decision, bool) {
	if c == nil {
		return Decision{}, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.entries[k]
	return d, ok
}

// put empties a full cache instead of tracking recency: a miss costs one
// query, and the working set refills within a few requests.
func (c *decisionCache) put(k decisionKey, d Decision) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		clear(c.entries)
	}
	c.entries[k] = d
}
