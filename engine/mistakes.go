package engine

import (
	"fmt"
	"strings"
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
