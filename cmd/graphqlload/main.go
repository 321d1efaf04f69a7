// Command graphqlload sends the costliest GraphQL documents there are (those
// of internal/graphqltest) to a Verdict server on this machine as fast as
// -workers connections go, for -duration, and reports for each document how
// often it was answered and how, and for the server process (-pid) its CPU
// time per document and its peak resident memory.
//
//	go run ./cmd/verdict serve --bootstrap-key "$KEY" --rate-limit 0 &
//	go run ./cmd/graphqlload -url http://127.0.0.1:8080 -key "$KEY" -pid $! -duration 30s
//
// It talks only to loopback addresses.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/verdict/verdict/internal/graphqltest"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server's base URL, on a loopback address")
	key := flag.String("key", os.Getenv("VERDICT_KEY"), "an API key (default $VERDICT_KEY)")
	pid := flag.Int("pid", 0, "the server's process id, to read its CPU time and memory from /proc")
	workers := flag.Int("workers", 32, "concurrent connections")
	duration := flag.Duration("duration", 20*time.Second, "how long to send")
	flag.Parse()
	if err := run(*base, *key, *pid, *workers, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "graphqlload:", err)
		os.Exit(1)
	}
}

type tally struct {
	sent     atomic.Int64
	statuses sync.Map // status code -> *atomic.Int64
	slowest  atomic.Int64
}

func run(base, key string, pid, workers int, duration time.Duration) error {
	if key == "" {
		return errors.New("an API key is required (-key or VERDICT_KEY)")
	}
	if err := loopbackOnly(base); err != nil {
		return err
	}
	docs := graphqltest.All()
	bodies := make([][]byte, len(docs))
	for i, d := range docs {
		b, err := json.Marshal(map[string]string{"query": d.Query})
		if err != nil {
			return err
		}
		bodies[i] = b
	}
	tallies := make([]tally, len(docs))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}

	cpuBefore, err := cpuTime(pid)
	if err != nil {
		return err
	}
	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			if rss, err := residentBytes(pid); err == nil && rss > peak.Load() {
				peak.Store(rss)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})

	deadline := time.Now().Add(duration)
	var wg sync.WaitGroup
	var failures atomic.Int64
	for w := range workers {
		wg.Go(func() {
			for i := w; time.Now().Before(deadline); i++ {
				n := i % len(docs)
				if err := send(client, base, key, bodies[n], &tallies[n]); err != nil {
					failures.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	cpuAfter, err := cpuTime(pid)
	if err != nil {
		return err
	}

	var total int64
	fmt.Printf("%-58s %8s %12s  %s\n", "document", "sent", "slowest", "statuses")
	for i, d := range docs {
		t := &tallies[i]
		total += t.sent.Load()
		fmt.Printf("%-58s %8d %12s  %s\n", d.Name, t.sent.Load(), time.Duration(t.slowest.Load()).Round(time.Millisecond), statuses(t))
	}
	fmt.Printf("\n%d documents in %s from %d connections, %d failed to get an answer\n", total, duration, workers, failures.Load())
	if pid != 0 {
		cpu := cpuAfter - cpuBefore
		fmt.Printf("server CPU time: %s in all, %s a document on average\n", cpu.Round(time.Millisecond), (cpu / time.Duration(max(total, 1))).Round(time.Microsecond))
		fmt.Printf("server resident memory: peak %.1f MiB sampled every 50 ms", float64(peak.Load())/(1<<20))
		if hwm, err := status(pid, "VmHWM:"); err == nil {
			fmt.Printf(", %.1f MiB high-water mark since the process started", float64(hwm)/(1<<20))
		}
		fmt.Println()
	}
	return nil
}

func send(client *http.Client, base, key string, body []byte, t *tally) error {
	req, err := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-key", key)
	start := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	elapsed := int64(time.Since(start))
	for {
		s := t.slowest.Load()
		if elapsed <= s || t.slowest.CompareAndSwap(s, elapsed) {
			break
		}
	}
	t.sent.Add(1)
	c, _ := t.statuses.LoadOrStore(res.StatusCode, new(atomic.Int64))
	c.(*atomic.Int64).Add(1)
	return err
}

func statuses(t *tally) string {
	var out []string
	t.statuses.Range(func(k, v any) bool {
		out = append(out, fmt.Sprintf("%d×%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	sort.Strings(out)
	return strings.Join(out, " ")
}

// loopbackOnly refuses a URL whose host is not a loopback address: the
// documents are built to hurt, and only a server on this machine, run for
// the purpose, should get them.
func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address", host)
	}
	return nil
}

// cpuTime is the user and system time the process has used (0 without one).
func cpuTime(pid int) (time.Duration, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command name, which may hold spaces, in
	// parentheses: utime and stime are the 12th and 13th.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	// The kernel reports in USER_HZ, 100 a second on Linux.
	return time.Duration(ticks) * (time.Second / 100), nil
}

func residentBytes(pid int) (int64, error) {
	if pid == 0 {
		return 0, nil
	}
	return status(pid, "VmRSS:")
}

// status reads a size field of /proc/PID/status, in bytes.
func status(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
