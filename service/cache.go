package service

import (
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
)

// compiled is a record's rule text ready to run: a program, or the parse
// errors it has (drafts may be saved unparseable), and its `rule` lines.
type compiled struct {
	program  *engine.Program
	parseErr engine.ParseErrors
	lines    []string
}

type programKey struct {
	record   uuid.UUID
	revision int
}

// runCache keeps what runs read: bases, records and compiled programs.
// Compiled programs are keyed by record id and revision, which never
// change together, so they stay valid until evicted. What can change (a
// base's latest version, its draft, its deletion; a draft's content) is
// dropped by forget when this instance changes it, and expires after
// ResolutionTTL so that changes made by other instances are seen within
// that time.
//
// A read that raced with a change must not put stale data back: every
// change bumps a generation, and a read only fills the cache when the
// generation it started under is still current.
type runCache struct {
	bases      *expirable.LRU[uuid.UUID, *ent.Base]
	records    *expirable.LRU[uuid.UUID, *ent.Record]
	programs   *lru.Cache[programKey, *compiled]
	generation atomic.Uint64
	// lookups also counts the service's flow definition and principal
	// caches, by cache and result (hit, miss).
	lookups *prometheus.CounterVec
}

// DefaultCacheSize is the number of compiled programs kept when Config
// leaves it unset; bases and records are kept in the same number.
const DefaultCacheSize = 10000

// ResolutionTTL bounds how long a run may use a base or record read from
// the database before reading it again.
const ResolutionTTL = 5 * time.Second

func newRunCache(size int, reg prometheus.Registerer) (*runCache, error) {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c := &runCache{
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_cache_lookups_total",
			Help: "Run cache lookups by cache (base, record, program, definition, principal) and result (hit, miss).",
		}, []string{"cache", "result"}),
	}
	c.bases = expirable.NewLRU[uuid.UUID, *ent.Base](size, nil, ResolutionTTL)
	c.records = expirable.NewLRU[uuid.UUID, *ent.Record](size, nil, ResolutionTTL)
	var err error
	if c.programs, err = lru.New[programKey, *compiled](size); err != nil {
		return nil, err
	}
	if reg != nil {
		if err := reg.Register(c.lookups); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *runCache) count(cache string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	c.lookups.WithLabelValues(cache, result).Inc()
}

// forget drops what a change to a base (and one of its records) made stale.
func (s *Service) forget(baseID, recordID uuid.UUID) {
	s.cache.generation.Add(1)
	s.cache.bases.Remove(baseID)
	if recordID != uuid.Nil {
		s.cache.records.Remove(recordID)
	}
}

func compile(eng *engine.Engine, rule string) *compiled {
	c := &compiled{lines: engine.Lines(rule)}
	prog, err := eng.Compile(rule)
	if err != nil {
		c.parseErr = err.(engine.ParseErrors)
		return c
	}
	c.program = prog
	return c
}
