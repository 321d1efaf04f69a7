package engine

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeObject decodes a JSON object into the values encoding/json gives
// an `any` (map[string]any, []any, string, float64, bool, nil) in one pass
// and without reflection: every stored run decodes its data. It reports
// only whether it succeeded; on any doubt (invalid JSON, nesting deeper
// than maxDepth, a number out of range) the caller decodes again with
// encoding/json, whose errors are the ones users see.
func decodeObject(raw []byte, maxDepth int) (map[string]any, bool) {
	return (&dataDecoder{raw: raw, maxDepth: maxDepth}).decode()
}

// validObject reports whether decodeObject would succeed, building no
// values.
func validObject(raw []byte, maxDepth int) bool {
	d := dataDecoder{raw: raw, maxDepth: maxDepth}
	d.space()
	if d.pos >= len(raw) || raw[d.pos] != '{' || !d.valid(0) {
		return false
	}
	d.space()
	return d.pos == len(raw)
}

func (d *dataDecoder) decode() (map[string]any, bool) {
	if len(d.raw) <= maxSharedText {
		d.text = string(d.raw)
	}
	d.space()
	if d.pos >= len(d.raw) || d.raw[d.pos] != '{' {
		return nil, false
	}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	if d.pos != len(d.raw) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

type dataDecoder struct {
	raw      []byte
	pos      int
	maxDepth int
	// text is raw as one string, when it is small enough: the keys and
	// strings without escapes are slices of it, one allocation for all.
	text string
	// maps, when set, lends the objects' maps.
	maps *mapStore
	// boxes, when set, holds the numbers and texts decoded (see
	// valueBoxes).
	boxes *valueBoxes
}

// maxSharedText bounds what one key or string value of decoded data can
// keep alive through text: results that outlive their run (pooled ones
// keep values of their trace) hold at most this much each.
const maxSharedText = 4 << 10

func (d *dataDecoder) space() {
	// Most values and punctuation follow no space or a single one.
	if d.pos < len(d.raw) && d.raw[d.pos] > ' ' {
		return
	}
	for d.pos < len(d.raw) {
		switch d.raw[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *dataDecoder) value(depth int) (any, bool) {
	d.space()
	if d.pos >= len(d.raw) {
		return nil, false
	}
	switch c := d.raw[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		list, ok := d.array(depth + 1)
		if ok && len(list) == 0 {
			return emptyList, true
		}
		return list, ok
	case c == '"':
		s, ok := d.string()
		if ok && d.boxes != nil {
			return d.boxes.text(s), true
		}
		return s, ok
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		f, ok := d.number()
		if ok && d.boxes != nil {
			return d.boxes.number(f), true
		}
		return f, ok
	}
	return nil, false
}

// emptyList is every empty list decoded: a list without items has nothing
// to write into, and an item appended to it would be a new list.
var emptyList any = []any{}

func (d *dataDecoder) literal(word string) bool {
	if len(d.raw)-d.pos < len(word) || string(d.raw[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

func (d *dataDecoder) object(depth int) (any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	d.pos++ // {
	var m map[string]any
	if d.maps != nil {
		m = d.maps.lend()
	} else {
		m = map[string]any{}
	}
	d.space()
	if d.pos < len(d.raw) && d.raw[d.pos] == '}' {
		d.pos++
		return m, true
	}
	for {
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != '"' {
			return nil, false
		}
		key, ok := d.string()
		if !ok {
			return nil, false
		}
		d.space()
		if d.pos >= len(d.raw) || d.raw[d.pos] != ':' {
			return nil, false
		}
		d.pos++
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		m[key] = v
		d.space()
		if d.pos >= len(d.raw) {
			return nil, false
		}
		switch d.raw[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return m, true
		default:
			return nil, false
		}
	}
}

func (d *dataDecoder) array(depth int) ([]any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	d.pos++ // [
	a := []any{}
	d.space()
	if d.pos < len(d.raw) && d.raw[d.pos] == ']' {
		d.pos++
		return a, true
	}
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.pos >= len(d.raw) {
			return nil, false
		}
		switch d.raw[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return a, true
		default:
			return nil, false
		}
	}
}

// number accepts JSON's grammar exactly and converts as encoding/json does.
// Most numbers in data are short: one of at most 15 significant digits
// and at most 22 decimals is an exact integer divided by an exact power of
// ten, which IEEE division rounds correctly, as strconv would; the rest go
// to strconv.
func (d *dataDecoder) number() (float64, bool) {
	start := d.pos
	negative := d.raw[d.pos] == '-'
	if negative {
		d.pos++
	}
	var mantissa uint64
	significant := 0
	switch {
	case d.pos < len(d.raw) && d.raw[d.pos] == '0':
		d.pos++
	case d.pos < len(d.raw) && '1' <= d.raw[d.pos] && d.raw[d.pos] <= '9':
		mantissa, significant = d.digits(0, 0)
	default:
		return 0, false
	}
	decimals := 0
	if d.pos < len(d.raw) && d.raw[d.pos] == '.' {
		d.pos++
		fraction := d.pos
		if mantissa, significant = d.digits(mantissa, significant); d.pos == fraction {
			return 0, false
		}
		decimals = d.pos - fraction
	}
	exact := significant <= maxExactDigits && decimals < len(exactPowersOfTen)
	if d.pos < len(d.raw) && (d.raw[d.pos] == 'e' || d.raw[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.raw) && (d.raw[d.pos] == '+' || d.raw[d.pos] == '-') {
			d.pos++
		}
		exponent := d.pos
		if d.digits(0, 0); d.pos == exponent {
			return 0, false
		}
		exact = false
	}
	if exact {
		f := float64(mantissa) / exactPowersOfTen[decimals]
		if negative {
			f = -f
		}
		return f, true
	}
	f, err := strconv.ParseFloat(string(d.raw[start:d.pos]), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// maxExactDigits is how many decimal digits a float64 holds exactly in
// every integer that has them.
const maxExactDigits = 15

// exactPowersOfTen are the powers of ten a float64 holds exactly.
var exactPowersOfTen = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// digits reads decimal digits on into the mantissa read so far, counting
// its significant digits (leading zeros are not); past maxExactDigits it
// only counts, so the mantissa never overflows.
func (d *dataDecoder) digits(mantissa uint64, significant int) (uint64, int) {
	for ; d.pos < len(d.raw) && '0' <= d.raw[d.pos] && d.raw[d.pos] <= '9'; d.pos++ {
		if significant == 0 && d.raw[d.pos] == '0' {
			continue
		}
		if significant++; significant <= maxExactDigits {
			mantissa = mantissa*10 + uint64(d.raw[d.pos]-'0')
		}
	}
	return mantissa, significant
}

// string unquotes as encoding/json does: invalid UTF-8 and lone
// surrogates become U+FFFD.
func (d *dataDecoder) string() (string, bool) {
	d.pos++ // "
	start := d.pos
	// Plain bytes first, as quoting finds them.
	d.pos = plainEnd(d.raw, d.pos, false)
	if d.pos < len(d.raw) && d.raw[d.pos] == '"' {
		var s string
		switch {
		case d.text != "":
			s = d.text[start:d.pos]
		case d.boxes != nil:
			s = d.boxes.copyText(d.raw[start:d.pos])
		default:
			s = string(d.raw[start:d.pos])
		}
		d.pos++
		return s, true
	}
	b := append([]byte(nil), d.raw[start:d.pos]...)
	for d.pos < len(d.raw) {
		c := d.raw[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(b), true
		case c < 0x20:
			return "", false
		case c == '\\':
			d.pos++
			if d.pos >= len(d.raw) {
				return "", false
			}
			switch e := d.raw[d.pos]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4(d.pos + 1)
				if !ok {
					return "", false
				}
				d.pos += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(-1), false
					if d.pos+2 < len(d.raw) && d.raw[d.pos+1] == '\\' && d.raw[d.pos+2] == 'u' {
						r2, ok = d.hex4(d.pos + 3)
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						d.pos += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", false
			}
			d.pos++
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.raw[d.pos:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d.raw[d.pos:d.pos+size]...)
			}
			d.pos += size
		}
	}
	return "", false
}

func (d *dataDecoder) hex4(at int) (rune, bool) {
	if at+4 > len(d.raw) {
		return 0, false
	}
	var r rune
	for _, c := range d.raw[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}
