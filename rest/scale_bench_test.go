package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/auditstore"
	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/seed"
)

// scaleRunSet is how many policies the runs of BenchmarkRunPolicyAtScale
// go round: more than one, so that the caches' expiry sends runs to the
// database as in production, and fewer than the caches hold.
const scaleRunSet = 1000

// BenchmarkRunPolicyAtScale measures stored runs on a database holding
// only the policies being run ("small") and on one that also holds many
// other policies and executed events ("seeded"): what a run costs must not
// grow with what is stored. VERDICT_SCALE_POLICIES and
// VERDICT_SCALE_EVENTS set the seeded sizes (default 20,000 and 200,000;
// `verdict admin seed` fills a database of any size for the server).
// heap-MB is the heap in use after the runs: it is bounded by the caches,
// not by the database.
func BenchmarkRunPolicyAtScale(b *testing.B) {
	sizes := []struct {
		name             string
		policies, events int
	}{
		{"small", 0, 0},
		{"seeded", envCount(b, "VERDICT_SCALE_POLICIES", 20_000), envCount(b, "VERDICT_SCALE_EVENTS", 200_000)},
	}
	body := []byte(`{"data": {"Person": {"age": 100}}}`)
	for _, size := range sizes {
		b.Run(size.name, func(b *testing.B) {
			dbtest.EachB(b, func(b *testing.B, db *database.DB) {
				f := newFixture(b, db, noRateLimit, logsDropped)
				b.Cleanup(f.svc.Close)
				ctx := context.Background()
				org, admin := f.acme.Organization.ID, f.acme.User.ID
				run, err := seed.Policies(ctx, db.Client(), org, admin, scaleRunSet, nil)
				if err != nil {
					b.Fatal(err)
				}
				others, err := seed.Policies(ctx, db.Client(), org, admin, size.policies, nil)
				if err != nil {
					b.Fatal(err)
				}
				if err := seed.Events(ctx, auditstore.New(db), org, admin, append(others, run...), size.events, 30*24*time.Hour, nil); err != nil {
					b.Fatal(err)
				}
				paths := make([]string, len(run))
				for i, p := range run {
					paths[i] = "/run/policy/" + p.Base.String()
				}
				send := func(path string) {
					r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body)))
					r.Header.Set("X-Api-Key", adminKey)
					r.Header.Set("Content-Type", "application/json")
					w := httptest.NewRecorder()
					f.srv.ServeHTTP(w, r)
					if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"result":true`) {
						b.Fatalf("the run of %s answers %d %s", path, w.Code, w.Body)
					}
				}
				for _, path := range paths { // compile every program once
					send(path)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					send(paths[i%len(paths)])
					i++
				}
				b.StopTimer()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
			})
		})
	}
}

func envCount(b *testing.B, name string, fallback int) int {
	v := os.Getenv(name)
	if v == "" {
		return fallback
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		b.Fatalf("%s=%q is not a count", name, v)
	}
	return n
}
