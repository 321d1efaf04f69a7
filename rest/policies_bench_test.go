package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/jsonltest"
	"github.com/verdict/verdict/service"
)

// benchCase is one line of the engine's bench_cases.jsonl.
type benchCase struct {
	Name string          `json:"name"`
	Rule string          `json:"rule"`
	Data json.RawMessage `json:"data"`
}

func loadBenchCase(b *testing.B, name string) benchCase {
	b.Helper()
	for _, c := range jsonltest.Read[benchCase](b, "../engine/testdata/bench_cases.jsonl") {
		if c.Name == name {
			return c
		}
	}
	b.Fatalf("no bench case %q", name)
	return benchCase{}
}

// BenchmarkRunPolicyStored measures POST /run/policy/{baseId} through the
// whole handler (middleware, authentication, authorization, run cache,
// evaluation, audit queue, encoding) on a published five-rule policy, with
// every cache warm.
func BenchmarkRunPolicyStored(b *testing.B) {
	c := loadBenchCase(b, "five_rule_policy_refs_labels")
	body, err := json.Marshal(map[string]json.RawMessage{"data": c.Data})
	if err != nil {
		b.Fatal(err)
	}
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db, noRateLimit, logsDropped)
		// Stored executed events must be flushed before the database
		// closes; cleanups run last registered first.
		b.Cleanup(f.svc.Close)
		header := append(key(adminKey), "Content-Type", "application/json")
		send := func(method, path string, body []byte) *httptest.ResponseRecorder {
			return f.do(method, path, bytes.NewReader(body), header...)
		}

		w := send(http.MethodPost, "/policy", mustJSON(b, map[string]string{"name": "Mortgage", "rule": c.Rule}))
		if w.Code != http.StatusCreated {
			b.Fatalf("creating the policy: %d %s", w.Code, w.Body)
		}
		var pol service.SavedPolicy
		if err := json.Unmarshal(w.Body.Bytes(), &pol); err != nil {
			b.Fatal(err)
		}
		if w := send(http.MethodPut, "/policy/"+pol.ID.String(), []byte(`{"status": "published"}`)); w.Code != http.StatusCreated {
			b.Fatalf("publishing the policy: %d %s", w.Code, w.Body)
		}
		path := "/run/policy/" + pol.BaseID.String()
		for range 10 { // warm the caches and the result pool
			w := send(http.MethodPost, path, body)
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"result":true`) {
				b.Fatalf("the run answers %d %s", w.Code, w.Body)
			}
		}

		b.ReportAllocs()
		began := cpuTime(b)
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
			r.Header.Set("X-Api-Key", adminKey)
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			f.srv.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("the run answers %d %s", w.Code, w.Body)
			}
		}
		// The process's CPU time covers what a run costs besides its
		// request: storing its audit event, and collecting its garbage.
		b.ReportMetric(float64(cpuTime(b)-began)/float64(b.N), "cpu-ns/op")
	})
}

func mustJSON(b *testing.B, v any) []byte {
	b.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}
