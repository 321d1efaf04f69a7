package service

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/internal/memstore"
	"github.com/verdict/verdict/storage"
)

// stallBound is how long a test waits for a call that must not wait for a
// stalled database. The calls return at once or after a few milliseconds;
// the bound only has to be finite on a loaded machine.
const stallBound = time.Minute

// stalledStore is a store whose database stopped answering where no
// deadline ends a read: its readiness check and the audit upkeep's work
// never return, whatever their contexts, until the test ends. It says
// when each begins.
type stalledStore struct {
	*memstore.Store
	ready, upkeep chan struct{} // a value each time one begins
	release       chan struct{}
}

func newStalledStore(t *testing.T) *stalledStore {
	s := &stalledStore{Store: memstore.New(), ready: make(chan struct{}, 1), upkeep: make(chan struct{}, 1), release: make(chan struct{})}
	t.Cleanup(func() { close(s.release) })
	return s
}

func (s *stalledStore) stall(began chan struct{}) error {
	select {
	case began <- struct{}{}:
	default:
	}
	<-s.release
	return errDatabaseDown
}

func (s *stalledStore) Ready(context.Context) error { return s.stall(s.ready) }

func (s *stalledStore) PrepareExecutions(context.Context, time.Time) error {
	return s.stall(s.upkeep)
}

// returns fails t unless call returns within stallBound.
func returns(t *testing.T, what string, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		call()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(stallBound):
		t.Fatalf("%s waits for the stalled database", what)
	}
}

func TestReadinessIsAnsweredWhenItsContextEndsThoughTheDatabaseIsSilent(t *testing.T) {
	store := newStalledStore(t)
	s, err := New(Config{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var ready error
	returns(t, "Ready", func() {
		go func() {
			<-store.ready
			cancel()
		}()
		ready = s.Ready(ctx)
	})
	if CodeOf(ready) != CodeUnavailable {
		t.Errorf("Ready: %v, want unavailable", ready)
	}
}

func TestClosingGivesUpOnWorkTheDatabaseNeverAnswers(t *testing.T) {
	store := newStalledStore(t)
	var logs bytes.Buffer
	var mu sync.Mutex
	reg := prometheus.NewRegistry()
	s, err := New(Config{Store: store, Registerer: reg, Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.execLog.cfg.drain = 50 * time.Millisecond
	inserting := make(chan struct{}, 1)
	s.execLog.insert = func(context.Context, []queued, []storage.Execution) error {
		select {
		case inserting <- struct{}{}:
		default:
		}
		<-store.release
		return errDatabaseDown
	}
	// The first event's insert waits for the database; the others queue
	// behind it, their insert never begun when close gives up.
	const n = 10
	for i := range n {
		if err := s.execLog.add(context.Background(), testEvent(uuid.New()), recorded{}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			<-inserting
		}
	}
	<-store.upkeep

	returns(t, "Close", s.Close)
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Count(logs.String(), `"msg":"audit event lost"`); got != n {
		t.Errorf("%d events logged as lost, want %d:\n%s", got, n, logs.String())
	}
	if got := strings.Count(logs.String(), `"error":"`+errInsertLeftBehind.Error()+`"`); got != 1 {
		t.Errorf("%d events logged as left behind in an insert, want the first one:\n%s", got, logs.String())
	}
	if got := strings.Count(logs.String(), `"error":"`+errNotInserted.Error()+`"`); got != n-1 {
		t.Errorf("%d events logged as never inserted, want the %d queued behind the first:\n%s", got, n-1, logs.String())
	}
	if !strings.Contains(logs.String(), `"msg":"the audit upkeep, the expiry of decision records or the record of a key's use still waits for the database; left behind"`) {
		t.Errorf("the upkeep left behind is not logged:\n%s", logs.String())
	}
	if got := counted(t, reg, "verdict_audit_events_lost_total"); got != n {
		t.Errorf("lost events metric %v, want %d", got, n)
	}
}

// lockedWriter lets the test read what loggers on other goroutines write.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
