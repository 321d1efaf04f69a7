package service

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The longest text each field takes, in characters (Unicode code points)
// except where it says bytes. PostgreSQL refuses a NUL character, in text
// and in jsonb alike, as well as bytes that are not UTF-8, and an index
// entry above about 2.7 KB; checking here gives both databases the same
// answer to such input, invalid_argument, before anything is stored.
// docs/endpoints.md lists these limits.
const (
	MaxNameLength        = 200    // policies, flows, groups, keys, members, organizations, tests
	MaxDescriptionLength = 10_000 // policies, flows, groups
	MaxEmailLength       = 254    // the longest address SMTP carries
	MaxQueryLength       = 200    // the q filter of lists
	MaxOutcomeLength     = 200    // a flow node's outcome, answered by every run that ends there
	// MaxRuleBytes, in bytes, is the engine's default limit on a rule
	// text: a longer one could be stored but never compiled.
	MaxRuleBytes = 256 << 10
)

// checkText refuses a text field the databases cannot store alike: a NUL
// character, bytes that are not UTF-8, more than max characters.
func checkText(field, v string, max int) error {
	if !utf8.ValidString(v) {
		return Invalid("%s is not valid UTF-8", field)
	}
	if err := checkNoNUL(field, v); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(v); n > max {
		return Invalid("%s is %d characters long; the limit is %d", field, n, max)
	}
	return nil
}

// checkName is checkText for a name, which lists and tables show on one
// line: it also refuses control characters (tabs, line breaks, escape
// sequences), which would break those lines or act on the terminal of
// whoever lists them, Unicode's line and paragraph separators, and the
// controls that override the direction of the text after them, which
// make a name show other than it is written, and characters that show
// as nothing (see invisible).
func checkName(field, v string) error {
	if i := strings.IndexFunc(v, refusedInName); i >= 0 {
		r, _ := utf8.DecodeRuneInString(v[i:])
		return Invalid("%s must not hold control or invisible characters such as tabs, line breaks, direction marks or zero-width spaces (it holds %U)", field, r)
	}
	return checkText(field, v, MaxNameLength)
}

func refusedInName(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
		r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' ||
		invisible(r)
}

// invisible tells the characters that show as nothing, or only steer the
// text around them: Unicode's format characters (direction marks, the
// zero-width space, the byte order mark), its other default-ignorable
// ones (the combining grapheme joiner, the Hangul fillers) and the blank
// braille pattern. A name of them alone shows empty, and one with them
// shows as another name does. The zero-width joiners, variation selectors
// and tag characters, which scripts, emoji and flags need, are not among
// them.
func invisible(r rune) bool {
	switch {
	case r == '\u200c' || r == '\u200d' || unicode.Is(unicode.Variation_Selector, r) || r >= '\U000e0020' && r <= '\U000e007f':
		return false
	case r == '\u2800':
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// checkOptionalName is checkName for a name a change may leave out.
func checkOptionalName(field string, v *string) error {
	if v == nil {
		return nil
	}
	return checkName(field, *v)
}

// checkNoNUL refuses a NUL character in a text that is not stored, such
// as the rule of an inline run or check, so that every text field refuses
// it alike: one in a stored field could not be stored on PostgreSQL.
func checkNoNUL(field, v string) error {
	if strings.IndexByte(v, 0) >= 0 {
		return Invalid("%s must not contain a NUL character (U+0000)", field)
	}
	return nil
}

// checkOptionalText is checkText for a field a change may leave out.
func checkOptionalText(field string, v *string, max int) error {
	if v == nil {
		return nil
	}
	return checkText(field, *v, max)
}

// checkJSONText refuses a JSON document that holds a NUL character in a
// string, written \u0000: the jsonb type of PostgreSQL cannot store it.
// The document is valid JSON already, so a backslash can only start an
// escape, and an escaped backslash is skipped as a whole.
func checkJSONText(field string, raw json.RawMessage) error {
	// From one backslash to the next: every run's data passes here, and
	// most holds none.
	for i := 0; ; i += 2 { // past the backslash and the character it escapes
		j := bytes.IndexByte(raw[min(i, len(raw)):], '\\')
		if j < 0 {
			return nil
		}
		i += j
		if i+5 < len(raw) && raw[i+1] == 'u' && bytes.Equal(raw[i+2:i+6], []byte("0000")) {
			return Invalid("%s must not contain a NUL character (\\u0000)", field)
		}
	}
}

// withValidUnicode is raw, valid JSON, with every escaped UTF-16 surrogate
// that is not half of a pair written \ufffd instead, as decoding it would
// read it: PostgreSQL's jsonb refuses such an escape, and the GraphQL API,
// which decodes the document first, stores the replacement character. The
// escape keeps its length, so raw is copied only when one is found.
func withValidUnicode(raw json.RawMessage) json.RawMessage {
	out, copied := raw, false
	for i := 0; ; i += 2 { // past the backslash and the character it escapes
		j := bytes.IndexByte(raw[min(i, len(raw)):], '\\')
		if j < 0 {
			return out
		}
		i += j
		r, ok := escapedRune(raw, i)
		if !ok || !utf16.IsSurrogate(r) {
			continue
		}
		if low, ok := escapedRune(raw, i+6); ok && r < 0xdc00 && low >= 0xdc00 && low <= 0xdfff {
			i += 10 // the pair: to the backslash of its second half
			continue
		}
		if !copied {
			out, copied = bytes.Clone(raw), true
		}
		copy(out[i:], `\ufffd`)
		i += 4
	}
}

// escapedRune reads the \uXXXX escape at raw[i:], if there is one.
func escapedRune(raw []byte, i int) (rune, bool) {
	if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 32)
	return rune(n), err == nil
}
