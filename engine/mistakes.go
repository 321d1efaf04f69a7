package engine

import (
	"fmt"
	"strings"
	"time"
)

// The parser reports where a rule stopped following the language; these
// name the mistake behind some of those places, for the check to say.

// headerEnd is where the outcome of the rule that starts at rule begins:
// after its label, article and selector. ok is false if the rule does not
// get that far.
func headerEnd(src string, rule int) (int, bool) {
	p := parser{scanner: scanner{src: src, pos: rule}, limits: DefaultLimits}
	if !p.atArticle() {
		if _, ok := p.label(); !ok {
			return 0, false
		}
	}
	if !p.acceptWord("An") && !p.acceptWord("A") {
		return 0, false
	}
	p.skipSpace()
	if _, ok := p.selector(); !ok {
		return 0, false
	}
	return p.pos, true
}

// wrongKeyword recognises a keyword written in capitals (`If`, `AND`,
// `The`) or as another word (`when` for `if`), where the parser wanted it.
func (c *checker) wrongKeyword(e SyntaxError) bool {
	if wants(e, `"if"`) {
		// The outcome runs on to the full stop when its `if` is missing:
		// look for the word written instead.
		start, ok := headerEnd(c.src, e.rule)
		if !ok || start > e.off {
			return false
		}
		for from := start; from < e.off; {
			to := wordEnd(c.src, from)
			w := c.src[from:to]
			if before := c.src[from-1]; isSpace(before) && to < len(c.src) && isSpace(c.src[to]) {
				if strings.EqualFold(w, "when") {
					c.add(SeverityError, CodeWrongKeyword, from, to,
						fmt.Sprintf("A rule's conditions follow `if`: write `if`, not `%s`.", w), "if")
					return true
				}
				if strings.EqualFold(w, "if") {
					c.keywordCase(from, "if")
					return true
				}
			}
			for from = to; from < e.off && isSpace(c.src[from]); from++ {
			}
		}
		return false
	}
	if e.off >= len(c.src) {
		return false
	}
	to := e.off
	for to < len(c.src) && isASCIILetter(c.src[to]) {
		to++
	}
	lower := strings.ToLower(c.src[e.off:to])
	if lower == c.src[e.off:to] || to < len(c.src) && isWordByte(c.src[to]) {
		return false
	}
	next := parser{scanner: scanner{src: c.src, pos: to}}
	next.skipSpace()
	switch {
	case lower == "and" && wants(e, `"and"`), lower == "or" && wants(e, `"or"`), lower == "of" && wants(e, `"of"`),
		lower == "the" && (wants(e, "condition") || wants(e, "selector or property")),
		// `__name__ OF the **Person**` ends the name where a comparison
		// should follow.
		(lower == "of" || lower == "in") && wants(e, "predicate") && next.atPath():
		c.keywordCase(e.off, lower)
		return true
	}
	return false
}

// keywordCase reports the keyword written at from in capitals.
func (c *checker) keywordCase(from int, keyword string) {
	to := from + len(keyword)
	c.add(SeverityError, CodeWrongKeyword, from, to,
		fmt.Sprintf("Keywords are lower-case: write `%s`, not `%s`.", keyword, c.src[from:to]), keyword)
}

// valueAt reads the literal written at an offset, as a comparison's value:
// its end, and false if there is none (or a date not on the calendar).
func valueAt(src string, at int) (lit Literal, end int, ok bool) {
	p := parser{scanner: scanner{src: src, pos: at}, limits: DefaultLimits}
	defer func() {
		if e := recover(); e != nil {
			if _, isBailout := e.(bailout); !isBailout {
				panic(e)
			}
			ok = false
		}
	}()
	lit, ok = p.value(false)
	return lit, p.pos, ok
}

// shiftDay is the day n days from a YYYY-MM-DD day, written the same way.
func shiftDay(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

// between recognises `is between 18 and 65`, which the language writes as
// two conditions.
func (c *checker) between(e SyntaxError) bool {
	if !wants(e, "predicate") || e.cond < 0 {
		return false
	}
	p := parser{scanner: scanner{src: c.src, pos: e.off}}
	if !p.acceptWord("is") {
		return false
	}
	p.skipBlanks()
	if !p.acceptWord("between") {
		return false
	}
	to := p.pos
	left := strings.TrimSpace(c.src[e.cond:e.off])
	fix := ""
	p.skipBlanks()
	if low, lowEnd, ok := valueAt(c.src, p.pos); ok {
		p.pos = lowEnd
		p.skipBlanks()
		if p.acceptWord("and") {
			p.skipBlanks()
			if high, highEnd, ok := valueAt(c.src, p.pos); ok && low.Kind == high.Kind {
				switch low.Kind {
				case LitNumber:
					fix = fmt.Sprintf("is at least %s and %s is no more than %s",
						c.src[low.Pos:lowEnd], left, c.src[high.Pos:highEnd])
				case LitDate:
					fix = fmt.Sprintf("is later than %s and %s is earlier than %s",
						shiftDay(low.Text, -1), left, shiftDay(high.Text, 1))
				}
				if fix != "" {
					to = highEnd
				}
			}
		}
	}
	if fix == "" {
		c.add(SeverityError, CodeUnknownOperator, e.off, to, fmt.Sprintf("Verdict has no `is between`: write two conditions "+
			"joined by `and`, such as `is at least 18 and %s is no more than 65`.", left))
		return true
	}
	c.add(SeverityError, CodeUnknownOperator, e.off, to, fmt.Sprintf("Verdict has no `is between`: write two conditions "+
		"joined by `and`, `%s`, which keeps both ends.", fix), fix)
	return true
}

// countWords are what people write for `the number of` and `the length
// of`, and the word the language has.
var countWords = map[string]string{"count": "number", "size": "length", "number": "number", "length": "length"}

// unknownCount recognises `the count of __items__` and the like.
func (c *checker) unknownCount(e SyntaxError) bool {
	if !wants(e, "selector or property") {
		return false
	}
	to := e.off
	for to < len(c.src) && isASCIILetter(c.src[to]) {
		to++
	}
	word := c.src[e.off:to]
	fix, ok := countWords[strings.ToLower(word)]
	p := parser{scanner: scanner{src: c.src, pos: to}}
	p.skipBlanks()
	if !ok || to == e.off || !p.acceptWord("of") {
		return false
	}
	if fix == strings.ToLower(word) {
		c.keywordCase(e.off, fix)
		return true
	}
	c.add(SeverityError, CodeUnknownCount, e.off, p.pos, fmt.Sprintf("Verdict has no `the %s of`: it counts the items of a list "+
		"with `the number of`, and the characters of a text with `the length of`. Did you mean `the %s of`?", word, fix), fix+" of")
	return true
}

// unclosedQuote recognises a quote left open: the parser ran to the end
// of the text looking for its partner, or found one only on a later line,
// in what was meant as the next rule, and stopped after it.
func (c *checker) unclosedQuote(e SyntaxError) bool {
	if wants(e, `closing '"'`) {
		open := strings.LastIndexByte(c.src, '"')
		if open < 0 {
			return false
		}
		c.add(SeverityError, CodeUnclosedQuote, open, open+1,
			"This quote is never closed: a text in quotes ends at the next `\"`, and none follows.")
		return true
	}
	open := -1
	for i := e.rule; i < e.off && i < len(c.src); i++ {
		switch {
		case c.src[i] == '"' && open < 0:
			open = i
		case c.src[i] == '"':
			if strings.Contains(c.src[open:i], "\n") {
				closed := c.li.pos(i).Line
				c.add(SeverityError, CodeUnclosedQuote, open, open+1, fmt.Sprintf("This quote is closed only on line %d: "+
					"a text in quotes ends at the next `\"`, so this one runs on into the lines after it. Close it on its own line.", closed))
				return true
			}
			open = -1
		}
	}
	return false
}
