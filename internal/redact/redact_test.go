package redact

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

const masked = "[masked]"

func TestWholeHidesWholeOccurrencesOnly(t *testing.T) {
	cases := []struct {
		name   string
		text   string
		values []string
		want   string
	}{
		{"nothing to hide", "the age is 65", nil, "the age is 65"},
		{"a value the text lacks", "the age is 65", []string{"70"}, "the age is 65"},
		{"a number", "the age is 65, which is at least 60", []string{"65"}, "the age is [masked], which is at least 60"},
		{"not inside a longer number", "the age is 65", []string{"6"}, "the age is 65"},
		{"not the digits of a decimal", "6.5 and 0.25 and 6", []string{"6", "25"}, "6.5 and 0.25 and [masked]"},
		{"a decimal whole", "the ratio is 0.25.", []string{"0.25"}, "the ratio is [masked]."},
		{"not inside a word", "the name is Annabel", []string{"Anna"}, "the name is Annabel"},
		{"a text in quotes", `the ssn is "123-45-6789"`, []string{"123-45-6789"}, `the ssn is "[masked]"`},
		{"each occurrence", "1, 2, 1 and 21", []string{"1"}, "[masked], 2, [masked] and 21"},
		{"every element of a list", "[1,2,3]", []string{"1", "2", "3"}, "[[masked],[masked],[masked]]"},
		{"overlapping values as one", "John Smith Jones", []string{"John Smith", "Smith Jones"}, "[masked]"},
		{"the longer of two values", "John Smith", []string{"John", "John Smith"}, "[masked]"},
		{"a shorter value where the longer one is not whole", "John Smithers", []string{"John", "John Smith"}, "[masked] Smithers"},
		{"punctuation edged value not inside a word", "a-b -b", []string{"-b"}, "a-b [masked]"},
		{"letters beyond ASCII", "Zoë and Zoëy", []string{"Zoë"}, "[masked] and Zoëy"},
		{"an empty value hides nothing", "text", []string{""}, "text"},
		{"at both ends", "7 and 7", []string{"7"}, "[masked] and [masked]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Whole(c.text, c.values, masked); got != c.want {
				t.Errorf("Whole(%q, %q) = %q, want %q", c.text, c.values, got, c.want)
			}
			if got := naive(c.text, c.values, masked); got != c.want {
				t.Errorf("the reference gives %q, want %q", got, c.want)
			}
		})
	}
}

// TestWholeTakesManyValuesInALongText hides 90,000 numbers shown in a text
// of 630 KB: one comparison of each value with the text, as the search did
// before, takes minutes here.
func TestWholeTakesManyValuesInALongText(t *testing.T) {
	var text, want strings.Builder
	values := make([]string, 0, 90_000)
	text.WriteString("the l of the A is [")
	want.WriteString("the l of the A is [")
	for i := range 90_000 {
		if i > 0 {
			text.WriteByte(',')
			want.WriteByte(',')
		}
		n := strconv.Itoa(100_000 + i)
		values = append(values, n)
		text.WriteString(n)
		want.WriteString(masked)
	}
	text.WriteString("], which does not contain 7.")
	want.WriteString("], which does not contain 7.")
	if got := Whole(text.String(), values, masked); got != want.String() {
		t.Errorf("got %d bytes, want %d; starts %q", len(got), want.Len(), got[:min(len(got), 80)])
	}
}

// TestWholeHidesEverythingRatherThanSearchWithoutEnd meets values whose
// every match starts inside a word, so that each match backs off through
// all the shorter ones: past its budget the search gives up and hides the
// whole text.
func TestWholeHidesEverythingRatherThanSearchWithoutEnd(t *testing.T) {
	var values []string
	for n := 1; n <= 300; n++ {
		values = append(values, strings.Repeat(", b", n))
	}
	text := "b" + strings.Repeat(", b", 3000)
	if got := Whole(text, values, masked); got != masked {
		t.Errorf("got %q..., want the whole text hidden", got[:40])
	}
	// The same values in a text where they match at once.
	text = "(" + strings.Repeat(", b", 300) + ")"
	if got, want := Whole(text, values, masked), "("+masked+")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// naive is the search the package replaces: every occurrence of every
// value, one value at a time, kept when whole, and each run of hidden
// bytes replaced once.
func naive(text string, values []string, with string) string {
	hidden := make([]bool, len(text))
	for _, v := range values {
		if v == "" {
			continue
		}
		for from := 0; ; {
			i := strings.Index(text[from:], v)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(v)
			if !wordBefore(text[:start], text[start:]) && !wordAfter(text[end:]) {
				for j := start; j < end; j++ {
					hidden[j] = true
				}
			}
			from = start + 1
		}
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch {
		case !hidden[i]:
			b.WriteByte(text[i])
		case i == 0 || !hidden[i-1]:
			b.WriteString(with)
		}
	}
	return b.String()
}

// FuzzWholeAgreesWithTheReference checks the one-pass search against the
// plain one on texts and values of valid UTF-8, as decoded JSON holds: an
// input that is not has each bad byte replaced as decoding JSON would.
func FuzzWholeAgreesWithTheReference(f *testing.F) {
	f.Add("the age is 65, which is at least 6.5", "65\x006\x00.5")
	f.Add("John Smithers and John Smith", "John\x00John Smith\x00Smith")
	f.Add(`"a \"b\" c" and b, b, b`, `a \"b\" c`+"\x00, b\x00b, b")
	f.Fuzz(func(t *testing.T, text, joined string) {
		text = strings.ToValidUTF8(text, string(utf8.RuneError))
		values := strings.Split(strings.ToValidUTF8(joined, string(utf8.RuneError)), "\x00")
		if got, want := Whole(text, values, masked), naive(text, values, masked); got != want {
			t.Errorf("Whole(%q, %q) = %q, the reference gives %q", text, values, got, want)
		}
	})
}
