package engine_test

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/internal/jsonltest"
)

// referenceCase is one line of testdata/reference_cases.jsonl: an assertion
// of the original implementation's test suites, restated as rule text, data
// and the expected outcome. Fields named in DivergentFields are ones where
// Verdict deliberately behaves otherwise; Note says how.
type referenceCase struct {
	ID              string                     `json:"id"`
	Rule            string                     `json:"rule"`
	Data            json.RawMessage            `json:"data"`
	Expect          map[string]json.RawMessage `json:"expect"`
	DivergentFields []string                   `json:"divergent_fields"`
	Note            string                     `json:"note"`
	NotChecked      []string                   `json:"not_checked"`
}

func loadReferenceCases(t testing.TB) []referenceCase {
	return jsonltest.Read[referenceCase](t, "testdata/reference_cases.jsonl")
}

// todayMinus matches the dynamic dates of the data: `{{today-N}}` is the
// calendar date N days before the day of the run.
var todayMinus = regexp.MustCompile(`\{\{today-(\d+)\}\}`)

func resolveDates(raw []byte, today time.Time) []byte {
	return todayMinus.ReplaceAllFunc(raw, func(m []byte) []byte {
		n, _ := strconv.Atoi(string(todayMinus.FindSubmatch(m)[1]))
		return []byte(today.AddDate(0, 0, -n).Format("2006-01-02"))
	})
}

func TestReferenceCases(t *testing.T) {
	cases := loadReferenceCases(t)
	if len(cases) != 363 {
		t.Fatalf("corpus has %d cases, want 363", len(cases))
	}
	now := time.Now().UTC()
	eng := engine.Engine{Now: func() time.Time { return now }}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			data, err := engine.DecodeData(resolveDates(c.Data, now), engine.Limits{})
			if err != nil {
				t.Fatalf("DecodeData: %v", err)
			}
			res := eng.Run(c.Rule, data)
			for _, nc := range c.NotChecked {
				t.Logf("not checked: %s", nc)
			}
			divergent := map[string]bool{}
			for _, f := range c.DivergentFields {
				divergent[f] = true
			}
			keys := make([]string, 0, len(c.Expect))
			for k := range c.Expect {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if divergent[key] {
					checkDivergent(t, c, key, res)
					continue
				}
				checkExpectation(t, key, c.Expect[key], res)
			}
		})
	}
}

// checkDivergent checks a field where Verdict deliberately differs: a
// result is the other boolean, an error is of the kind the note names after
// "Verdict"; anything else stays unchecked, with the note as the reason.
func checkDivergent(t *testing.T, c referenceCase, key string, res *engine.Result) {
	t.Helper()
	switch key {
	case "result":
		var want bool
		mustDecode(t, c.Expect[key], &want)
		if res.Result == want {
			t.Errorf("divergent result: got %v, the reference's value; want the opposite (%s)", res.Result, c.Note)
		}
		return
	case "error_kind":
		_, after, ok := strings.Cut(c.Note, "Verdict")
		if kind := kindNamed(after); ok && kind != "" {
			if res.Error == nil || res.Error.Kind.String() != kind {
				t.Errorf("divergent error_kind: got %s, want %s (%s)", errorKind(res), kind, c.Note)
			}
			return
		}
	}
	t.Logf("%s not checked: %s", key, c.Note)
}

// kindNamed returns the first error kind named in s, case-insensitively.
func kindNamed(s string) string {
	s = strings.ToLower(s)
	best, at := "", len(s)
	for _, k := range []engine.Kind{engine.KindParse, engine.KindMissingSelector, engine.KindMissingProperty,
		engine.KindUnresolvedReference, engine.KindType, engine.KindEvaluation} {
		if i := strings.Index(s, strings.ToLower(k.String())); i >= 0 && i < at {
			best, at = k.String(), i
		}
	}
	return best
}

func errorKind(res *engine.Result) string {
	if res.Error == nil {
		return "no error"
	}
	return strconv.Quote(res.Error.Message)
}

func mustDecode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("expectation %s: %v", raw, err)
	}
}

func golden(t *testing.T, res *engine.Result) *engine.RuleTrace {
	t.Helper()
	if len(res.Trace.Execution) == 0 {
		t.Fatalf("trace has no golden rule entry (error %s)", errorKind(res))
	}
	return &res.Trace.Execution[0]
}

func resultJSON(t *testing.T, res *engine.Result) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkExpectation checks one key of a case's expect object.
func checkExpectation(t *testing.T, key string, raw json.RawMessage, res *engine.Result) {
	t.Helper()
	switch key {
	case "result":
		var want bool
		mustDecode(t, raw, &want)
		if res.Result != want {
			t.Errorf("result = %v, want %v (error %s)", res.Result, want, errorKind(res))
		}
	case "result_not":
		var not bool
		mustDecode(t, raw, &not)
		if res.Result == not {
			t.Errorf("result = %v, want anything else", res.Result)
		}
	case "error_kind":
		// null: no error; "*": any error; otherwise the kind of the error.
		var want *string
		mustDecode(t, raw, &want)
		switch {
		case want == nil:
			if res.Error != nil {
				t.Errorf("error = %q, want none", res.Error.Message)
			}
		case *want == "*":
			if res.Error == nil {
				t.Errorf("no error, want one")
			}
		case res.Error == nil || res.Error.Kind.String() != *want:
			t.Errorf("error = %s, want kind %q", errorKind(res), *want)
		}
	case "error_not_kind":
		var not string
		mustDecode(t, raw, &not)
		if res.Error != nil && res.Error.Kind.String() == not {
			t.Errorf("error = %q, want any other kind or none", res.Error.Message)
		}
	case "error_contains", "error_contains_any":
		var subs []string
		mustDecode(t, raw, &subs)
		if res.Error == nil {
			t.Errorf("no error, want one containing %q", subs)
			return
		}
		found := 0
		for _, s := range subs {
			if strings.Contains(res.Error.Message, s) {
				found++
			} else if key == "error_contains" {
				t.Errorf("error %q does not contain %q", res.Error.Message, s)
			}
		}
		if key == "error_contains_any" && found == 0 {
			t.Errorf("error %q contains none of %q", res.Error.Message, subs)
		}
	case "golden":
		var want map[string]json.RawMessage
		mustDecode(t, raw, &want)
		checkGolden(t, want, golden(t, res))
	case "conditions":
		var want map[string]map[string]json.RawMessage
		mustDecode(t, raw, &want)
		g := golden(t, res)
		for idx, fields := range want {
			i, err := strconv.Atoi(idx)
			if err != nil {
				t.Fatalf("condition index %q", idx)
			}
			if i >= len(g.Conditions) {
				t.Errorf("golden rule has %d conditions, want condition %d (error %s)", len(g.Conditions), i, errorKind(res))
				continue
			}
			checkCondition(t, i, fields, g.Conditions[i])
		}
	case "rule_count":
		var want int
		mustDecode(t, raw, &want)
		if len(res.Rule) != want {
			t.Errorf("rule has %d entries, want %d: %q", len(res.Rule), want, res.Rule)
		}
	case "trace_rules":
		var want int
		mustDecode(t, raw, &want)
		if len(res.Trace.Execution) != want {
			t.Errorf("trace has %d rule entries, want %d", len(res.Trace.Execution), want)
		}
	case "well_formed":
		// The answer is a JSON object with a boolean result.
		var v struct {
			Result *bool `json:"result"`
		}
		if err := json.Unmarshal([]byte(resultJSON(t, res)), &v); err != nil || v.Result == nil {
			t.Errorf("result is not well formed: %s", resultJSON(t, res))
		}
	case "output_contains":
		var subs []string
		mustDecode(t, raw, &subs)
		out := resultJSON(t, res)
		for _, s := range subs {
			if !strings.Contains(out, s) {
				t.Errorf("output does not contain %q: %s", s, out)
			}
		}
	case "output_excludes_or_contains":
		// [a, b]: the output leaves out a, or it contains b.
		var pair []string
		mustDecode(t, raw, &pair)
		out := resultJSON(t, res)
		if len(pair) != 2 || strings.Contains(out, pair[0]) && !strings.Contains(out, pair[1]) {
			t.Errorf("output contains %q but not %q: %s", pair[0], pair[1], out)
		}
	case "labels_subset":
		var want map[string]bool
		mustDecode(t, raw, &want)
		for k, v := range want {
			if got, ok := res.Labels[k]; !ok || got != v {
				t.Errorf("labels[%q] = %v (present %v), want %v; labels %v", k, got, ok, v, res.Labels)
			}
		}
	case "rule_results":
		// The outcome of a referenced rule, as the golden rule's condition
		// referring to it records it (or the labels map, for a label).
		var want map[string]bool
		mustDecode(t, raw, &want)
		g := golden(t, res)
		for k, v := range want {
			got, found := res.Labels[k]
			for _, c := range g.Conditions {
				if c.Reference && (c.RuleName == k || c.ReferencedRuleOutcome == k) {
					got, found = c.Result, true
				}
			}
			if !found || got != v {
				t.Errorf("rule %q: result %v (found %v), want %v", k, got, found, v)
			}
		}
	default:
		t.Errorf("unknown expectation %q: %s", key, raw)
	}
}

func checkGolden(t *testing.T, want map[string]json.RawMessage, g *engine.RuleTrace) {
	t.Helper()
	for k, raw := range want {
		var got any
		switch k {
		case "outcome":
			got = g.Outcome.Value
		case "selector":
			got = g.Selector.Value
		case "label":
			// An unlabelled rule has no label: null in the expectation.
			if g.Label != "" {
				got = g.Label
			}
		case "result":
			got = g.Result
		case "condition_count":
			got = len(g.Conditions)
		default:
			t.Errorf("unknown golden expectation %q", k)
			continue
		}
		if !matchesJSON(t, got, raw) {
			t.Errorf("golden %s = %v, want %s", k, got, raw)
		}
	}
}

func checkCondition(t *testing.T, i int, want map[string]json.RawMessage, c engine.ConditionTrace) {
	t.Helper()
	for k, raw := range want {
		var got any
		switch k {
		case "result":
			got = c.Result
		case "path":
			got = c.Property.Path
		case "selector":
			got = c.Selector.Value
		case "property_name":
			// The last step of the resolved path.
			got = c.Property.Path[strings.LastIndex(c.Property.Path, ".")+1:]
		case "operator":
			got = c.Operator
		case "value":
			got = c.Value
		case "value_type":
			got = c.Value.Type
		case "value_len", "value_first":
			// The list literal's items, as its JSON form shows them.
			var list []any
			b, err := json.Marshal(c.Value.Value)
			if err != nil {
				t.Fatal(err)
			}
			mustDecode(t, b, &list)
			if k == "value_len" {
				got = len(list)
			} else if len(list) > 0 {
				got = list[0]
			}
		case "rule_name":
			got = c.RuleName
		case "left_type":
			if !c.Compared {
				t.Errorf("condition %d: no evaluation details, want left type %s", i, raw)
				continue
			}
			got = c.Details.LeftValue.Type
		case "details_null":
			got = !c.Compared
		default:
			t.Errorf("unknown condition expectation %q", k)
			continue
		}
		if !matchesJSON(t, got, raw) {
			b, _ := json.Marshal(c)
			t.Errorf("condition %d: %s = %v, want %s (%s)", i, k, got, raw, b)
		}
	}
}

// matchesJSON compares a Go value with a JSON expectation by their decoded
// JSON forms.
func matchesJSON(t *testing.T, got any, want json.RawMessage) bool {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	return jsonEqual(g, w)
}
