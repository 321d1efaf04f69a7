package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/service"
)

// testDecisionTimeout replaces the authorizer's 250 ms production deadline in
// tests: under the race detector on a loaded machine an embedded decision can
// take longer, and a test must not depend on that. The fail-closed timeout is
// tested with an unreachable remote authorizer instead.
const testDecisionTimeout = time.Minute

const adminKey = "rest-test-bootstrap-key-0123456789abcdef"

// embedded is one compiled authorizer for the whole test binary: it is safe
// for concurrent use and its decisions depend only on their input.
var embedded = sync.OnceValues(func() (authz.Authorizer, error) { return authz.NewEmbedded(authz.WithTimeout(testDecisionTimeout)) })

// fixture is a service on a test database, bootstrapped with Acme and its
// admin key, behind the HTTP surface.
type fixture struct {
	db   *database.DB
	svc  *service.Service
	reg  *prometheus.Registry
	srv  *server
	acme *service.Bootstrapped
	logs *logBuffer
	// t reports responses that depart from openapi.json; contract is
	// that document.
	t        testing.TB
	contract *contract
}

type setup struct {
	cfg          Config
	authorizer   authz.Authorizer
	bootstrapped bool
	logsDropped  bool
}

func withConfig(fn func(*Config)) func(*setup) { return func(s *setup) { fn(&s.cfg) } }

func withAuthorizer(az authz.Authorizer) func(*setup) {
	return func(s *setup) { s.authorizer = az }
}

// logsDropped formats logs as usual but keeps none, for benchmarks: a
// buffer would grow with every request.
func logsDropped(s *setup) { s.logsDropped = true }

// unbootstrapped leaves the database as it is, for databases that have no
// tables to bootstrap into.
func unbootstrapped(s *setup) { s.bootstrapped = false }

func newFixture(t testing.TB, db *database.DB, opts ...func(*setup)) *fixture {
	t.Helper()
	st := setup{bootstrapped: true}
	for _, opt := range opts {
		opt(&st)
	}
	if st.authorizer == nil {
		az, err := embedded()
		if err != nil {
			t.Fatal(err)
		}
		st.authorizer = az
	}
	f := &fixture{db: db, reg: prometheus.NewRegistry(), logs: &logBuffer{}, t: t, contract: contractOf(t)}
	var err error
	f.svc, err = service.New(service.Config{DB: db, Authorizer: st.authorizer, Registerer: f.reg})
	if err != nil {
		t.Fatal(err)
	}
	if st.bootstrapped {
		f.acme, err = f.svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
			Organization: "Acme", Email: "admin@acme.test", Name: "Ada", Key: adminKey})
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := st.cfg
	var logs io.Writer = f.logs
	if st.logsDropped {
		logs = io.Discard
	}
	cfg.Logger = slog.New(requestid.NewHandler(slog.NewJSONHandler(logs, nil)))
	cfg.Registerer = f.reg
	f.srv = newServer(f.svc, cfg)
	return f
}

// do sends a request through the whole handler. header holds name, value
// pairs. Every response must match openapi.json: a departure fails the
// test (with Errorf, as requests may come from other goroutines).
func (f *fixture) do(method, path string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, body)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	return f.send(r)
}

// send serves a request built by the test, checking the answer against
// openapi.json as do does.
func (f *fixture) send(r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	f.srv.ServeHTTP(w, r)
	if problems := f.contract.check(f.srv, r, w); len(problems) > 0 {
		f.t.Errorf("%s %s answered %d %s, which openapi.json does not allow:\n%s",
			r.Method, r.URL, w.Code, w.Body, strings.Join(problems, "\n"))
	}
	return w
}

// run posts a JSON body to /run.
func (f *fixture) run(body string, header ...string) *httptest.ResponseRecorder {
	return f.do(http.MethodPost, "/run", strings.NewReader(body), append([]string{"Content-Type", "application/json"}, header...)...)
}

func key(secret string) []string { return []string{"x-api-key", secret} }

// wantError checks that w is an error of the API's one shape, with this
// status and code.
func wantError(t *testing.T, w *httptest.ResponseRecorder, status int, code service.Code) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	if w.Header().Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id on the error response")
	}
	var body struct {
		Error struct {
			Code    service.Code `json:"code"`
			Message string       `json:"message"`
		} `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("error body %q is not {\"error\": {\"code\", \"message\"}}: %v", w.Body, err)
	}
	if body.Error.Code != code {
		t.Errorf("error code %q, want %q; message %q", body.Error.Code, code, body.Error.Message)
	}
	if body.Error.Message == "" {
		t.Error("error without a message")
	}
}

func wantStatus(t *testing.T, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body %s", w.Code, status, w.Body)
	}
}

// rowCounts counts the rows of every table, to show a request changed
// nothing.
func rowCounts(t *testing.T, db *database.DB) map[string]int {
	t.Helper()
	ctx := context.Background()
	c := db.Client()
	counts := map[string]int{}
	for table, count := range map[string]func(context.Context) (int, error){
		"organizations": c.Organization.Query().Count,
		"users":         c.User.Query().Count,
		"memberships":   c.Membership.Query().Count,
		"api keys":      c.APIKey.Query().Count,
		"bases":         c.Base.Query().Count,
		"records":       c.Record.Query().Count,
		"groups":        c.Group.Query().Count,
		"group members": c.GroupMember.Query().Count,
		"audit events":  c.AuditEvent.Query().Count,
		"decisions":     c.DecisionRecord.Query().Count,
	} {
		n, err := count(ctx)
		if err != nil {
			t.Fatalf("counting %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

// logBuffer collects JSON log lines from concurrent handlers.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the logged records with this message.
func (b *logBuffer) lines(t *testing.T, msg string) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

// wantMessage checks that w is an error with this status, code and
// message.
func wantMessage(t *testing.T, w *httptest.ResponseRecorder, status int, code service.Code, message string) {
	t.Helper()
	wantError(t, w, status, code)
	var body errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Message != message {
		t.Errorf("message %q (%v), want %q", body.Error.Message, err, message)
	}
}
