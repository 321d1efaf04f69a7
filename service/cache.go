package service

import (
	"sync/atomic"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
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
// Published records never change, so their entries stay valid until
// evicted; what can change (a base's latest version, its draft, its
// deletion) is dropped by forget when this instance changes it.
//
// A read that raced with a change must not put stale data back: every
// change bumps a generation, and a read only fills the cache when the
// generation it started under is still current.
type runCache struct {
	bases      *lru.Cache[uuid.UUID, *ent.Base]
	records    *lru.Cache[uuid.UUID, *ent.Record]
	programs   *lru.Cache[programKey, *compiled]
	generation atomic.Uint64
	lookups    *prometheus.CounterVec // by cache and result (hit, miss)
}

// DefaultCacheSize is the number of compiled programs kept when Config
// leaves it unset; bases and records are kept in the same number.
const DefaultCacheSize = 10000

func newRunCache(size int, reg prometheus.Registerer) (*runCache, error) {
	if size <= 0 {
		size = DefaultCacheSize
	}
	c := &runCache{
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "verdict_cache_lookups_total",
			Help: "Run cache lookups by cache (base, record, program) and result (hit, miss).",
		}, []string{"cache", "result"}),
	}
	var err error
	if c.bases, err = lru.New[uuid.UUID, *ent.Base](size); err != nil {
		return nil, err
	}
	if c.records, err = lru.New[uuid.UUID, *ent.Record](size); err != nil {
		return nil, err
	}
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
