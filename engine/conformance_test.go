package engine_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

// conformanceCase is one line of testdata/conformance.jsonl (a copy of the
// shared corpus; see its README for the comparison rules applied here).
type conformanceCase struct {
	ID     string          `json:"id"`
	Rule   string          `json:"rule"`
	Data   json.RawMessage `json:"data"`
	Expect json.RawMessage `json:"expect"`
}

type expectation struct {
	Result *bool `json:"result"`
	Error  *struct {
		Kind    string  `json:"kind"`
		Message *string `json:"message"`
	} `json:"error"`
	Labels     map[string]bool `json:"labels"`
	Rule       []string        `json:"rule"`
	Trace      json.RawMessage `json:"trace"`
	HTTPStatus int             `json:"http_status"`
	ErrorCode  string          `json:"error_code"`
}

func loadConformance(t testing.TB) []conformanceCase {
	return jsonltest.Read[conformanceCase](t, "testdata/conformance.jsonl")
}

func TestConformance(t *testing.T) {
	cases := loadConformance(t)
	if len(cases) < 150 {
		t.Fatalf("corpus has %d cases, want at least 150", len(cases))
	}
	var eng engine.Engine
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			var want expectation
			if err := json.Unmarshal(c.Expect, &want); err != nil {
				t.Fatal(err)
			}
			data, err := engine.DecodeData(c.Data, engine.Limits{})
			if want.HTTPStatus != 0 {
				// The request itself is malformed: no run happens.
				if err == nil {
					t.Fatalf("data %s was accepted, want a malformed-request error", c.Data)
				}
				if want.HTTPStatus != 400 || want.ErrorCode != "invalid_argument" {
					t.Fatalf("unexpected expectation %+v", want)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeData: %v", err)
			}
			got := eng.Run(c.Rule, data)
			compareResult(t, c.ID, got, want)
		})
	}
}

func compareResult(t *testing.T, id string, got *engine.Result, want expectation) {
	t.Helper()
	if want.Result == nil || got.Result != *want.Result {
		t.Errorf("result = %v, want %v", got.Result, want.Result)
	}
	switch {
	case want.Error == nil && got.Error != nil:
		t.Errorf("error = %q, want none", got.Error.Message)
	case want.Error != nil && got.Error == nil:
		t.Errorf("no error, want %s", want.Error.Kind)
	case want.Error != nil:
		if kind, _, _ := strings.Cut(got.Error.Message, ":"); kind != want.Error.Kind {
			t.Errorf("error kind = %q (%q), want %q", kind, got.Error.Message, want.Error.Kind)
		}
		if want.Error.Message != nil {
			msg := *want.Error.Message
			const loop = "Evaluation error: Infinite loop detected"
			if strings.HasPrefix(msg, loop) {
				// The corpus allows comparing only this prefix; we keep the
				// full message and compare it exactly anyway.
				if !strings.HasPrefix(got.Error.Message, loop) {
					t.Errorf("error = %q, want prefix %q", got.Error.Message, loop)
				}
			}
			if got.Error.Message != msg {
				t.Errorf("error = %q, want %q", got.Error.Message, msg)
			}
		}
	}
	if !reflect.DeepEqual(got.Labels, want.Labels) {
		t.Errorf("labels = %v, want %v", got.Labels, want.Labels)
	}
	if got.Rule == nil || !reflect.DeepEqual(got.Rule, want.Rule) && !(len(got.Rule) == 0 && len(want.Rule) == 0) {
		t.Errorf("rule = %q, want %q", got.Rule, want.Rule)
	}
	if want.Error != nil && want.Error.Kind == "Parse error" {
		return
	}
	gotTrace, err := json.Marshal(got.Trace)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(gotTrace, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want.Trace, &w); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(g, w) {
		t.Errorf("trace differs\n got: %s\nwant: %s", gotTrace, want.Trace)
	}
}

// jsonEqual is deep equality of decoded JSON with numbers compared as
// float64 (they already are: encoding/json decodes them so).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	return a == b
}
