package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// Strings are quoted as encoding/json quotes them, with and without its
// HTML escaping.
func FuzzAppendString(f *testing.F) {
	f.Add("plain §identity <b>&amp;</b> \"quoted\" \\ \t\n\x01 \u2028 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := appendString(nil, s, html); !bytes.Equal(append(got, '\n'), want.Bytes()) {
				t.Fatalf("%q, html %v:\n got %s\nwant %s", s, html, got, want.Bytes())
			}
		}
	})
}

// TestWordEscapesAgreeWithTheTables puts every byte value at every position
// of a word beside every byte value at every other position: a byte that
// needs an escape must be found whatever its neighbours are.
func TestWordEscapesAgreeWithTheTables(t *testing.T) {
	for _, html := range []bool{false, true} {
		plain := &plainASCII
		if html {
			plain = &plainASCIIHTML
		}
		for p := range 8 {
			for q := range 8 {
				for b := range 256 {
					for c := range 256 {
						word := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
						word[q], word[p] = byte(c), byte(b)
						want := true
						for _, x := range word {
							want = want && x < utf8.RuneSelf && plain[x]
						}
						x := binary.LittleEndian.Uint64(word[:])
						escapes := jsonEscapes(x)
						if html {
							escapes |= htmlEscapes(x)
						}
						if got := escapes&tops == 0; got != want {
							t.Fatalf("% x, html %v: plain by the word test %v, by the table %v", word, html, got, want)
						}
					}
				}
			}
		}
	}
}

// FuzzQuotedLength: the length counted is the length appendString writes.
func FuzzQuotedLength(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "\b\f\n\r\t\x00\x1f", "\u2028\u2029", "\xff\xfe", "é<>&", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := QuotedLength(s), len(appendString(nil, s, false)); got != want {
			t.Errorf("QuotedLength(%q) = %d, want %d", s, got, want)
		}
	})
}
