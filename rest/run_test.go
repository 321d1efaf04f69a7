package rest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/verdict/verdict/database"
	"github.com/verdict/verdict/internal/dbtest"
	"github.com/verdict/verdict/service"
)

const mortgageRule = "A **Applicant** qualifies for a mortgage if the __credit score__ of the **Applicant** is greater than or equal to 680."

// mortgageTrace is the conformance corpus's expected trace for gte-01.
const mortgageTrace = `{"execution": [{"selector": {"value": "Applicant"}, "outcome": {"value": "a mortgage"},
	"conditions": [{"selector": {"value": "Applicant"}, "property": {"path": "$.Applicant.creditScore", "value": 680},
		"operator": "GreaterThanOrEqual", "value": {"type": "number", "value": 680},
		"evaluation_details": {"left_value": {"type": "number", "value": 680}, "right_value": {"type": "number", "value": 680}, "comparison_result": true},
		"result": true}],
	"result": true}]}`

func runBody(t *testing.T, rule string, data string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"rule": rule, "data": json.RawMessage(data)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonValue(t *testing.T, raw string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}

// topLevelKeys lists an object's member names in the order they are
// written.
func topLevelKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("body %s is not an object", raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

var digits = regexp.MustCompile(`^[0-9]+$`)

func TestRunReturnsTheDocumentedResultForAPassingRule(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		data := `{"Applicant": {"creditScore": 680}}`
		w := f.run(runBody(t, mortgageRule, data), key(adminKey)...)
		wantStatus(t, w, 200)
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		wantKeys := []string{"result", "trace", "rule", "data", "error", "labels", "explanation", "warnings", "execution"}
		if keys := topLevelKeys(t, w.Body.Bytes()); !reflect.DeepEqual(keys, wantKeys) {
			t.Errorf("members %v, want %v in that order", keys, wantKeys)
		}
		var got struct {
			Result *bool           `json:"result"`
			Trace  json.RawMessage `json:"trace"`
			Rule   []string        `json:"rule"`
			Data   json.RawMessage `json:"data"`
			Error  json.RawMessage `json:"error"`
			Labels json.RawMessage `json:"labels"`

			Explanation string          `json:"explanation"`
			Warnings    json.RawMessage `json:"warnings"`
			Execution   struct {
				Orchestrator map[string]string `json:"orchestrator"`
				Engine       string            `json:"engine"`
				Total        string            `json:"total"`
			} `json:"execution"`
		}
		dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("decoding %s: %v", w.Body, err)
		}
		if got.Result == nil || !*got.Result {
			t.Errorf("result %v, want true", got.Result)
		}
		if !reflect.DeepEqual(jsonValue(t, string(got.Trace)), jsonValue(t, mortgageTrace)) {
			t.Errorf("trace %s\nwant %s", got.Trace, mortgageTrace)
		}
		if !reflect.DeepEqual(got.Rule, []string{mortgageRule}) {
			t.Errorf("rule %q", got.Rule)
		}
		if !reflect.DeepEqual(jsonValue(t, string(got.Data)), jsonValue(t, data)) {
			t.Errorf("data %s, want the request's %s", got.Data, data)
		}
		if string(got.Error) != "null" || string(got.Labels) != "null" {
			t.Errorf("error %s and labels %s, want null and null", got.Error, got.Labels)
		}
		wantExplanation := "Applicant qualifies for a mortgage: yes — the credit score of the Applicant is 680, which is at least 680."
		if got.Explanation != wantExplanation || string(got.Warnings) != "[]" {
			t.Errorf("explanation %q and warnings %s, want %q and []", got.Explanation, got.Warnings, wantExplanation)
		}
		ex := got.Execution
		if len(ex.Orchestrator) != 3 {
			t.Errorf("orchestrator %v, want go, database and total", ex.Orchestrator)
		}
		for name, v := range map[string]string{
			"orchestrator.go": ex.Orchestrator["go"], "orchestrator.database": ex.Orchestrator["database"],
			"orchestrator.total": ex.Orchestrator["total"], "engine": ex.Engine, "total": ex.Total,
		} {
			if !digits.MatchString(v) {
				t.Errorf("execution.%s = %q, want a string of digits", name, v)
			}
		}
		if ex.Orchestrator["database"] != "0" {
			t.Errorf("orchestrator.database = %q, want \"0\": /run touches no stored record", ex.Orchestrator["database"])
		}
	})
}

func TestRunReportsAParseErrorAsAResultWithoutEscapingHTML(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		w := f.run(runBody(t, "A **user** is an adult if __age__ is at least.", `{"user": {"age": 30}}`), key(adminKey)...)
		wantStatus(t, w, 200)
		raw := w.Body.String()
		if strings.Contains(raw, `\u003e`) || !strings.Contains(raw, `"error":"Parse error:  --> 1:`) {
			t.Errorf("body %s: want the error written as \"Parse error:  --> 1:...\" with > unescaped", raw)
		}
		var got struct {
			Result bool     `json:"result"`
			Error  string   `json:"error"`
			Labels any      `json:"labels"`
			Rule   []string `json:"rule"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Result || !strings.HasPrefix(got.Error, "Parse error:  --> ") || got.Labels != nil {
			t.Errorf("result %v, error %q, labels %v; want false, a parse error, null", got.Result, got.Error, got.Labels)
		}
	})
}

func TestRunRefusesNullDataAsInvalidArgument(t *testing.T) {
	// Conformance case data-01.
	dbtest.Each(t, func(t *testing.T, db *database.DB) {
		f := newFixture(t, db)
		w := f.run(`{"rule": "A **Person** is an adult if the __age__ of the **Person** is at least 18.", "data": null}`, key(adminKey)...)
		wantError(t, w, 400, service.CodeInvalidArgument)
		if strings.Contains(w.Body.String(), `"result"`) {
			t.Errorf("a refused request returned a result: %s", w.Body)
		}
	})
}
