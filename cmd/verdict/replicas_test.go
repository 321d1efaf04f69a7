package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/verdict/verdict/database/changefeed"
	"github.com/verdict/verdict/internal/dbtest"
)

// replicaProcess is a `verdict serve` process built from the tree.
type replicaProcess struct {
	base   string
	pid    int
	stderr *syncBuffer
	exited chan struct{}
}

// startReplica runs bin serve on the database at dbURL with key as the
// bootstrap key, and waits until it listens. It is stopped, as by Ctrl-C,
// when t ends.
func startReplica(t *testing.T, bin, key, dbURL string) *replicaProcess {
	t.Helper()
	// Caches that do not expire within the test: a replica that obeys a
	// change made on the other can only have been told of it. No limits,
	// so that the test's waits are never refused.
	cmd := exec.Command(bin, withTestTimeouts(append(append([]string{"serve"}, serveArgs(dbURL)...), "--cache-expiry", "1h",
		"--rate-limit", "0", "--org-rate-limit", "0", "--auth-failure-limit", "0"))...)
	cmd.Env = append(os.Environ(), envBootstrapKey+"="+key)
	stdout := newSyncBuffer()
	p := &replicaProcess{stderr: newSyncBuffer(), exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = stdout, p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.pid = cmd.Process.Pid
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(shutdownTimeout):
			cmd.Process.Kill()
			<-p.exited
		}
	})
	m := stdout.waitFor(listening, p.exited)
	if m == nil {
		t.Fatalf("verdict serve did not start listening\nstdout:\n%s\nstderr:\n%s", stdout, p.stderr)
	}
	p.base = m[1]
	return p
}

var replicaClient = &http.Client{Timeout: testTimeout}

// call sends a request and returns its status and decoded JSON body (nil
// when it has none).
func (p *replicaProcess) call(t *testing.T, method, path, key, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := replicaClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if len(raw) > 0 && json.Unmarshal(raw, &out) != nil {
		t.Fatalf("%s %s: not a JSON object: %s", method, path, raw)
	}
	return resp.StatusCode, out
}

// must is call that fails t unless the answer has the status.
func (p *replicaProcess) must(t *testing.T, status int, method, path, key, body string) map[string]any {
	t.Helper()
	got, out := p.call(t, method, path, key, body)
	if got != status {
		t.Fatalf("%s %s: %d %v, want %d", method, path, got, out, status)
	}
	return out
}

// runAnswer is how a replica answers a run of the base: the result, or
// the status.
func (p *replicaProcess) runAnswer(t *testing.T, key, base string) string {
	t.Helper()
	status, out := p.call(t, "POST", "/run/policy/"+base, key, `{"data": {"Person": {"age": 70}}}`)
	if status != http.StatusOK {
		return fmt.Sprint(status)
	}
	return fmt.Sprint(out["result"])
}

// keyAnswer is the status a replica answers a request made with a key.
func (p *replicaProcess) keyAnswer(t *testing.T, key string) string {
	t.Helper()
	status, _ := p.call(t, "GET", "/policies", key, "")
	return fmt.Sprint(status)
}

// obeys waits until answer gives want, failing t if it still does not
// after testTimeout.
func obeys(t *testing.T, what, want string, answer func() string) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		got := answer()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %s after %s, want %s", what, got, testTimeout, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const (
	ruleAt65 = `"A **Person** gets senior_discount if the __age__ of the **Person** is at least 65."`
	ruleAt75 = `"A **Person** gets senior_discount if the __age__ of the **Person** is at least 75."`
)

// publishedPolicy creates and publishes a policy on p and returns its base
// id.
func (p *replicaProcess) publishedPolicy(t *testing.T, key string) string {
	t.Helper()
	draft := p.must(t, http.StatusCreated, "POST", "/policy", key, `{"name": "senior", "rule": `+ruleAt65+`}`)
	p.must(t, http.StatusCreated, "PUT", "/policy/"+draft["id"].(string), key, `{"status": "published"}`)
	return draft["baseId"].(string)
}

// TestTwoServeProcessesOnOneDatabaseObeyEachOther runs two `verdict serve`
// processes on one PostgreSQL database: a publish, a delete, a key
// revocation and a member's removal on one, and a key revocation and a role
// change made with `verdict admin`, are obeyed by the other, also after its
// listening connection was killed.
func TestTwoServeProcessesOnOneDatabaseObeyEachOther(t *testing.T) {
	dbURL := dbtest.URL(t, dialect.Postgres, true)
	bin := filepath.Join(t.TempDir(), "verdict")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const key = "replica-test-bootstrap-key-0123456789"
	a := startReplica(t, bin, key, dbURL)
	b := startReplica(t, bin, key, dbURL)

	t.Run("a publish", func(t *testing.T) {
		base := a.publishedPolicy(t, key)
		if got := b.runAnswer(t, key, base); got != "true" {
			t.Fatalf("b runs version 1: %s", got)
		}
		draft := a.must(t, http.StatusCreated, "GET", "/policy/"+base+"/draft", key, "")
		a.must(t, http.StatusCreated, "PUT", "/policy/"+draft["id"].(string), key, `{"status": "published", "rule": `+ruleAt75+`}`)
		obeys(t, "b runs the base", "false", func() string { return b.runAnswer(t, key, base) })
	})
	t.Run("a delete", func(t *testing.T) {
		base := a.publishedPolicy(t, key)
		if got := b.runAnswer(t, key, base); got != "true" {
			t.Fatalf("b runs the policy: %s", got)
		}
		a.must(t, http.StatusNoContent, "DELETE", "/policy/"+base, key, "")
		obeys(t, "b runs the deleted base", "410", func() string { return b.runAnswer(t, key, base) })
	})
	t.Run("a key revocation", func(t *testing.T) {
		k := a.must(t, http.StatusCreated, "POST", "/admin/keys", key, `{"name": "ci", "scope": "view"}`)
		secret := k["secret"].(string)
		if got := b.keyAnswer(t, secret); got != "200" {
			t.Fatalf("b takes the key: %s", got)
		}
		a.must(t, http.StatusNoContent, "DELETE", "/admin/keys/"+k["id"].(string), key, "")
		obeys(t, "b takes the revoked key", "401", func() string { return b.keyAnswer(t, secret) })
	})
	// memberWithKey adds a member with the role, and a key of theirs.
	memberWithKey := func(t *testing.T, email, role string) (userID, secret string) {
		t.Helper()
		m := a.must(t, http.StatusCreated, "POST", "/admin/members", key, `{"email": "`+email+`", "role": "`+role+`"}`)
		userID = m["user"].(map[string]any)["id"].(string)
		k := a.must(t, http.StatusCreated, "POST", "/admin/keys", key, `{"name": "`+email+`", "scope": "admin", "userId": "`+userID+`"}`)
		return userID, k["secret"].(string)
	}
	t.Run("a member removal", func(t *testing.T) {
		userID, secret := memberWithKey(t, "ed@acme.test", "editor")
		if got := b.keyAnswer(t, secret); got != "200" {
			t.Fatalf("b takes the member's key: %s", got)
		}
		a.must(t, http.StatusNoContent, "DELETE", "/admin/members/"+userID, key, "")
		obeys(t, "b takes the removed member's key", "401", func() string { return b.keyAnswer(t, secret) })
	})
	// `verdict admin` changes the database from a process of its own,
	// which announces its changes as serve does.
	admin := func(t *testing.T, args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		args = withTestDatabaseTimeout(append(append([]string{"admin"}, args...), "--database-url", dbURL))
		if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("verdict %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	t.Run("a key revoked with verdict admin", func(t *testing.T) {
		k := a.must(t, http.StatusCreated, "POST", "/admin/keys", key, `{"name": "deploy", "scope": "view"}`)
		secret := k["secret"].(string)
		if got := b.keyAnswer(t, secret); got != "200" {
			t.Fatalf("b takes the key: %s", got)
		}
		admin(t, "key", "revoke", "--id", k["id"].(string))
		obeys(t, "b takes the key revoked with verdict admin", "401", func() string { return b.keyAnswer(t, secret) })
	})
	t.Run("a role changed with verdict admin", func(t *testing.T) {
		_, secret := memberWithKey(t, "flo@acme.test", "admin")
		keysAnswer := func() string {
			status, _ := b.call(t, "GET", "/admin/keys", secret, "")
			return fmt.Sprint(status)
		}
		if got := keysAnswer(); got != "200" {
			t.Fatalf("b lets the admin list keys: %s", got)
		}
		admin(t, "member", "role", "--org", "Default", "--email", "flo@acme.test", "--role", "viewer")
		obeys(t, "b lets the member made viewer with verdict admin list keys", "403", keysAnswer)
	})
	t.Run("a killed listening connection", func(t *testing.T) {
		db := openTestDatabase(t, dbURL)
		var n int
		err := db.SQL().QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = $1 AND datname = current_database()`, changefeed.ApplicationName(b.pid)).Scan(&n)
		if err != nil || n != 1 {
			t.Fatalf("terminated %d listening connections of b (%v), want 1", n, err)
		}
		if b.stderr.waitFor(regexp.MustCompile(`change notifications listening again`), b.exited) == nil {
			t.Fatalf("b did not listen again:\n%s", b.stderr)
		}
		// b dropped its caches when the connection was lost and again
		// once it was back.
		obeys(t, "b's reconnections and cache clears", "1 2", func() string {
			return counterValue(b.metrics(t), "verdict_change_listener_reconnects_total") + " " +
				counterValue(b.metrics(t), "verdict_cache_clears_total")
		})
		base := a.publishedPolicy(t, key)
		if got := b.runAnswer(t, key, base); got != "true" {
			t.Fatalf("b runs a new policy: %s", got)
		}
		a.must(t, http.StatusNoContent, "DELETE", "/policy/"+base, key, "")
		obeys(t, "b, listening again, runs a base deleted on a", "410", func() string { return b.runAnswer(t, key, base) })
	})
}

func (p *replicaProcess) metrics(t *testing.T) string {
	t.Helper()
	resp, err := replicaClient.Get(p.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// counterValue is the value of an unlabelled metric in Prometheus' text
// format.
func counterValue(metrics, name string) string {
	m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(metrics)
	if m == nil {
		return "absent"
	}
	return m[1]
}
