package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLineIndexCountsColumnsAsRuneCountInString compares every offset of
// texts whose lines run past the index's marks, with characters of several
// bytes and bytes that are not UTF-8, against counting from the line's
// start.
func TestLineIndexCountsColumnsAsRuneCountInString(t *testing.T) {
	texts := []string{
		"",
		"A **P** gets x.",
		"one\ntwo\n\nthree\n",
		strings.Repeat("é", 400) + "\n" + strings.Repeat("a", 300) + "\n" + strings.Repeat("😀b", 200),
		strings.Repeat("ab\xffc\xe2\x82", 150) + "\n\xf0\x9f" + strings.Repeat("x", 600),
		strings.Repeat("x", 255) + "€" + strings.Repeat("y", 255) + "\n€",
	}
	for _, text := range texts {
		li := newLineIndex(text)
		line, start := 1, 0
		for off := 0; off <= len(text); off++ {
			want := Position{Line: line, Column: utf8.RuneCountInString(text[start:off]) + 1}
			if got := li.pos(off); got != want {
				t.Fatalf("offset %d of %q: %v, want %v", off, text[:min(len(text), 40)], got, want)
			}
			if off < len(text) && text[off] == '\n' {
				line, start = line+1, off+1
			}
		}
	}
}
