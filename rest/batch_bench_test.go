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
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/requestid"
	"github.com/verdict/verdict/service"
)

// batchBenchItems is the size of the measured batches: the default limit.
const batchBenchItems = service.DefaultMaxBatchItems

// batchBench is a published five-rule bench policy behind the whole
// handler, and a batch of its bench case's data.
type batchBench struct {
	c    benchCase
	body []byte
	send func() *httptest.ResponseRecorder
	// run sends the batch and keeps only the answer's status: the copy a
	// recorder makes of a few megabytes is not the server's work.
	run func()
}

// discardWriter is a ResponseWriter that keeps the status alone.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }

func newBatchBench(b *testing.B, db *database.DB) *batchBench {
	c := loadBenchCase(b, "five_rule_policy_refs_labels")
	bb := &batchBench{c: c, body: []byte(`{"items": [` + strings.TrimSuffix(strings.Repeat(string(c.Data)+",", batchBenchItems), ",") + `]}`)}
	srv := newBatchBenchServer(b, db)
	do := func(method, path string, body []byte) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, bytes.NewReader(body))
		r.Header.Set("X-Api-Key", adminKey)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	w := do(http.MethodPost, "/policy", mustJSON(b, map[string]string{"name": "Mortgage", "rule": c.Rule}))
	if w.Code != http.StatusCreated {
		b.Fatalf("creating the policy: %d %s", w.Code, w.Body)
	}
	var pol service.SavedPolicy
	if err := json.Unmarshal(w.Body.Bytes(), &pol); err != nil {
		b.Fatal(err)
	}
	if w := do(http.MethodPut, "/policy/"+pol.ID.String(), []byte(`{"status": "published"}`)); w.Code != http.StatusCreated {
		b.Fatalf("publishing the policy: %d %s", w.Code, w.Body)
	}
	path := "/run/policy/" + pol.BaseID.String() + "/batch"
	request := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(bb.body))
		r.Header.Set("X-Api-Key", adminKey)
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	bb.send = func() *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, request())
		if w.Code != http.StatusOK {
			b.Fatalf("the batch answers %d %s", w.Code, w.Body.String()[:min(w.Body.Len(), 500)])
		}
		return w
	}
	bb.run = func() {
		w := &discardWriter{header: http.Header{}}
		srv.ServeHTTP(w, request())
		if w.status != http.StatusOK {
			b.Fatalf("the batch answers %d", w.status)
		}
	}
	for range 3 { // warm the caches and the result pool
		if w := bb.send(); strings.Count(w.Body.String(), `"explanation"`) != batchBenchItems {
			b.Fatal("the batch does not answer every item")
		}
	}
	return bb
}

// BenchmarkRunPolicyBatch measures POST /run/policy/{baseId}/batch through
// the whole handler with 1,000 items of the five-rule bench case, every
// cache warm; ns/item is what one item costs.
func BenchmarkRunPolicyBatch(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		bb := newBatchBench(b, db)
		b.ReportAllocs()
		for b.Loop() {
			bb.run()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batchBenchItems, "ns/item")
	})
}

// batchBenchBlock is how many batches BenchmarkBatchItemAgainstEvaluation
// sends in a row, and how many times over it then does each step of its
// yardstick: enough work for several garbage collections within each, so
// that each pays for the collections its own allocations call for. With
// one batch and one yardstick in turn, a collection every few rounds fell
// in whichever step was running, and where it fell shifted as the heap
// grew: from one run to the next in one process, an item seemed to cost
// 15 to 40% more than the yardstick.
const batchBenchBlock = 16

// BenchmarkBatchItemAgainstEvaluation sets an item of a batch against what
// every answered result costs on its own: the compiled evaluation
// (engine's BenchmarkEvaluateCompiled) of decoded data into a pooled
// result, its explanation and warnings, and its encoding as the answer
// writes it (item/evaluation); and against that plus decoding the item's
// data whole, as a single run does (item/decoded-evaluation). Each round sends
// batches through the whole handler and then does that work on as many
// times 1,000 items of the same policy, alternately in one process, so that
// the ratios hold on a busy machine whose absolute figures do not. The times
// are the process's CPU time, garbage collection included, which other
// work on the machine disturbs less than the wall clock.
func BenchmarkBatchItemAgainstEvaluation(b *testing.B) {
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		bb := newBatchBench(b, db)
		var eng engine.Engine
		prog, err := eng.Compile(bb.c.Rule)
		if err != nil {
			b.Fatal(err)
		}
		data, err := engine.DecodeData(bb.c.Data, engine.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		res := new(engine.Result)
		lines := engine.NewRuleLines(engine.Lines(bb.c.Rule))
		var buf []byte
		evaluate := func(data map[string]any) {
			prog.EvaluateInto(res, data)
			// The stored lines and the data DecodeData accepted, echoed as a
			// stored run echoes them.
			res.SetRule(lines)
			res.Data = engine.DataText(bb.c.Data)
			res.Explain()
			if buf, err = (&service.RunResult{Result: res}).AppendJSON(buf); err != nil {
				b.Fatal(err)
			}
		}
		var batch, alone, decoded time.Duration
		for b.Loop() {
			began := cpuTime(b)
			for range batchBenchBlock {
				bb.run()
			}
			batch += cpuTime(b) - began

			began = cpuTime(b)
			for range batchBenchBlock {
				buf = buf[:0]
				for range batchBenchItems {
					evaluate(data)
				}
			}
			alone += cpuTime(b) - began

			began = cpuTime(b)
			for range batchBenchBlock {
				buf = buf[:0]
				for range batchBenchItems {
					d, err := engine.DecodeData(bb.c.Data, engine.Limits{})
					if err != nil {
						b.Fatal(err)
					}
					evaluate(d)
				}
			}
			decoded += cpuTime(b) - began
		}
		perItem := func(d time.Duration) float64 {
			return float64(d.Nanoseconds()) / float64(b.N) / batchBenchBlock / batchBenchItems
		}
		b.ReportMetric(perItem(batch), "cpu-ns/item")
		b.ReportMetric(perItem(alone), "cpu-ns/evaluation")
		b.ReportMetric(perItem(decoded), "cpu-ns/decoded-evaluation")
		b.ReportMetric(float64(batch)/float64(alone), "item/evaluation")
		b.ReportMetric(float64(batch)/float64(decoded), "item/decoded-evaluation")
	})
}

// newBatchBenchServer is the server of newFixture, bootstrapped with its
// admin key, without what the fixture keeps for tests: the checks of
// every answer against openapi.json hold some fifty megabytes of parsed
// document that a server does not have. With them, the heap is five times
// a server's: every collection scans them, and collections come five
// times less often than a server's, which hides what they cost a batch.
func newBatchBenchServer(b *testing.B, db *database.DB) *server {
	az, err := embedded()
	if err != nil {
		b.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	svc, err := service.New(service.Config{DB: db, Authorizer: az, Registerer: reg})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	if _, err := svc.Operator().Bootstrap(context.Background(), service.BootstrapInput{
		Organization: "Acme", Email: "admin@acme.test", Name: "Ada", Key: adminKey}); err != nil {
		b.Fatal(err)
	}
	return newServer(svc, Config{
		BodyLimit: 4 << 20, RateLimit: -1, OrgRateLimit: -1,
		Logger: slog.New(requestid.NewHandler(slog.NewJSONHandler(io.Discard, nil))), Registerer: reg,
	})
}

// cpuTime is the CPU time the process has used so far.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkEvaluateAndEncode splits the yardstick of
// BenchmarkBatchItemAgainstEvaluation into its steps: the compiled
// evaluation into a pooled result encoded as the answer writes it; then
// with the explanation and warnings every answered result carries; then
// with the decoding of the item's data too, which an item of a batch
// cannot avoid either.
func BenchmarkEvaluateAndEncode(b *testing.B) {
	c := loadBenchCase(b, "five_rule_policy_refs_labels")
	var eng engine.Engine
	prog, err := eng.Compile(c.Rule)
	if err != nil {
		b.Fatal(err)
	}
	data, err := engine.DecodeData(c.Data, engine.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	lines := engine.NewRuleLines(engine.Lines(c.Rule))
	for _, step := range []struct {
		name              string
		explained, decode bool
	}{{"encoded", false, false}, {"explained and encoded", true, false}, {"decoded explained and encoded", true, true}} {
		b.Run(step.name, func(b *testing.B) {
			res := new(engine.Result)
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				if step.decode {
					if data, err = engine.DecodeData(c.Data, engine.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
				prog.EvaluateInto(res, data)
				res.SetRule(lines)
				res.Data = engine.DataText(c.Data)
				if step.explained {
					res.Explain()
				}
				if buf, err = (&service.RunResult{Result: res}).AppendJSON(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
