package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/storage"
)

// Config is what a Service is built from.
type Config struct {
	// DB is the database the service stores in when Store is nil.
	DB *database.DB
	// Store is what the service reads and writes through; nil is DB's
	// (storage.New).
	Store storage.Store
	// Authorizer decides every action. Without one every decision fails
	// closed (authorization_unavailable): enough for the Operator, which
	// asks none.
	Authorizer authz.Authorizer
	// Engine compiles and evaluates rules; its clock is "today" for date
	// operators.
	Engine engine.Engine
	Logger *slog.Logger
	// Registerer receives the service's metrics; nil keeps them unregistered.
	Registerer prometheus.Registerer
	// Now is the clock for stored timestamps and key expiry; nil is time.Now.
	Now func() time.Time
	// AuditDurable makes every run wait until its `executed` event is
	// committed before it is answered: a crash then loses no answered
	// run's event, for the time of an insert added to each run.
	AuditDurable bool
	// AuditRetention is how long `executed` events are kept (lifecycle
	// events are kept forever); 0 keeps them forever too.
	AuditRetention time.Duration
	// CacheSize bounds each run cache (compiled programs, flow definitions,
	// bases, records);
	// 0 is DefaultCacheSize.
	CacheSize int
	// CacheBytes bounds what the run caches hold, as estimated: half for
	// compiled programs, a quarter for flow definitions, an eighth each
	// for records and bases; 0 is DefaultCacheBytes.
	CacheBytes int64
	// CacheExpiry is how long a cached base, record or authenticated key
	// may be used before it is read again: how long another instance's
	// change may go unseen while its notification cannot arrive. 0 is
	// DefaultCacheExpiry; less than MinCacheExpiry is MinCacheExpiry.
	CacheExpiry time.Duration
	// Changes, when set, delivers the changes every instance commits, so
	// that this one drops what they make stale at once. Without it only
	// this instance's own changes are seen before the expiry: enough for
	// SQLite, which one process uses.
	Changes ChangeFeed
	// DecisionRetention is how long decision records are kept before
	// ExpireDecisions deletes them; 0 is DefaultDecisionRetention.
	DecisionRetention time.Duration
	// DecisionExpiry, when set, is how often the service runs
	// ExpireDecisions itself, from its start until Close.
	DecisionExpiry time.Duration
	// MaxBatchItems bounds the items of one batch run; 0 is
	// DefaultMaxBatchItems.
	MaxBatchItems int
	// ListScan bounds what one page of the audit log or of decision
	// records examines when it is filtered by what no index holds (an
	// `executed` event's kind, or on SQLite its actor; a decision's
	// result); 0 is DefaultListScan.
	ListScan int
	// MaxAnswerBytes bounds what the runs of one request may answer; 0 is
	// DefaultMaxAnswerBytes.
	MaxAnswerBytes int
	// MaxAnswersInFlight bounds what the requests under way may answer
	// together; 0 is four times MaxAnswerBytes, and less than
	// MaxAnswerBytes is MaxAnswerBytes.
	MaxAnswersInFlight int
}

// DefaultDecisionRetention is how long decision records are kept when
// Config leaves it unset.
const DefaultDecisionRetention = 30 * 24 * time.Hour

// Service is the application. It is safe for concurrent use.
type Service struct {
	store   storage.Store
	authz   authz.Authorizer
	engine  engine.Engine
	log     *slog.Logger
	now     func() time.Time
	metrics *metrics
	keyUse  *keyUseRecorder
	cache   *runCache
	// principals are the authenticated keys.
	principals *principalCache
	// loads lets the requests that miss the same cache entry at once share
	// one read of it (see shared).
	loads singleflight.Group
	// caches holds cache and principals, to drop what changes make stale.
	caches      *cacheSet
	cacheExpiry time.Duration
	// execLog writes the `executed` events, and upkeep expires them.
	execLog *executionLog
	// eventIDs makes the ids of all audit events from their times.
	eventIDs storage.EventIDs
	upkeep   *auditUpkeep
	// periodic is the work the service does on its own, the upkeep and
	// the expiry of decision records, until stopPeriodic.
	periodic     sync.WaitGroup
	stopPeriodic context.CancelFunc

	results sync.Pool // *engine.Result, see RunResult.Release
	// decoders read single runs' data: *engine.DataDecoder, back on
	// RunResult.Release. What a decoder keeps from one run to the next
	// (emptied maps, the keys of the objects it read, chunks of values) is
	// bounded by the engine, whatever the data it read.
	decoders sync.Pool

	decisionRetention time.Duration
	// maxBatchItems bounds the items of one batch run.
	maxBatchItems int
	// listScan bounds the rows a page filtered by what no index holds walks.
	listScan int
	// maxAnswer bounds what the runs of one request may answer.
	maxAnswer int
	// inFlight holds what the requests under way may answer together
	// (see spendAnswer), maxInFlight of it.
	inFlight    *semaphore.Weighted
	maxInFlight int
	// tenantsInFlight holds each organization's part of inFlight, at most
	// its share, so that the answers one organization's clients are slow
	// to read cannot take all of it from the others.
	tenantsInFlight *tenantShares

	policyKind *kindRules
	flowKind   *kindRules
}

// New builds a Service.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil && cfg.DB == nil {
		return nil, errors.New("service: a store or a database is required")
	}
	if cfg.Authorizer == nil {
		cfg.Authorizer = noAuthorizer{}
	}
	s := &Service{
		store:       cfg.Store,
		authz:       cfg.Authorizer,
		engine:      cfg.Engine,
		log:         cfg.Logger,
		now:         cfg.Now,
		cacheExpiry: cfg.CacheExpiry,

		decisionRetention: cfg.DecisionRetention,
	}
	if s.store == nil {
		s.store = storage.New(cfg.DB)
	}
	if s.cacheExpiry <= 0 {
		s.cacheExpiry = DefaultCacheExpiry
	}
	s.cacheExpiry = max(s.cacheExpiry, MinCacheExpiry)
	if s.decisionRetention <= 0 {
		s.decisionRetention = DefaultDecisionRetention
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	s.keyUse = newKeyUseRecorder()
	if s.cache, err = newRunCache(cfg.CacheSize, cfg.CacheBytes, s.cacheExpiry, cfg.Registerer); err != nil {
		return nil, err
	}
	if s.principals, err = newPrincipalCache(DefaultCacheSize); err != nil {
		return nil, err
	}
	if s.caches, err = newCacheSet(cfg.Registerer, s.cache, s.principals); err != nil {
		return nil, err
	}
	if cfg.Changes != nil {
		cfg.Changes.Subscribe(s.caches)
	}
	s.maxBatchItems = cfg.MaxBatchItems
	if s.maxBatchItems <= 0 {
		s.maxBatchItems = DefaultMaxBatchItems
	}
	s.listScan = cfg.ListScan
	if s.listScan <= 0 {
		s.listScan = DefaultListScan
	}
	s.maxAnswer = cfg.MaxAnswerBytes
	if s.maxAnswer <= 0 {
		s.maxAnswer = DefaultMaxAnswerBytes
	}
	s.maxInFlight = cfg.MaxAnswersInFlight
	if s.maxInFlight <= 0 {
		s.maxInFlight = answersInFlightPerRequest * s.maxAnswer
	}
	s.maxInFlight = max(s.maxInFlight, s.maxAnswer)
	s.inFlight = semaphore.NewWeighted(int64(s.maxInFlight))
	s.tenantsInFlight = newTenantShares(int64(max(s.maxInFlight/2, s.maxAnswer)))
	// No run may show more than a request may answer: one that would stops
	// there, rather than read a large value in every one of its conditions
	// and be refused when it is done.
	s.engine.Limits.MaxShownAnswerBytes = s.maxAnswer
	s.engine.Limits.MaxReadBytes = s.maxAnswer
	s.policyKind = s.newPolicyRules()
	s.flowKind = s.newFlowRules()
	if s.execLog, err = newExecutionLog(s.store, s.log, cfg.Registerer, execLogConfigFor(cfg.AuditDurable)); err != nil {
		return nil, err
	}
	retention, err := newRetentionMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	// The upkeep works on the days of the wall clock, whatever clock
	// stamps the events: partitions are made for the days inserts will
	// meet, and an insert into any other day makes its own.
	s.upkeep = &auditUpkeep{store: s.store, retention: cfg.AuditRetention, now: time.Now, log: s.log, metrics: retention}
	s.results.New = func() any { return new(engine.Result) }
	s.decoders.New = func() any { return engine.NewDataDecoder(s.engine.Limits) }
	periodic, stop := context.WithCancel(context.Background())
	s.stopPeriodic = stop
	s.periodic.Go(func() { s.upkeep.runEvery(periodic) })
	if cfg.DecisionExpiry > 0 {
		s.periodic.Go(func() { s.expireDecisionsEvery(periodic, cfg.DecisionExpiry) })
	}
	return s, nil
}

// Close stops the periodic work and stores the audit events still queued;
// while the database is away it keeps trying for a while (the execution
// log's drain), then logs them as lost. Its end is bounded even when the
// database stopped answering and no deadline ends its reads (lib/pq does
// not return from a read when its context ends): what still waits for the
// database then is left behind. Call it once no request is running any
// more; the service must not be used afterwards.
func (s *Service) Close() {
	giveUp := time.NewTimer(s.execLog.cfg.drain)
	defer giveUp.Stop()
	s.stopPeriodic()
	s.keyUse.close()
	stopped := make(chan struct{})
	go func() {
		s.periodic.Wait()
		close(stopped)
	}()
	s.execLog.close()
	// Stopped work is not reported as left behind for the timer having
	// run out meanwhile.
	select {
	case <-stopped:
		return
	default:
	}
	select {
	case <-stopped:
	case <-giveUp.C:
		s.log.Warn("the audit upkeep, the expiry of decision records or the record of a key's use still waits for the database; left behind")
	}
}

// Ready reports whether the database answers and its migrations are
// applied, for /readyz. It returns when ctx ends, whatever the database
// does: lib/pq does not return from a read when its context ends, so with
// no deadline on reads (--database-timeout 0) a server that stopped
// answering would hold the check for as long as it stays silent. The
// check is then left to end on its own.
func (s *Service) Ready(ctx context.Context) error {
	checked := make(chan error, 1)
	go func() { checked <- s.store.Ready(ctx) }()
	var err error
	select {
	case err = <-checked:
	case <-ctx.Done():
		err = ctx.Err()
	}
	switch {
	case errors.Is(err, storage.ErrMigrationsPending):
		return newError(CodeUnavailable, "database migrations are pending")
	case err != nil:
		return unavailable(err)
	}
	return nil
}

// timestamp is the service's notion of now as stored: UTC, microseconds,
// so it reads back equal from either database.
func (s *Service) timestamp() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// noAuthorizer answers every decision with ErrUnavailable.
type noAuthorizer struct{}

func (noAuthorizer) Decide(context.Context, authz.Principal, authz.Action, authz.Resource) (authz.Decision, error) {
	return authz.Decision{}, fmt.Errorf("%w: no authorizer is configured", authz.ErrUnavailable)
}
