package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestHealthzAnswersOKWithoutAKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		w := f.do(http.MethodGet, "/healthz", nil)
		wantStatus(t, w, 200)
		if got := w.Body.String(); got != `{"status":"ok"}`+"\n" || w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("body %q (%s)", got, w.Header().Get("Content-Type"))
		}
		wantStatus(t, f.do(http.MethodHead, "/healthz", nil), 200)
	})
}

func TestReadyzAnswersOKOnAMigratedDatabase(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		w := f.do(http.MethodGet, "/readyz", nil)
		wantStatus(t, w, 200)
		if got := w.Body.String(); got != `{"status":"ok"}`+"\n" {
			t.Errorf("body %q", got)
		}
	})
}

func TestReadyzAnswersUnavailableOnAnUnmigratedDatabase(t *testing.T) {
	dbtest.EachEmpty(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, unbootstrapped)
		wantError(t, f.do(http.MethodGet, "/readyz", nil), 503, service.CodeUnavailable)
		wantStatus(t, f.do(http.MethodGet, "/healthz", nil), 200)
	})
}

func TestMetricsCountRequestsByRoutePattern(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		wantStatus(t, f.run(adultRun, key(adminKey)...), 200)
		wantError(t, f.run(adultRun), 401, service.CodeUnauthenticated)
		wantError(t, f.do(http.MethodGet, "/no/such/path/42", nil), 404, service.CodeNotFound)

		w := f.do(http.MethodGet, "/metrics", nil)
		wantStatus(t, w, 200)
		body := w.Body.String()
		for _, want := range []string{
			`verdict_http_requests_total{route="POST /run",status="200"} 1`,
			`verdict_http_requests_total{route="POST /run",status="401"} 1`,
			`verdict_http_requests_total{route="unmatched",status="404"} 1`,
			`verdict_http_request_duration_seconds_count{route="POST /run"} 2`,
			`verdict_evaluations_total{kind="rule",outcome="true"} 1`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
		if strings.Contains(body, "/no/such/path") {
			t.Error("/metrics labels a request with its raw path")
		}
	})
}

func TestMetricsAreNotMountedWithoutAGatherer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		srv := newServer(f.svc, Config{})
		w := f.do(http.MethodGet, "/metrics", nil)
		wantStatus(t, w, 200)
		f.srv = srv
		wantError(t, f.do(http.MethodGet, "/metrics", nil), 404, service.CodeNotFound)
	})
}
