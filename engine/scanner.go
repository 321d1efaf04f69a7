package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// scanner reads the rule language's tokens on demand. The language is full
// of free text (labels, outcome phrases, reference phrases, bare words)
// whose end depends on what the parser expects next, so the parser asks for
// the token it wants at the current offset instead of consuming a
// pre-split token stream.
type scanner struct {
	src string
	pos int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte is what may continue a keyword: a keyword is matched as a whole
// word when the byte after it is none of these.
func isWordByte(c byte) bool { return isASCIILetter(c) || isDigit(c) || c == '_' }

func (s *scanner) eof() bool { return s.pos >= len(s.src) }

func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

func (s *scanner) rest() string { return s.src[s.pos:] }

// skipSpace skips whitespace inside a rule, and whole comment lines: a `#`
// that is the first non-blank character of its line.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case isSpace(c):
			s.pos++
		case c == '#' && lineStartsAt(s.src, s.pos):
			s.skipLine()
		default:
			return
		}
	}
}

// skipBlanks skips spaces and tabs only, staying on the line.
func (s *scanner) skipBlanks() {
	for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
}

// lineStartsAt reports whether only blanks stand before pos on its line.
func lineStartsAt(src string, pos int) bool {
	for i := pos - 1; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

func (s *scanner) skipLine() {
	if i := strings.IndexByte(s.src[s.pos:], '\n'); i >= 0 {
		s.pos += i + 1
		return
	}
	s.pos = len(s.src)
}

// hasWord reports whether the text at the offset is w as a whole word.
func hasWordAt(src string, pos int, w string) bool {
	if !strings.HasPrefix(src[pos:], w) {
		return false
	}
	end := pos + len(w)
	return end == len(src) || !isWordByte(src[end])
}

func (s *scanner) hasWord(w string) bool { return hasWordAt(s.src, s.pos, w) }

func (s *scanner) acceptWord(w string) bool {
	if s.hasWord(w) {
		s.pos += len(w)
		return true
	}
	return false
}

// acceptThe consumes an optional `the` and the whitespace after it.
func (s *scanner) acceptThe() {
	save := s.pos
	if s.acceptWord("the") && s.pos < len(s.src) && isSpace(s.src[s.pos]) {
		s.skipSpace()
		return
	}
	s.pos = save
}

// startsCondition reports whether a new condition begins at the offset
// (after an optional `the`). It decides where a bare word or a reference
// phrase followed by `and`/`or` ends.
func startsCondition(src string, pos int) bool {
	if hasWordAt(src, pos, "the") {
		i := pos + 3
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i > pos+3 {
			pos = i
		}
	}
	rest := src[pos:]
	return strings.HasPrefix(rest, "**") || strings.HasPrefix(rest, "__") ||
		strings.HasPrefix(rest, "§") || strings.HasPrefix(rest, "$") ||
		hasWordAt(src, pos, "number of") || hasWordAt(src, pos, "length of")
}

// connectiveAhead reports whether, at an offset just after whitespace, the
// text is `and`/`or` followed by whitespace and a new condition.
func connectiveAhead(src string, pos int) bool {
	var n int
	switch {
	case hasWordAt(src, pos, "and"):
		n = 3
	case hasWordAt(src, pos, "or"):
		n = 2
	default:
		return false
	}
	return conditionAfter(src, pos+n)
}

// connectiveInCapitalsAhead reports whether, at an offset just after
// whitespace, the text is `AND`, `Or` or the like followed by whitespace and
// a new condition. Free text (a reference's phrase, a bare value) ends
// there, so that the parser stops at the keyword written in capitals
// instead of reading the next condition into the text and dropping it.
func connectiveInCapitalsAhead(src string, pos int) bool {
	for _, w := range [...]string{"and", "or"} {
		end := pos + len(w)
		if end <= len(src) && strings.EqualFold(src[pos:end], w) && src[pos:end] != w &&
			(end == len(src) || !isWordByte(src[end])) {
			// `AND THE __age__`: the `the` may be in capitals too.
			j := end
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j > end && j+3 <= len(src) && strings.EqualFold(src[j:j+3], "the") && (j+3 == len(src) || isSpace(src[j+3])) {
				return conditionAfter(src, j+3)
			}
			return conditionAfter(src, end)
		}
	}
	return false
}

// conditionAfter reports whether whitespace and then a new condition
// follow i.
func conditionAfter(src string, i int) bool {
	if i >= len(src) || !isSpace(src[i]) {
		return false
	}
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	return startsCondition(src, i)
}

// isNameStart and isNameByte define selector names: ASCII letters, digits,
// `_` and spaces, starting with a letter or `_`.
func isNameStart(c byte) bool { return isASCIILetter(c) || c == '_' }
func isNameByte(c byte) bool  { return isWordByte(c) || c == ' ' }

// isBareRune is what a bare-word value is made of (besides spaces).
func isBareRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (s *scanner) peekRune() rune {
	r, _ := utf8.DecodeRuneInString(s.src[s.pos:])
	return r
}
