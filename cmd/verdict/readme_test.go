package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The README's tour lies between these two comments; its sh blocks run in
// one bash, in order.
const (
	tourStart = "<!-- tour:"
	tourEnd   = "<!-- end of tour -->"
)

// The tour's server listens on a port of its own, not serve's default :8080.
const (
	tourAddr = "--addr localhost:8090"
	tourURL  = "http://localhost:8090"
)

// tourSteps is what each sh block of the tour must print, in order. A step
// is one block; a change to the tour's blocks needs a change here.
var tourSteps = [][]string{
	{`{"status":"ok"}`},
	{`"result":true`, `"operator":"GreaterThanOrEqual"`, `"property":{"path":"$.Person.age","value":70}`},
	{`"status":"draft"`, `"version":null`, `"validation":{"errors":[],"diagnostics":[]}`},
	{`"status":"published"`, `"version":1`},
	{`"result":true`, `"rule":["A **Person** gets senior_discount`},
	{`"runPolicy":{"result":false`},
	{"200 text/html"},
	{`"openapi": "3.1.0"`},
}

// TestReadmeTour runs the README's five-minute tour as a reader would: it
// starts the binary the way the tour's first block does (with that block's
// key, on a fresh SQLite database and a free port instead of tour.db and
// the block's port), then runs every later sh block with bash against it.
// The tour's server has a port of its own, which the later blocks use when
// VERDICT_URL is not set, so that it never competes with a server started
// with the defaults.
func TestReadmeTour(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "grep", "cut", "head"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the tour needs %s: %v", tool, err)
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	serveBlock, steps := tourOf(t, string(readme))
	if len(steps) != len(tourSteps) {
		t.Fatalf("the tour has %d steps after the serve block, the test expects %d: update tourSteps", len(steps), len(tourSteps))
	}
	m := regexp.MustCompile(`VERDICT_BOOTSTRAP_KEY=(\S+)`).FindStringSubmatch(serveBlock)
	if m == nil || !strings.Contains(serveBlock, "go run ./cmd/verdict serve "+tourAddr+" --database-url sqlite://tour.db") {
		t.Fatalf("the tour's first block should start the server with VERDICT_BOOTSTRAP_KEY, %s, on sqlite://tour.db:\n%s", tourAddr, serveBlock)
	}
	key := m[1]
	if len(steps) == 0 || !strings.Contains(steps[0], "VERDICT_URL=${VERDICT_URL:-"+tourURL+"}") {
		t.Fatalf("the tour's second block should default VERDICT_URL to the tour's server, %s", tourURL)
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "verdict")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base, stdout := startBinary(t, bin, key, "serve", "--addr", "127.0.0.1:0", "--database-url", "sqlite://"+filepath.Join(dir, "tour.db"))
	if !strings.Contains(stdout.String(), "\n    "+key+"\n") {
		t.Errorf("serve did not print the bootstrap key:\n%s", stdout)
	}

	var script strings.Builder
	script.WriteString("set -eo pipefail\n")
	for i, step := range steps {
		fmt.Fprintf(&script, "%s\nprintf '\\n%s\\n'\n", step, stepDone(i))
	}
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "VERDICT_URL="+base, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	runErr := cmd.Run()

	rest := out.String()
	for i, want := range tourSteps {
		printed, after, done := strings.Cut(rest, stepDone(i)+"\n")
		if !done {
			t.Fatalf("tour step %d failed (%v):\n%s\noutput:\n%s\nstderr:\n%s", i+1, runErr, steps[i], printed, &errOut)
		}
		for _, w := range want {
			if !strings.Contains(printed, w) {
				t.Errorf("tour step %d printed no %s:\n%s\noutput:\n%s", i+1, w, steps[i], printed)
			}
		}
		rest = after
	}
	if runErr != nil {
		t.Errorf("the tour's bash: %v\nstderr:\n%s", runErr, &errOut)
	}
}

// The README's shell examples after the tour's first block continue the
// tour: they reach its server through $VERDICT_URL, with its $KEY. The
// server of the README's first command listens on the default :8080 and
// knows another key, so a command sent there would answer 401.
func TestReadmeExamplesAfterTheTourUseItsServer(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(readme), tourStart)
	if start < 0 {
		t.Fatalf("README.md has no tour marker %q", tourStart)
	}
	fence := regexp.MustCompile("(?s)```sh\n(.*?)```")
	for _, b := range fence.FindAllStringSubmatch(string(readme)[start:], -1) {
		for _, line := range strings.Split(b[1], "\n") {
			if strings.Contains(line, ":8080") {
				t.Errorf("a README example after the tour addresses :8080 instead of $VERDICT_URL:\n%s", line)
			}
		}
	}
}

func stepDone(i int) string { return fmt.Sprintf("--- tour step %d done ---", i+1) }

// tourOf returns the tour's sh blocks: the first starts the server, the
// others are the steps.
func tourOf(t *testing.T, readme string) (serve string, steps []string) {
	t.Helper()
	start, end := strings.Index(readme, tourStart), strings.Index(readme, tourEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md has no tour between %q and %q", tourStart, tourEnd)
	}
	fence := regexp.MustCompile("(?s)```sh\n(.*?)```")
	for _, b := range fence.FindAllStringSubmatch(readme[:start], -1) {
		serve = b[1]
	}
	for _, b := range fence.FindAllStringSubmatch(readme[start:end], -1) {
		steps = append(steps, b[1])
	}
	return serve, steps
}

// startBinary runs bin with args and the bootstrap key in its environment,
// waits until it listens and returns its address and standard output. It
// is stopped, as by Ctrl-C, when t ends.
func startBinary(t *testing.T, bin, key string, args ...string) (string, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, withTestTimeouts(args)...)
	cmd.Env = append(os.Environ(), envBootstrapKey+"="+key)
	stdout, stderr := newSyncBuffer(), newSyncBuffer()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(shutdownTimeout):
			cmd.Process.Kill()
			<-exited
		}
	})
	m := stdout.waitFor(listening, exited)
	if m == nil {
		t.Fatalf("verdict serve did not start listening\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	return m[1], stdout
}
