package service

import (
	"context"
	"encoding/json"
	"flag"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/jsonltest"
	"github.com/verdict/verdict/storage"
)

// auditLoadRate is the runs per second BenchmarkRunLatencyUnderAuditLoad
// asks for; 0 runs them as fast as they go.
var auditLoadRate = flag.Int("audit-load-rate", 5000, "runs per second of BenchmarkRunLatencyUnderAuditLoad; 0 for as fast as they go")

// BenchmarkRunLatencyUnderAuditLoad runs the five-rule bench policy from
// 16 goroutines at -audit-load-rate runs per second, each run due at its
// own instant and timed from then (so a stall counts for every run it
// delays), and reports the runs' latency percentiles and the deepest the
// audit queue got, three times: with the writer storing every event
// (stored), with a writer that stores nothing in no time (discarded), and
// with a queue that is full from the start and a writer that stores nothing
// but takes as long as the database would need to keep up with the runs
// exactly (full): every run then waits for room. The audit log keeps its
// load off the runs when the first two agree and the queue stays short;
// the third shows what a full queue costs them (docs/operations.md quotes
// the numbers):
//
//	go test ./service -run '^$' -bench RunLatencyUnderAuditLoad -benchtime 50000x -audit-load-rate 5000
func BenchmarkRunLatencyUnderAuditLoad(b *testing.B) {
	type benchCase struct {
		Name string          `json:"name"`
		Rule string          `json:"rule"`
		Data json.RawMessage `json:"data"`
	}
	var c benchCase
	for _, bc := range jsonltest.Read[benchCase](b, "../engine/testdata/bench_cases.jsonl") {
		if bc.Name == "five_rule_policy_refs_labels" {
			c = bc
		}
	}
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		for _, mode := range []auditLoad{stored, discarded, full} {
			b.Run(mode.String(), func(b *testing.B) {
				runUnderAuditLoad(b, db, c.Rule, c.Data, mode)
			})
		}
	})
}

// auditLoad is what the audit writer of BenchmarkRunLatencyUnderAuditLoad
// do with the events.
type auditLoad int

const (
	stored auditLoad = iota
	discarded
	full
)

func (l auditLoad) String() string {
	return [...]string{"stored", "discarded", "full"}[l]
}

func runUnderAuditLoad(b *testing.B, db *database.DB, rule string, data json.RawMessage, load auditLoad) {
	const workers = 16
	ctx := context.Background()
	az, err := authz.NewEmbedded(authz.WithTimeout(time.Minute))
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Config{DB: db, Authorizer: az})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	switch load {
	case discarded:
		s.execLog.insert = func(context.Context, []queued, []storage.Execution) error { return nil }
	case full:
		if *auditLoadRate == 0 {
			b.Skip("a full queue needs a rate to keep up with")
		}
		// The writer takes an event each 1/rate. A sleep that ends late is
		// made up by the next: the timer's lateness alone would leave the
		// writer slower than the runs, and the runs waiting longer and
		// longer.
		perEvent := time.Second / time.Duration(*auditLoadRate)
		var late atomic.Int64
		s.execLog.insert = func(_ context.Context, batch []queued, _ []storage.Execution) error {
			owed := time.Duration(len(batch))*perEvent - time.Duration(late.Swap(0))
			if owed <= 0 {
				late.Add(int64(-owed))
				return nil
			}
			began := time.Now()
			time.Sleep(owed)
			late.Add(int64(time.Since(began) - owed))
			return nil
		}
	}
	// The benchmark framework may call this more than once on a database.
	key := "audit-load-benchmark-" + uuid.NewString()
	if _, err := s.Operator().Bootstrap(ctx, BootstrapInput{Organization: "Load " + uuid.NewString(),
		Email: "load@bench.test", Key: key}); err != nil {
		b.Fatal(err)
	}
	p, err := s.Authenticate(ctx, key, "")
	if err != nil {
		b.Fatal(err)
	}
	as := WithPrincipal(ctx, p)
	pol, err := s.CreatePolicy(as, Changes{Name: new("five rules"), Rule: &rule})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.PublishPolicy(as, pol.ID, Changes{}); err != nil {
		b.Fatal(err)
	}

	if load == full {
		// The writer takes its first batches as the queue fills.
		for len(s.execLog.events) < cap(s.execLog.events) {
			s.execLog.events <- queued{}
		}
	}
	var next atomic.Int64
	var deepest atomic.Int64
	latencies := make([][]time.Duration, workers)
	var wg sync.WaitGroup
	b.ResetTimer()
	began := time.Now()
	for w := range workers {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				due := time.Now()
				if *auditLoadRate > 0 {
					due = began.Add(time.Duration(i) * time.Second / time.Duration(*auditLoadRate))
					time.Sleep(time.Until(due))
				}
				res, err := s.RunPolicy(as, pol.BaseID, data)
				took := time.Since(due)
				if err != nil {
					b.Error(err)
					return
				}
				res.Release()
				latencies[w] = append(latencies[w], took)
				for d := int64(len(s.execLog.events)); ; {
					if seen := deepest.Load(); d <= seen || deepest.CompareAndSwap(seen, d) {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	b.StopTimer()
	all := slices.Concat(latencies...)
	slices.Sort(all)
	at := func(q float64) float64 { return float64(all[int(q*float64(len(all)-1))].Microseconds()) }
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "runs/s")
	b.ReportMetric(at(0.50), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
	b.ReportMetric(float64(deepest.Load()), "max-queue")
}
