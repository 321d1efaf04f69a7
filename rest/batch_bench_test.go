package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

// batchBenchItems is the size of the measured batches: the default limit.
const batchBenchItems = service.DefaultMaxBatchItems

// BenchmarkRunPolicyBatch measures POST /run/policy/{baseId}/batch through
// the whole handler with 1,000 items of the five-rule bench case, every
// cache warm; ns/item is what one item costs.
func BenchmarkRunPolicyBatch(b *testing.B) {
	c := loadBenchCase(b, "five_rule_policy_refs_labels")
	body := []byte(`{"items": [` + strings.TrimSuffix(strings.Repeat(string(c.Data)+",", batchBenchItems), ",") + `]}`)
	dbtest.EachB(b, func(b *testing.B, db *database.DB) {
		f := newFixture(b, db, noRateLimit, logsDropped, withConfig(func(c *Config) { c.BodyLimit = 4 << 20 }))
		b.Cleanup(f.svc.Close)
		header := append(key(adminKey), "Content-Type", "application/json")
		w := f.do(http.MethodPost, "/policy", bytes.NewReader(mustJSON(b, map[string]string{"name": "Mortgage", "rule": c.Rule})), header...)
		if w.Code != http.StatusCreated {
			b.Fatalf("creating the policy: %d %s", w.Code, w.Body)
		}
		var pol service.SavedPolicy
		if err := json.Unmarshal(w.Body.Bytes(), &pol); err != nil {
			b.Fatal(err)
		}
		if w := f.do(http.MethodPut, "/policy/"+pol.ID.String(), strings.NewReader(`{"status": "published"}`), header...); w.Code != http.StatusCreated {
			b.Fatalf("publishing the policy: %d %s", w.Code, w.Body)
		}
		path := "/run/policy/" + pol.BaseID.String() + "/batch"
		send := func() *httptest.ResponseRecorder {
			r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
			r.Header.Set("X-Api-Key", adminKey)
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			f.srv.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("the batch answers %d %s", w.Code, w.Body.String()[:min(w.Body.Len(), 500)])
			}
			return w
		}
		for range 3 { // warm the caches and the result pool
			if w := send(); strings.Count(w.Body.String(), `"explanation"`) != batchBenchItems {
				b.Fatal("the batch does not answer every item")
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			send()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batchBenchItems, "ns/item")
	})
}

// BenchmarkEvaluateAndEncode is the yardstick of BenchmarkRunPolicyBatch's
// ns/item: the engine's compiled evaluation (BenchmarkEvaluateCompiled)
// into a pooled result and its encoding as the answer writes it; then
// with the explanation and warnings every answered result carries; then
// with the decoding of the item's data too, which is all one item of a
// batch cannot avoid.
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
	for _, step := range []struct {
		name              string
		explained, decode bool
	}{{"encoded", false, false}, {"explained and encoded", true, false}, {"decoded explained and encoded", true, true}} {
		b.Run(step.name, func(b *testing.B) {
			res := new(engine.Result)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			b.ReportAllocs()
			for b.Loop() {
				if step.decode {
					if data, err = engine.DecodeData(c.Data, engine.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
				prog.EvaluateInto(res, data)
				res.Data = c.Data
				if step.explained {
					res.Explain()
				}
				buf.Reset()
				if err := enc.Encode(&service.RunResult{Result: res}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
