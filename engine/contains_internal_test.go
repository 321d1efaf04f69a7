package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestALongNeedleIsFoundAsAShortOneIs compares the two searches on texts
// made of few letters, spaces and a capital and an accented letter, where
// matches that touch a letter abound, with needles on both sides of
// shortNeedle.
func TestALongNeedleIsFoundAsAShortOneIs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", " ", "A", "é", "1", "-"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	found := 0
	for range 20000 {
		hay := text(rng.IntN(400))
		var needle string
		if len(hay) > 0 && rng.IntN(2) == 0 {
			// A piece of the text, so that it matches somewhere.
			from := rng.IntN(len(hay))
			needle = strings.ToValidUTF8(hay[from:min(len(hay), from+shortNeedle/2+rng.IntN(2*shortNeedle))], "")
		} else {
			needle = text(shortNeedle/2 + rng.IntN(shortNeedle))
		}
		if needle == "" {
			continue
		}
		if got, want := containsLongWord(strings.ToLower(hay), strings.ToLower(needle)), containsShortWord(strings.ToLower(hay), strings.ToLower(needle)); got != want {
			t.Fatalf("%q contains %q: %v, want %v", hay, needle, got, want)
		} else if got {
			found++
		}
	}
	if found < 1000 || found > 19000 {
		t.Errorf("%d of 20000 cases found a word: the comparison says little", found)
	}
}

// BenchmarkContainsALongNeedleOfOneLetter is the worst case of searching
// by starting again after each match: every position matches, and every
// match touches a letter.
func BenchmarkContainsALongNeedleOfOneLetter(b *testing.B) {
	hay, needle := strings.Repeat("a", 640<<10), strings.Repeat("a", 320<<10)
	for b.Loop() {
		if containsWord(hay, needle) {
			b.Fatal("found a word in one word")
		}
	}
}
