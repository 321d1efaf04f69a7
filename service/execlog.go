package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/decisionrecord"
)

// executionLog stores `executed` events, and the decision records that go
// with some of them, off the request path, and loses none
// it accepted while the process lives. Runs put their events in a bounded
// queue; several writers each take what is queued (up to a batch) and insert
// it in one statement, so batches grow with the load and an event waits
// about one insert. A batch that fails is retried until the database takes
// it: inserts ignore an id already stored, so a retry of a batch that was in
// fact committed stores nothing twice. While the database is away the queue
// fills; then runs wait for room, and one that waits too long is refused
// (503 unavailable) rather than answered without its event.
//
// What a crash (kill -9) loses is what is queued or being inserted: at full
// load about one insert's worth of runs.
type executionLog struct {
	log     *slog.Logger
	metrics *auditMetrics
	insert  func(ctx context.Context, batch []event) error
	cfg     execLogConfig
	events  chan event
	// stop is cancelled when close gives up on the database; writers then
	// report what they still hold as lost.
	stop       context.Context
	cancelStop context.CancelFunc
	writers    sync.WaitGroup
	closeOnce  sync.Once
}

type execLogConfig struct {
	// queue is how many events may wait for a writer.
	queue int
	// writers insert batches of at most batch events at once.
	writers, batch int
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

// defaultExecLogConfig is for PostgreSQL, where inserts run in parallel:
// enough writers keep the queue, and so what a crash loses, short. They
// take at most half of the pool's connections.
var defaultExecLogConfig = execLogConfig{
	queue:    8192,
	writers:  8,
	batch:    512,
	wait:     time.Second,
	attempt:  10 * time.Second,
	retryMin: 20 * time.Millisecond,
	retryMax: time.Second,
	drain:    30 * time.Second,
	// Within the time a request that needs the database gets its 503.
	commitWait: 3 * time.Second,
}

// execLogConfigFor adapts the defaults to the database: SQLite writes one
// transaction at a time, so more than two writers would only hold
// connections that reads need.
func execLogConfigFor(dialectName string, durable bool) execLogConfig {
	cfg := defaultExecLogConfig
	cfg.durable = durable
	if dialectName == dialect.SQLite {
		cfg.writers = 2
	}
	return cfg
}

// errAuditUnavailable refuses a run whose event the audit log cannot take.
var errAuditUnavailable = &Error{Code: CodeUnavailable,
	Message: "the audit log cannot keep up or the database is unavailable; retry later"}

func newExecutionLog(db *database.DB, log *slog.Logger, reg prometheus.Registerer, cfg execLogConfig) (*executionLog, error) {
	l := &executionLog{
		log: log, cfg: cfg,
		insert: func(ctx context.Context, batch []event) error { return insertEvents(ctx, db, batch) },
		events: make(chan event, cfg.queue),
	}
	var err error
	if l.metrics, err = newAuditMetrics(reg, func() float64 { return float64(len(l.events)) }); err != nil {
		return nil, err
	}
	l.stop, l.cancelStop = context.WithCancel(context.Background())
	for range cfg.writers {
		l.writers.Go(l.write)
	}
	return l, nil
}

// insertEvents stores a batch in one multi-row INSERT that skips events
// whose id is stored already (no row is updated, so the append-only
// triggers let it through). It writes the columns itself rather than
// through ent's bulk builders, which cost several times the CPU per event;
// the values are those ent would write.
func insertEvents(ctx context.Context, db *database.DB, batch []event) error {
	ins := entsql.Dialect(db.Dialect()).Insert(auditevent.Table).Columns(
		auditevent.FieldID, auditevent.FieldOrganizationID, auditevent.FieldAt, auditevent.FieldAction,
		auditevent.FieldKind, auditevent.FieldBaseID, auditevent.FieldRecordID, auditevent.FieldGroupID,
		auditevent.FieldActorKind, auditevent.FieldActorID, auditevent.FieldDetails)
	for i := range batch {
		ev := &batch[i]
		details, err := json.Marshal(ev.details)
		if err != nil {
			return err
		}
		ins.Values(ev.id, ev.tenant, ev.at, string(ev.action), string(ev.kind), nullable(ev.base),
			nullable(ev.record), nullable(ev.group), ev.actor.ActorKind(), ev.actor.ActorID(), details)
	}
	query, args := ins.OnConflict(entsql.ConflictColumns(auditevent.FieldID), entsql.DoNothing()).Query()
	// The decision records go first: an `executed` event that names one
	// is then never stored without it.
	if err := insertDecisions(ctx, db, batch); err != nil {
		return err
	}
	_, err := db.SQL().ExecContext(ctx, query, args...)
	return err
}

// insertDecisions stores the decision records of a batch's events in one
// multi-row INSERT, before the events. It skips the ids stored already, so
// that a batch retried after its records went in but its events did not
// stores each once.
func insertDecisions(ctx context.Context, db *database.DB, batch []event) error {
	ins := entsql.Dialect(db.Dialect()).Insert(decisionrecord.Table).Columns(
		decisionrecord.FieldID, decisionrecord.FieldOrganizationID, decisionrecord.FieldKind,
		decisionrecord.FieldBaseID, decisionrecord.FieldRecordID, decisionrecord.FieldVersion,
		decisionrecord.FieldRevision, decisionrecord.FieldAt, decisionrecord.FieldResult,
		decisionrecord.FieldExplanation, decisionrecord.FieldDurationNs, decisionrecord.FieldActorKind,
		decisionrecord.FieldActorID, decisionrecord.FieldInput)
	rows := 0
	for i := range batch {
		ev := &batch[i]
		d := ev.decision
		if d == nil {
			continue
		}
		var version any
		if d.version != nil {
			version = *d.version
		}
		ins.Values(d.id, ev.tenant, string(ev.kind), nullable(ev.base), nullable(ev.record), version,
			d.revision, ev.at, d.result, d.explanation, d.duration.Nanoseconds(), ev.actor.ActorKind(),
			ev.actor.ActorID(), d.input)
		rows++
	}
	if rows == 0 {
		return nil
	}
	query, args := ins.OnConflict(entsql.ConflictColumns(decisionrecord.FieldID), entsql.DoNothing()).Query()
	_, err := db.SQL().ExecContext(ctx, query, args...)
	return err
}

// decisionsIn counts the decision records a batch carries.
func decisionsIn(batch []event) int {
	n := 0
	for i := range batch {
		if batch[i].decision != nil {
			n++
		}
	}
	return n
}

func nullable(id *uuid.UUID) any {
	if id == nil {
		return nil
	}
	return *id
}

// add queues ev, waiting for room while the queue is full, and fails when
// there is none within the wait or before ctx ends. An event it accepted
// is stored, unless the process dies first. When the log is durable, add
// also waits until the event is committed, and fails when that takes
// longer than the commit wait (the event is still stored later).
func (l *executionLog) add(ctx context.Context, ev event) error {
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

func (l *executionLog) enqueue(ctx context.Context, ev event) bool {
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
func settle(batch []event, stored bool) {
	for i := range batch {
		if batch[i].stored != nil {
			batch[i].stored <- stored
		}
	}
}

// write takes batches from the queue until it is closed and empty.
func (l *executionLog) write() {
	batch := make([]event, 0, l.cfg.batch)
	for ev := range l.events {
		batch = append(batch[:0], ev)
	fill:
		for len(batch) < l.cfg.batch {
			select {
			case ev, ok := <-l.events:
				if !ok {
					break fill
				}
				batch = append(batch, ev)
			default:
				break fill
			}
		}
		l.store(batch)
	}
}

// store inserts batch, retrying until it is stored or close gives up.
func (l *executionLog) store(batch []event) {
	l.metrics.batchSize.Observe(float64(len(batch)))
	backoff := l.cfg.retryMin
	for {
		began := time.Now()
		ctx, cancel := context.WithTimeout(l.stop, l.cfg.attempt)
		err := l.insert(ctx, batch)
		cancel()
		if err == nil {
			l.metrics.insertTime.Observe(time.Since(began).Seconds())
			l.metrics.stored.Add(float64(len(batch)))
			l.metrics.decisions.Add(float64(decisionsIn(batch)))
			settle(batch, true)
			return
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
			return
		}
	}
}

func (l *executionLog) lose(batch []event, err error) {
	settle(batch, false)
	l.metrics.lost.Add(float64(len(batch)))
	for _, ev := range batch {
		l.log.Error("audit event lost", "error", err, "id", ev.id, "tenant", ev.tenant, "action", ev.action,
			"base", ev.base, "record", ev.record, "actor", ev.actor.ActorID(), "at", ev.at)
	}
}

// close stops accepting events and waits until every queued one is stored,
// or, when the database does not take them within the drain time, logs
// them as lost. No add may be running or follow.
func (l *executionLog) close() {
	l.closeOnce.Do(func() {
		close(l.events)
		done := make(chan struct{})
		go func() { l.writers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(l.cfg.drain):
			l.cancelStop()
			<-done
		}
		l.cancelStop()
	})
}
