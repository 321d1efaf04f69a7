package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/internal/audittest"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/faultproxy"
	"github.com/verdict/verdict/service"
)

// hangBound is how long a request may take before the test calls it hung.
// The goal is far lower (a 503 within the database I/O timeout, about 2 s);
// the bound only has to be finite on a loaded machine.
const hangBound = 20 * time.Second

// proxiedPostgres is a fresh migrated PostgreSQL database reached through a
// fault proxy, opened with opts.
func proxiedPostgres(t *testing.T, opts ...database.Option) (*faultproxy.Proxy, *database.DB) {
	t.Helper()
	u, err := url.Parse(dbtest.URL(t, dialect.Postgres, true))
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	db, err := database.Open(context.Background(), u.String(), append([]database.Option{database.WithMaxOpenConns(4)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return proxy, db
}

// finish runs do and fails the test if it has not returned within hangBound.
func finish(t *testing.T, what string, do func() *httptest.ResponseRecorder) *httptest.ResponseRecorder {
	t.Helper()
	began := time.Now()
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- do() }()
	select {
	case w := <-done:
		t.Logf("%s answered %d in %s", what, w.Code, time.Since(began).Round(time.Millisecond))
		return w
	case <-time.After(hangBound):
		t.Fatalf("%s hangs: no answer after %s", what, hangBound)
		return nil
	}
}

func TestAPostgreSQLOutageAnswersUnavailableAndRecovers(t *testing.T) {
	for _, outage := range []struct {
		name string
		mode faultproxy.Mode
	}{
		{"a server that refuses connections", faultproxy.Refuse},
		{"a server that stops answering", faultproxy.BlackHole},
	} {
		t.Run(outage.name+": requests and /readyz answer 503 unavailable, then recover", func(t *testing.T) {
			proxy, db := proxiedPostgres(t)
			f := newFixture(t, db)
			list := func() *httptest.ResponseRecorder {
				return f.do(http.MethodGet, "/policies", nil, key(adminKey)...)
			}
			ready := func() *httptest.ResponseRecorder { return f.do(http.MethodGet, "/readyz", nil) }
			wantStatus(t, list(), 200)

			proxy.Set(outage.mode)
			wantError(t, finish(t, "GET /policies", list), 503, service.CodeUnavailable)
			wantError(t, finish(t, "GET /readyz", ready), 503, service.CodeUnavailable)
			// The pool's connections are gone now; a new one fails too.
			wantError(t, finish(t, "GET /policies again", list), 503, service.CodeUnavailable)

			proxy.Set(faultproxy.Forward)
			recovered := func(what string, do func() *httptest.ResponseRecorder) {
				deadline := time.Now().Add(hangBound)
				for {
					w := finish(t, what, do)
					if w.Code == 200 {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s still answers %d %s after the database is back", what, w.Code, w.Body)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			recovered("GET /policies after the outage", list)
			recovered("GET /readyz after the outage", ready)
		})
	}
}

// With no deadline on reads, lib/pq waits for a server that stopped
// answering however the request's context ends: /readyz still answers
// 503 within its bound.
func TestReadyzAnswersUnavailableWhenAPostgreSQLServerWithoutReadDeadlinesStopsAnswering(t *testing.T) {
	proxy, db := proxiedPostgres(t, database.WithIOTimeout(0))
	f := newFixture(t, db)
	ready := func() *httptest.ResponseRecorder { return f.do(http.MethodGet, "/readyz", nil) }
	wantStatus(t, ready(), 200)
	proxy.Set(faultproxy.BlackHole)
	wantError(t, finish(t, "GET /readyz", ready), 503, service.CodeUnavailable)
	// A probe after the first meets a pool whose connection is held.
	wantError(t, finish(t, "GET /readyz again", ready), 503, service.CodeUnavailable)
}

func TestRunsDuringAPostgreSQLOutageKeepEveryAcknowledgedEvent(t *testing.T) {
	proxy, db := proxiedPostgres(t)
	f := newFixture(t, db, noRateLimit)
	admin := member{key: adminKey, id: f.acme.User.ID}
	path := "/run/policy/" + f.publishedPolicy(t, admin).BaseID.String()

	var acknowledged, refused atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				w := f.call(t, admin, http.MethodPost, path, seniorRun)
				switch w.Code {
				case 200:
					acknowledged.Add(1)
				case 503:
					refused.Add(1)
				default:
					t.Errorf("a run answered %d %s", w.Code, w.Body)
					return
				}
			}
		})
	}
	// Runs before, during and after the database refuses connections. Each
	// phase lasts until what it is there for has happened, not for a fixed
	// time, which a loaded machine could fill with no run at all.
	until := func(what string, happened func() bool) {
		t.Helper()
		deadline := time.Now().Add(hangBound)
		for !happened() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not after %s", what, hangBound)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	until("a run acknowledged before the outage", func() bool { return acknowledged.Load() > 0 })
	failures := counterTotal(t, f.reg, auditInsertFailures)
	proxy.Set(faultproxy.Refuse)
	// The outage shows either in a refused run or in a failed insert of
	// the events of runs acknowledged meanwhile.
	until("the outage felt", func() bool { return refused.Load() > 0 || counterTotal(t, f.reg, auditInsertFailures) > failures })
	proxy.Set(faultproxy.Forward)
	before := acknowledged.Load()
	until("a run acknowledged after the outage", func() bool { return acknowledged.Load() > before })
	close(stop)
	wg.Wait()
	f.svc.Close()

	stored := audittest.Count(t, db, audittest.Filter{Action: auditevent.ActionExecuted})
	t.Logf("%d runs acknowledged, %d refused (503), %d executed events stored", acknowledged.Load(), refused.Load(), stored)
	if int64(stored) != acknowledged.Load() {
		t.Fatalf("%d executed events stored, want exactly one per acknowledged run: %d", stored, acknowledged.Load())
	}
}

// auditInsertFailures counts the inserts of audit events that failed.
const auditInsertFailures = "verdict_audit_insert_failures_total"
