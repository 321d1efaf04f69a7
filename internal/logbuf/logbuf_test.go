package logbuf

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// recording is a destination that keeps every write it was given.
type recording struct {
	mu     sync.Mutex
	writes [][]byte
	// gate, when set, holds each write until the test lets it through.
	gate chan struct{}
}

func (r *recording) Write(p []byte) (int, error) {
	if r.gate != nil {
		<-r.gate
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

func (r *recording) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(bytes.Join(r.writes, nil))
}

func TestLinesFromManyWritersArriveWholeAndInOrder(t *testing.T) {
	dest := &recording{}
	w := New(dest, 1<<10)
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range lines {
				fmt.Fprintf(w, "writer %d line %d\n", g, i)
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	got := strings.Split(strings.TrimSuffix(dest.all(), "\n"), "\n")
	if len(got) != writers*lines {
		t.Fatalf("%d lines arrived, want %d", len(got), writers*lines)
	}
	for _, line := range got {
		var g, i int
		if _, err := fmt.Sscanf(line, "writer %d line %d", &g, &i); err != nil {
			t.Fatalf("a mangled line %q: %v", line, err)
		}
		if i != next[g] {
			t.Fatalf("writer %d: line %d arrived where line %d was due", g, i, next[g])
		}
		next[g]++
	}
}

func TestAtMostMaxPendingWaitsForASlowDestination(t *testing.T) {
	dest := &recording{gate: make(chan struct{})}
	const maxPending, line = 100, "0123456789\n" // 11 bytes
	w := New(dest, maxPending)
	const lines = 200
	wrote := make(chan struct{})
	go func() {
		for range lines {
			w.Write([]byte(line))
		}
		close(wrote)
	}()
	// Let the writes through one by one until every line was written.
	for {
		select {
		case dest.gate <- struct{}{}:
			continue
		case <-wrote:
		}
		break
	}
	close(dest.gate)
	w.Close()
	if got := strings.Count(dest.all(), line); got != lines {
		t.Fatalf("%d lines arrived, want %d", got, lines)
	}
	dest.mu.Lock()
	defer dest.mu.Unlock()
	for _, b := range dest.writes {
		if len(b) > maxPending {
			t.Fatalf("one write carried %d bytes; at most %d may wait", len(b), maxPending)
		}
	}
}

func TestALineLongerThanMaxPendingStillGoesOut(t *testing.T) {
	dest := &recording{}
	w := New(dest, 4)
	long := strings.Repeat("x", 100) + "\n"
	w.Write([]byte(long))
	w.Write([]byte(long))
	w.Close()
	if got := dest.all(); got != long+long {
		t.Fatalf("arrived %q", got)
	}
}

func TestWritesAfterCloseGoDirectly(t *testing.T) {
	dest := &recording{}
	w := New(dest, 1<<10)
	w.Write([]byte("before\n"))
	w.Close()
	w.Close()
	w.Write([]byte("after\n"))
	if got := dest.all(); got != "before\nafter\n" {
		t.Fatalf("arrived %q", got)
	}
	dest.mu.Lock()
	defer dest.mu.Unlock()
	if last := string(dest.writes[len(dest.writes)-1]); last != "after\n" {
		t.Fatalf("the write after Close was %q, want it on its own", last)
	}
}
