package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/spf13/pflag"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/faultproxy"
	"github.com/verdict/verdict/internal/requestid"
)

// testTimeout bounds every wait of these tests; none is expected to come
// close.
const testTimeout = 30 * time.Second

// withTestTimeouts gives a server the tests start a minute per
// authorization decision and per PostgreSQL read or write, as the other
// packages' tests do, unless args set them: the production 250 ms and 2 s
// fail on a loaded machine (a PostgreSQL backend has been seen to take
// over 2 s to start), and would make a test fail by timing.
func withTestTimeouts(args []string) []string {
	args = withTestDatabaseTimeout(args)
	if !slices.Contains(args, "--authz-timeout") {
		args = append(args, "--authz-timeout", time.Minute.String())
	}
	return args
}

// withTestDatabaseTimeout gives a command a minute per PostgreSQL read or
// write unless args set one, for the same reason.
func withTestDatabaseTimeout(args []string) []string {
	args = slices.Clip(args)
	if !slices.Contains(args, "--database-timeout") {
		args = append(args, "--database-timeout", time.Minute.String())
	}
	return args
}

// shutdownTimeout is the --shutdown-timeout the tests serve with, and how
// long a test's cleanup gives a server process to exit before it kills it.
const shutdownTimeout = 5 * time.Second

const seniorDiscount = `A **Person** gets senior_discount if the __age__ of the **Person** is at least 65.`

// syncBuffer collects what the server writes while the test reads it, and
// wakes readers on every write, so tests wait for output without polling.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed and replaced on every write
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{written: make(chan struct{})} }

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.written)
	b.written = make(chan struct{})
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor returns the first match of re in the buffer, waiting for it to be
// written; nil when exited is closed or testTimeout passes first.
func (b *syncBuffer) waitFor(re *regexp.Regexp, exited <-chan struct{}) []string {
	deadline := time.After(testTimeout)
	for {
		b.mu.Lock()
		m := re.FindStringSubmatch(b.buf.String())
		written := b.written
		b.mu.Unlock()
		if m != nil {
			return m
		}
		select {
		case <-written:
		case <-exited:
			// The last writes happen before the exit: look once more.
			return re.FindStringSubmatch(b.String())
		case <-deadline:
			return nil
		}
	}
}

// testServer is `verdict serve` running in-process.
type testServer struct {
	base           string
	stdout, stderr *syncBuffer
	cancel         context.CancelFunc
	exited         chan struct{}
	code           int // valid once exited is closed
	client         *http.Client
}

var listening = regexp.MustCompile(`Verdict listening on (http://\S+)\n`)

// startServer runs `verdict serve` with args and waits until it listens.
// The server is stopped when t ends, if the test has not stopped it.
func startServer(t *testing.T, args ...string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &testServer{
		stdout: newSyncBuffer(),
		stderr: newSyncBuffer(),
		cancel: cancel,
		exited: make(chan struct{}),
		client: &http.Client{Transport: &http.Transport{}, Timeout: testTimeout},
	}
	go func() {
		defer close(s.exited)
		s.code = runContext(ctx, append([]string{"serve"}, withTestTimeouts(args)...), strings.NewReader(""), s.stdout, s.stderr)
	}()
	t.Cleanup(func() {
		s.client.CloseIdleConnections()
		cancel()
		<-s.exited
	})
	m := s.stdout.waitFor(listening, s.exited)
	if m == nil {
		t.Fatalf("the server did not start listening\nstdout:\n%s\nstderr:\n%s", s.stdout, s.stderr)
	}
	s.base = m[1]
	return s
}

// stop cancels the server's context, as SIGINT would, and returns its exit
// status, failing t unless it exits within testTimeout. The server may
// spend up to its shutdown timeout on requests and then stores its audit
// events and closes the database: a loaded machine may take longer than
// the shutdown timeout for all of it, so that is not the bound.
func (s *testServer) stop(t *testing.T) int {
	t.Helper()
	s.client.CloseIdleConnections()
	s.cancel()
	select {
	case <-s.exited:
		return s.code
	case <-time.After(testTimeout):
		t.Fatalf("the server did not exit within %s\nstderr:\n%s", testTimeout, s.stderr)
		return -1
	}
}

func (s *testServer) do(t *testing.T, method, path, key, body string) (int, []byte) {
	t.Helper()
	status, b, err := s.request(method, path, key, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return status, b
}

// doAs is do for a request whose X-Request-Id is id, to find its log
// lines by.
func (s *testServer) doAs(t *testing.T, id, method, path, key, body string) (int, []byte) {
	t.Helper()
	req, err := s.newRequest(method, path, key, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Request-Id", id)
	status, b, err := s.send(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return status, b
}

// request is do for goroutines other than the test's.
func (s *testServer) request(method, path, key, body string) (int, []byte, error) {
	req, err := s.newRequest(method, path, key, body)
	if err != nil {
		return 0, nil, err
	}
	return s.send(req)
}

func (s *testServer) newRequest(method, path, key, body string) (*http.Request, error) {
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	return req, nil
}

func (s *testServer) send(req *http.Request) (int, []byte, error) {
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func runBody(t *testing.T, age int) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"rule": seniorDiscount, "data": map[string]any{"Person": map[string]any{"age": age}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkRunTrue(t *testing.T, status int, body []byte) {
	t.Helper()
	var res struct {
		Result bool    `json:"result"`
		Error  *string `json:"error"`
	}
	if err := json.Unmarshal(body, &res); status != http.StatusOK || err != nil || !res.Result || res.Error != nil {
		t.Errorf("POST /run: status %d, body %s; want 200 and result true", status, body)
	}
}

func checkErrorCode(t *testing.T, status int, body []byte, wantStatus int, wantCode string) {
	t.Helper()
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); status != wantStatus || err != nil || e.Error.Code != wantCode {
		t.Errorf("status %d, body %s; want %d %s", status, body, wantStatus, wantCode)
	}
}

// serveArgs are the flags every test serves with.
func serveArgs(dbURL string, more ...string) []string {
	return append([]string{"--addr", "127.0.0.1:0", "--database-url", dbURL, "--shutdown-timeout", shutdownTimeout.String()}, more...)
}

func TestServe(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	dbURL := "sqlite://" + t.TempDir() + "/v.db"
	key := "serve-test-bootstrap-key-0123456789"

	s := startServer(t, serveArgs(dbURL, "--bootstrap-key", key)...)
	if !strings.HasPrefix(s.base, "http://127.0.0.1:") || strings.HasSuffix(s.base, ":0") {
		t.Errorf("printed address %s, want the real one", s.base)
	}
	out := s.stdout.String()
	if got := printedSecret(t, out, s.stderr.String()); got != key {
		t.Errorf("printed key %q, want the bootstrap key", got)
	}
	if want := "Verdict listening on " + s.base + "\nOpen the console: " + s.base + "/console/\n"; !strings.HasPrefix(out, want) {
		t.Errorf("the output does not begin with the console's URL:\n%s", out)
	}
	for _, want := range []string{"organization  Default (", "admin         admin@localhost (", "curl -H 'x-api-key: <key>'", s.base + "/run"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}

	t.Run("the console is served without a key", func(t *testing.T) {
		if status, body := s.do(t, "GET", "/console/policies", "", ""); status != http.StatusOK || !strings.Contains(string(body), `<div id="root">`) {
			t.Errorf("GET /console/policies: %d %s", status, body)
		}
	})
	t.Run("health and readiness need no key", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz"} {
			if status, body := s.do(t, "GET", path, "", ""); status != http.StatusOK {
				t.Errorf("GET %s: %d %s", path, status, body)
			}
		}
	})
	t.Run("POST /run evaluates with the bootstrap key", func(t *testing.T) {
		status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
		checkRunTrue(t, status, body)
	})
	t.Run("POST /run without a key is unauthenticated", func(t *testing.T) {
		status, body := s.do(t, "POST", "/run", "", runBody(t, 70))
		checkErrorCode(t, status, body, http.StatusUnauthorized, "unauthenticated")
	})
	t.Run("a body above --body-limit is refused", func(t *testing.T) {
		status, body := s.do(t, "POST", "/run", key, `{"rule": "`+strings.Repeat("x", 1<<20)+`", "data": {}}`)
		checkErrorCode(t, status, body, http.StatusRequestEntityTooLarge, "payload_too_large")
	})
	t.Run("GraphQL is mounted behind the key, its playground in front", func(t *testing.T) {
		if status, body := s.do(t, "POST", "/graphql", key, `{"query": "{ __typename }"}`); status != http.StatusOK || !strings.Contains(string(body), `"__typename":"Query"`) {
			t.Errorf("POST /graphql: %d %s", status, body)
		}
		// Refused before GraphQL runs, in GraphQL's shape.
		status, body := s.do(t, "POST", "/graphql", "", `{"query": "{ __typename }"}`)
		if status != http.StatusUnauthorized || !strings.Contains(string(body), `"extensions":{"code":"unauthenticated"}`) {
			t.Errorf("POST /graphql without a key: %d %s", status, body)
		}
		if status, body := s.do(t, "GET", "/playground", "", ""); status != http.StatusOK || !strings.Contains(string(body), "/graphql") {
			t.Errorf("GET /playground: %d", status)
		}
		if status, _ := s.do(t, "GET", "/playground/graphiql.min.js", "", ""); status != http.StatusOK {
			t.Errorf("GET /playground/graphiql.min.js: %d", status)
		}
	})
	t.Run("metrics cover the runtime, the process, the database pool, the build, HTTP and the service", func(t *testing.T) {
		status, body := s.do(t, "GET", "/metrics", "", "")
		for _, want := range []string{
			"go_goroutines ", "process_start_time_seconds ", "verdict_http_requests_total{", "verdict_evaluations_total{",
			`go_sql_open_connections{db_name="sqlite3"} `, `go_sql_in_use_connections{db_name="sqlite3"} `,
			`go_sql_idle_connections{db_name="sqlite3"} `, `go_sql_wait_count_total{db_name="sqlite3"} `,
			`go_sql_wait_duration_seconds_total{db_name="sqlite3"} `, `verdict_build_info{go_version="` + runtime.Version() + `"`,
			`verdict_graphql_operations_total{operation="anonymous",result="ok"}`,
		} {
			if status != http.StatusOK || !strings.Contains(string(body), want) {
				t.Errorf("GET /metrics (%d) lacks %q", status, want)
			}
		}
	})

	if code := s.stop(t); code != 0 {
		t.Fatalf("exit %d after cancel; stderr:\n%s", code, s.stderr)
	}
	for _, want := range []string{`msg="database migrated"`, "msg=serving", `msg="http request" method=POST route="POST /run"`, `msg="shutting down"`, "msg=stopped"} {
		if !strings.Contains(s.stderr.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, s.stderr)
		}
	}
	if strings.Contains(s.stderr.String(), key) {
		t.Error("the key is logged")
	}

	t.Run("a second start does not bootstrap again", func(t *testing.T) {
		s := startServer(t, serveArgs(dbURL, "--bootstrap-key", "another-bootstrap-key-0123456789abcdef", "--log-format", "json")...)
		out := s.stdout.String()
		if strings.Contains(out, "shown this once") || strings.Contains(out, "another-bootstrap-key") {
			t.Errorf("the second start printed a key:\n%s", out)
		}
		hint := "verdict admin key create --database-url " + dbURL + " --org Default --scope admin [--user-email EMAIL]"
		if !strings.Contains(out, "\nTo create an API key (against the same database):\n\n    "+hint+"\n\n") {
			t.Errorf("the second start does not tell how to create a key on its database:\n%s", out)
		}
		status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
		checkRunTrue(t, status, body)
		if code := s.stop(t); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
		}
		if !strings.Contains(s.stderr.String(), `"msg":"bootstrap key not used: the database has organizations already"`) {
			t.Errorf("the JSON log does not say the bootstrap key went unused:\n%s", s.stderr)
		}
		st := readStored(t, openTestDatabase(t, dbURL))
		if len(st.orgs) != 1 || len(st.users) != 1 || len(st.keys) != 1 {
			t.Errorf("the second start stored more:\n%s", strings.Join(st.rows(), "\n"))
		}

		// As printed, the path needs no quotes: the words are the arguments.
		args := strings.Fields(strings.TrimPrefix(strings.ReplaceAll(hint, " [--user-email EMAIL]", ""), "verdict "))
		if code, stdout, stderr := runVerdict(t, "", args...); code != 0 || !strings.Contains(stdout, "created key ") {
			t.Fatalf("the printed command: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		if st := readStored(t, openTestDatabase(t, dbURL)); len(st.keys) != 2 || st.keys[1].Scope != "admin" {
			t.Errorf("the printed command did not create an admin key on the server's database:\n%s", strings.Join(st.rows(), "\n"))
		}
	})
}

func TestKeyHintNamesTheDatabaseWithoutItsPassword(t *testing.T) {
	const (
		command = "To create an API key (against the same database):\n\n    verdict admin key create"
		rest    = " --scope admin [--user-email EMAIL]\n\n"
		note    = "*** stands for the database password, which is not shown.\n\n"
	)
	tests := []struct{ name, dbURL, org, want string }{
		{"the default database goes unnamed", database.DefaultURL, "Default", command + " --org Default" + rest},
		{"another SQLite file is named", "sqlite://tour.db", "Default", command + " --database-url sqlite://tour.db --org Default" + rest},
		{"a path with spaces and quotes is quoted", "sqlite:///srv/Ann's data/v.db", "Acme & Co",
			command + ` --database-url 'sqlite:///srv/Ann'\''s data/v.db' --org 'Acme & Co'` + rest},
		{"PostgreSQL without a password is named as given", "postgres://verdict@db:5432/verdict?sslmode=disable", "ORG",
			command + " --database-url 'postgres://verdict@db:5432/verdict?sslmode=disable' --org ORG" + rest},
		{"the password of the user part is hidden", "postgres://verdict:s3cret@db:5432/verdict?sslmode=disable", "Default",
			command + " --database-url 'postgres://verdict:***@db:5432/verdict?sslmode=disable' --org Default" + rest + note},
		{"the password parameter is hidden", "postgresql://verdict@db/verdict?password=s3cret&sslmode=require", "Default",
			command + " --database-url 'postgresql://verdict@db/verdict?password=***&sslmode=require' --org Default" + rest + note},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keyHint(tt.dbURL, tt.org); got != tt.want {
				t.Errorf("keyHint(%q, %q) =\n%s\nwant\n%s", tt.dbURL, tt.org, got, tt.want)
			}
		})
	}
}

func TestShellQuoteRoundTripsThroughTheShell(t *testing.T) {
	for _, s := range []string{"Default", "sqlite:///tmp/v.db", "Acme & Co", "Ann's", "$HOME `id` \\ \"*\"", "a\nb", ""} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh read %s as %q (%v), want %q", shellQuote(s), out, err, s)
		}
	}
}

func TestServeOnEachDatabase(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		key := "serve-test-bootstrap-key-0123456789"
		s := startServer(t, serveArgs(dbURL, "--bootstrap-key", key)...)
		if status, body := s.do(t, "GET", "/readyz", "", ""); status != http.StatusOK {
			t.Errorf("GET /readyz: %d %s", status, body)
		}
		status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
		checkRunTrue(t, status, body)
		if code := s.stop(t); code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
		}
		st := readStored(t, openTestDatabase(t, dbURL))
		if len(st.orgs) != 1 || st.orgs[0].Name != "Default" || len(st.users) != 1 || st.users[0].Email != "admin@localhost" || len(st.keys) != 1 {
			t.Fatalf("stored after the bootstrap at start:\n%s", strings.Join(st.rows(), "\n"))
		}
		checkStoredAsHash(t, openTestDatabase(t, dbURL), st.keys[0], key)
	})
}

func TestServeMakesABootstrapKeyFromTheEnvironmentOrAtRandom(t *testing.T) {
	t.Run("from VERDICT_BOOTSTRAP_KEY", func(t *testing.T) {
		key := "environment-bootstrap-key-0123456789"
		t.Setenv(envBootstrapKey, key)
		s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db")...)
		if got := printedSecret(t, s.stdout.String(), s.stderr.String()); got != key {
			t.Errorf("printed key %q, want $%s", got, envBootstrapKey)
		}
		status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
		checkRunTrue(t, status, body)
	})
	t.Run("at random", func(t *testing.T) {
		t.Setenv(envBootstrapKey, "")
		s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db")...)
		key := printedSecret(t, s.stdout.String(), s.stderr.String())
		status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
		checkRunTrue(t, status, body)
	})
}

// The OPA server's URL is logged as the authorizer, its password hidden
// as a database's is.
func TestServeLogsTheOPAURLWithoutItsPassword(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key,
		"--opa-url", "http://opauser:opa-password@127.0.0.1:1/")...)
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	logged := s.stdout.String() + s.stderr.String()
	if strings.Contains(logged, "opa-password") || !strings.Contains(logged, "authorizer=http://opauser:***@127.0.0.1:1/") {
		t.Errorf("the log shows the OPA URL's password, or not the URL:\n%s", logged)
	}
}

func TestServeFailsClosedWithoutItsAuthorizer(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--opa-url", "http://127.0.0.1:1")...)
	status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
	checkErrorCode(t, status, body, http.StatusServiceUnavailable, "authorization_unavailable")
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// An authorizer that does not answer within --authz-timeout fails the
// request closed, as one that cannot be reached does, and the flag's help
// says so.
func TestServeFailsClosedWhenTheAuthorizerIsTooSlow(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	opaURL, _, _ := blockingOPA(t, anyAction)
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--opa-url", opaURL, "--authz-timeout", "100ms")...)
	status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
	checkErrorCode(t, status, body, http.StatusServiceUnavailable, "authorization_unavailable")

	const usage = "how long one authorization decision may take before the request fails with 503 authorization_unavailable (default 250ms)"
	if got := newServeCommand().Flags().Lookup("authz-timeout").Usage; got != usage {
		t.Errorf("--authz-timeout's help is %q, want %q", got, usage)
	}
}

// blockingOPA stands in for an OPA server that allows everything, but
// answers the decisions holds picks only once release is called (anyAction
// holds them all). arrived receives when a held decision is asked for.
func blockingOPA(t *testing.T, holds func(action string) bool) (opaURL string, arrived <-chan struct{}, release func()) {
	t.Helper()
	asked := make(chan struct{}, 1)
	released := make(chan struct{})
	var once sync.Once
	opa := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Input struct{ Action string } }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || holds(body.Input.Action) {
			select {
			case asked <- struct{}{}:
			default:
			}
			<-released
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"result": {"allow": true, "reason": ""}}`)
	}))
	release = func() { once.Do(func() { close(released) }) }
	t.Cleanup(opa.Close)
	t.Cleanup(release)
	return opa.URL, asked, release
}

func anyAction(string) bool { return true }

// The request is held in flight by an OPA stand-in that answers only when
// the test says so, after shutdown has begun: no sleeps. The shutdown
// timeout is testTimeout, so that however long the test takes between
// starting the shutdown and releasing the request, the request is not cut
// off.
func TestServeFinishesRequestsInFlightAtShutdown(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	opaURL, arrived, release := blockingOPA(t, anyAction)

	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--opa-url", opaURL,
		"--authz-timeout", testTimeout.String(), "--shutdown-timeout", testTimeout.String())...)

	type answer struct {
		status int
		body   []byte
		err    error
	}
	answered := make(chan answer, 1)
	body := runBody(t, 70)
	go func() {
		status, body, err := s.request("POST", "/run", key, body)
		answered <- answer{status, body, err}
	}()
	select {
	case <-arrived:
	case <-time.After(testTimeout):
		t.Fatal("the request never reached the authorizer")
	}

	s.cancel()
	if s.stderr.waitFor(regexp.MustCompile(`msg="stopped accepting connections; waiting for requests in flight"`), s.exited) == nil {
		t.Fatalf("the server did not start shutting down; stderr:\n%s", s.stderr)
	}
	select {
	case <-s.exited:
		t.Fatal("the server exited with a request in flight")
	default:
	}
	if conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://")); err == nil {
		conn.Close()
		t.Error("the server accepts connections while shutting down")
	}
	release()

	select {
	case a := <-answered:
		if a.err != nil {
			t.Fatalf("the request in flight failed: %v", a.err)
		}
		checkRunTrue(t, a.status, a.body)
	case <-time.After(testTimeout):
		t.Fatal("the request in flight got no answer")
	}
	select {
	case <-s.exited:
		if s.code != 0 {
			t.Errorf("exit %d; stderr:\n%s", s.code, s.stderr)
		}
	case <-time.After(testTimeout):
		t.Fatal("the server did not exit after its last request")
	}
}

// The shutdown's lines are all logged, in the order of its steps, though
// net/http tells of the closed listener from a goroutine of its own.
func TestServeLogsTheStepsOfItsShutdownInOrder(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--log-format", "json")...)
	if code := s.stop(t); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
	}
	steps := map[string]bool{"shutting down": true, "stopped accepting connections; waiting for requests in flight": true, "stopped": true}
	var logged []string
	for line := range strings.Lines(s.stderr.String()) {
		var l struct{ Msg string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("a log line that is not JSON: %q", line)
		}
		if steps[l.Msg] {
			logged = append(logged, l.Msg)
		}
	}
	if want := []string{"shutting down", "stopped accepting connections; waiting for requests in flight", "stopped"}; !slices.Equal(logged, want) {
		t.Errorf("the shutdown logged %q, want %q; stderr:\n%s", logged, want, s.stderr)
	}
}

func TestServeFailsWhenRequestsOutliveTheShutdownTimeout(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	opaURL, arrived, _ := blockingOPA(t, anyAction)
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, "--addr", "127.0.0.1:0", "--database-url", "sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key,
		"--opa-url", opaURL, "--authz-timeout", testTimeout.String(), "--shutdown-timeout", "50ms")
	failed := make(chan error, 1)
	body := runBody(t, 70)
	go func() {
		_, _, err := s.request("POST", "/run", key, body)
		failed <- err
	}()
	select {
	case <-arrived:
	case <-time.After(testTimeout):
		t.Fatal("the request never reached the authorizer")
	}
	if code := s.stop(t); code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	if !strings.Contains(s.stderr.String(), "verdict: shutdown: requests in flight did not finish within 50ms\n") {
		t.Errorf("stderr:\n%s", s.stderr)
	}
	if err := <-failed; err == nil {
		t.Error("the request cut off at shutdown got an answer")
	}
}

// TestServeStoresTheQueuedEventsWhenRequestsOutliveTheShutdownTimeout:
// runs answered while PostgreSQL held their events back are stored at
// shutdown, though a request outlived the timeout and the server exits 1.
func TestServeStoresTheQueuedEventsWhenRequestsOutliveTheShutdownTimeout(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	eachDatabaseURL(t, func(t *testing.T, dbURL string) {
		if !strings.HasPrefix(dbURL, "postgres") {
			t.Skip("SQLite has no lock that holds the audit inserts back and not the runs")
		}
		// Lists wait for their decisions; runs do not.
		opaURL, viewing, _ := blockingOPA(t, func(action string) bool { return action == "view" })
		key := "serve-test-bootstrap-key-0123456789"
		s := startServer(t, "--addr", "127.0.0.1:0", "--database-url", dbURL, "--bootstrap-key", key,
			"--opa-url", opaURL, "--shutdown-timeout", "50ms")
		// The audit inserts wait behind this lock; the runs do not.
		ctx := context.Background()
		lock, err := openTestDatabase(t, dbURL).SQL().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer lock.Rollback()
		if _, err := lock.ExecContext(ctx, "LOCK TABLE audit_executions IN ACCESS EXCLUSIVE MODE"); err != nil {
			t.Fatal(err)
		}
		created, err := json.Marshal(map[string]string{"name": "Senior discount", "rule": seniorDiscount})
		if err != nil {
			t.Fatal(err)
		}
		status, body := s.do(t, "POST", "/policy", key, string(created))
		var policy struct{ ID, BaseID string }
		if err := json.Unmarshal(body, &policy); status != http.StatusCreated || err != nil {
			t.Fatalf("creating the policy: %d %s", status, body)
		}
		if status, body := s.do(t, "PUT", "/policy/"+policy.ID, key, `{"status": "published"}`); status != http.StatusCreated {
			t.Fatalf("publishing the policy: %d %s", status, body)
		}
		const runs = 5
		for range runs {
			status, body := s.do(t, "POST", "/run/policy/"+policy.BaseID, key, `{"data": {"Person": {"age": 70}}}`)
			checkRunTrue(t, status, body)
		}
		go s.request("GET", "/policies", key, "")
		select {
		case <-viewing:
		case <-time.After(testTimeout):
			t.Fatal("the list request never reached the authorizer")
		}
		s.cancel()
		if s.stderr.waitFor(regexp.MustCompile(`requests in flight did not finish in time`), s.exited) == nil {
			t.Fatalf("the shutdown did not give up on the request in flight; stderr:\n%s", s.stderr)
		}
		if err := lock.Rollback(); err != nil {
			t.Fatal(err)
		}
		if code := s.stop(t); code != exitFailure {
			t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFailure, s.stderr)
		}
		var stored int
		if err := openTestDatabase(t, dbURL).SQL().QueryRowContext(ctx, "SELECT count(*) FROM audit_executions").Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != runs {
			t.Errorf("%d executed events stored, want the %d runs answered; stderr:\n%s", stored, runs, s.stderr)
		}
	})
}

// With no deadline on reads (--database-timeout 0), lib/pq waits for a
// server that stopped answering however contexts end. /readyz still
// answers 503 within its bound, and a stop still gives up on the database
// after the audit writer's drain (30 s), logging the event whose insert
// never returned as lost.
func TestServeOnAPostgreSQLServerThatStopsAnsweringWithoutReadDeadlines(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	dbURL := dbtest.URL(t, dialect.Postgres, true)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs(u.String(), "--bootstrap-key", key, "--database-timeout", "0")...)
	created, err := json.Marshal(map[string]string{"name": "Senior discount", "rule": seniorDiscount})
	if err != nil {
		t.Fatal(err)
	}
	status, body := s.do(t, "POST", "/policy", key, string(created))
	var policy struct{ ID, BaseID string }
	if err := json.Unmarshal(body, &policy); status != http.StatusCreated || err != nil {
		t.Fatalf("creating the policy: %d %s", status, body)
	}
	if status, body := s.do(t, "PUT", "/policy/"+policy.ID, key, `{"status": "published"}`); status != http.StatusCreated {
		t.Fatalf("publishing the policy: %d %s", status, body)
	}
	// The run's event waits behind this lock, taken past the proxy, until
	// the server stops answering: its insert then never returns.
	ctx := context.Background()
	lock, err := openTestDatabase(t, dbURL).SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.ExecContext(ctx, "LOCK TABLE audit_executions IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	status, body = s.do(t, "POST", "/run/policy/"+policy.BaseID, key, `{"data": {"Person": {"age": 70}}}`)
	checkRunTrue(t, status, body)

	proxy.Set(faultproxy.BlackHole)
	status, body = s.do(t, "GET", "/readyz", "", "")
	checkErrorCode(t, status, body, http.StatusServiceUnavailable, "unavailable")
	s.client.CloseIdleConnections()
	s.cancel()
	select {
	case <-s.exited:
	case <-time.After(3 * time.Minute):
		t.Fatalf("the server did not exit; stderr:\n%s", s.stderr)
	}
	if s.code != 0 {
		t.Errorf("exit %d; stderr:\n%s", s.code, s.stderr)
	}
	lost := regexp.MustCompile(`msg="audit event lost" error="the database did not answer their insert before the shutdown gave up on it"`)
	if got := len(lost.FindAllString(s.stderr.String(), -1)); got != 1 {
		t.Errorf("%d events logged as lost, want the run's; stderr:\n%s", got, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "msg=stopped\n") {
		t.Errorf("the stop is not logged; stderr:\n%s", s.stderr)
	}
}

func TestServeRefuses(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	fresh := func(t *testing.T) string { return "sqlite://" + t.TempDir() + "/v.db" }
	// A SQLite file of no bytes is a database with no tables.
	empty := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "v.db")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return "sqlite://" + path
	}
	tests := []struct {
		name   string
		env    string // $VERDICT_BOOTSTRAP_KEY
		args   func(t *testing.T) []string
		code   int
		stderr string
	}{
		{name: "an unknown log format", code: exitUsage, stderr: `--log-format must be text or json, not "xml"`,
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--log-format", "xml") }},
		{name: "an unknown log level", code: exitUsage, stderr: `--log-level must be info, warn or error, not "debug"`,
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--log-level", "debug") }},
		{name: "a short --bootstrap-key", code: exitUsage, stderr: "must be at least 32 characters",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--bootstrap-key", "short-secret") }},
		{name: "a short VERDICT_BOOTSTRAP_KEY", env: "short-secret", code: exitUsage, stderr: "must be at least 32 characters",
			args: func(t *testing.T) []string { return serveArgs(fresh(t)) }},
		{name: "a bootstrap key with surrounding spaces, which `admin bootstrap --key` refuses too", code: exitUsage,
			env: " a-key-chosen-by-the-operator-0123456789 ", stderr: "without surrounding spaces",
			args: func(t *testing.T) []string { return serveArgs(fresh(t)) }},
		{name: "an OPA URL that is not http", code: exitUsage, stderr: "--opa-url ftp://opa: authz: the OPA URL is not an absolute http(s) URL",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--opa-url", "ftp://opa") }},
		{name: "an OPA URL that is not http, with a password", code: exitUsage, stderr: "--opa-url ftp://u:***@opa: authz: the OPA URL",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--opa-url", "ftp://u:short-secret@opa") }},
		{name: "a shutdown timeout of zero", code: exitUsage, stderr: "--shutdown-timeout must be positive",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--shutdown-timeout", "0s") }},
		{name: "a cache expiry of zero", code: exitUsage, stderr: "--cache-expiry must be at least 1ms, not 0s",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--cache-expiry", "0s") }},
		{name: "a cache expiry too short to look for expired entries in", code: exitUsage, stderr: "--cache-expiry must be at least 1ms, not 1ns",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--cache-expiry", "1ns") }},
		{name: "a cache expiry just below the least", code: exitUsage, stderr: "--cache-expiry must be at least 1ms, not 999µs",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--cache-expiry", "999us") }},
		{name: "a decision retention in days it cannot read", code: exitUsage,
			stderr: `invalid argument " 30d" for "--decision-retention" flag: days must be a whole number up to 65535, as in 30d`,
			args:   func(t *testing.T) []string { return serveArgs(fresh(t), "--decision-retention", " 30d") }},
		{name: "an audit retention too long for a duration", code: exitUsage,
			stderr: `invalid argument "9999999h" for "--audit-retention" flag: a duration out of range: want one from 1h to 2562047h`,
			args:   func(t *testing.T) []string { return serveArgs(fresh(t), "--audit-retention", "9999999h") }},
		{name: "a cache memory of zero", code: exitUsage, stderr: "--cache-memory must be positive",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--cache-memory", "0") }},
		{name: "an answer limit of zero", code: exitUsage, stderr: "--answer-limit must be positive",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--answer-limit", "0") }},
		{name: "no connections", code: exitUsage, stderr: "--max-connections must be at least 1",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--max-connections", "0") }},
		{name: "answers in flight below zero", code: exitUsage, stderr: "--answers-in-flight must not be negative",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--answers-in-flight", "-1") }},
		{name: "answers in flight below the answer limit", code: exitUsage, stderr: "--answers-in-flight 1000 is below --answer-limit 2000",
			args: func(t *testing.T) []string {
				return serveArgs(fresh(t), "--answers-in-flight", "1000", "--answer-limit", "2000")
			}},
		{name: "a batch limit of zero", code: exitUsage, stderr: "--batch-limit must be at least 1",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--batch-limit", "0") }},
		{name: "a batch limit above the key's burst", code: exitUsage, stderr: "--batch-limit 200 is above --rate-burst 100",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--batch-limit", "200", "--rate-burst", "100") }},
		{name: "a batch limit above the organization's burst", code: exitUsage, stderr: "--batch-limit 1000 is above --org-rate-burst 500",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--org-rate-burst", "500") }},
		{name: "a body limit of zero", code: exitUsage, stderr: "--body-limit must be positive",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--body-limit", "0") }},
		{name: "bodies in flight below zero", code: exitUsage, stderr: "--bodies-in-flight must not be negative",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--bodies-in-flight", "-1") }},
		{name: "bodies in flight below the body limit", code: exitUsage, stderr: "--bodies-in-flight 1000 is below --body-limit 2000",
			args: func(t *testing.T) []string {
				return serveArgs(fresh(t), "--bodies-in-flight", "1000", "--body-limit", "2000")
			}},
		{name: "bodies in flight below the default body limit", code: exitUsage, stderr: "--bodies-in-flight 65536 is below --body-limit 1048576",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--bodies-in-flight", "65536") }},
		{name: "an organization rate limit without a burst", code: exitUsage, stderr: "--org-rate-burst must be at least 1",
			args: func(t *testing.T) []string {
				return serveArgs(fresh(t), "--org-rate-limit", "10", "--org-rate-burst", "0")
			}},
		{name: "an authentication failure limit without a burst", code: exitUsage, stderr: "--auth-failure-burst must be at least 1",
			args: func(t *testing.T) []string {
				return serveArgs(fresh(t), "--auth-failure-limit", "1", "--auth-failure-burst", "0")
			}},
		{name: "a negative audit retention", code: exitUsage, stderr: `invalid argument "-3h" for "--audit-retention" flag: must not be negative`,
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--audit-retention", "-3h") }},
		{name: "a decision retention of zero", code: exitUsage,
			stderr: `invalid argument "0" for "--decision-retention" flag: must be at least an hour: decision records cannot be kept forever`,
			args:   func(t *testing.T) []string { return serveArgs(fresh(t), "--decision-retention", "0") }},
		{name: "an argument", code: exitUsage, stderr: `unknown command "now"`,
			args: func(t *testing.T) []string { return append(serveArgs(fresh(t)), "now") }},
		{name: "an address that is no port", code: exitUsage, stderr: "--addr: ",
			args: func(t *testing.T) []string { return []string{"--addr", "127.0.0.1:99999", "--database-url", fresh(t)} }},
		{name: "an address without a port", code: exitUsage, stderr: "--addr must be host:port",
			args: func(t *testing.T) []string { return []string{"--addr", "nonsense", "--database-url", fresh(t)} }},
		{name: "a negative rate limit", code: exitUsage, stderr: "must not be negative; 0 turns a limit off",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--rate-limit", "-1") }},
		{name: "a rate limit that is not a number", code: exitUsage, stderr: "--rate-limit must be a finite number, not NaN; 0 turns the limit off",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--rate-limit", "NaN") }},
		{name: "an organization rate limit that is not a number", code: exitUsage, stderr: "--org-rate-limit must be a finite number, not NaN",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--org-rate-limit", "nan") }},
		{name: "an authentication failure limit that is not a number", code: exitUsage, stderr: "--auth-failure-limit must be a finite number, not NaN",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--auth-failure-limit", "NaN") }},
		{name: "an infinite rate limit", code: exitUsage, stderr: "--rate-limit must be a finite number, not +Inf",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--rate-limit", "Inf") }},
		{name: "an infinite authentication failure limit", code: exitUsage, stderr: "--auth-failure-limit must be a finite number, not +Inf",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--auth-failure-limit", "+Inf") }},
		{name: "a negative infinite organization rate limit", code: exitUsage, stderr: "--org-rate-limit must be a finite number, not -Inf",
			args: func(t *testing.T) []string { return serveArgs(fresh(t), "--org-rate-limit", "-Inf") }},
		// Before the database is touched: bootstrapped, it would hold a key
		// nobody was shown.
		{name: "an address in use, leaving no database", code: exitFailure, stderr: "listen tcp",
			args: func(t *testing.T) []string {
				taken, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { taken.Close() })
				path := filepath.Join(t.TempDir(), "v.db")
				t.Cleanup(func() {
					if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("the database was made: %v", err)
					}
				})
				return []string{"--addr", taken.Addr().String(), "--database-url", "sqlite://" + path}
			}},
		{name: "--no-migrate on a database that needs migrating", code: exitFailure, stderr: "pending migrations: run `verdict migrate` first",
			args: func(t *testing.T) []string { return serveArgs(empty(t), "--no-migrate") }},
	}
	for _, tt := range tests {
		t.Run(tt.name+" exits with "+map[int]string{exitUsage: "bad usage", exitFailure: "a failure"}[tt.code], func(t *testing.T) {
			t.Setenv(envBootstrapKey, tt.env)
			code, stdout, stderr := runVerdict(t, "", append([]string{"serve"}, tt.args(t)...)...)
			if code != tt.code || stdout != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, tt.code, tt.stderr)
			}
			if strings.Contains(stderr, "short-secret") {
				t.Error("the key is echoed")
			}
		})
	}
}

func TestServeBoundsBatchesByItsFlag(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	key := "serve-test-bootstrap-key-0123456789"
	srv := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--batch-limit", "2", "--rate-limit", "0")...)
	status, body := srv.do(t, http.MethodPost, "/policy", key,
		`{"name": "adult", "rule": "A **P** is an adult if the __age__ of the **P** is at least 18."}`)
	if status != http.StatusCreated {
		t.Fatalf("creating a policy: %d %s", status, body)
	}
	var pol struct{ BaseID string }
	if err := json.Unmarshal(body, &pol); err != nil {
		t.Fatal(err)
	}
	path := "/run/policy/" + pol.BaseID + "/batch"
	if status, body := srv.do(t, http.MethodPost, path, key, `{"items": [{"P": {"age": 20}}, {"P": {"age": 10}}]}`); status != http.StatusOK ||
		!strings.Contains(string(body), `"result":true`) || !strings.Contains(string(body), `"result":false`) {
		t.Errorf("a batch of two: %d %s", status, body)
	}
	if status, body := srv.do(t, http.MethodPost, path, key, `{"items": [{}, {}, {}]}`); status != http.StatusBadRequest ||
		!strings.Contains(string(body), "the limit is 2 a call") {
		t.Errorf("a batch of three: %d %s", status, body)
	}
}

func TestServeBoundsWhatARequestAnswersByItsFlag(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	key := "serve-test-bootstrap-key-0123456789"
	// A check counts 16 bytes a byte of its text: 100 bytes fit in 2,000,
	// 200 do not.
	srv := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--answer-limit", "2000")...)
	rule := func(n int) string { return `{"rule": "` + strings.Repeat("x", n-len(`{"rule": ""}`)) + `"}` }
	if status, body := srv.do(t, http.MethodPost, "/check", key, rule(100)); status != http.StatusOK {
		t.Errorf("checking 88 bytes: %d %s", status, body)
	}
	if status, body := srv.do(t, http.MethodPost, "/check", key, rule(200)); status != http.StatusBadRequest ||
		!strings.Contains(string(body), "this request would answer more than 2.0 KiB") {
		t.Errorf("checking 188 bytes: %d %s", status, body)
	}
}

func TestServeWithNoMigrateOnAMigratedDatabase(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	dbURL := "sqlite://" + t.TempDir() + "/v.db"
	if code, _, stderr := runVerdict(t, "", "migrate", "--database-url", dbURL); code != 0 {
		t.Fatalf("migrate: %s", stderr)
	}
	s := startServer(t, serveArgs(dbURL, "--no-migrate")...)
	if strings.Contains(s.stderr.String(), "database migrated") {
		t.Error("--no-migrate migrated")
	}
	if status, body := s.do(t, "GET", "/readyz", "", ""); status != http.StatusOK {
		t.Errorf("GET /readyz: %d %s", status, body)
	}
	if code := s.stop(t); code != 0 {
		t.Errorf("exit %d", code)
	}
	if pending, err := database.Pending(context.Background(), openTestDatabase(t, dbURL)); err != nil || pending {
		t.Errorf("pending %v, %v", pending, err)
	}
}

// A server whose SQLite file is removed, with its directory, says so: it
// is not ready, and refuses writes that would go where nobody could read
// them again. The log says why, alike for REST and GraphQL, on a line
// that ends with the request's id.
func TestServeIsNotReadyAndRefusesWritesOnceItsSQLiteFileIsGone(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "v.db")
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+path, "--bootstrap-key", key)...)
	if status, body := s.do(t, "GET", "/readyz", "", ""); status != http.StatusOK {
		t.Fatalf("GET /readyz before: %d %s", status, body)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	status, body := s.doAs(t, "gone-1", "GET", "/readyz", "", "")
	checkErrorCode(t, status, body, http.StatusServiceUnavailable, "unavailable")
	created, err := json.Marshal(map[string]string{"name": "Senior discount", "rule": seniorDiscount})
	if err != nil {
		t.Fatal(err)
	}
	status, body = s.doAs(t, "gone-2", "POST", "/policy", key, string(created))
	checkErrorCode(t, status, body, http.StatusServiceUnavailable, "unavailable")
	status, body = s.doAs(t, "gone-3", "POST", "/graphql", key,
		`{"query": "mutation { createPolicy(input: {name: \"n\", rule: \"r\"}) { policy { id } } }"}`)
	if want := `"extensions":{"code":"unavailable"}`; status != http.StatusOK || !strings.Contains(string(body), want) {
		t.Errorf("POST /graphql: status %d, body %s; want 200 and %s", status, body, want)
	}
	for id, where := range map[string]string{"gone-1": `route="GET /readyz"`, "gone-2": `route="POST /policy"`, "gone-3": `path=createPolicy`} {
		want := `level=WARN msg="service unavailable" ` + where + ` error="[^"]+" cause="database: the SQLite file opened at ` +
			regexp.QuoteMeta(path) + ` is no longer there: [^\n]+" request_id=` + id + "\n"
		if s.stderr.waitFor(regexp.MustCompile(want), s.exited) == nil {
			t.Errorf("the log does not say why %s (%s) failed:\n%s", id, where, s.stderr)
		}
	}
}

func TestServeSetsTheCollectorTargetOnlyWhenGOGCIsUnset(t *testing.T) {
	if percent, set := collectorTarget(""); !set || percent != serveGCPercent {
		t.Errorf("GOGC unset: %d, %v; want %d", percent, set, serveGCPercent)
	}
	if _, set := collectorTarget("50"); set {
		t.Error("GOGC=50: serve set its own target over the operator's")
	}
}

func TestTheLogLevelLeavesOutLessSevereLines(t *testing.T) {
	for _, c := range []struct{ level, want string }{
		{"info", "level=INFO msg=i\nlevel=WARN msg=w\nlevel=ERROR msg=e\n"},
		{"warn", "level=WARN msg=w\nlevel=ERROR msg=e\n"},
		{"error", "level=ERROR msg=e\n"},
	} {
		var b strings.Builder
		log := newLogger(&b, "text", c.level)
		log.Info("i")
		log.Warn("w")
		log.Error("e")
		// Each line starts with its time, which the comparison leaves out.
		var got strings.Builder
		for line := range strings.Lines(b.String()) {
			_, rest, _ := strings.Cut(line, " ")
			got.WriteString(rest)
		}
		if got.String() != c.want {
			t.Errorf("--log-level %s logs\n%s\nnot\n%s", c.level, got.String(), c.want)
		}
	}

	t.Setenv(envBootstrapKey, "")
	key := "serve-test-bootstrap-key-0123456789"
	s := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--bootstrap-key", key, "--log-level", "warn")...)
	status, body := s.do(t, "POST", "/run", key, runBody(t, 70))
	checkRunTrue(t, status, body)
	if code := s.stop(t); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
	}
	if s.stderr.String() != "" {
		t.Errorf("--log-level warn logged lines of info:\n%s", s.stderr)
	}
}

// Whichever layer logs a line with a request's context, the line names the
// request, once, and a line logged without one names none.
func TestLinesOfARequestEndWithItsID(t *testing.T) {
	ctx := requestid.With(context.Background(), "req-9")
	leadingTime := regexp.MustCompile(`^time=\S+ |"time":"[^"]+",`)
	for format, want := range map[string]string{
		"text": `level=WARN msg="service unavailable" route="POST /policy" request_id=req-9` + "\n" + `level=INFO msg=started` + "\n",
		"json": `{"level":"WARN","msg":"service unavailable","route":"POST /policy","request_id":"req-9"}` + "\n" + `{"level":"INFO","msg":"started"}` + "\n",
	} {
		var b strings.Builder
		log := newLogger(&b, format, "info")
		log.WarnContext(ctx, "service unavailable", "route", "POST /policy")
		log.Info("started")
		var got strings.Builder
		for line := range strings.Lines(b.String()) {
			got.WriteString(leadingTime.ReplaceAllString(line, ""))
		}
		if got.String() != want {
			t.Errorf("--log-format %s logs\n%s\nnot\n%s", format, got.String(), want)
		}
	}
}

func TestBaseURLKeepsTheHostNameTheOperatorWrote(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8090}
	for _, c := range []struct {
		flag string
		addr net.Addr
		want string
	}{
		{"localhost:8090", loopback, "http://localhost:8090"},
		{"localhost:0", loopback, "http://localhost:8090"},
		{"127.0.0.1:8090", loopback, "http://127.0.0.1:8090"},
		{":8090", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8090}, "http://localhost:8090"},
		{"[::1]:8090", &net.TCPAddr{IP: net.IPv6loopback, Port: 8090}, "http://[::1]:8090"},
	} {
		if got := baseURL(c.flag, c.addr); got != c.want {
			t.Errorf("baseURL(%q, %v) = %q, want %q", c.flag, c.addr, got, c.want)
		}
	}
}

// Past --max-connections a connection waits to be accepted until one of
// those open closes.
func TestServeBoundsTheConnectionsOpenAtOnce(t *testing.T) {
	t.Setenv(envBootstrapKey, "")
	srv := startServer(t, serveArgs("sqlite://"+t.TempDir()+"/v.db", "--max-connections", "2")...)
	addr := strings.TrimPrefix(srv.base, "http://")
	// Two connections, each answered once and then left open and idle.
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: verdict\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("a held connection's request: %v, %v", resp, err)
		}
		resp.Body.Close()
		held = append(held, c)
	}

	answered := make(chan int, 1)
	go func() {
		status, _, err := srv.request(http.MethodGet, "/healthz", "", "")
		if err != nil {
			t.Error(err)
		}
		answered <- status
	}()
	select {
	case status := <-answered:
		t.Fatalf("a third connection was served while two were open: %d", status)
	case <-time.After(200 * time.Millisecond):
	}
	held[0].Close()
	if status := <-answered; status != http.StatusOK {
		t.Errorf("the third connection, once one closed: %d", status)
	}

	// The gauge counts the held connection and the client's, once the
	// closed one is seen closed.
	for deadline := time.Now().Add(testTimeout); ; {
		_, body := srv.do(t, http.MethodGet, "/metrics", "", "")
		if strings.Contains(string(body), "\nverdict_http_connections 2\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("verdict_http_connections is not 2:\n%s", regexp.MustCompile(`(?m)^verdict_http_connections.*$`).FindString(string(body)))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Every flag of serve is in the README's table of them and in the
// operations guide's.
func TestEveryServeFlagIsDocumented(t *testing.T) {
	docs := map[string]string{}
	for _, path := range []string{"../../README.md", "../../docs/operations.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs[path] = string(b)
	}
	newServeCommand().Flags().VisitAll(func(f *pflag.Flag) {
		for path, text := range docs {
			if !strings.Contains(text, "| `--"+f.Name+"`") && !strings.Contains(text, ", `--"+f.Name+"`") {
				t.Errorf("%s has no row for --%s", path, f.Name)
			}
		}
	})
}
