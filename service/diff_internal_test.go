package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/verdict/verdict/ent"
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

// TestADiffAnswersNoMoreThanItIsCharged: two rule texts of many short
// lines that share none answer every line of both, each in an entry of
// its own; what the diff answers stays within what it is charged
// (diffAnswerBytes of both records).
func TestADiffAnswersNoMoreThanItIsCharged(t *testing.T) {
	a, b := make([]string, 8500), make([]string, 8500)
	for i := range a {
		a[i], b[i] = fmt.Sprintf("#a%d", i), fmt.Sprintf("#b%d", i)
	}
	from, to := &ent.Record{Rule: strings.Join(a, "\n")}, &ent.Record{Rule: strings.Join(b, "\n")}
	answer, err := json.Marshal(PolicyDiff{Rule: lineHunks(from.Rule, to.Rule), Tests: diffTests(nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if charged := diffAnswerBytes(from) + diffAnswerBytes(to); len(answer) > charged {
		t.Errorf("the diff answers %d bytes, charged %d", len(answer), charged)
	}
}
