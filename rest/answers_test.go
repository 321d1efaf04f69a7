package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

func TestAGraphQLDocumentsRunsShareWhatTheRequestMayAnswer(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		f.limitedServer(Config{RateLimit: -1, OrgRateLimit: -1, BodyLimit: 1 << 20})
		// A rule of 2,000 conditions: each run is counted about 1.36 MiB
		// (512 bytes a condition and three times its text, and the text),
		// so 47 fit in what one request may answer, and 70 do not.
		var rule strings.Builder
		rule.WriteString("A **Person** gets big if the __age__ of the **Person** is at least 1")
		for range 1999 {
			rule.WriteString(" and the __age__ of the **Person** is at least 1")
		}
		rule.WriteString(".")
		var doc strings.Builder
		doc.WriteString("mutation($r: String!) {")
		for i := range 70 {
			fmt.Fprintf(&doc, ` r%d: runRule(input: {rule: $r, data: {Person: {age: 70}}}) { result }`, i)
		}
		doc.WriteString("}")
		body, _ := json.Marshal(map[string]any{"query": doc.String(), "variables": map[string]string{"r": rule.String()}})
		w := f.do(http.MethodPost, "/graphql", strings.NewReader(string(body)), append(key(adminKey), "Content-Type", "application/json")...)
		var answer struct {
			Errors []struct {
				Message    string
				Path       []string
				Extensions struct{ Code string }
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("answer %s: %v", w.Body.String()[:min(w.Body.Len(), 500)], err)
		}
		var refused []string
		for _, e := range answer.Errors {
			if e.Extensions.Code != string(service.CodeInvalidArgument) || e.Message != "this request would answer more than 64.0 MiB; ask for fewer runs, checks or records in one request" {
				t.Errorf("refused run %v: %q (%s)", e.Path, e.Message, e.Extensions.Code)
			}
			refused = append(refused, strings.Join(e.Path, "."))
		}
		var want []string
		for i := 47; i < 70; i++ {
			want = append(want, fmt.Sprintf("r%d", i))
		}
		if got := strings.Join(refused, " "); got != strings.Join(want, " ") {
			t.Errorf("refused %q, want %q", got, strings.Join(want, " "))
		}
	})
}
