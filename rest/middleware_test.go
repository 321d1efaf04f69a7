package rest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestAPanicBecomesAnInternalErrorAndTheConnectionSurvives(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		// The test hook: a route that exists only in this test.
		f.srv.handle("POST /test/panic", authenticated, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			panic("the secret cause")
		}))
		ts := httptest.NewServer(f.srv)
		defer ts.Close()

		var ids []string
		for i := 0; i < 2; i++ { // the second request reuses the connection
			req, err := http.NewRequest(http.MethodPost, ts.URL+"/test/panic", strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("x-api-key", adminKey)
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatalf("the panic cost the connection: %v", err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			ids = append(ids, resp.Header.Get("X-Request-Id"))
			wantError(t, recorded(resp, body), 500, service.CodeInternal)
			if strings.Contains(string(body), "secret") {
				t.Errorf("the panic's cause reached the caller: %s", body)
			}
		}
		panics := f.logs.lines(t, "panic serving a request")
		if len(panics) != 2 || panics[0]["panic"] != "the secret cause" || panics[0]["stack"] == "" ||
			panics[0]["request_id"] != ids[0] || panics[1]["request_id"] != ids[1] {
			t.Errorf("panic log lines %v; want two, with the cause, the stack and the request ids %q", panics, ids)
		}
		for _, line := range f.logs.lines(t, "http request") {
			if line["route"] == "POST /test/panic" && line["status"] != float64(500) {
				t.Errorf("the access log has status %v for the panic, want 500", line["status"])
			}
		}
	})
}

func TestTheRateLimitRefusesABurstAndSparesOtherKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db, withConfig(func(c *Config) { c.RateLimit, c.RateBurst = 0.01, 2 }))
		other, err := f.svc.Operator().CreateKey(t.Context(), service.KeyInput{
			Organization: f.acme.Organization.ID, Name: "other", Scope: authz.ScopeView})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			wantStatus(t, f.run(adultRun, key(adminKey)...), 200)
		}
		w := f.run(adultRun, key(adminKey)...)
		wantError(t, w, 429, service.CodeRateLimited)
		if secs, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || secs < 1 || secs > 100 {
			t.Errorf("Retry-After %q; want the seconds until a token is back (about 100)", w.Header().Get("Retry-After"))
		}
		wantStatus(t, f.run(adultRun, key(other.Secret)...), 200)
		wantError(t, f.run(adultRun, "Authorization", "Bearer "+adminKey), 429, service.CodeRateLimited)
	})
}

func TestALimiterStaysBoundedAndForgetsRefilledKeysFirst(t *testing.T) {
	l := newLimiter[uuid.UUID](1, 1, 2)
	start := time.Unix(1_000_000, 0)
	at := func(secs float64) time.Time { return start.Add(time.Duration(secs * float64(time.Second))) }
	a, b, c := uuid.New(), uuid.New(), uuid.New()
	if _, ok := l.allow(a, at(0)); !ok {
		t.Fatal("a's first request refused")
	}
	if _, ok := l.allow(b, at(0.5)); !ok {
		t.Fatal("b's first request refused")
	}
	// At 1.2 s a's bucket has filled up again, b's has not: a goes.
	if _, ok := l.allow(c, at(1.2)); !ok {
		t.Fatal("c's first request refused")
	}
	if len(l.buckets) != 2 || l.buckets[a] != nil || l.buckets[b] == nil {
		t.Errorf("buckets %v; want b and c", l.buckets)
	}
	if _, ok := l.allow(b, at(1.6)); !ok {
		t.Error("b refused at 1.6 s, a second after its first request")
	}
	if wait, ok := l.allow(b, at(1.7)); ok || wait <= 0 {
		t.Errorf("b's second request within a second = %v, %v; want refused with a wait", wait, ok)
	}
}

func TestRequestIDsAreReusedWhenSaneAndMadeOtherwise(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		for _, tc := range []struct {
			name, incoming string
			reused         bool
		}{
			{"a sane incoming id is reused", "trace-42.abc:def/1", true},
			{"an id with spaces is replaced", "not a sane id", false},
			{"an id with quotes is replaced", `"x"`, false},
			{"an overlong id is replaced", strings.Repeat("a", 200), false},
			{"a missing id is made", "", false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				for _, path := range []string{"/healthz", "/run", "/nope"} { // 200, 401, 404
					var header []string
					if tc.incoming != "" {
						header = []string{"X-Request-Id", tc.incoming}
					}
					got := f.do(http.MethodPost, path, strings.NewReader("{}"), header...).Header().Get("X-Request-Id")
					switch {
					case tc.reused && got != tc.incoming:
						t.Errorf("%s: X-Request-Id %q, want %q", path, got, tc.incoming)
					case !tc.reused:
						if _, err := uuid.Parse(got); err != nil {
							t.Errorf("%s: X-Request-Id %q, want a new UUID", path, got)
						}
					}
				}
			})
		}
	})
}

func TestTheAccessLogNamesRouteStatusAndKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		w := f.run(adultRun, append(key(adminKey), "X-Request-Id", "log-test-1")...)
		wantStatus(t, w, 200)
		lines := f.logs.lines(t, "http request")
		if len(lines) != 1 {
			t.Fatalf("%d access log lines, want 1", len(lines))
		}
		line := lines[0]
		want := map[string]any{
			"method": "POST", "route": "POST /run", "path": "/run", "status": float64(200),
			"request_id": "log-test-1", "key_id": f.acme.Key.ID.String(),
		}
		for k, v := range want {
			if line[k] != v {
				t.Errorf("%s = %v, want %v", k, line[k], v)
			}
		}
		if d, ok := line["duration"].(float64); !ok || d <= 0 {
			t.Errorf("duration %v", line["duration"])
		}
		// Decoding keeps the last of two equal keys: the text tells.
		if n := strings.Count(f.logs.String(), `"request_id":`); n != 1 {
			t.Errorf("request_id is in the log %d times, want once:\n%s", n, f.logs)
		}
	})
}

func TestAResponseAlreadyStartedIsAbortedOnPanic(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.srv.handle("GET /test/half", public, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			w.Write([]byte(`{"partial":`))
			http.NewResponseController(w).Flush()
			panic("halfway")
		}))
		ts := httptest.NewServer(f.srv)
		defer ts.Close()
		resp, err := ts.Client().Get(ts.URL + "/test/half")
		if err != nil {
			return // the connection was cut before the headers: nothing passes for whole
		}
		defer resp.Body.Close()
		if body, err := io.ReadAll(resp.Body); err == nil {
			t.Errorf("a truncated response was delivered as whole: %d %s", resp.StatusCode, body)
		}
	})
}

// recorded turns a response from a real connection into a recorder, for
// wantError.
func recorded(resp *http.Response, body []byte) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	for k, v := range resp.Header {
		rec.Header()[k] = v
	}
	rec.WriteHeader(resp.StatusCode)
	rec.Write(body)
	return rec
}
