package service

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/storage"
)

// executionLog stores `executed` events, and the decision records that go
// with some of them, off the request path, and loses none it accepted while
// the process lives. Runs put their events in a bounded queue; one writer
// takes what is queued (up to a batch) and inserts it at once, so batches
// grow with the load and an event waits about one insert. It fills its
// next batch while it inserts one, taking events about as fast as its
// inserts store them, so that a full queue makes room event by event
// rather than a batch of slots after each insert. A batch that fails
// is retried until the database takes it: inserts ignore an id already
// stored, so a retry of a batch that was in fact committed stores nothing
// twice. While the database is away the queue fills; then runs wait for
// room, and one that waits too long is refused (503 unavailable) rather
// than answered without its event.
//
// What a crash (kill -9) loses is what is queued, in a batch being filled
// or being inserted: at full load about one insert's worth of runs, and at
// most the queue and the writer's two batches.
type executionLog struct {
	log     *slog.Logger
	metrics *auditMetrics
	insert  func(ctx context.Context, batch []queued, events []storage.Execution) error
	cfg     execLogConfig
	events  chan queued
	// stop is cancelled when close gives up on the database; the writer
	// then reports what it still holds as lost.
	stop       context.Context
	cancelStop context.CancelFunc
	// written is closed when the writer has stored, or lost, all it took.
	written chan struct{}
	// held counts the events the writer has taken from the queue and not
	// yet stored or given up on: in the batch it fills and in the one it
	// inserts, for as long as that insert is retried.
	held      atomic.Int64
	closeOnce sync.Once
	// closing guards events against close: runs that outlived a server's
	// shutdown may still add while it stores the queue, and are refused
	// once it is closed.
	closing sync.RWMutex
	closed  bool
}

type execLogConfig struct {
	// queue is how many events may wait for the writer, besides the batch
	// it inserts and the next one it fills meanwhile.
	queue int
	// batch is the most events the writer inserts at once.
	batch int
	// linger is how long the writer, having taken fewer events than a batch,
	// waits for more before it inserts them: under light load runs then
	// share an insert, and its statement and commit, instead of paying one
	// each. Heavy load fills batches without waiting.
	linger time.Duration
	// wait is how long a run waits for room in a full queue before it is
	// refused.
	wait time.Duration
	// attempt bounds one insert; retries back off from retryMin to retryMax.
	attempt, retryMin, retryMax time.Duration
	// drain is how long close keeps retrying for events still queued.
	drain time.Duration
	// durable makes a run wait until its event is committed, up to
	// commitWait, so that a crash loses no answered run's event.
	durable    bool
	commitWait time.Duration
}

// defaultExecLogConfig holds at most 8,192 + 2×512 = 9,216 events in
// memory: the queue and the writer's two batches.
var defaultExecLogConfig = execLogConfig{
	queue:    8192,
	batch:    512,
	wait:     time.Second,
	attempt:  10 * time.Second,
	retryMin: 20 * time.Millisecond,
	retryMax: time.Second,
	drain:    30 * time.Second,
	// Within the time a request that needs the database gets its 503.
	commitWait: 3 * time.Second,
}

// execLogConfigFor adapts the defaults to whether runs wait for their
// events' commits. One writer serves both databases, its next batch ready
// when an insert ends, so that the database is never left waiting. More
// would only make batches smaller: on SQLite a second writer waited for
// the first's commit on SQLite's lock (inserts of 3–12 ms instead of
// 1.3 ms, and 7,000–13,900 runs/s answered instead of 13,300–15,200); on
// PostgreSQL eight writers split the events into inserts of about 25,
// each paying its statement and commit, and their backends took the CPU
// the runs needed (10,900–11,800 runs/s answered, against 16,400–18,000
// with one writer inserting about 300 at a time). Each commit costs
// enough (the WAL to write and sync) that runs are better off sharing one:
// the writer lingers for 5 ms. On SQLite under full load that makes
// batches of about 200 events instead of about 48, and a stored run about
// a tenth cheaper (40–43 µs of CPU instead of 46–50, and 31,000–34,400
// runs/s answered instead of 27,900–29,900); 10 ms saved no more. On
// PostgreSQL, whose inserts take longer, batches were some 400 events
// either way. A durable run waits for its own event's commit and so never
// lingers.
func execLogConfigFor(durable bool) execLogConfig {
	cfg := defaultExecLogConfig
	cfg.durable = durable
	if !durable {
		cfg.linger = 5 * time.Millisecond
	}
	return cfg
}

// errAuditUnavailable refuses a run whose event the audit log cannot take.
var errAuditUnavailable = &Error{Code: CodeUnavailable,
	Message: "the audit log cannot keep up or the database is unavailable; retry later"}

// queued is an event waiting for a writer.
type queued struct {
	storage.Execution
	recorded
	// stored, when set, receives whether the event was stored: a durable
	// run waits for it.
	stored chan bool
}

func newExecutionLog(store storage.Store, log *slog.Logger, reg prometheus.Registerer, cfg execLogConfig) (*executionLog, error) {
	l := &executionLog{
		log: log, cfg: cfg,
		insert: func(ctx context.Context, batch []queued, events []storage.Execution) error {
			// The decision records go first: an `executed` event that
			// names one is then never stored without it.
			if err := underCurrentSettings(ctx, store, batch); err != nil {
				return err
			}
			if err := insertDecisions(ctx, store, batch); err != nil {
				return err
			}
			return store.InsertExecutions(ctx, events)
		},
		events: make(chan queued, cfg.queue),
	}
	var err error
	if l.metrics, err = newAuditMetrics(reg, func() float64 { return float64(len(l.events)) + float64(l.held.Load()) }); err != nil {
		return nil, err
	}
	l.stop, l.cancelStop = context.WithCancel(context.Background())
	l.written = make(chan struct{})
	go func() {
		defer close(l.written)
		l.write()
	}()
	return l, nil
}

// recorded is what a run hands the writer with its event.
type recorded struct {
	// decision is the run's decision record, stored with the event when
	// the base records its runs; nil otherwise.
	decision *decisionRow
	// mask is what the event's error texts and the decision record were
	// masked with, as set; nil when the base recorded no runs, since a
	// mask applies only while it does.
	mask []string
}

// add queues event, with its decision record if any, waiting for room while the queue is full, and fails when
// there is none within the wait or before ctx ends. An event it accepted
// is stored, unless the process dies first. When the log is durable, add
// also waits until the event is committed, and fails when that takes
// longer than the commit wait (the event is still stored later).
func (l *executionLog) add(ctx context.Context, event storage.Execution, rec recorded) error {
	ev := queued{Execution: event, recorded: rec}
	if l.cfg.durable {
		ev.stored = make(chan bool, 1)
	}
	if !l.enqueue(ctx, ev) {
		l.metrics.refused.Inc()
		return errAuditUnavailable
	}
	if !l.cfg.durable {
		return nil
	}
	wait := time.NewTimer(l.cfg.commitWait)
	defer wait.Stop()
	select {
	case ok := <-ev.stored:
		if ok {
			return nil
		}
	case <-wait.C:
	case <-ctx.Done():
	}
	l.metrics.refused.Inc()
	return errAuditUnavailable
}

func (l *executionLog) enqueue(ctx context.Context, ev queued) bool {
	l.closing.RLock()
	defer l.closing.RUnlock()
	if l.closed {
		return false
	}
	select {
	case l.events <- ev:
		return true
	default:
	}
	wait := time.NewTimer(l.cfg.wait)
	defer wait.Stop()
	select {
	case l.events <- ev:
		return true
	case <-wait.C:
	case <-ctx.Done():
	}
	return false
}

// settle tells the runs waiting for the batch's events whether they are
// stored.
func settle(batch []queued, stored bool) {
	for i := range batch {
		if batch[i].stored != nil {
			batch[i].stored <- stored
		}
	}
}

// write runs the writer: it fills a batch from the queue while the batch
// before it is being inserted, and hands it over once that insert is done.
// It returns when the queue is closed and everything taken from it is
// stored.
func (l *executionLog) write() {
	next := make(chan []queued, 1)
	done := make(chan []queued, 1)
	go func() {
		defer close(done)
		events := make([]storage.Execution, 0, l.cfg.batch)
		for batch := range next {
			events = events[:0]
			for i := range batch {
				events = append(events, batch[i].Execution)
			}
			if !l.store(batch, events) {
				// An insert left behind still reads them.
				batch, events = nil, make([]storage.Execution, 0, l.cfg.batch)
			}
			done <- batch
		}
	}()
	l.fill(next, done)
	close(next)
	// The inserter gives back its last batch, then ends.
	for range done {
	}
}

// fill takes events from the queue into batches and hands each to next
// once done has given back the one before (two batches circulate: one
// filling, one being inserted). A batch is handed over as soon as the
// inserter is free or, when the writer lingers, once the linger is over or
// the batch is full; what is queued by then goes in with it.
//
// While an insert runs, the next batch takes events no faster than the
// insert before it stored them (twice as fast while batches are not full
// yet, so that they grow with the load): when the queue is full, it then
// makes room a few events at a time, as the database keeps up, instead of
// a batch of slots at once after each insert, which full-queue runs would
// all have waited for.
func (l *executionLog) fill(next chan<- []queued, done <-chan []queued) {
	batch, spare := make([]queued, 0, l.cfg.batch), make([]queued, 0, l.cfg.batch)
	var linger *time.Timer
	if l.cfg.linger > 0 {
		linger = time.NewTimer(l.cfg.linger)
		linger.Stop()
	}
	pacer := time.NewTimer(time.Hour)
	pacer.Stop()
	var (
		lingering <-chan time.Time
		open      = true
		busy      bool      // an insert runs
		began     time.Time // when it began
		// pace is how long the insert before it took per event, halved
		// while batches are not full; zero for no pacing.
		pace time.Duration
	)
	// room is how many events the batch may hold now, and when it may
	// hold more. It grows a step at a time, a thirty-second of a batch,
	// which spares the writer a wake-up for every event.
	step := max(1, l.cfg.batch/32)
	room := func() (int, time.Time) {
		if !busy || pace == 0 {
			return l.cfg.batch, time.Time{}
		}
		unit := time.Duration(step) * pace
		steps := 1 + int(time.Since(began)/unit)
		return min(l.cfg.batch, steps*step), began.Add(time.Duration(steps) * unit)
	}
	for {
		if !busy && len(batch) > 0 && (lingering == nil || !open || len(batch) == l.cfg.batch) {
			// The inserter is free: what is queued goes with the batch.
			for open && len(batch) < l.cfg.batch {
				select {
				case ev, ok := <-l.events:
					if !ok {
						open = false
						continue
					}
					batch = append(batch, ev)
					l.held.Add(1)
					continue
				default:
				}
				break
			}
			next <- batch
			busy, began = true, time.Now()
			batch, spare = spare[:0], nil
			if linger != nil {
				linger.Stop()
				lingering = nil
			}
			continue
		}
		if !open && len(batch) == 0 {
			return
		}
		var in <-chan queued
		var paced <-chan time.Time
		if open && len(batch) < l.cfg.batch {
			if n, more := room(); len(batch) < n {
				in = l.events
			} else {
				pacer.Reset(time.Until(more))
				paced = pacer.C
			}
		}
		var inserted <-chan []queued
		if busy {
			inserted = done
		}
		select {
		case ev, ok := <-in:
			if !ok {
				open = false
				continue
			}
			if len(batch) == 0 && linger != nil {
				linger.Reset(l.cfg.linger)
				lingering = linger.C
			}
			batch = append(batch, ev)
			l.held.Add(1)
		case spare = <-inserted:
			busy = false
			pace = 0
			if n := len(spare); n > 0 {
				pace = time.Since(began) / time.Duration(n)
				if n < l.cfg.batch {
					pace /= 2
				}
			}
		case <-paced:
		case <-lingering:
			lingering = nil
		}
		if paced != nil {
			pacer.Stop()
		}
	}
}

// store inserts the batch's events, retrying until they are stored or
// close gives up. It reports whether batch and events are the caller's
// again: not when an insert that close gave up on has not returned.
func (l *executionLog) store(batch []queued, events []storage.Execution) bool {
	defer l.held.Add(-int64(len(batch)))
	l.metrics.batchSize.Observe(float64(len(batch)))
	backoff := l.cfg.retryMin
	for {
		began := time.Now()
		err := l.attempt(batch, events)
		switch {
		case errors.Is(err, errInsertLeftBehind):
			l.lose(batch, err)
			return false
		case errors.Is(err, errNotInserted):
			l.lose(batch, err)
			return true
		}
		if err == nil {
			l.metrics.insertTime.Observe(time.Since(began).Seconds())
			l.metrics.stored.Add(float64(len(batch)))
			l.metrics.decisions.Add(float64(decisionsIn(batch)))
			settle(batch, true)
			return true
		}
		l.metrics.failures.Inc()
		if l.stop.Err() == nil {
			l.log.Warn("storing audit events failed; retrying", "events", len(batch), "error", err, "retryIn", backoff.String())
		}
		select {
		case <-time.After(backoff):
			backoff = min(2*backoff, l.cfg.retryMax)
		case <-l.stop.Done():
			l.lose(batch, err)
			return true
		}
	}
}

// errInsertLeftBehind is the loss of events whose insert had not returned
// when close gave up on the database.
var errInsertLeftBehind = errors.New("the database did not answer their insert before the shutdown gave up on it")

// errNotInserted is the loss of events whose insert had not begun when
// close gave up on the database: none of them can have been stored.
var errNotInserted = errors.New("the shutdown gave up on the database before their insert began")

// attempt inserts the batch once, unless close has given up already
// (errNotInserted). It stops waiting for the insert once
// close gives up, with errInsertLeftBehind: lib/pq does not return from a
// read when its context ends, so with no deadline on reads
// (--database-timeout 0) a server that stopped answering would hold it,
// and the shutdown, for as long as it stays silent. The insert left behind
// may still store the events, under the ids logged as lost.
func (l *executionLog) attempt(batch []queued, events []storage.Execution) error {
	if l.stop.Err() != nil {
		return errNotInserted
	}
	ctx, cancel := context.WithTimeout(l.stop, l.cfg.attempt)
	inserted := make(chan error, 1)
	go func() {
		defer cancel()
		inserted <- l.insert(ctx, batch, events)
	}()
	select {
	case err := <-inserted:
		return err
	case <-l.stop.Done():
	}
	// One that returned meanwhile, failed or not, counts as it returned.
	select {
	case err := <-inserted:
		return err
	default:
		return errInsertLeftBehind
	}
}

// insertDecisions stores the decision records of a batch's events in one
// statement, before the events. Ids stored already are skipped, so that a
// batch retried after its records went in but its events did not stores
// each once.
func insertDecisions(ctx context.Context, w storage.DecisionWrites, batch []queued) error {
	var rows []*ent.DecisionRecord
	for i := range batch {
		ev := &batch[i]
		d := ev.decision
		if d == nil {
			continue
		}
		rows = append(rows, &ent.DecisionRecord{ID: d.id, OrganizationID: ev.Tenant, Kind: decisionrecord.Kind(ev.Kind),
			BaseID: ev.BaseID, RecordID: ev.RecordID, Version: d.version, Revision: d.revision, At: ev.At,
			Result: d.result, Explanation: d.explanation, DurationNs: d.duration.Nanoseconds(),
			ActorKind: decisionrecord.ActorKind(ev.ActorKind), ActorID: ev.ActorID, Input: d.input, Policies: d.policies, Error: d.err,
			Outcome: d.outcome})
	}
	return w.InsertDecisions(ctx, rows)
}

// decisionsIn counts the decision records a batch carries.
func decisionsIn(batch []queued) int {
	n := 0
	for i := range batch {
		if batch[i].decision != nil {
			n++
		}
	}
	return n
}

func (l *executionLog) lose(batch []queued, err error) {
	settle(batch, false)
	l.metrics.lost.Add(float64(len(batch)))
	for _, ev := range batch {
		l.log.Error("audit event lost", "error", err, "id", ev.ID, "tenant", ev.Tenant, "action", "executed",
			"base", ev.BaseID, "record", ev.RecordID, "actor", ev.ActorID, "at", ev.At)
	}
}

// close stops accepting events and waits until every queued one is stored,
// or, when the database does not take them within the drain time, logs
// them as lost, with those of an insert that has not returned by then. An
// add running meanwhile is queued first or refused, as is any that
// follows.
func (l *executionLog) close() {
	l.closeOnce.Do(func() {
		l.closing.Lock()
		l.closed = true
		close(l.events)
		l.closing.Unlock()
		select {
		case <-l.written:
		case <-time.After(l.cfg.drain):
			l.cancelStop()
			<-l.written
		}
		l.cancelStop()
	})
}
