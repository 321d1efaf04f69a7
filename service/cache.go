package service

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/weighed"
)

type programKey struct {
	record   uuid.UUID
	revision int
}

func revisionOf(r *ent.Record) programKey {
	return programKey{record: r.ID, revision: r.Revision}
}

// cachedBase is a base with the resource the authorizer is asked about,
// built once rather than on every run.
type cachedBase struct {
	base     *ent.Base
	resource authz.Resource
	// recording is how the base records its runs; nil when it does not.
	recording *recording
}

// runCache keeps what runs read: bases, records, compiled programs and
// parsed flow definitions. Programs and flows are keyed by record id and
// revision, which never change together, so they stay valid until
// evicted. What can change (a base's latest version, its draft, its
// deletion; a draft's content) is dropped when a change is announced (see
// cacheSet), and expires after the cache expiry: the bound on staleness
// while change notifications are not arriving.
//
// A read that raced with a change must not put stale data back: reads
// fill and changes drop through one changeGate.
//
// Besides its count, each cache of what can be large is bounded in bytes
// (internal/weighed): a rule text is up to 256 KiB and compiles to about
// ten times that, so ten thousand programs could otherwise hold gigabytes.
type runCache struct {
	bases    *weighed.Cache[uuid.UUID, *cachedBase]
	records  *weighed.Cache[uuid.UUID, *ent.Record]
	programs *weighed.Cache[programKey, *flow.ResolvedPolicy]
	flows    *weighed.Cache[programKey, *parsedFlow]
	changes  changeGate
	// lookups counts these caches and the service's principal cache, by
	// cache and result, with the counters resolved once.
	lookups map[string]lookupCounters
}

type lookupCounters struct {
	hit, miss prometheus.Counter
}

// DefaultCacheSize is the number of compiled programs kept when Config
// leaves it unset; bases, records and flow definitions are kept in the
// same number.
const DefaultCacheSize = 10000

// DefaultCacheBytes is what the run caches may hold, as estimated, when
// Config leaves it unset: half of it for compiled programs, a quarter for
// flow definitions, an eighth each for records and for bases.
const DefaultCacheBytes = 512 << 20

// Estimates of what a cached entry holds in memory, from measuring
// parsed definitions: a flow definition holds its text, and decoded and
// planned about three bytes for each byte of it and some 250 for each
// node, whose text may be a few dozen bytes. A program's is its own
// (flow.ResolvedPolicy.MemoryWeight).
const (
	definitionBytesPerByte   = 4
	definitionBytesPerNode   = 256
	cachedEntryOverheadBytes = 1 << 10
)

func newRunCache(size int, bytes int64, expiry time.Duration, reg prometheus.Registerer) (*runCache, error) {
	if size <= 0 {
		size = DefaultCacheSize
	}
	if bytes <= 0 {
		bytes = DefaultCacheBytes
	}
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "verdict_cache_lookups_total",
		Help: "Run cache lookups by cache (base, record, program, definition, principal) and result (hit, miss).",
	}, []string{"cache", "result"})
	c := &runCache{lookups: map[string]lookupCounters{}}
	for _, name := range []string{"base", "record", "program", "definition", "principal"} {
		c.lookups[name] = lookupCounters{hit: vec.WithLabelValues(name, "hit"), miss: vec.WithLabelValues(name, "miss")}
	}
	c.bases = weighed.NewExpirable(size, bytes/8, expiry, func(_ uuid.UUID, b *cachedBase) int64 { return int64(b.memoryWeight()) })
	c.records = weighed.NewExpirable(size, bytes/8, expiry, func(_ uuid.UUID, r *ent.Record) int64 { return int64(contentBytes(r)) })
	var err error
	if c.programs, err = weighed.NewLRU(size, bytes/2, func(_ programKey, p *flow.ResolvedPolicy) int64 {
		return int64(p.MemoryWeight() + cachedEntryOverheadBytes)
	}); err != nil {
		return nil, err
	}
	if c.flows, err = weighed.NewLRU(size, bytes/4, func(_ programKey, f *parsedFlow) int64 {
		return int64(f.memoryWeight())
	}); err != nil {
		return nil, err
	}
	if reg != nil {
		if err := reg.Register(vec); err != nil {
			return nil, err
		}
		for name, held := range map[string]func() int64{"program": c.programs.Bytes, "definition": c.flows.Bytes, "record": c.records.Bytes, "base": c.bases.Bytes} {
			if err := reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name:        "verdict_cache_bytes",
				Help:        "What each run cache holds, in bytes as estimated, against its share of the cache's bound (--cache-memory).",
				ConstLabels: prometheus.Labels{"cache": name},
			}, func() float64 { return float64(held()) })); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func (c *runCache) count(cache string, hit bool) {
	if hit {
		c.lookups[cache].hit.Inc()
	} else {
		c.lookups[cache].miss.Inc()
	}
}

// drop removes a changed base and the record that changed with it.
func (c *runCache) drop(ch changefeed.Change) {
	if ch.Kind != changefeed.KindBase {
		return
	}
	c.changes.drop(func() {
		c.bases.Remove(ch.ID)
		if ch.Record != uuid.Nil {
			c.records.Remove(ch.Record)
		}
	})
}

// clear removes every base and record; programs and definitions, keyed by
// what never changes, stay.
func (c *runCache) clear() {
	c.changes.drop(func() {
		c.bases.Purge()
		c.records.Purge()
	})
}

// cached reads what can change through one of the expiring caches; see
// runCache for why a read that raced with a change does not fill it.
func cached[V any](ctx context.Context, s *Service, t *timings, c interface {
	Get(uuid.UUID) (V, bool)
	Add(uuid.UUID, V) bool
}, name string,
	id uuid.UUID, load func(context.Context, uuid.UUID) (V, error)) (V, error) {
	if v, ok := c.Get(id); ok {
		s.cache.count(name, true)
		return v, nil
	}
	s.cache.count(name, false)
	gen := s.cache.changes.current()
	began := time.Now()
	v, err := shared(ctx, &s.loads, flightKey(name, id.String(), gen), func(ctx context.Context) (V, error) {
		// A load that starts as another ends finds what that one stored.
		if v, ok := c.Get(id); ok {
			return v, nil
		}
		v, err := load(ctx, id)
		if err != nil {
			return v, err
		}
		s.cache.changes.fill(gen, func() { c.Add(id, v) })
		return v, nil
	})
	t.database += time.Since(began)
	return v, err
}

// shared runs load once for all the callers that ask for key while it
// runs. Cache entries expire together, and without it every request that
// arrived then read the database at once: under load more at a time than
// the pool holds connections, so that requests queued for connections the
// pool opened and closed again (tails of 0.1–0.5 s). A caller that goes
// away stops waiting; load itself runs on without the caller's
// cancellation, since others may wait for it. It runs in a goroutine of
// its own, where a panic would end the process rather than one request:
// it becomes the callers' error instead.
func shared[V any](ctx context.Context, g *singleflight.Group, key string, load func(context.Context) (V, error)) (V, error) {
	done := g.DoChan(key, func() (v any, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("loading %s panicked: %v\n%s", key, p, debug.Stack())
			}
		}()
		return load(context.WithoutCancel(ctx))
	})
	select {
	case r := <-done:
		v, _ := r.Val.(V)
		return v, r.Err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// flightKey names a load of one cache entry under one generation of
// changes: a caller that starts after a change must not take what a load
// begun before it read.
func flightKey(cache, id string, generation uint64) string {
	return cache + "/" + id + "/" + strconv.FormatUint(generation, 10)
}

// runFinder reads through the run cache, adding the time of its reads to
// t's database time.
type runFinder struct {
	s *Service
	t *timings
}

func (f runFinder) base(ctx context.Context, id uuid.UUID) (*cachedBase, error) {
	return cached(ctx, f.s, f.t, f.s.cache.bases, "base", id, f.s.loadBase)
}

func (f runFinder) record(ctx context.Context, id uuid.UUID) (*ent.Record, error) {
	return cached(ctx, f.s, f.t, f.s.cache.records, "record", id, f.s.store.Record)
}

func (f runFinder) knowsBase(id uuid.UUID) bool {
	_, ok := f.s.cache.bases.Peek(id)
	return ok
}

func (s *Service) loadBase(ctx context.Context, id uuid.UUID) (*cachedBase, error) {
	b, err := s.store.Base(ctx, id)
	if err != nil {
		return nil, err
	}
	return newCachedBase(b), nil
}

func newCachedBase(b *ent.Base) *cachedBase {
	return &cachedBase{base: b, resource: resourceOf(b), recording: recordingOf(b)}
}

// maskPathBytes is what memoryWeight counts for each path of a base's
// mask beside its text three times (stored, cut into steps, and those
// steps in their canonical form, copied when it differs): the headers of
// the path and of its steps, of which it may have 32.
const maskPathBytes = 640

// memoryWeight estimates the bytes the entry holds: a base's name and
// description may be ten kilobytes, and its mask as many again, stored
// and parsed.
func (c *cachedBase) memoryWeight() int {
	n := rowAnswerBytes + cachedEntryOverheadBytes + len(c.base.Name) + len(c.base.Description)
	for _, p := range c.base.DecisionsMask {
		n += maskPathBytes + 3*len(p)
	}
	return n
}

// program compiles a record's rule text once per revision.
func (s *Service) program(r *ent.Record) *flow.ResolvedPolicy {
	key := revisionOf(r)
	if c, ok := s.cache.programs.Get(key); ok {
		s.cache.count("program", true)
		return c
	}
	s.cache.count("program", false)
	c := flow.CompilePolicy(&s.engine, r.Rule)
	s.cache.programs.Add(key, c)
	return c
}

// parsedFlow is a stored definition decoded once per revision: what reads
// show and what runs execute.
type parsedFlow struct {
	// definition is nil when the stored text does not decode; parseErr
	// says why.
	definition *flow.Definition
	parseErr   error
	// normalized is the definition in the form it was stored in.
	// PostgreSQL keeps JSON as jsonb, which reorders and respaces members,
	// so the stored text alone would read differently by database.
	normalized json.RawMessage

	// The plan is prepared at the first run, or handed over by the publish
	// gate that validated the definition already.
	prepared sync.Once
	plan     *flow.Plan
	planErr  error
}

// newParsedFlow is the entry of a definition decoded from stored, or given
// already decoded with its normalized form.
func newParsedFlow(d *flow.Definition, normalized json.RawMessage) *parsedFlow {
	return &parsedFlow{definition: d, normalized: normalized}
}

func parseStored(stored json.RawMessage) *parsedFlow {
	d, err := parseDefinition(stored)
	if err != nil {
		return &parsedFlow{parseErr: err, normalized: stored}
	}
	normalized, err := json.Marshal(d)
	if err != nil {
		return &parsedFlow{parseErr: internal(err), normalized: stored}
	}
	return newParsedFlow(d, normalized)
}

// memoryWeight estimates the bytes the entry holds, its plan included.
func (f *parsedFlow) memoryWeight() int {
	n := definitionBytesPerByte*len(f.normalized) + cachedEntryOverheadBytes
	if f.definition != nil {
		n += definitionBytesPerNode * len(f.definition.Nodes)
	}
	return n
}

// runPlan is the definition ready to run, or why it cannot run.
func (f *parsedFlow) runPlan() (*flow.Plan, error) {
	f.prepared.Do(func() {
		if f.definition == nil {
			f.planErr = f.parseErr
			return
		}
		if f.plan, f.planErr = flow.Prepare(f.definition); f.planErr != nil {
			f.planErr = definitionError(f.planErr)
		}
	})
	return f.plan, f.planErr
}

// usePlan hands over a plan prepared from the same definition.
func (f *parsedFlow) usePlan(p *flow.Plan) {
	f.prepared.Do(func() { f.plan = p })
}

// flow decodes a record's definition once per revision.
func (s *Service) flow(r *ent.Record) *parsedFlow {
	key := revisionOf(r)
	if f, ok := s.cache.flows.Get(key); ok {
		s.cache.count("definition", true)
		return f
	}
	s.cache.count("definition", false)
	f := parseStored(r.Definition)
	s.cache.flows.Add(key, f)
	return f
}

// rememberFlow caches what a change stored as a record's definition, which
// the change decoded already.
func (s *Service) rememberFlow(r *ent.Record, f *parsedFlow) {
	if f != nil {
		s.cache.flows.Add(revisionOf(r), f)
	}
}
