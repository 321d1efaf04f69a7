package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/docs"
)

// TestDocsShellExamples runs the shell examples of every document in docs/
// (```sh run blocks) against a fresh server, in order and in one bash per
// document, with $VERDICT_URL and $KEY set as the documents assume. Each
// block must succeed, and print JSON matching the ```json answer block
// the document gives after it.
func TestDocsShellExamples(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "grep", "cut", "head", "sed"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the examples need %s: %v", tool, err)
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		steps, problems := docs.Steps(string(b))
		for _, p := range problems {
			t.Errorf("%s: %s", f, p)
		}
		if len(steps) == 0 {
			continue
		}
		ran += len(steps)
		t.Run(filepath.Base(f), func(t *testing.T) { runSteps(t, steps) })
	}
	if ran == 0 {
		t.Error("no document has a ```sh run block")
	}
}

func runSteps(t *testing.T, steps []docs.Step) {
	const key = "docs-key-0123456789abcdefghijklmnopqrstuvwxyz"
	srv := startServer(t, "--addr", "127.0.0.1:0", "--database-url", "sqlite://"+filepath.Join(t.TempDir(), "docs.db"),
		"--bootstrap-key", key, "--rate-limit", "0")

	var script strings.Builder
	script.WriteString("set -eo pipefail\n")
	for i, s := range steps {
		fmt.Fprintf(&script, "%s\nprintf '\\n%s\\n'\n", s.Script, docStepDone(i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Env = append(os.Environ(), "VERDICT_URL="+srv.base, "KEY="+key, "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	runErr := cmd.Run()

	rest := out.String()
	for i, s := range steps {
		printed, after, done := strings.Cut(rest, docStepDone(i)+"\n")
		if !done {
			t.Fatalf("the example at line %d failed (%v):\n%s\noutput:\n%s\nstderr:\n%s", s.Line, runErr, s.Script, printed, &errOut)
		}
		rest = after
		if s.Answer == nil {
			continue
		}
		var want, got any
		if err := json.Unmarshal(s.Answer, &want); err != nil {
			t.Fatalf("line %d: the answer: %v", s.Line, err)
		}
		if err := json.Unmarshal([]byte(printed), &got); err != nil {
			t.Errorf("the example at line %d printed no JSON (%v):\n%s", s.Line, err, printed)
			continue
		}
		if !docs.Matches(want, got) {
			t.Errorf("the example at line %d answered\n%s\nthe document states\n%s", s.Line, strings.TrimSpace(printed), s.Answer)
		}
	}
	if runErr != nil {
		t.Errorf("bash: %v\nstderr:\n%s", runErr, &errOut)
	}
}

func docStepDone(i int) string { return fmt.Sprintf("--- example %d done ---", i+1) }
