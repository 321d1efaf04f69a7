package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// TestAResultCountsTheLargeValuesItShows: numbers and short texts fit a
// condition's allowance; a long text and a list count about their size in
// JSON each time a condition shows them, three times over, and a labelled
// rule's conditions, which the trace leaves out, count nothing.
func TestAResultCountsTheLargeValuesItShows(t *testing.T) {
	long := strings.Repeat("x", 200)
	data := map[string]any{"A": map[string]any{
		"n": 5.0, "s": "short", "t": long,
		// 1 for the brackets, and each item 1 for its comma and 8 for a
		// number or 2 more than its length for a text: 1 + 9 + 9 + 5 = 24.
		"l": []any{1.0, 2.0, "ab"},
	}}
	cases := []struct {
		name  string
		rule  string
		shown int
	}{
		{"numbers and short texts", `A **A** gets x if the __n__ of the **A** is at least 1 and the __s__ of the **A** is equal to "short".`, 0},
		{"a long text", `A **A** gets x if the __t__ of the **A** is equal to "y".`, 202},
		{"a list, twice", `A **A** gets x if the __l__ of the **A** contains 1 and the __l__ of the **A** contains 2.`, 2 * 24},
		{"a list on the right", `A **A** gets x if the __n__ of the **A** is in the __l__ of the **A**.`, 24},
		{"a labelled rule's conditions",
			"listed. A **A** is listed if the __l__ of the **A** contains 1.\nA **A** gets x if the __n__ of the **A** is at least 1.", 0},
	}
	var eng engine.Engine
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := eng.Run(c.rule, data)
			if res.Error != nil {
				t.Fatal(res.Error.Message)
			}
			if got := res.ShownAnswerBytes(); got != 3*c.shown {
				t.Errorf("ShownAnswerBytes() = %d, want %d", got, 3*c.shown)
			}
		})
	}
}

// TestARunStopsWhereItsShownValuesPassTheirBound: with a bound of 1,000
// bytes, a list counted at 24 bytes a showing (72 answered) may be read by
// thirteen conditions, and the fourteenth stops the run.
func TestARunStopsWhereItsShownValuesPassTheirBound(t *testing.T) {
	data := map[string]any{"A": map[string]any{"l": []any{1.0, 2.0, "ab"}}}
	conds := make([]string, 20)
	for i := range conds {
		conds[i] = "the __l__ of the **A** contains 1"
	}
	eng := engine.Engine{Limits: engine.Limits{MaxShownAnswerBytes: 1000}}
	res := eng.Run("A **A** gets x if "+strings.Join(conds, " and ")+".", data)
	want := "Evaluation error: the data values this run shows would answer more than 1000 bytes; read large values in fewer conditions"
	if res.Error == nil || res.Error.Message != want {
		t.Fatalf("error %v, want %q", res.Error, want)
	}
	if n := len(res.Trace.Execution[0].Conditions); n != 14 {
		t.Errorf("the trace holds %d conditions, want the 14 evaluated", n)
	}
	if got := res.ShownAnswerBytes(); got != 14*72 {
		t.Errorf("ShownAnswerBytes() = %d, want %d", got, 14*72)
	}
}

// TestNamesInWordsAreFoundInEachLargeObject reads a name written in words,
// which no key spells exactly, in two objects of 100 keys each, whose
// searches lookup remembers: each object answers with its own key.
func TestNamesInWordsAreFoundInEachLargeObject(t *testing.T) {
	object := func(key string, v float64) map[string]any {
		o := map[string]any{key: v}
		for i := range 99 {
			o[fmt.Sprint("k", i)] = float64(i)
		}
		return o
	}
	data := map[string]any{"A": object("monthlyIncome", 5), "B": object("monthly_income", 7)}
	rule := "A **A** gets x if the __monthly income__ of the **A** is equal to 5 and the __monthly income__ of the **B** is equal to 7" +
		" and the __monthly income__ of the **A** is at least 5 and the __monthly income__ of the **B** is at least 7."
	var eng engine.Engine
	res := eng.Run(rule, data)
	if res.Error != nil {
		t.Fatal(res.Error.Message)
	}
	var paths []string
	for _, c := range res.Trace.Execution[0].Conditions {
		paths = append(paths, c.Property.Path)
	}
	want := []string{"$.A.monthlyIncome", "$.B.monthly_income", "$.A.monthlyIncome", "$.B.monthly_income"}
	if !res.Result || !slices.Equal(paths, want) {
		t.Errorf("result %v, paths %q; want true, %q", res.Result, paths, want)
	}
}

// BenchmarkNameInWordsInALargeObject reads `__monthly income__`, which no
// key spells exactly, in each of 2,000 conditions from an object of 10,000
// keys: one search of the keys, remembered, rather than one a condition.
func BenchmarkNameInWordsInALargeObject(b *testing.B) {
	obj := map[string]any{"monthlyIncome": 5.0}
	for i := range 10_000 {
		obj[fmt.Sprint("k", i)] = float64(i)
	}
	benchmarkOneConditionRepeated(b, "the __monthly income__ of the **A** is at least 1", map[string]any{"A": obj})
}

// benchmarkOneConditionRepeated evaluates a rule of 2,000 copies of one
// condition on data, which must pass it.
func benchmarkOneConditionRepeated(b *testing.B, cond string, data map[string]any) {
	conds := make([]string, 2000)
	for i := range conds {
		conds[i] = cond
	}
	var eng engine.Engine
	prog, err := eng.Compile("A **A** gets x if " + strings.Join(conds, " and ") + ".")
	if err != nil {
		b.Fatal(err)
	}
	res := new(engine.Result)
	for b.Loop() {
		prog.EvaluateInto(res, data)
	}
	if !res.Result {
		b.Fatal("the run did not pass")
	}
}

// TestTheLengthsOfLongTextsAreCountedEach takes the lengths of two long
// texts of as many bytes, in characters of one and of two bytes, each in
// two conditions: each keeps its own count.
func TestTheLengthsOfLongTextsAreCountedEach(t *testing.T) {
	data := map[string]any{"A": map[string]any{"a": strings.Repeat("ab", 1000), "e": strings.Repeat("é", 1000)}}
	rule := "A **A** gets x if the length of __a__ of the **A** is equal to 2000 and the length of __e__ of the **A** is equal to 1000" +
		" and the length of __a__ of the **A** is equal to 2000 and the length of __e__ of the **A** is equal to 1000."
	var eng engine.Engine
	res := eng.Run(rule, data)
	if res.Error != nil || !res.Result {
		t.Fatalf("result %v, error %v; want true", res.Result, res.Error)
	}
}

// BenchmarkLengthOfALongText takes the length of a text of 700,000 bytes in
// each of 2,000 conditions: one count, remembered, rather than one a
// condition.
func BenchmarkLengthOfALongText(b *testing.B) {
	benchmarkOneConditionRepeated(b, "the length of __s__ of the **A** is at least 1",
		map[string]any{"A": map[string]any{"s": strings.Repeat("é", 350_000)}})
}

// TestARunStopsWhereItsConditionsReadPastTheirBound: with a bound of 1,000
// bytes on reads, a list counted at 24 bytes a reading may be read 41
// times, by conditions the trace shows or not. Labelled rules, whose own
// errors only make their labels false, stop the run too.
func TestARunStopsWhereItsConditionsReadPastTheirBound(t *testing.T) {
	data := map[string]any{"A": map[string]any{"n": 5.0, "l": []any{1.0, 2.0, "ab"}}}
	reading := func(n int) string {
		conds := make([]string, n)
		for i := range conds {
			conds[i] = "the __l__ of the **A** contains 1"
		}
		return strings.Join(conds, " and ")
	}
	want := "Evaluation error: the conditions of this run read more than 1000 bytes of data values; read large values in fewer conditions"
	eng := engine.Engine{Limits: engine.Limits{MaxReadBytes: 1000}}
	for _, c := range []struct {
		name, rule string
		stops      bool
	}{
		{"41 readings by the golden rule", "A **A** gets x if " + reading(41) + ".", false},
		{"42 readings by the golden rule", "A **A** gets x if " + reading(42) + ".", true},
		{"42 readings by labelled rules", "a. A **A** is a if " + reading(21) + ".\nb. A **A** is b if " + reading(21) +
			".\nA **A** gets x if the __n__ of the **A** is at least 1.", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := eng.Run(c.rule, data)
			switch {
			case !c.stops && (res.Error != nil || !res.Result):
				t.Errorf("result %v, error %v; want true", res.Result, res.Error)
			case c.stops && (res.Error == nil || res.Error.Message != want || res.Result):
				t.Errorf("result %v, error %v; want false, %q", res.Result, res.Error, want)
			}
		})
	}
}

// TestAnAnswerTakesNoMoreThanItsWeight: what a run answers beyond its data
// (its trace, explanation, warnings and echoed rules) stays within
// Program.AnswerWeight, the estimate callers charge before they run, for
// texts whose answers show much of the text again: a long outcome that
// many conditions reference, a long written list, many conditions (each
// with a warning). The weight may be a few times the answer, not more.
func TestAnAnswerTakesNoMoreThanItsWeight(t *testing.T) {
	outcome := strings.Repeat("o", 3000)
	refs := strings.TrimSuffix(strings.Repeat("§L and ", 100), " and ")
	phrases := strings.TrimSuffix(strings.Repeat("the **x** gets "+outcome+" and ", 20), " and ")
	items := make([]string, 1000)
	for i := range items {
		items[i] = fmt.Sprintf(`"v%04d"`, i)
	}
	list := "[" + strings.Join(items, ", ") + "]"
	conds := strings.TrimSuffix(strings.Repeat("the __a__ of the **x** is at least 1 and ", 300), " and ")
	cases := []struct{ name, rule string }{
		{"a long outcome referenced by label", "L. A **x** gets " + outcome + " if the __a__ of the **x** is at least 1.\n\nA **x** is ok if " + refs + "."},
		{"a long outcome referenced by phrase", "A **x** gets " + outcome + " if the __a__ of the **x** is at least 1.\n\nA **x** is ok if " + phrases + "."},
		{"a long written list, twice", "A **x** is ok if the __s__ of the **x** is in " + list + " or the __s__ of the **x** is not in " + list + "."},
		{"many conditions", "A **x** is ok if " + conds + "."},
		{"many conditions, each warned of", "A **x** is ok if " + strings.ReplaceAll(conds, "__a__", "__s__") + "."},
		{"an outcome of backslashes, written twice as long in JSON", "L. A **x** gets " + strings.Repeat(`\\`, 3000) + " if the __a__ of the **x** is at least 1.\n\nA **x** is ok if " + refs + "."},
	}
	data := map[string]any{"x": map[string]any{"a": 2.0, "s": "v0001"}}
	var eng engine.Engine
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, err := eng.Compile(c.rule)
			if err != nil {
				t.Fatal(err)
			}
			res := eng.Run(c.rule, data)
			res.Explain()
			res.Data = nil
			answer, err := res.AppendJSONMembers(nil)
			if err != nil {
				t.Fatal(err)
			}
			if weight := prog.AnswerWeight(len(c.rule)); len(answer) > weight || weight > 4*len(answer) {
				t.Errorf("the answer takes %d bytes, its weight is %d", len(answer), weight)
			}
		})
	}
}
