package engine

import "strconv"

// The checks below accept exactly what the one-pass decoder decodes, and
// build nothing: a batch checks every item before it runs any, and a
// value that no condition reads is only stepped over. They follow the
// decoder's grammar step by step; what they need not do (unescape, work
// out a number's value) they skip.

// valid reads the value at d.pos, at depth, and reports whether the
// decoder would decode it; d.pos is then past it.
func (d *dataDecoder) valid(depth int) bool {
	d.space()
	if d.pos >= len(d.raw) {
		return false
	}
	switch c := d.raw[d.pos]; {
	case c == '{':
		return d.validObject(depth + 1)
	case c == '[':
		return d.validArray(depth + 1)
	case c == '"':
		return d.validString()
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return d.validNumber()
	}
	return false
}

func (d *dataDecoder) validObject(depth int) bool {
	if depth > d.maxDepth {
		return false
	}
	d.pos++ // {
	d.space()
	if d.pos < len(d.raw) && d.raw[d.pos] == '}' {
		d.pos++
		return true
	}
	for {
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != '"' || !d.validString() {
			return false
		}
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != ':' {
			return false
		}
		d.pos++
		if !d.valid(depth) {
			return false
		}
		if more, ok := d.separator('}'); !more {
			return ok
		}
	}
}

func (d *dataDecoder) validArray(depth int) bool {
	if depth > d.maxDepth {
		return false
	}
	d.pos++ // [
	d.space()
	if d.pos < len(d.raw) && d.raw[d.pos] == ']' {
		d.pos++
		return true
	}
	for {
		if !d.valid(depth) {
			return false
		}
		if more, ok := d.separator(']'); !more {
			return ok
		}
	}
}

// separator reads what follows a member or an item: a comma, then more
// follow, or closer, which ends them; anything else is not JSON.
func (d *dataDecoder) separator(closer byte) (more, ok bool) {
	d.space()
	if d.pos >= len(d.raw) {
		return false, false
	}
	switch d.raw[d.pos] {
	case ',':
		d.pos++
		return true, true
	case closer:
		d.pos++
		return false, true
	}
	return false, false
}

// validString accepts what string unquotes: any byte but a control
// character, and escapes that exist (invalid UTF-8 and lone surrogates
// are decoded as U+FFFD, so they pass).
func (d *dataDecoder) validString() bool {
	d.pos++ // "
	for {
		d.pos = stringStop(d.raw, d.pos)
		if d.pos >= len(d.raw) {
			return false
		}
		switch c := d.raw[d.pos]; {
		case c == '"':
			d.pos++
			return true
		case c != '\\':
			return false // a control character
		}
		d.pos++
		if d.pos >= len(d.raw) {
			return false
		}
		switch d.raw[d.pos] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			d.pos++
		case 'u':
			if _, ok := d.hex4(d.pos + 1); !ok {
				return false
			}
			d.pos += 5
		default:
			return false
		}
	}
}

// stringStop is where the first quotation mark, backslash or control
// character at or after s[i] is, or len(s): eight bytes at a time while
// none is among them.
func stringStop(s []byte, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		word := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if (below(word, 0x20)|below(word^'"'*ones, 1)|below(word^'\\'*ones, 1))&tops != 0 {
			break
		}
	}
	for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
		i++
	}
	return i
}

// maxPlainWholeDigits is how many digits before the point a number without an
// exponent may have and be within a float64's range whatever they are.
const maxPlainWholeDigits = 300

// validNumber accepts JSON's grammar, and, as number does, a number that
// strconv can hold in a float64: one past maxPlainWholeDigits or with an
// exponent is converted to know.
func (d *dataDecoder) validNumber() bool {
	start := d.pos
	if d.raw[d.pos] == '-' {
		d.pos++
	}
	whole := d.pos
	switch {
	case d.pos < len(d.raw) && d.raw[d.pos] == '0':
		d.pos++
	case d.pos < len(d.raw) && '1' <= d.raw[d.pos] && d.raw[d.pos] <= '9':
		d.skipDigits()
	default:
		return false
	}
	plain := d.pos-whole <= maxPlainWholeDigits
	if d.pos < len(d.raw) && d.raw[d.pos] == '.' {
		d.pos++
		if fraction := d.pos; d.skipDigits() == fraction {
			return false
		}
	}
	if d.pos < len(d.raw) && (d.raw[d.pos] == 'e' || d.raw[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.raw) && (d.raw[d.pos] == '+' || d.raw[d.pos] == '-') {
			d.pos++
		}
		if exponent := d.pos; d.skipDigits() == exponent {
			return false
		}
		plain = false
	}
	if plain {
		return true
	}
	_, err := strconv.ParseFloat(string(d.raw[start:d.pos]), 64)
	return err == nil
}

// skipDigits moves past decimal digits and returns where they end.
func (d *dataDecoder) skipDigits() int {
	for d.pos < len(d.raw) && '0' <= d.raw[d.pos] && d.raw[d.pos] <= '9' {
		d.pos++
	}
	return d.pos
}
