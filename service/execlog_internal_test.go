package service

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/storage"
)

// testExecLogConfig is small and quick, so that a test fills the queue with
// a few hundred events and retries within milliseconds.
var testExecLogConfig = execLogConfig{
	queue: 32, batch: 8,
	wait:    20 * time.Millisecond,
	attempt: 10 * time.Second, retryMin: time.Millisecond, retryMax: 10 * time.Millisecond,
	drain: time.Minute,
}

// flakyStore stands between the execution log and the database: while down
// it fails every insert; when up it stores each batch but reports the first
// attempt as failed, as an insert does whose commit was acknowledged after
// its time limit, so that every batch is stored once and retried once.
type flakyStore struct {
	down      atomic.Bool
	mu        sync.Mutex
	committed map[uuid.UUID]bool // by the batch's first event
	insert    func(context.Context, []queued, []storage.Execution) error
}

var errDatabaseDown = errors.New("connection refused")

func (s *flakyStore) store(ctx context.Context, queued []queued, batch []storage.Execution) error {
	if s.down.Load() {
		return errDatabaseDown
	}
	if err := s.insert(ctx, queued, batch); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.committed[batch[0].ID] {
		return nil
	}
	s.committed[batch[0].ID] = true
	return errors.New("timeout waiting for the commit's acknowledgement")
}

func testEvent(tenant uuid.UUID) storage.Execution {
	at := time.Now().UTC().Truncate(time.Microsecond)
	return storage.Execution{ID: audittest.IDAt(at), Tenant: tenant, At: at, Kind: "policy",
		BaseID: uuid.New(), RecordID: uuid.New(), ActorKind: "key", ActorID: uuid.New(), Result: true}
}

// recordingBase stores a policy base that records its runs, unmasked,
// in an organization of its own: the writer stores the decision records
// of a base that records runs when they are stored.
func recordingBase(t *testing.T, db *database.DB) (tenant, baseID uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	err := storage.New(db).InTx(ctx, func(tx storage.Tx) error {
		now := time.Now()
		org, err := tx.CreateOrganization(ctx, "Recording "+uuid.NewString())
		if err != nil {
			return err
		}
		user, err := tx.CreateUser(ctx, uuid.NewString()+"@acme.test", "Ada")
		if err != nil {
			return err
		}
		b, err := tx.CreateBase(ctx, &ent.Base{OrganizationID: org.ID, Kind: base.KindPolicy, Name: "p",
			OwnerKind: base.OwnerKindUser, OwnerID: user.ID, CreatedBy: user.ID, CreatedAt: now, UpdatedAt: now})
		if err != nil {
			return err
		}
		if _, _, err := tx.SetDecisions(ctx, b, true, 1, []string{}, now); err != nil {
			return err
		}
		tenant, baseID = org.ID, b.ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tenant, baseID
}

func storedExecuted(t *testing.T, db *database.DB, tenant uuid.UUID) int {
	t.Helper()
	n, err := storage.New(db).CountExecutions(context.Background(), storage.ExecutionFilter{Tenant: tenant})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTheExecutionLogStoresEveryAcceptedEventOnceThroughAnOutage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, nil))
		reg := prometheus.NewRegistry()
		l, err := newExecutionLog(storage.New(db), log, reg, testExecLogConfig)
		if err != nil {
			t.Fatal(err)
		}
		store := &flakyStore{committed: map[uuid.UUID]bool{}, insert: l.insert}
		l.insert = store.store
		store.down.Store(true)

		tenant := uuid.New()
		const runners, perRunner = 4, 50
		var accepted, refused atomic.Int64
		var wg sync.WaitGroup
		for range runners {
			wg.Go(func() {
				for range perRunner {
					err := l.add(context.Background(), testEvent(tenant), recorded{})
					switch {
					case err == nil:
						accepted.Add(1)
					case CodeOf(err) == CodeUnavailable:
						refused.Add(1)
					default:
						t.Errorf("add: %v", err)
					}
				}
			})
		}
		wg.Wait()
		// While the database is away the queue and the writer's two batches
		// (one filling, one being inserted) are all the room there is; the
		// other runs are refused.
		held := int64(testExecLogConfig.queue + 2*testExecLogConfig.batch)
		if accepted.Load() > held || refused.Load() != runners*perRunner-accepted.Load() {
			t.Fatalf("%d events accepted and %d refused during the outage; at most %d fit", accepted.Load(), refused.Load(), held)
		}
		if got := counted(t, reg, "verdict_audit_refused_runs_total"); got != float64(refused.Load()) {
			t.Errorf("refused runs metric %v, want %d", got, refused.Load())
		}
		if counted(t, reg, "verdict_audit_insert_failures_total") == 0 {
			t.Error("no failed insert was counted during the outage")
		}
		// Every accepted event waits, the batch whose insert is retried too.
		deadline := time.Now().Add(10 * time.Second)
		for gauged(t, reg, "verdict_audit_queue_depth") != float64(accepted.Load()) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := gauged(t, reg, "verdict_audit_queue_depth"); got != float64(accepted.Load()) {
			t.Errorf("queue depth metric %v during the outage, want the %d events accepted", got, accepted.Load())
		}

		store.down.Store(false)
		// The database is back: the queue drains and accepts again. A run
		// refused while it drains is sent again, as a client would.
		deadline = time.Now().Add(20 * time.Second)
		for range 100 {
			for {
				err := l.add(context.Background(), testEvent(tenant), recorded{})
				if err == nil {
					accepted.Add(1)
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the queue still refuses events after the outage: %v", err)
				}
			}
		}
		l.close()

		if got := storedExecuted(t, db, tenant); int64(got) != accepted.Load() {
			t.Fatalf("%d events stored, want exactly the %d accepted", got, accepted.Load())
		}
		if strings.Contains(logs.String(), "audit event lost") {
			t.Fatalf("events were reported lost:\n%s", logs.String())
		}
		if got := counted(t, reg, "verdict_audit_events_stored_total"); got < float64(accepted.Load()) {
			t.Errorf("stored events metric %v, want at least %d", got, accepted.Load())
		}
	})
}

func TestClosingTheExecutionLogGivesUpOnADatabaseThatStaysAway(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		var logs bytes.Buffer
		cfg := testExecLogConfig
		cfg.drain = 50 * time.Millisecond
		reg := prometheus.NewRegistry()
		l, err := newExecutionLog(storage.New(db), slog.New(slog.NewJSONHandler(&logs, nil)), reg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		l.insert = func(context.Context, []queued, []storage.Execution) error { return errDatabaseDown }
		const n = 10
		for range n {
			if err := l.add(context.Background(), testEvent(uuid.New()), recorded{}); err != nil {
				t.Fatal(err)
			}
		}
		l.close()
		if got := strings.Count(logs.String(), `"msg":"audit event lost"`); got != n {
			t.Errorf("%d events logged as lost, want %d:\n%s", got, n, logs.String())
		}
		if got := counted(t, reg, "verdict_audit_events_lost_total"); got != n {
			t.Errorf("lost events metric %v, want %d", got, n)
		}
	})
}

func TestARunIsRefusedWhenItsEventCannotBeQueuedInTime(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		cfg := testExecLogConfig
		// The filling adds may wait long; the refused one has a cancelled
		// context. The writer's events are given up at once on close.
		cfg.queue, cfg.batch, cfg.wait, cfg.drain = 1, 1, 10*time.Second, 0
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer l.close()
		release := make(chan struct{})
		l.insert = func(context.Context, []queued, []storage.Execution) error { <-release; return errDatabaseDown }
		defer close(release)
		// One event is being inserted, one fills the writer's next batch,
		// one fills the queue.
		for range 3 {
			if err := l.add(context.Background(), testEvent(uuid.New()), recorded{}); err != nil {
				t.Fatal(err)
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(l.events) != 1 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := l.add(ctx, testEvent(uuid.New()), recorded{}); CodeOf(err) != CodeUnavailable {
			t.Fatalf("add to a full queue for a cancelled run: %v, want unavailable", err)
		}
	})
}

func TestAWriterFillsItsNextBatchWhileItInserts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		cfg := testExecLogConfig
		cfg.queue, cfg.batch, cfg.wait = 1, 3, time.Minute
		reg := prometheus.NewRegistry()
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), reg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Room for each of the three inserts' signal.
		entered, release := make(chan struct{}, 3), make(chan struct{})
		var sizes []int
		insert := l.insert
		l.insert = func(ctx context.Context, batch []queued, events []storage.Execution) error {
			sizes = append(sizes, len(events))
			entered <- struct{}{}
			<-release
			return insert(ctx, batch, events)
		}
		tenant := uuid.New()
		add := func(ctx context.Context) error { return l.add(ctx, testEvent(tenant), recorded{}) }
		if err := add(context.Background()); err != nil {
			t.Fatal(err)
		}
		<-entered
		// While the first event is being inserted, the next three fill the
		// writer's next batch and one more the queue, which holds one: five
		// events are taken without any run waiting for the insert.
		for range 4 {
			if err := add(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		deadline := time.Now().Add(10 * time.Second)
		for l.held.Load() != 4 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := gauged(t, reg, "verdict_audit_queue_depth"); got != 5 {
			t.Errorf("queue depth metric %v while 1 event is inserted, a batch of 3 waits and 1 event is queued, want 5", got)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := add(ctx); CodeOf(err) != CodeUnavailable {
			t.Fatalf("add with the queue and the next batch full: %v, want unavailable", err)
		}
		close(release)
		l.close()
		if !slices.Equal(sizes, []int{1, 3, 1}) {
			t.Errorf("inserted batches of %v events, want [1 3 1]", sizes)
		}
		if n := storedExecuted(t, db, tenant); n != 5 {
			t.Errorf("%d events stored, want 5", n)
		}
	})
}

func TestADurableRunIsAnsweredOnlyOnceItsEventIsCommitted(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		cfg := execLogConfigFor(true)
		cfg.commitWait = time.Minute
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer l.close()
		entered, release := make(chan struct{}), make(chan struct{})
		insert := l.insert
		l.insert = func(ctx context.Context, queued []queued, batch []storage.Execution) error {
			entered <- struct{}{}
			<-release
			return insert(ctx, queued, batch)
		}
		tenant := uuid.New()
		added := make(chan error, 1)
		go func() { added <- l.add(context.Background(), testEvent(tenant), recorded{}) }()
		<-entered
		select {
		case err := <-added:
			t.Fatalf("the run was answered (%v) before its event was stored", err)
		default:
		}
		close(release)
		if err := <-added; err != nil {
			t.Fatalf("add: %v", err)
		}
		if n := storedExecuted(t, db, tenant); n != 1 {
			t.Fatalf("%d events stored when the run was answered, want 1", n)
		}
	})
}

func TestADurableRunIsRefusedWhenItsEventIsNotCommittedInTime(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		cfg := testExecLogConfig
		cfg.durable, cfg.commitWait, cfg.drain = true, 10*time.Millisecond, 0
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer l.close()
		l.insert = func(context.Context, []queued, []storage.Execution) error { return errDatabaseDown }
		if err := l.add(context.Background(), testEvent(uuid.New()), recorded{}); CodeOf(err) != CodeUnavailable {
			t.Fatalf("add while the database is down: %v, want unavailable", err)
		}
	})
}

// counted reads a counter of the execution log's metrics from reg.
func counted(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	return gathered(t, reg, name).GetCounter().GetValue()
}

// gauged reads a gauge of the execution log's metrics from reg.
func gauged(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	return gathered(t, reg, name).GetGauge().GetValue()
}

// BenchmarkExecutionLogThroughput measures how many `executed` events per
// second the writer stores when runs queue them as fast as they can: the
// events/s metric must stay well above the runs/s the server sustains, or
// the queue (and the kill -9 loss window with it) grows.
func BenchmarkExecutionLogThroughput(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), nil, execLogConfigFor(false))
		if err != nil {
			b.Fatal(err)
		}
		tenant := uuid.New()
		events := make([]storage.Execution, b.N)
		for i := range events {
			events[i] = testEvent(tenant)
		}
		b.ResetTimer()
		began := time.Now()
		for i := range events {
			if err := l.add(context.Background(), events[i], recorded{}); err != nil {
				b.Fatal(err)
			}
		}
		l.close()
		b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "events/s")
	})
}

func TestDecisionRecordsAreStoredOnceWithTheirEventsThroughRetries(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		// Room for every run, and time to wait for it: this test is about
		// what is stored, not about refusals.
		cfg := testExecLogConfig
		cfg.queue, cfg.wait = 128, time.Minute
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), reg, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The first attempt at every batch stores its decision records and
		// then fails before its events, as a connection lost between the
		// two statements would; the retry stores everything.
		var mu sync.Mutex
		tried := map[uuid.UUID]bool{}
		insert := l.insert
		l.insert = func(ctx context.Context, batch []queued, events []storage.Execution) error {
			mu.Lock()
			first := !tried[batch[0].ID]
			tried[batch[0].ID] = true
			mu.Unlock()
			if first {
				if err := insertDecisions(ctx, storage.New(db), batch); err != nil {
					return err
				}
				return errDatabaseDown
			}
			return insert(ctx, batch, events)
		}
		tenant, base := recordingBase(t, db)
		const runs = 100
		for i := range runs {
			var decision *decisionRow
			if i%2 == 0 {
				decision = &decisionRow{id: uuid.Must(uuid.NewV7()), revision: 1, result: true,
					explanation: "recorded", duration: time.Millisecond, input: `{"a":1}`}
			}
			ev := testEvent(tenant)
			ev.BaseID = base
			if err := l.add(context.Background(), ev, recorded{decision: decision}); err != nil {
				t.Fatal(err)
			}
		}
		l.close()
		if got := storedExecuted(t, db, tenant); got != runs {
			t.Errorf("%d events stored, want %d", got, runs)
		}
		n, err := db.Client().DecisionRecord.Query().Where(decisionrecord.OrganizationID(tenant)).Count(context.Background())
		if err != nil || n != runs/2 {
			t.Errorf("%d decision records stored (%v), want %d", n, err, runs/2)
		}
		if got := counted(t, reg, "verdict_decision_records_stored_total"); got != runs/2 {
			t.Errorf("stored decision records metric %v, want %d", got, runs/2)
		}
	})
}

func TestALingeringWriterInsertsWhatIsQueuedMeanwhileTogether(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		cfg := testExecLogConfig
		cfg.batch, cfg.linger = 3, time.Minute
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var sizes []int
		insert := l.insert
		l.insert = func(ctx context.Context, batch []queued, events []storage.Execution) error {
			mu.Lock()
			sizes = append(sizes, len(events))
			mu.Unlock()
			return insert(ctx, batch, events)
		}
		tenant := uuid.New()
		for range 5 {
			if err := l.add(context.Background(), testEvent(tenant), recorded{}); err != nil {
				t.Fatal(err)
			}
		}
		l.close()
		// A full batch goes at once; the rest when the log closes, long
		// before the linger would end.
		if !slices.Equal(sizes, []int{3, 2}) {
			t.Errorf("inserted batches of %v events, want [3 2]", sizes)
		}
		if n := audittest.Count(t, db, audittest.Filter{Tenant: &tenant}); n != 5 {
			t.Errorf("%d events stored, want 5", n)
		}
	})
}

func TestTheWriterLingersButNeverForDurableRuns(t *testing.T) {
	if got := execLogConfigFor(false).linger; got != 5*time.Millisecond {
		t.Errorf("linger %v, want 5ms", got)
	}
	if got := execLogConfigFor(true).linger; got != 0 {
		t.Errorf("durable: linger %v, want none", got)
	}
}

// TestRunsThatOutliveAShutdownAreQueuedOrRefused: a server closes the log
// at shutdown even while requests that outlived its timeout still run.
// Each of their events is queued before the close and stored, or refused
// after it; none is lost without a word, and none panics.
func TestRunsThatOutliveAShutdownAreQueuedOrRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		tenant := uuid.New()
		l, err := newExecutionLog(storage.New(db), slog.New(slog.DiscardHandler), prometheus.NewRegistry(), testExecLogConfig)
		if err != nil {
			t.Fatal(err)
		}
		var accepted, refused atomic.Int64
		var runs sync.WaitGroup
		for range 8 {
			runs.Go(func() {
				for range 200 {
					switch err := l.add(context.Background(), testEvent(tenant), recorded{}); {
					case err == nil:
						accepted.Add(1)
					case errors.Is(err, errAuditUnavailable):
						refused.Add(1)
					default:
						t.Error(err)
					}
				}
			})
		}
		for accepted.Load() == 0 {
			runtime.Gosched()
		}
		l.close()
		runs.Wait()
		if err := l.add(context.Background(), testEvent(tenant), recorded{}); !errors.Is(err, errAuditUnavailable) {
			t.Errorf("an event added after the close: %v, want it refused", err)
		}
		if got := storedExecuted(t, db, tenant); int64(got) != accepted.Load() || accepted.Load()+refused.Load() != 8*200 {
			t.Errorf("%d events stored, %d accepted, %d refused of %d", got, accepted.Load(), refused.Load(), 8*200)
		}
	})
}
