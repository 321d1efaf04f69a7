package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/verdict/verdict/engine"
)

// hostileTexts are rule texts of about the largest size a request may
// carry, each shaped against one part of checking or compiling: work that
// grows with the square of a text's size would take seconds on them.
var hostileTexts = []struct {
	name string
	text func() string
}{
	{"one long line", func() string {
		var b strings.Builder
		b.WriteString("A **P** gets x if the __a__ of the **P** is at least 1")
		for b.Len() < 250<<10 {
			b.WriteString(" and the __a__ of the **P** is at least 1")
		}
		b.WriteString(".")
		return b.String()
	}},
	{"long phrases referenced often", longPhraseReferences},
	{"many references to long outcomes", manyReferences},
	{"an error in every rule", func() string {
		var b strings.Builder
		for i := 0; b.Len() < 250<<10; i++ {
			fmt.Fprintf(&b, "A **P** gets x%d if\n", i)
		}
		return b.String()
	}},
}

// longPhraseReferences is a golden rule of 400 references, none of which
// resolves, each a slip away from one of 400 long outcome phrases.
func longPhraseReferences() string {
	long := strings.Repeat("qualifies for the extended premium plan ", 3)
	var b strings.Builder
	b.WriteString("A **P** gets the top result if ")
	for i := range 400 {
		if i > 0 {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "the **P** %sxx%d", strings.ReplaceAll(long, "plan", "plam"), i)
	}
	b.WriteString(".\n")
	for i := range 400 {
		fmt.Fprintf(&b, "A **P** %s%d if the __age__ of the **P** is at least %d.\n", long, i, i)
	}
	return b.String()
}

// manyReferences is a golden rule of 6,000 references to 999 rules of long
// outcomes: every tenth resolves loosely (`gets xb` names the first rule
// whose outcome contains `xb`), the others resolve to no rule.
func manyReferences() string {
	name := func(i int) string {
		w := "x"
		for ; ; i /= 26 {
			w += string(rune('a' + i%26))
			if i < 26 {
				return w
			}
		}
	}
	long := strings.Repeat("w", 60)
	var b strings.Builder
	b.WriteString("A **P** gets top if ")
	for i := range 6000 {
		if i > 0 {
			b.WriteString(" and ")
		}
		if i%10 == 9 {
			fmt.Fprintf(&b, "the **P** gets %s", name(i%999))
		} else {
			fmt.Fprintf(&b, "the **P** zq %s", name(i))
		}
	}
	b.WriteString(".\n")
	for i := range 999 {
		fmt.Fprintf(&b, "A **P** gets %s %s if the __a__ of the **P** is at least 1.\n", long, name(i))
	}
	return b.String()
}

func TestLooseReferencesResolveInALargeText(t *testing.T) {
	text := manyReferences()
	var e engine.Engine
	if _, err := e.Compile(text); err != nil {
		t.Fatal(err)
	}
	unresolved := 0
	for _, d := range engine.Check(text).Diagnostics {
		switch d.Code {
		case engine.CodeUnresolvedReference:
			unresolved++
		case engine.CodeUnusedRule:
		default:
			t.Fatalf("unexpected diagnostic %+v", d)
		}
	}
	// Past the first few hundred references, the resolver answers from
	// its index rather than by scanning: it must resolve the same.
	if unresolved != 5400 {
		t.Errorf("%d references unresolved, not the 5,400 that name no outcome", unresolved)
	}
}

func TestSuggestionsStopWhenTheirWorkIsSpent(t *testing.T) {
	var unresolved []engine.Diagnostic
	for _, d := range engine.Check(longPhraseReferences()).Diagnostics {
		if d.Code == engine.CodeUnresolvedReference {
			unresolved = append(unresolved, d)
		}
	}
	if len(unresolved) != 400 {
		t.Fatalf("%d references reported unresolved, not 400", len(unresolved))
	}
	first, last := unresolved[0], unresolved[len(unresolved)-1]
	if want := "qualifies for the extended premium plan"; len(first.Suggestions) == 0 || !strings.HasPrefix(first.Suggestions[0], want) {
		t.Errorf("the first reference is suggested %q, not a phrase starting %q", first.Suggestions, want)
	}
	// Each reference is compared with every rule: the comparisons of the
	// first ones use up what a check may spend on them.
	if len(last.Suggestions) != 0 {
		t.Errorf("the last reference is suggested %q after the suggestions' work is spent", last.Suggestions)
	}
}

// BenchmarkCheckHostile checks each of hostileTexts.
func BenchmarkCheckHostile(b *testing.B) {
	for _, h := range hostileTexts {
		text := h.text()
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				engine.Check(text)
			}
		})
	}
}

// BenchmarkCompileHostile compiles each of hostileTexts that compiles.
func BenchmarkCompileHostile(b *testing.B) {
	for _, h := range hostileTexts {
		text := h.text()
		var e engine.Engine
		if _, err := e.Compile(text); err != nil {
			continue
		}
		b.Run(h.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Compile(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
