package changefeed_test

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/internal/dbtest"
)

// waitTimeout bounds every wait; none is expected to come close.
const waitTimeout = 30 * time.Second

// recorder is a subscriber that hands what it is told to the test.
type recorder struct {
	changes chan changefeed.Change
	missed  chan struct{}
}

func newRecorder() *recorder {
	return &recorder{changes: make(chan changefeed.Change, 64), missed: make(chan struct{}, 64)}
}

func (r *recorder) Changed(c changefeed.Change) { r.changes <- c }
func (r *recorder) Missed()                     { r.missed <- struct{}{} }

func (r *recorder) next(t *testing.T) changefeed.Change {
	t.Helper()
	select {
	case c := <-r.changes:
		return c
	case <-time.After(waitTimeout):
		t.Fatal("no change arrived")
		return changefeed.Change{}
	}
}

func (r *recorder) waitMissed(t *testing.T) {
	t.Helper()
	select {
	case <-r.missed:
	case <-time.After(waitTimeout):
		t.Fatal("the subscriber was not told that notifications were missed")
	}
}

func listen(t *testing.T, db *database.DB, reg prometheus.Registerer) (*changefeed.Listener, *recorder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	l, err := changefeed.Listen(ctx, db, nil, reg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	rec := newRecorder()
	l.Subscribe(rec)
	return l, rec
}

// announceIn runs one transaction that announces c and commits or rolls
// back.
func announceIn(t *testing.T, db *database.DB, c changefeed.Change, commit bool) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := changefeed.Announce(ctx, db.Dialect(), tx, c); err != nil {
		tx.Rollback()
		t.Fatal(err)
	}
	if commit {
		err = tx.Commit()
	} else {
		err = tx.Rollback()
	}
	if err != nil {
		t.Fatal(err)
	}
}

func change(kind changefeed.Kind) changefeed.Change {
	return changefeed.Change{Kind: kind, Tenant: uuid.New(), ID: uuid.New()}
}

func TestEveryKindOfChangeArrivesOnlyWhenItsTransactionCommits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite announces nothing: TestSQLiteAnnouncesAndReceivesNothing")
		}
		reg := prometheus.NewRegistry()
		_, rec := listen(t, db, reg)
		withRecord := change(changefeed.KindBase)
		withRecord.Record = uuid.New()
		sent := []changefeed.Change{withRecord, change(changefeed.KindBase), change(changefeed.KindKey),
			change(changefeed.KindMember), change(changefeed.KindGroup)}
		for _, c := range sent {
			announceIn(t, db, change(c.Kind), false)
			announceIn(t, db, c, true)
		}
		// Notifications arrive in commit order: had a rolled-back one
		// been delivered, it would come before the committed one.
		for _, want := range sent {
			if got := rec.next(t); got != want {
				t.Errorf("received %+v, want %+v", got, want)
			}
		}
		if n := counter(t, reg, "verdict_change_notifications_total"); n != float64(len(sent)) {
			t.Errorf("%v notifications counted, want %d", n, len(sent))
		}
	})
}

func TestAnUnreadableNotificationDropsEverything(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite has no notifications")
		}
		_, rec := listen(t, db, nil)
		for _, payload := range []string{"not json", `{"kind": "planet", "id": "` + uuid.NewString() + `"}`} {
			if _, err := db.SQL().Exec("SELECT pg_notify($1, $2)", changefeed.Channel, payload); err != nil {
				t.Fatal(err)
			}
			rec.waitMissed(t)
		}
		c := change(changefeed.KindKey)
		announceIn(t, db, c, true)
		if got := rec.next(t); got != c {
			t.Errorf("after unreadable ones, received %+v, want %+v", got, c)
		}
	})
}

// TestALostConnectionIsReportedAndRemade kills the listening connection
// from the server side, as a failover or an administrator would.
func TestALostConnectionIsReportedAndRemade(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.Postgres {
			t.Skip("SQLite has no connection to lose")
		}
		reg := prometheus.NewRegistry()
		_, rec := listen(t, db, reg)
		terminateListener(t, db.SQL())
		// Once when the connection is lost, once when it is back.
		rec.waitMissed(t)
		rec.waitMissed(t)
		if n := counter(t, reg, "verdict_change_listener_reconnects_total"); n != 1 {
			t.Errorf("%v reconnects counted, want 1", n)
		}
		c := change(changefeed.KindMember)
		announceIn(t, db, c, true)
		if got := rec.next(t); got != c {
			t.Errorf("after the reconnection, received %+v, want %+v", got, c)
		}
	})
}

// terminateListener ends this process's listening connection to the
// database of pool, which must have exactly one.
func terminateListener(t *testing.T, pool *sql.DB) {
	t.Helper()
	var n int
	err := pool.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, changefeed.ApplicationName(os.Getpid())).Scan(&n)
	if err != nil || n != 1 {
		t.Fatalf("terminated %d listening connections (%v), want 1", n, err)
	}
}

func TestSQLiteAnnouncesAndReceivesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		if db.Dialect() != dialect.SQLite {
			t.Skip("PostgreSQL announces: TestEveryKindOfChangeArrivesOnlyWhenItsTransactionCommits")
		}
		listen(t, db, nil)
		if err := changefeed.Announce(context.Background(), db.Dialect(), refusingExecer{t}, change(changefeed.KindKey)); err != nil {
			t.Fatal(err)
		}
	})
}

type refusingExecer struct{ t *testing.T }

func (e refusingExecer) ExecContext(context.Context, string, ...any) (sql.Result, error) {
	e.t.Error("SQLite announced a change")
	return nil, nil
}

func counter(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			var n float64
			for _, m := range f.GetMetric() {
				n += m.GetCounter().GetValue()
			}
			return n
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}
