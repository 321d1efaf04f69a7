package service

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/flow"
)

// manyAlikeLines is a rule and n comment lines, before and after the rule
// moved to the middle and changed: texts of many equal lines, which a
// search for the longest matching blocks took minutes over.
func manyAlikeLines(n int) (before, after string) {
	before = "A **P** gets x if the __a__ of the **P** is at least 1.\n" + strings.Repeat("#\n", n)
	after = strings.Repeat("#\n", n/2) + "A **P** gets x if the __a__ of the **P** is at least 2.\n" + strings.Repeat("#\n", n/2)
	return before, after
}

func TestLineHunksOfTextsOfManyAlikeLines(t *testing.T) {
	const n = 64000
	before, after := manyAlikeLines(n)
	lines := func(kinds ...string) []DiffLine {
		var out []DiffLine
		for _, k := range kinds {
			switch k {
			case "#":
				out = append(out, DiffLine{Kind: LineContext, Text: "#"})
			case "-":
				out = append(out, DiffLine{Kind: LineRemoved, Text: "A **P** gets x if the __a__ of the **P** is at least 1."})
			case "+":
				out = append(out, DiffLine{Kind: LineAdded, Text: "A **P** gets x if the __a__ of the **P** is at least 2."})
			}
		}
		return out
	}
	want := []Hunk{
		{FromLine: 1, FromCount: 4, ToLine: 1, ToCount: 3, Lines: lines("-", "#", "#", "#")},
		{FromLine: n/2 - 1, FromCount: 6, ToLine: n/2 - 2, ToCount: 7, Lines: lines("#", "#", "#", "+", "#", "#", "#")},
	}
	if got := lineHunks(before, after); !reflect.DeepEqual(got, want) {
		t.Errorf("hunks:\n%+v\nwant\n%+v", got, want)
	}
}

// BenchmarkLineHunks diffs texts of a quarter of a megabyte: many equal
// lines, and lines that differ almost everywhere.
func BenchmarkLineHunks(b *testing.B) {
	var mixedBefore, mixedAfter strings.Builder
	for i := range 80000 {
		mixedBefore.WriteString([]string{"x\n", "y\n", "z\n"}[(i*7)%3])
		mixedAfter.WriteString([]string{"x\n", "y\n", "z\n"}[(i*5+i/3)%3])
	}
	alikeBefore, alikeAfter := manyAlikeLines(120000)
	for _, c := range []struct{ name, before, after string }{
		{"many alike lines", alikeBefore, alikeAfter},
		{"different almost everywhere", mixedBefore.String(), mixedAfter.String()},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				lineHunks(c.before, c.after)
			}
		})
	}
}

// TestLineHunksTurnTheFirstTextIntoTheSecond applies the hunks of random
// texts of a few distinct lines to the first and expects the second, each
// hunk's counts and starts matching its lines.
func TestLineHunksTurnTheFirstTextIntoTheSecond(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	text := func() []string {
		lines := make([]string, rng.IntN(40))
		for i := range lines {
			lines[i] = []string{"a", "b", "c", ""}[rng.IntN(4)]
		}
		return lines
	}
	for range 3000 {
		before, after := strings.Join(text(), "\n"), strings.Join(text(), "\n")
		a, b := splitLines(before), splitLines(after)
		var out []string
		at := 0
		for _, h := range lineHunks(before, after) {
			if h.FromLine-1 < at || h.ToLine-1 != len(out)+(h.FromLine-1-at) {
				t.Fatalf("%q → %q: hunk %+v starts at the wrong place", a, b, h)
			}
			out = append(out, a[at:h.FromLine-1]...)
			at = h.FromLine - 1
			from, to := 0, 0
			for _, l := range h.Lines {
				switch l.Kind {
				case LineContext, LineRemoved:
					if at >= len(a) || a[at] != l.Text {
						t.Fatalf("%q → %q: hunk %+v does not match the first text at line %d", a, b, h, at+1)
					}
					if l.Kind == LineContext {
						out = append(out, l.Text)
						to++
					}
					at++
					from++
				case LineAdded:
					out = append(out, l.Text)
					to++
				}
			}
			if from != h.FromCount || to != h.ToCount {
				t.Fatalf("%q → %q: hunk %+v counts %d and %d lines", a, b, h, from, to)
			}
		}
		if out = append(out, a[at:]...); !reflect.DeepEqual(out, b) && len(out)+len(b) > 0 {
			t.Fatalf("%q → %q: the hunks make %q", a, b, out)
		}
	}
}

// TestADiffAnswersNoMoreThanItIsCharged: what a diff answers stays within
// what it is charged, diffAnswerBytes of both records and what it
// repeats: two rule texts of many short lines that share none answer
// every line of both, each in an entry of its own; a schema member of a
// long name answers its name in the path of each change within it; a
// node of a long id answers its id in each of its edges.
func TestADiffAnswersNoMoreThanItIsCharged(t *testing.T) {
	a, b := make([]string, 8500), make([]string, 8500)
	for i := range a {
		a[i], b[i] = fmt.Sprintf("#a%d", i), fmt.Sprintf("#b%d", i)
	}
	rules := [2]*ent.Record{{Rule: strings.Join(a, "\n")}, {Rule: strings.Join(b, "\n")}}

	long := strings.Repeat("a name ", 1500)
	schema := func(value int) json.RawMessage {
		members := make([]string, 500)
		for i := range members {
			members[i] = fmt.Sprintf(`"m%d": {"minimum": %d}`, i, value)
		}
		return json.RawMessage(fmt.Sprintf(`{"properties": {%q: {"properties": {%s}}}}`, long, strings.Join(members, ", ")))
	}
	schemas := [2]*ent.Record{{Schema: schema(0)}, {Schema: schema(1)}}

	nodes := func(prefix string) []flow.Node {
		out := []flow.Node{{ID: long, Type: "start"}}
		for i := range 500 {
			to := fmt.Sprintf("%s%d", prefix, i)
			out[0].OnTrue = append(out[0].OnTrue, to)
			out = append(out, flow.Node{ID: to, Type: "return", ReturnValue: true})
		}
		return out
	}
	var flows [2]*ent.Record
	for i, prefix := range []string{"a", "b"} {
		definition, err := json.Marshal(flow.Definition{FormatVersion: 1, Nodes: nodes(prefix)})
		if err != nil {
			t.Fatal(err)
		}
		flows[i] = &ent.Record{Definition: definition}
	}

	for _, c := range []struct {
		name    string
		records [2]*ent.Record
		// diff is the diff of the records and what it is charged beside
		// them.
		diff func(t *testing.T, from, to *ent.Record) (any, int)
	}{
		{"rule texts that share no line", rules, func(t *testing.T, from, to *ent.Record) (any, int) {
			return PolicyDiff{Rule: lineHunks(from.Rule, to.Rule), Tests: diffTests(nil, nil), Schema: []ValueChange{}}, 0
		}},
		{"a schema member of a long name over many changes", schemas, func(t *testing.T, from, to *ent.Record) (any, int) {
			d := diffJSON(from.Schema, to.Schema)
			if len(d.found) != 500 {
				t.Errorf("%d changes, want 500", len(d.found))
			}
			return PolicyDiff{Rule: []Hunk{}, Tests: diffTests(nil, nil), Schema: d.changes()}, d.bytes
		}},
		{"a node of a long id over many edges", flows, func(t *testing.T, from, to *ent.Record) (any, int) {
			nodes, edges, err := diffNodes(nodes("a"), nodes("b"))
			if err != nil {
				t.Fatal(err)
			}
			if len(edges.Added) != 500 || len(edges.Removed) != 500 {
				t.Errorf("%d edges added and %d removed, want 500 each", len(edges.Added), len(edges.Removed))
			}
			return FlowDiff{Nodes: nodes, Edges: edges, Tests: diffTests(nil, nil)}, edgesAnswerBytes(edges)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			from, to := c.records[0], c.records[1]
			diff, repeated := c.diff(t, from, to)
			answer, err := json.Marshal(diff)
			if err != nil {
				t.Fatal(err)
			}
			if charged := diffAnswerBytes(context.Background(), from) + diffAnswerBytes(context.Background(), to) + repeated; len(answer) > charged {
				t.Errorf("the diff answers %d bytes, charged %d", len(answer), charged)
			}
		})
	}
}

func TestSameJSONComparesNumbersByTheirExactValue(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"1", "1.0", true},
		{"1", "10e-1", true},
		{"-0", "0.000", true},
		{"120", "1.2E+2", true},
		{"0.0012", "12e-4", true},
		{"9007199254740993", "9007199254740992", false},
		{"12345678901234567890123", "12345678901234567890124", false},
		{"1e400", "1e401", false},
		{"1", "-1", false},
		{"1", `"1"`, false},
		{`{"a": [1, 2.50], "b": null}`, `{"b": null, "a": [1.0, 2.5]}`, true},
		{`{"a": [1, 2]}`, `{"a": [1, 2, 3]}`, false},
		{`{"a": 1}`, `{"a": 1, "b": 1}`, false},
		{"1e4611686018427387904", "10e4611686018427387903", true},
		// Exponents past 2⁶², too large to add to safely, are compared as
		// written: one value written two ways shows as a change.
		{"1e9223372036854775807", "1e9223372036854775807", true},
		{"1e9223372036854775807", "10e9223372036854775806", false},
		{"1e99999999999999999999", "1e99999999999999999998", false},
	} {
		if got := sameJSON(json.RawMessage(c.a), json.RawMessage(c.b)); got != c.same {
			t.Errorf("sameJSON(%s, %s) = %t, want %t", c.a, c.b, got, c.same)
		}
	}
}
