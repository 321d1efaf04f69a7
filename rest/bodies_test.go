package rest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// heldBody is a request body whose bytes arrive when the test says so:
// started is closed at its first read, which comes only once the bound on
// bodies in flight has let the body through, and the bytes come once
// open is closed.
type heldBody struct {
	r       io.Reader
	started chan struct{}
	open    chan struct{}
	once    sync.Once
}

func newHeldBody(s string) *heldBody {
	return &heldBody{r: strings.NewReader(s), started: make(chan struct{}), open: make(chan struct{})}
}

func (b *heldBody) Read(p []byte) (int, error) {
	b.once.Do(func() { close(b.started) })
	<-b.open
	return b.r.Read(p)
}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

const (
	bodyRun = `{"rule": "A **P** is ok if __a__ is empty.", "data": {"P": {}}}`
	// testBodyLimit is the body limit, and the bound on bodies in flight,
	// of boundedBodies: one body of it fills the bound.
	testBodyLimit = 4096
)

// boundedBodies replaces f's server with one, GraphQL mounted, whose bodies
// in flight may hold one body as large as the limit, waiting at most wait
// for room.
func (f *fixture) boundedBodies(wait time.Duration) {
	f.srv = newServer(f.svc, Config{Registerer: prometheus.NewRegistry(), GraphQL: graph.NewHandler(f.svc, graph.Config{}),
		BodyLimit: testBodyLimit, BodiesInFlight: testBodyLimit, BodyWait: wait})
}

// holdingRun is a POST /run of a body that declares length bytes (-1:
// none) and arrives when its heldBody opens.
func holdingRun(body *heldBody, length int64) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/run", body)
	r.ContentLength = length
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("x-api-key", adminKey)
	return r
}

// fillingRun is a run whose body, padded with spaces, is as long as the
// body limit: alone it fills the bound.
func fillingRun() string {
	return bodyRun + strings.Repeat(" ", testBodyLimit-len(bodyRun))
}

func (f *fixture) sendAsync(r *http.Request) chan *httptest.ResponseRecorder {
	done := make(chan *httptest.ResponseRecorder, 1)
	go func() { done <- f.send(r) }()
	return done
}

// waitUntil yields until cond holds: what it waits for is another
// goroutine's next step, which comes without any timer.
func waitUntil(cond func() bool) {
	for !cond() {
		runtime.Gosched()
	}
}

func TestABodyWaitsForRoomInTheBodiesInFlight(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.boundedBodies(time.Hour)
		first, second := newHeldBody(fillingRun()), newHeldBody(bodyRun)
		close(second.open)
		firstDone := f.sendAsync(holdingRun(first, testBodyLimit))
		<-first.started
		if got := f.srv.bodies.Held(); got != testBodyLimit {
			t.Fatalf("the first body holds %d bytes of the bound, want its Content-Length, %d", got, testBodyLimit)
		}
		secondDone := f.sendAsync(holdingRun(second, int64(len(bodyRun))))
		waitUntil(func() bool { return f.srv.bodies.Waiting() == 1 })
		if closed(second.started) {
			t.Fatal("the second body was read while the first held the whole bound")
		}
		close(first.open)
		wantStatus(t, <-firstDone, http.StatusOK)
		wantStatus(t, <-secondDone, http.StatusOK)
		if got := f.srv.bodies.Held(); got != 0 {
			t.Errorf("the bound holds %d bytes once both requests are answered, want 0", got)
		}
	})
}

func TestABodyThatFindsNoRoomWithinTheWaitIsRefusedWith503(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.boundedBodies(time.Nanosecond)
		first := newHeldBody(fillingRun())
		firstDone := f.sendAsync(holdingRun(first, testBodyLimit))
		<-first.started

		w := f.run(bodyRun, key(adminKey)...)
		wantError(t, w, http.StatusServiceUnavailable, service.CodeUnavailable)
		if got := w.Header().Get("Retry-After"); got != "1" {
			t.Errorf("Retry-After %q, want 1", got)
		}
		if !strings.Contains(w.Body.String(), "request bodies") {
			t.Errorf("the refusal %s does not say what the server is short of", w.Body)
		}

		doc, _ := json.Marshal(map[string]string{"query": "{ viewer { role } }"})
		w = f.do(http.MethodPost, "/graphql", strings.NewReader(string(doc)), append(key(adminKey), "Content-Type", "application/json")...)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
			t.Errorf("GraphQL: status %d, Retry-After %q; want 503 and 1; body %s", w.Code, w.Header().Get("Retry-After"), w.Body)
		}
		var answer struct {
			Errors []struct{ Extensions struct{ Code string } }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil || len(answer.Errors) != 1 || answer.Errors[0].Extensions.Code != string(service.CodeUnavailable) {
			t.Errorf("GraphQL answered %s, want one error of code unavailable", w.Body)
		}

		close(first.open)
		wantStatus(t, <-firstDone, http.StatusOK)
		// The bound is free again once the first request is answered.
		wantStatus(t, f.run(bodyRun, key(adminKey)...), http.StatusOK)
		w = f.do(http.MethodPost, "/graphql", strings.NewReader(string(doc)), append(key(adminKey), "Content-Type", "application/json")...)
		wantStatus(t, w, http.StatusOK)
	})
}

// TestTheBodiesInFlightAreGivenBackHoweverARequestEnds fills the bound
// with each request in turn, then sends one that needs the whole bound:
// it finds room only if the one before gave back what it held, and it
// waits for none.
func TestTheBodiesInFlightAreGivenBackHoweverARequestEnds(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.boundedBodies(time.Nanosecond)
		f.srv.handle("POST /test/panic-after-body", authenticated, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			if _, err := f.srv.readBody(r); err != nil {
				t.Errorf("reading the body: %v", err)
			}
			panic("after the body")
		}))
		unknownLength := func(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) }
		graphQL := append(key(adminKey), "Content-Type", "application/json")
		for _, c := range []struct {
			name   string
			send   func() *httptest.ResponseRecorder
			status int
		}{
			{"an answer", func() *httptest.ResponseRecorder { return f.run(fillingRun(), key(adminKey)...) }, http.StatusOK},
			{"a body that is not JSON", func() *httptest.ResponseRecorder {
				return f.run("{"+strings.Repeat(" ", testBodyLimit-1), key(adminKey)...)
			}, http.StatusBadRequest},
			{"a body of unknown length past the limit", func() *httptest.ResponseRecorder {
				return f.do(http.MethodPost, "/run", unknownLength(strings.Repeat(" ", 2*testBodyLimit)), key(adminKey)...)
			}, http.StatusRequestEntityTooLarge},
			{"a body of unknown length", func() *httptest.ResponseRecorder {
				return f.do(http.MethodPost, "/run", unknownLength(bodyRun), key(adminKey)...)
			}, http.StatusOK},
			{"a body shorter than its Content-Length", func() *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodPost, "/run", strings.NewReader(bodyRun))
				r.ContentLength = testBodyLimit
				r.Header.Set("x-api-key", adminKey)
				return f.send(r)
			}, http.StatusBadRequest},
			{"a panic", func() *httptest.ResponseRecorder {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodPost, "/test/panic-after-body", strings.NewReader(fillingRun()))
				r.Header.Set("x-api-key", adminKey)
				f.srv.ServeHTTP(w, r)
				return w
			}, http.StatusInternalServerError},
			{"a GraphQL document", func() *httptest.ResponseRecorder {
				doc, _ := json.Marshal(map[string]string{"query": "{ viewer { role } }" + strings.Repeat(" ", testBodyLimit-64)})
				return f.do(http.MethodPost, "/graphql", strings.NewReader(string(doc)), graphQL...)
			}, http.StatusOK},
			{"a GraphQL body that is not an operation", func() *httptest.ResponseRecorder {
				return f.do(http.MethodPost, "/graphql", strings.NewReader(`{"query": 1}`+strings.Repeat(" ", testBodyLimit-12)), graphQL...)
			}, http.StatusBadRequest},
		} {
			t.Run(c.name, func(t *testing.T) {
				if w := c.send(); w.Code != c.status {
					t.Fatalf("status %d, want %d; body %s", w.Code, c.status, w.Body)
				}
				if got := f.srv.bodies.Held(); got != 0 {
					t.Errorf("the bound holds %d bytes once the request ended, want 0", got)
				}
				wantStatus(t, f.run(fillingRun(), key(adminKey)...), http.StatusOK)
			})
		}
	})
}

func TestABodyOfUnknownLengthIsChargedTheLimitUntilItIsRead(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.boundedBodies(time.Nanosecond)
		afterRead := make(chan int64, 1)
		f.srv.handle("POST /test/held", authenticated, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, err := f.srv.readBody(r)
			if err != nil {
				f.srv.writeError(w, r, err)
				return
			}
			afterRead <- f.srv.bodies.Held()
			fmt.Fprint(w, len(body))
		}))
		chunked := newHeldBody(`{"a": 1}`)
		r := httptest.NewRequest(http.MethodPost, "/test/held", chunked)
		r.Header.Set("x-api-key", adminKey)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { f.srv.ServeHTTP(w, r); close(done) }()
		<-chunked.started
		if got := f.srv.bodies.Held(); got != testBodyLimit {
			t.Errorf("while it is read, a body of unknown length holds %d bytes, want the body limit, %d", got, testBodyLimit)
		}
		close(chunked.open)
		if got := <-afterRead; got != int64(len(`{"a": 1}`)) {
			t.Errorf("once read, it holds %d bytes, want its length, %d", got, len(`{"a": 1}`))
		}
		<-done
		if w.Code != http.StatusOK || f.srv.bodies.Held() != 0 {
			t.Errorf("status %d, the bound holding %d bytes after; want 200 and 0", w.Code, f.srv.bodies.Held())
		}
	})
}

func TestTheBodiesInFlightAreNeverBelowTheBodyLimit(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want int64
	}{
		{Config{}, bodiesInFlightPerLimit * DefaultBodyLimit},
		{Config{BodyLimit: 1000}, bodiesInFlightPerLimit * 1000},
		{Config{BodyLimit: 1000, BodiesInFlight: 10}, 1000},
		{Config{BodyLimit: 1000, BodiesInFlight: 5000}, 5000},
	} {
		if got := newServer(nil, c.cfg).bodies.Size(); got != c.want {
			t.Errorf("%+v: bodies in flight %d, want %d", c.cfg, got, c.want)
		}
	}
}
