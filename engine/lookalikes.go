package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text pasted from a word processor or a chat brings characters that look
// like the ones the language reads but are not: spaces that are no space
// to Verdict, and curly quotes. The parser's error only shows them as they
// look, so these name them.

// spaceNames are the space characters most often pasted into a rule.
var spaceNames = map[rune]string{
	'\u00a0': "a non-breaking space",
	'\u2007': "a figure space",
	'\u202f': "a narrow non-breaking space",
	'\u2009': "a thin space",
	'\u2002': "an en space",
	'\u2003': "an em space",
	'\u3000': "an ideographic space",
	'\u200b': "a zero-width space",
	'\u200c': "a zero-width non-joiner",
	'\u200d': "a zero-width joiner",
	'\u2060': "a word joiner",
	'\ufeff': "a zero-width no-break space (byte order mark)",
}

// oddSpace names a rune that shows as a space, or as nothing, but is not
// one of the spaces the language reads; "" for any other.
func oddSpace(r rune) string {
	if name, ok := spaceNames[r]; ok {
		return name
	}
	if r >= 0x80 && unicode.IsSpace(r) {
		return "a space character"
	}
	return ""
}

// oddSpaceReach is how far past the parser's stop an odd space is looked
// for: the parser stops at the start of the operator it cannot read, and
// `is greater than or equal to` is the longest.
const oddSpaceReach = len("is greater than or equal to")

// invisibleCharacter recognises a space the language does not read as
// one (`is at<U+00A0>least`, or one after the full stop), at or just after
// where the parser stopped on its line, outside quotes.
func (c *checker) invisibleCharacter(e SyntaxError) bool {
	if e.off >= len(c.src) {
		return false
	}
	end := min(lineEnd(c.src, e.off), e.off+oddSpaceReach)
	quoted := strings.Count(c.src[lineStart(c.src, e.off):e.off], `"`)%2 == 1
	for i := e.off; i < end; {
		r, size := decodeRune(c.src[i:])
		if r == '"' {
			quoted = !quoted
		}
		if name := oddSpace(r); name != "" && !quoted {
			if unicode.IsSpace(r) {
				c.add(SeverityError, CodeParseError, i, i+size, fmt.Sprintf("There is %s (U+%04X) here, which looks "+
					"like a space but is not one to Verdict: write a plain space instead.", name, r), " ")
			} else {
				c.add(SeverityError, CodeParseError, i, i+size, fmt.Sprintf("There is an invisible character here, "+
					"%s (U+%04X), which Verdict does not read as a space: remove it.", name, r))
			}
			return true
		}
		i += size
	}
	return false
}

// lineStart is the start of the line that off is on.
func lineStart(src string, off int) int {
	return strings.LastIndexByte(src[:off], '\n') + 1
}

// curlyQuotes are the quotes word processors put in place of `"`.
const curlyQuotes = "“”„‟«»‘’‚‛"

// closingQuote is where the quote that closes a value in curly quotes
// stands in what follows the opening one, or -1: the first quote, straight
// or curly, that is not an apostrophe inside a word (`“Ann’s car”`).
func closingQuote(inner string) int {
	for i, r := range inner {
		if r != '"' && !strings.ContainsRune(curlyQuotes, r) {
			continue
		}
		if r == '’' || r == '\'' {
			before, _ := utf8.DecodeLastRuneInString(inner[:i])
			after, _ := utf8.DecodeRuneInString(inner[i+utf8.RuneLen(r):])
			if unicode.IsLetter(before) && unicode.IsLetter(after) {
				continue
			}
		}
		return i
	}
	return -1
}

// curlyQuote recognises a text value in curly quotes, `“Ann”`, where the
// parser wanted a value: the language reads only straight quotes.
func (c *checker) curlyQuote(e SyntaxError) bool {
	if !wants(e, "value") || e.off >= len(c.src) {
		return false
	}
	open, size := decodeRune(c.src[e.off:])
	if !strings.ContainsRune(curlyQuotes, open) {
		return false
	}
	from, to := e.off, lineEnd(c.src, e.off)
	inner := c.src[from+size : to]
	if i := closingQuote(inner); i >= 0 {
		_, closeSize := decodeRune(inner[i:])
		inner, to = inner[:i], from+size+i+closeSize
	} else {
		// No closing quote on the line: the value runs to the full stop.
		if i := strings.LastIndexByte(inner, '.'); i >= 0 {
			inner = inner[:i]
		}
		to = from + size + len(inner)
	}
	fix := `"` + inner + `"`
	c.add(SeverityError, CodeParseError, from, to, fmt.Sprintf("`%s` is in curly quotes, which Verdict does not read "+
		"as quotes: a text value takes straight quotes, `%s`.", c.src[from:to], fix), fix)
	return true
}
