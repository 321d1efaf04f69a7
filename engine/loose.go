package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Dates, durations and numbers written the everyday way (`01/02/2024`,
// `1 January 2024`, `30 Days`, `1e3`, `1 000`) stop the parser right
// after the part of them it could read as a number, where it wants the
// rule to go on or end; it can say no more than that. These read the
// whole value and say how the language writes it.

// looseValue recognises a value written the everyday way: the parser read
// a number and stopped at what followed it.
func (c *checker) looseValue(e SyntaxError) bool {
	if !wants(e, `"."`) && !wants(e, `"," or "]"`) || e.off >= len(c.src) {
		return false
	}
	s := c.src
	end := e.off
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	from := end
	for from > 0 && (isDigit(s[from-1]) || s[from-1] == '.' && from > 1 && isDigit(s[from-2])) {
		from--
	}
	if from == end || !isDigit(s[from]) || from > 0 && (isWordByte(s[from-1]) || s[from-1] == '-') {
		return false
	}
	number := s[from:end]
	if end == e.off {
		switch s[e.off] {
		case '/', '-', '.':
			return c.looseDate(from)
		case 'e', 'E':
			return c.exponent(from)
		}
		return false
	}
	switch {
	case isDigit(s[e.off]):
		return c.spacedThousands(from)
	case isASCIILetter(s[e.off]):
		w := s[e.off:wordEnd(s, e.off)]
		w = strings.TrimRight(w, ".,")
		if month := monthNumber(w); month > 0 {
			return c.dayMonthYear(from, number, month, e.off+len(w))
		}
		return c.looseUnit(from, number, e.off, e.off+len(w))
	}
	return false
}

// dateMessage is how a date the language does not read gets its fix.
func (c *checker) dateAdvice(from, to int, fixes []string) {
	written := c.src[from:to]
	msg := fmt.Sprintf("`%s` is not a date Verdict reads: dates are written YYYY-MM-DD (year, month, day, with two "+
		"digits for the month and the day), such as `2024-01-31`.", written)
	switch len(fixes) {
	case 1:
		msg += fmt.Sprintf(" Write `%s`.", fixes[0])
	case 2:
		msg += fmt.Sprintf(" Write `%s` if the day comes first, or `%s` if the month does.", fixes[0], fixes[1])
	}
	c.add(SeverityError, CodeInvalidDate, from, to, msg, fixes...)
}

// looseDate recognises `01/02/2024`, `2024-1-5` and `1.2.2024`.
func (c *checker) looseDate(from int) bool {
	to := from
	for to < len(c.src) && (isDigit(c.src[to]) || strings.IndexByte("/-.", c.src[to]) >= 0) {
		to++
	}
	// A full stop after the date ends the rule.
	to = from + len(strings.TrimRight(c.src[from:to], "./-"))
	written := c.src[from:to]
	at := strings.IndexAny(written, "/-.")
	if at < 0 {
		return false
	}
	sep := written[at]
	parts := strings.Split(written, string(sep))
	if len(parts) != 3 {
		return false
	}
	n := make([]int, 3)
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || len(p) > 4 {
			return false
		}
		n[i] = v
	}
	var fixes []string
	day := func(y, m, d int) {
		if text := fmt.Sprintf("%04d-%02d-%02d", y, m, d); len(text) == 10 {
			if _, ok := parseDay(text); ok {
				fixes = append(fixes, text)
			}
		}
	}
	switch {
	case len(parts[0]) == 4:
		day(n[0], n[1], n[2])
	case len(parts[2]) == 4:
		day(n[2], n[1], n[0])
		if n[0] != n[1] {
			day(n[2], n[0], n[1])
		}
	default:
		return false
	}
	c.dateAdvice(from, to, fixes)
	return true
}

// monthNumber is the month an English name or its three-letter
// abbreviation names, 1 to 12, or 0.
func monthNumber(w string) int {
	for m := time.January; m <= time.December; m++ {
		if name := m.String(); strings.EqualFold(w, name) || len(w) == 3 && strings.EqualFold(w, name[:3]) {
			return int(m)
		}
	}
	return 0
}

// dayMonthYear recognises `1 January 2024`: the day, then the month's
// name (at to), then perhaps the year.
func (c *checker) dayMonthYear(from int, day string, month, to int) bool {
	var fixes []string
	p := parser{scanner: scanner{src: c.src, pos: to}}
	p.skipBlanks()
	year := p.pos
	for !p.eof() && isDigit(p.peek()) {
		p.pos++
	}
	if p.pos-year == 4 {
		to = p.pos
		d, _ := strconv.Atoi(day)
		if text := fmt.Sprintf("%s-%02d-%02d", c.src[year:to], month, d); len(text) == 10 {
			if _, ok := parseDay(text); ok {
				fixes = append(fixes, text)
			}
		}
	}
	c.dateAdvice(from, to, fixes)
	return true
}

// unitAbbreviations are the short forms people write for duration units.
var unitAbbreviations = map[string]string{
	"s": "seconds", "sec": "seconds", "secs": "seconds", "min": "minutes", "mins": "minutes",
	"h": "hours", "hr": "hours", "hrs": "hours", "d": "days", "wk": "weeks", "wks": "weeks",
	"mo": "months", "mos": "months", "mth": "months", "mths": "months", "y": "years", "yr": "years", "yrs": "years",
}

const unitList = "`second`, `minute`, `hour`, `day`, `week`, `month`, `year`, `decade` and `century`, " +
	"in lower case, singular or plural"

// looseUnit recognises a duration whose unit is in capitals, abbreviated
// or misspelt: `30 Days`, `30 hrs`, `30 dys`.
func (c *checker) looseUnit(from int, number string, wordFrom, wordTo int) bool {
	w := c.src[wordFrom:wordTo]
	lower := strings.ToLower(w)
	unit, best := unitAbbreviations[lower], 3
	if unit == "" {
		for _, u := range durationUnits {
			if d := editDistance(lower, u.word); d < best && d <= max(1, len(u.word)/3) {
				unit, best = u.word, d
			}
		}
	}
	if unit == "" {
		return false
	}
	if n, err := strconv.ParseFloat(number, 64); err == nil && n == 1 {
		unit = strings.TrimSuffix(unit, "s")
		if unit == "centurie" {
			unit = "century"
		}
	}
	fix := number + " " + unit
	msg := fmt.Sprintf("`%s` is not a duration unit Verdict knows. Did you mean `%s`? The units are %s.", w, fix, unitList)
	if lower == unit || lower+"s" == unit || lower == unit+"s" {
		msg = fmt.Sprintf("Duration units are written in lower case: write `%s`, not `%s`.", fix, c.src[from:wordTo])
	}
	c.add(SeverityError, CodeParseError, from, wordTo, msg, fix)
	return true
}

// exponent recognises `1e3`: numbers are written in plain digits.
func (c *checker) exponent(from int) bool {
	to := from
	for to < len(c.src) && (isDigit(c.src[to]) || c.src[to] == '.' && to+1 < len(c.src) && isDigit(c.src[to+1])) {
		to++
	}
	to++ // the e
	if to < len(c.src) && (c.src[to] == '+' || c.src[to] == '-') {
		to++
	}
	digits := to
	for to < len(c.src) && isDigit(c.src[to]) {
		to++
	}
	if to == digits {
		return false
	}
	written := c.src[from:to]
	msg := fmt.Sprintf("Numbers are written in plain digits, without an exponent: `%s` cannot be read.", written)
	var fixes []string
	if n, err := strconv.ParseFloat(written, 64); err == nil && !math.IsInf(n, 0) {
		if plain, ok := plainDigits(written); ok {
			msg = fmt.Sprintf("Numbers are written in plain digits, without an exponent: write %s, not %s.", plain, written)
			fixes = append(fixes, plain)
		}
	}
	c.add(SeverityError, CodeParseError, from, to, msg, fixes...)
	return true
}

// plainDigits writes a number with an exponent (`1.5e3`) in the plain
// digits it stands for (`1500`), moving the point among the digits as
// written, so that none is rounded. A number longer than any a rule can
// hold has none.
func plainDigits(written string) (string, bool) {
	mantissa, expText, _ := strings.Cut(strings.ToLower(written), "e")
	exp, err := strconv.Atoi(expText)
	if err != nil || exp > maxPlainDigits || exp < -maxPlainDigits {
		return "", false
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := whole + fraction
	point := len(whole) + exp
	if point < 0 {
		digits, point = strings.Repeat("0", -point)+digits, 0
	}
	if point > len(digits) {
		digits += strings.Repeat("0", point-len(digits))
	}
	plain := strings.TrimLeft(digits[:point], "0")
	if plain == "" {
		plain = "0"
	}
	if rest := strings.TrimRight(digits[point:], "0"); rest != "" {
		plain += "." + rest
	}
	return plain, len(plain) <= maxPlainDigits
}

// maxPlainDigits is about the longest number a rule holds: 1.8e308 in
// plain digits, and as many after the point.
const maxPlainDigits = 330

// spacedThousands recognises `1 000`: digits in groups of three after
// single spaces.
func (c *checker) spacedThousands(from int) bool {
	s := c.src
	to := from
	for to < len(s) && isDigit(s[to]) {
		to++
	}
	groups := 0
	for to+1 < len(s) && s[to] == ' ' && threeDigits(s, to+1) {
		to += 4
		groups++
	}
	if groups == 0 {
		return false
	}
	c.separatedThousands(from, to, " ")
	return true
}

// labelColon recognises a label written `admin:` before a rule: a label
// ends with a full stop.
func (c *checker) labelColon(e SyntaxError) bool {
	if !wants(e, "rule (A **selector** ... if ...)") || e.off >= len(c.src) {
		return false
	}
	line := c.src[e.off:lineEnd(c.src, e.off)]
	colon := strings.IndexAny(line, ":")
	if colon <= 0 || strings.Contains(line[:colon], "**") || strings.Contains(line[:colon], "__") {
		return false
	}
	if !(&parser{scanner: scanner{src: c.src, pos: e.off + colon + 1}}).articleAfterBlanks() {
		return false
	}
	label := line[:colon]
	c.add(SeverityError, CodeParseError, e.off, e.off+colon+1, fmt.Sprintf("A label ends with a full stop, not a colon: "+
		"write `%s.` before the rule.", label), label+".")
	return true
}

// articleAfterBlanks reports whether blanks and then `A **` or `An **`
// follow.
func (p *parser) articleAfterBlanks() bool {
	if p.eof() || !isSpace(p.peek()) {
		return false
	}
	p.skipBlanks()
	return p.atArticle()
}

// emptyList recognises `is in []`: a list holds at least one item.
func (c *checker) emptyList(e SyntaxError) bool {
	if !wants(e, "value") || e.off >= len(c.src) || c.src[e.off] != ']' {
		return false
	}
	open := strings.TrimRight(c.src[:e.off], " \t\r\n")
	if !strings.HasSuffix(open, "[") {
		return false
	}
	c.add(SeverityError, CodeParseError, len(open)-1, e.off+1, "A list holds at least one item, so `[]` cannot be "+
		"written. No value is in an empty list, so `is in []` would never be true and `is not in []` always would: "+
		"leave the condition out. To ask whether a list in the data is empty, write `is empty`.")
	return true
}
