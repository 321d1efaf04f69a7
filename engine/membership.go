package engine

import (
	"strings"
	"unicode/utf8"
)

// membership answers `is in` for a written list. A program compiled to be
// evaluated many times indexes the list at compile time and answers in
// constant time; a program run once compares the value with each item, which
// is cheaper than building the index. Both give the answers of `is equal
// to` against every item.
type membership struct {
	items   []Literal
	indexed bool

	strings    map[string]struct{} // string items, lower-cased
	numbers    map[float64]struct{}
	dates      map[float64]struct{} // date items
	stringDays map[float64]struct{} // string items that read as dates: they equal data dates
	bools      [2]bool
}

func newMembership(items []Literal, index bool) *membership {
	m := &membership{items: items, indexed: index}
	if !index {
		return m
	}
	lowered := lowerTexts(items)
	for i, it := range items {
		switch it.Kind {
		case LitNumber:
			m.numbers = addKey(m.numbers, it.Number)
		case LitBoolean:
			m.bools[boolIndex(it.Bool)] = true
		case LitDate:
			m.dates = addKey(m.dates, float64(it.day()))
		case LitString, LitDuration:
			// A duration never equals a data value; it is shown as text.
			if it.Kind == LitDuration {
				continue
			}
			if m.strings == nil {
				m.strings = make(map[string]struct{}, len(items))
			}
			m.strings[lowered[i]] = struct{}{}
			if d, ok := timestampDay(it.Text); ok {
				m.stringDays = addKey(m.stringDays, float64(d))
			}
		}
	}
	return m
}

// lowerTexts lower-cases the string items. The ASCII ones, most lists,
// are joined, lower-cased at once and cut apart again, two allocations in
// all rather than one per item: lower-casing keeps an ASCII text's length,
// where it may make another text longer or shorter, so the others are
// lower-cased one by one.
func lowerTexts(items []Literal) []string {
	out := make([]string, len(items))
	size := 0
	for _, it := range items {
		if it.Kind == LitString && isASCII(it.Text) {
			size += len(it.Text)
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, it := range items {
		if it.Kind == LitString && isASCII(it.Text) {
			b.WriteString(it.Text)
		}
	}
	all := strings.ToLower(b.String())
	for i, it := range items {
		switch {
		case it.Kind != LitString:
		case isASCII(it.Text):
			out[i], all = all[:len(it.Text)], all[len(it.Text):]
		default:
			out[i] = strings.ToLower(it.Text)
		}
	}
	return out
}

func addKey[K comparable](m map[K]struct{}, k K) map[K]struct{} {
	if m == nil {
		m = make(map[K]struct{})
	}
	m[k] = struct{}{}
	return m
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (m *membership) contains(v value) bool {
	if !m.indexed {
		for i := range m.items {
			if eq, _ := equal(v, literalOperand(&m.items[i]), false); eq {
				return true
			}
		}
		return false
	}
	switch v.kind {
	case vNumber:
		_, ok := m.numbers[v.num]
		return ok
	case vBool:
		return m.bools[int(v.num)]
	case vDate:
		if _, ok := m.dates[v.num]; ok {
			return true
		}
		_, ok := m.stringDays[v.num]
		return ok
	case vString:
		if m.strings != nil && m.hasString(v.str) {
			return true
		}
		if m.dates != nil {
			if d, ok := timestampDay(v.str); ok {
				_, ok := m.dates[float64(d)]
				return ok
			}
		}
	}
	return false
}

// hasString looks a string up lower-cased; short ASCII strings are
// lower-cased on the stack, so the lookup does not allocate.
func (m *membership) hasString(s string) bool {
	var buf [64]byte
	if len(s) <= len(buf) {
		b := buf[:len(s)]
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c >= utf8.RuneSelf {
				b = nil
				break
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
		}
		if b != nil {
			_, ok := m.strings[string(b)]
			return ok
		}
	}
	_, ok := m.strings[strings.ToLower(s)]
	return ok
}
