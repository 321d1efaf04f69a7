package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/graph"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/internal/requestid"
)

func TestOperationsAreCountedAndLoggedByName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		var logs syncBuffer
		f := newFixture(t, db, withConfig(graph.Config{
			Registerer: reg,
			Logger:     slog.New(requestid.NewHandler(slog.NewJSONHandler(&logs, nil))),
		}))
		who := jsonRequest(`{"query": "query Who { viewer { role } }"}`)
		who.Header.Set("X-Request-Id", "req-1")
		f.send(t, adminKey, who)
		f.post(t, adminKey, `query Who { viewer { role } }`, nil)
		f.post(t, adminKey, `{ viewer { role } }`, nil)
		f.post(t, adminKey, `query Broken { viewer { password } }`, nil)
		f.post(t, adminKey, `query Missing($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": "nope"})

		want := map[string]float64{
			"operation=Who result=ok":         2,
			"operation=anonymous result=ok":   1,
			"operation=invalid result=errors": 1,
			"operation=Missing result=errors": 1,
		}
		if got := counts(t, reg, "verdict_graphql_operations_total"); !maps.Equal(got, want) {
			t.Errorf("operations counted %v, want %v", got, want)
		}
		if got := counts(t, reg, "verdict_graphql_operation_duration_seconds"); got["operation=Who"] != 2 {
			t.Errorf("durations observed %v, want 2 for Who", got)
		}

		line, _, _ := strings.Cut(logs.String(), "\n")
		var first map[string]any
		if err := json.Unmarshal([]byte(line), &first); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if first["msg"] != "graphql operation" || first["operation"] != "Who" || first["result"] != "ok" || first["request_id"] != "req-1" {
			t.Errorf("log line %s", line)
		}
	})
}

func TestOperationNamesPastTheLimitAreCountedAsOther(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		reg := prometheus.NewRegistry()
		f := newFixture(t, db, withConfig(graph.Config{Registerer: reg}))
		for i := range 205 {
			f.post(t, adminKey, fmt.Sprintf(`query Op%d { __typename }`, i), nil)
		}
		f.post(t, adminKey, `query Op0 { __typename }`, nil)
		long := "Q" + strings.Repeat("x", 100)
		f.post(t, adminKey, `query `+long+` { __typename }`, nil)

		got := counts(t, reg, "verdict_graphql_operations_total")
		if len(got) != 201 || got["operation=other result=ok"] != 6 || got["operation=Op0 result=ok"] != 2 {
			t.Errorf("%d series, other %v, Op0 %v; want 200 names, other 6 times, Op0 twice",
				len(got), got["operation=other result=ok"], got["operation=Op0 result=ok"])
		}
	})
}

// counts reads a metric's samples (a histogram's sample count) by labels,
// as "name=value ..." in the order of the labels.
func counts(t *testing.T, g prometheus.Gatherer, metric string) map[string]float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, fam := range families {
		if fam.GetName() != metric {
			continue
		}
		for _, m := range fam.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			v := m.GetCounter().GetValue()
			if h := m.GetHistogram(); h != nil {
				v = float64(h.GetSampleCount())
			}
			got[strings.Join(labels, " ")] = v
		}
	}
	return got
}

// syncBuffer is a bytes.Buffer a logger may write to from several
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
