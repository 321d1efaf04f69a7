package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// AppendJSONMembers appends the members of the result's JSON object,
// without its braces, byte for byte as encoding/json writes them with HTML
// escaping off (and on inside condition traces and warnings, whose own
// MarshalJSON methods go through json.Marshal). A server answering many
// runs writes them this way, without reflection; a caller adds its own
// members after them.
//
// It fails only where encoding/json would: on a value it cannot encode.
func (r *Result) AppendJSONMembers(b []byte) ([]byte, error) {
	var e jsonWriter
	b = append(b, `"result":`...)
	b = strconv.AppendBool(b, r.Result)
	b = append(b, `,"trace":{"execution":`...)
	if r.Trace.Execution == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Trace.Execution {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.ruleTrace(b, &r.Trace.Execution[i])
		}
		b = append(b, ']')
	}
	b = append(b, `},"rule":`...)
	if l := r.lines; l != nil && sameSlice(r.Rule, l.lines) {
		b = append(b, l.json...)
	} else {
		b = appendStrings(b, r.Rule)
	}
	b = append(b, `,"data":`...)
	b = e.value(b, r.Data, false)
	b = append(b, `,"error":`...)
	if r.Error == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, r.Error.Message, false)
	}
	b = append(b, `,"labels":`...)
	if r.Labels == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		keys := make([]string, 0, len(r.Labels))
		for k := range r.Labels {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k, false)
			b = append(b, ':')
			b = strconv.AppendBool(b, r.Labels[k])
		}
		b = append(b, '}')
	}
	b = append(b, `,"explanation":`...)
	b = appendString(b, r.Explanation, false)
	b = append(b, `,"warnings":[`...)
	for i, w := range r.Warnings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"code":`...)
		b = appendString(b, w.Code, true)
		b = append(b, `,"message":`...)
		b = appendString(b, w.Message, true)
		b = append(b, '}')
	}
	return append(b, ']'), e.err
}

// appendStrings writes a list of strings, or null for a nil one.
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s, false)
	}
	return append(b, ']')
}

// sameSlice reports whether a and b are one slice: a caller that replaced
// Rule after SetRule gets what it put there written.
func sameSlice(a, b []string) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// jsonWriter remembers the first value that failed to encode.
type jsonWriter struct {
	err error
}

func (e *jsonWriter) ruleTrace(b []byte, t *RuleTrace) []byte {
	b = append(b, '{')
	if t.Label != "" {
		b = append(b, `"label":`...)
		b = appendString(b, t.Label, false)
		b = append(b, ',')
	}
	b = append(b, `"selector":`...)
	b = appendText(b, t.Selector, false)
	b = append(b, `,"outcome":`...)
	b = appendText(b, t.Outcome, false)
	b = append(b, `,"conditions":`...)
	if t.Conditions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range t.Conditions {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.condition(b, &t.Conditions[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"result":`...)
	b = strconv.AppendBool(b, t.Result)
	return append(b, '}')
}

// condition writes what MarshalJSON writes, which escapes HTML since it
// goes through json.Marshal.
func (e *jsonWriter) condition(b []byte, c *ConditionTrace) []byte {
	b = append(b, `{"selector":`...)
	b = appendText(b, c.Selector, true)
	if c.Reference {
		b = append(b, `,"rule_name":`...)
		b = appendString(b, c.RuleName, true)
		if c.ReferencedRuleOutcome != "" {
			b = append(b, `,"referenced_rule_outcome":`...)
			b = appendString(b, c.ReferencedRuleOutcome, true)
		}
		if c.PropertyCheck != nil {
			b = append(b, `,"property_check":{"property_name":`...)
			b = appendString(b, c.PropertyCheck.PropertyName, true)
			b = append(b, `,"property_value":`...)
			b = e.value(b, c.PropertyCheck.PropertyValue, true)
			b = append(b, '}')
		}
	} else {
		b = append(b, `,"property":{"path":`...)
		b = appendString(b, c.Property.Path, true)
		b = append(b, `,"value":`...)
		b = e.value(b, c.Property.Value, true)
		b = append(b, `},"operator":`...)
		b = appendString(b, c.Operator, true)
		b = append(b, `,"value":`...)
		b = e.typed(b, c.Value)
		b = append(b, `,"evaluation_details":`...)
		if c.Compared {
			b = append(b, `{"left_value":`...)
			b = e.typed(b, c.Details.LeftValue)
			b = append(b, `,"right_value":`...)
			b = e.typed(b, c.Details.RightValue)
			b = append(b, `,"comparison_result":`...)
			b = strconv.AppendBool(b, c.Details.ComparisonResult)
			b = append(b, '}')
		} else {
			b = append(b, "null"...)
		}
	}
	b = append(b, `,"result":`...)
	b = strconv.AppendBool(b, c.Result)
	return append(b, '}')
}

func appendText(b []byte, t Text, html bool) []byte {
	b = append(b, `{"value":`...)
	b = appendString(b, t.Value, html)
	return append(b, '}')
}

// typed is only used inside condition traces, so it escapes HTML.
func (e *jsonWriter) typed(b []byte, v TypedValue) []byte {
	b = append(b, `{"type":`...)
	b = appendString(b, v.Type, true)
	b = append(b, `,"value":`...)
	b = e.value(b, v.Value, true)
	return append(b, '}')
}

// value writes the JSON values data decodes to directly, and hands
// anything else to encoding/json, so that the bytes are always its bytes.
func (e *jsonWriter) value(b []byte, v any, html bool) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case string:
		return appendString(b, v, html)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			break
		}
		return appendFloat(b, v)
	case DataText:
		if v == nil {
			return append(b, "null"...)
		}
		if !html {
			return appendCompactValid(b, v)
		}
		if compacted, ok := appendCompact(b, v, html); ok {
			return compacted
		}
	case json.RawMessage:
		if v == nil {
			return append(b, "null"...)
		}
		if compacted, ok := appendCompact(b, v, html); ok {
			return compacted
		}
	case []any:
		if v == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i, item := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.value(b, item, html)
		}
		return append(b, ']')
	case map[string]any:
		if v == nil {
			return append(b, "null"...)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k, html)
			b = append(b, ':')
			b = e.value(b, v[k], html)
		}
		return append(b, '}')
	}
	return e.marshalled(b, v, html)
}

// marshalled is encoding/json's own encoding of v.
func (e *jsonWriter) marshalled(b []byte, v any, html bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		if e.err == nil {
			e.err = err
		}
		return b
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// appendCompact writes raw JSON as encoding/json writes a RawMessage:
// compacted, with <, > and & escaped when html is set.
func appendCompact(b []byte, raw []byte, html bool) ([]byte, bool) {
	buf := bytes.NewBuffer(b)
	var err error
	if html {
		start := buf.Len()
		if err = json.Compact(buf, raw); err == nil {
			escaped := new(bytes.Buffer)
			json.HTMLEscape(escaped, buf.Bytes()[start:])
			buf.Truncate(start)
			buf.Write(escaped.Bytes())
		}
	} else {
		err = json.Compact(buf, raw)
	}
	if err != nil {
		return b, false
	}
	return buf.Bytes(), true
}

// appendCompactValid writes valid JSON text as json.Compact does, without
// the whitespace between tokens. It trusts the text to be valid, and so
// only tells strings, whose spaces it keeps, from what lies between them.
func appendCompactValid(b, text []byte) []byte {
	start := 0
	inString := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped character cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			b = append(b, text[start:i]...)
			start = i + 1
		}
	}
	return append(b, text[start:]...)
}

// appendFloat formats a number as encoding/json does: like ES6, plain
// notation unless the exponent is below -6 or at least 21, and an exponent
// without a leading zero.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// plainASCII and plainASCIIHTML tell which ASCII bytes a JSON string
// holds as they are, without and with HTML's <, > and & escaped.
var plainASCII, plainASCIIHTML = func() (plain, html [utf8.RuneSelf]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
		html[c] = plain[c] && c != '<' && c != '>' && c != '&'
	}
	return plain, html
}()

// plainEnd is the index of the first byte of s from i on that a JSON
// string cannot hold as it is (see plainASCII; with html, plainASCIIHTML),
// else len(s). It tests eight bytes at a time while they are all plain:
// most bytes of answers and of run data are in strings, and most strings
// need no escape.
func plainEnd[T string | []byte](s T, i int, html bool) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		word := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		escapes := jsonEscapes(word)
		if html {
			escapes |= htmlEscapes(word)
		}
		if escapes&tops != 0 {
			break
		}
	}
	plain := &plainASCII
	if html {
		plain = &plainASCIIHTML
	}
	for i < len(s) && s[i] < utf8.RuneSelf && plain[s[i]] {
		i++
	}
	return i
}

// jsonEscapes has the top bit of some byte set when a byte of word is not
// plain in JSON: at or above 0x80, below 0x20, a quote or a backslash.
func jsonEscapes(word uint64) uint64 {
	return word | below(word, 0x20) | below(word^'"'*ones, 1) | below(word^'\\'*ones, 1)
}

// htmlEscapes has the top bit of some byte set when a byte of word is <,
// > or &.
func htmlEscapes(word uint64) uint64 {
	return below(word^'<'*ones, 1) | below(word^'>'*ones, 1) | below(word^'&'*ones, 1)
}

// ones and tops are a word of eight bytes 0x01 and of eight bytes 0x80.
const ones, tops = 0x0101010101010101, 0x8080808080808080

// below has the top bit of some byte set exactly when a byte of y is below
// n, for n at most 0x80 (the borrow of the lowest such byte sets it; bytes
// above it may show falsely, which does not change the answer). Below 1
// finds a zero byte, so y ^ c×ones finds a byte equal to c.
func below(y, n uint64) uint64 { return (y - n*ones) &^ y }

// appendString quotes s as encoding/json does: control characters,
// invalid UTF-8, U+2028 and U+2029 escaped, and <, > and & too when html
// is set.
func appendString(b []byte, s string, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i = plainEnd(s, i, html); i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
