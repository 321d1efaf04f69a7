package engine

import (
	"fmt"
	"slices"
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
				// `fi`, `iff`: a slip of `if`, where a condition follows
				// (not `of` or `is`, words an outcome may hold).
				next := to
				for next < len(c.src) && isSpace(c.src[next]) {
					next++
				}
				if slices.Contains([]string{"fi", "iff", "iif", "ifs", "ff"}, strings.ToLower(w)) && startsCondition(c.src, next) {
					c.add(SeverityError, CodeWrongKeyword, from, to,
						fmt.Sprintf("A rule's conditions follow `if`: write `if`, not `%s`.", w), "if")
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
func shiftDay(day string, n int) (string, bool) {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day, true
	}
	// Dates are written with four digits of year.
	t = t.AddDate(0, 0, n)
	return t.Format(time.DateOnly), t.Year() >= 0 && t.Year() <= 9999
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
	fix, ends := "", "keeps both ends"
	p.skipBlanks()
	if low, lowEnd, ok := valueAt(c.src, p.pos); ok {
		p.pos = lowEnd
		p.skipBlanks()
		if p.acceptWord("and") {
			p.skipBlanks()
			if high, highEnd, ok := valueAt(c.src, p.pos); ok && low.Kind == high.Kind {
				// A word saying whether the ends count belongs to the
				// phrase: the fix replaces it too and keeps its meaning.
				p.pos = highEnd
				p.skipBlanks()
				phraseEnd := highEnd
				exclusive := p.acceptWord("exclusive")
				if exclusive || p.acceptWord("inclusive") {
					phraseEnd = p.pos
				}
				if exclusive {
					ends = "leaves both ends out"
				}
				lowText, highText := c.src[low.Pos:lowEnd], c.src[high.Pos:highEnd]
				switch {
				case low.Kind == LitNumber && exclusive:
					fix = fmt.Sprintf("is greater than %s and %s is less than %s", lowText, left, highText)
				case low.Kind == LitNumber:
					fix = fmt.Sprintf("is at least %s and %s is no more than %s", lowText, left, highText)
				case low.Kind == LitDate && exclusive:
					fix = fmt.Sprintf("is later than %s and %s is earlier than %s", low.Text, left, high.Text)
				case low.Kind == LitDate:
					before, lowOK := shiftDay(low.Text, -1)
					after, highOK := shiftDay(high.Text, 1)
					if lowOK && highOK {
						fix = fmt.Sprintf("is later than %s and %s is earlier than %s", before, left, after)
					}
				}
				if fix != "" {
					to = phraseEnd
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
		"joined by `and`, `%s`, which %s.", fix, ends), fix)
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

// labelWithSpaces recognises `§Age Check` referring to the rule labelled
// `Age Check`: a reference's label is letters, digits and dots, so it
// ends at the space. It suggests referring to the rule by its outcome.
func (c *checker) labelWithSpaces(e SyntaxError) bool {
	if !wants(e, "label predicate") {
		return false
	}
	name := e.off
	for name > 0 && (c.src[name-1] == ' ' || c.src[name-1] == '\t') {
		name--
	}
	end := name
	for name > 0 && (isASCIILetter(c.src[name-1]) || isDigit(c.src[name-1]) || c.src[name-1] == '.') {
		name--
	}
	var from int
	switch {
	case name == end || end == e.off:
		return false
	case name > 0 && c.src[name-1] == '$':
		from = name - 1
	case strings.HasSuffix(c.src[:name], "§"):
		from = name - len("§")
	default:
		return false
	}
	if c.spacedLabels == nil {
		c.spacedLabels = spacedLabels(c.src)
	}
	for _, l := range c.spacedLabels {
		to := name + len(l.label)
		if !strings.HasPrefix(c.src[name:], l.label) || to < len(c.src) && isWordByte(c.src[to]) {
			continue
		}
		p := parser{scanner: scanner{src: c.src, pos: to}}
		p.skipBlanks()
		for _, pred := range labelPredicates {
			if p.acceptWord(pred) {
				to = p.pos
				break
			}
		}
		c.add(SeverityError, CodeLabelWithSpaces, from, to, fmt.Sprintf("The label `%s` has a space in it, and a reference "+
			"to a label ends at the first space: `%s` names `%s` only. Refer to the rule by its outcome (`%s`), "+
			"or give it a label without spaces.", l.label, c.src[from:end], c.src[name:end], l.reference), l.reference)
		return true
	}
	// No label of the text starts so; still, a word that cannot start a
	// predicate most likely goes on the label.
	next := e.off
	for next < len(c.src) && isASCIILetter(c.src[next]) {
		next++
	}
	word := c.src[e.off:next]
	if word == "" || word == "and" || word == "or" {
		return false
	}
	for _, pred := range labelPredicates {
		if hasWordAt(pred, 0, word) {
			return false // a predicate misspelt
		}
	}
	// The label is one of the text's: the word is no part of it, but a
	// predicate the language does not know (`§agecheck holds`).
	if c.textLabels == nil {
		c.textLabels = labelsOf(c.src)
	}
	if c.textLabels[c.src[name:end]] {
		c.add(SeverityError, CodeLabelWithSpaces, from, next, fmt.Sprintf("`%s` refers to the rule labelled `%s` and is "+
			"a whole condition: `%s` cannot follow it. Write `%s` alone, or follow it with `passes` or `is valid`.",
			c.src[from:end], c.src[name:end], word, c.src[from:end]), c.src[from:end])
		return true
	}
	c.add(SeverityError, CodeLabelWithSpaces, from, next, fmt.Sprintf("A reference to a label ends at the first space: "+
		"`%s` names `%s` only, and `%s` cannot follow it. A label with spaces cannot be referred to with `%s`: "+
		"refer to the rule by its outcome, or give it a label without spaces.", c.src[from:end], c.src[name:end], word, c.src[from:name]))
	return true
}

// spacedLabel is a label with a space in it, and the reference by outcome
// to its rule.
type spacedLabel struct{ label, reference string }

// spacedLabels are the labels with spaces that start a line of src.
func spacedLabels(src string) []spacedLabel {
	out := []spacedLabel{}
	for start := 0; start < len(src); start = lineEnd(src, start) + 1 {
		p := parser{scanner: scanner{src: src, pos: start}, limits: DefaultLimits}
		p.skipBlanks()
		if p.atArticle() {
			continue
		}
		label, ok := p.label()
		if !ok || !strings.ContainsAny(label, " \t") || !p.acceptWord("An") && !p.acceptWord("A") {
			continue
		}
		p.skipSpace()
		sel, ok := p.selector()
		var r Rule
		if ok && p.outcome(&r) {
			out = append(out, spacedLabel{label, "the **" + sel.Text + "** " + fullPhrase(&r)})
		}
	}
	return out
}

// labelsOf reads the labels of src's rules, line by line.
func labelsOf(src string) map[string]bool {
	labels := map[string]bool{}
	for start := 0; start < len(src); start = lineEnd(src, start) + 1 {
		p := parser{scanner: scanner{src: src, pos: start}, limits: DefaultLimits}
		p.skipBlanks()
		if p.atArticle() {
			continue
		}
		if l, ok := p.label(); ok {
			labels[l] = true
		}
	}
	return labels
}

// fullStopInOutcome recognises a full stop inside an outcome, such as
// `gets 2.5 points if ...`: the outcome ends at it, before its `if`.
func (c *checker) fullStopInOutcome(e SyntaxError) bool {
	if !wants(e, `"if"`) || e.off >= len(c.src) || c.src[e.off] != '.' {
		return false
	}
	rest := c.src[e.off+1 : lineEnd(c.src, e.off)]
	if !strings.Contains(" "+rest+" ", " if ") {
		return false
	}
	c.add(SeverityError, CodeFullStopInOutcome, e.off, e.off+1,
		"An outcome cannot contain a full stop: a full stop ends the rule, so this one ends here, before its `if`. "+
			"Write the outcome without it.")
	return true
}

// punctuatedIf recognises `is an adult if: the ...`: `if` is read only
// with a space after it, so the outcome runs on to the full stop, where
// the parser reports the `if` missing.
func (c *checker) punctuatedIf(e SyntaxError) bool {
	if !wants(e, `"if"`) {
		return false
	}
	start, ok := headerEnd(c.src, e.rule)
	if !ok || start > e.off {
		return false
	}
	for i := start; i+3 < e.off; i++ {
		if !isSpace(c.src[i]) || !strings.HasPrefix(c.src[i+1:], "if") {
			continue
		}
		mark := i + 3
		if p := c.src[mark]; (p == ':' || p == ',' || p == ';') && mark+1 < len(c.src) && isSpace(c.src[mark+1]) {
			c.add(SeverityError, CodeParseError, mark, mark+1, fmt.Sprintf("The conditions follow `if` with only "+
				"a space between: drop the `%c` after `if`.", p))
			return true
		}
	}
	return false
}

// numberTooLarge recognises a number beyond the largest a float64 holds,
// which the parser cannot read as a number at all.
func (c *checker) numberTooLarge(e SyntaxError) bool {
	if !wants(e, "number") || e.off >= len(c.src) || !isDigit(c.src[e.off]) {
		return false
	}
	to := e.off
	for to < len(c.src) && (isDigit(c.src[to]) || c.src[to] == '.' && to+1 < len(c.src) && isDigit(c.src[to+1])) {
		to++
	}
	digits := strings.IndexByte(c.src[e.off:to]+".", '.')
	c.add(SeverityError, CodeParseError, e.off, to, fmt.Sprintf("This number, of %d digits, is too large: "+
		"the largest a rule can compare is about 1.8e308, a number of 309 digits.", digits))
	return true
}

// possessive recognises `the **Person**'s __age__ is at least 18`, which
// the language reads as a reference to a rule whose outcome is "'s __age__
// is at least 18": it has no `'s`, and writes `the __age__ of the
// **Person**`. It reports the reference in place of the usual warning.
func (c *checker) possessive(ref *PhraseRef) bool {
	at := int(ref.Selector.Pos) + len(ref.Selector.Text) + 4
	names := []string{c.src[ref.Selector.Pos:at]}
	end := at
	for {
		p := parser{scanner: scanner{src: c.src, pos: end}, limits: DefaultLimits}
		if !p.acceptWord("'s") && !p.acceptWord("’s") {
			break
		}
		p.skipBlanks()
		from := p.pos
		if _, ok := p.element(); !ok {
			break
		}
		names, end = append(names, c.src[from:p.pos]), p.pos
	}
	if len(names) == 1 {
		return false
	}
	var fix strings.Builder
	for i := len(names) - 1; i >= 0; i-- {
		fix.WriteString("the " + names[i])
		if i > 0 {
			fix.WriteString(" of ")
		}
	}
	from := int(ref.Pos)
	message := fmt.Sprintf("Verdict has no `'s`: `%s` reads as a reference to a rule whose outcome is %q, and no "+
		"rule's outcome is. Write `%s`.", c.src[from:end], ref.Phrase, fix.String())
	// The fix is offered to apply only when the condition it makes parses:
	// what follows the names may be no comparison either (`is true`).
	phrase := at
	for phrase < len(c.src) && (c.src[phrase] == ' ' || c.src[phrase] == '\t') {
		phrase++
	}
	rest := c.src[end:min(len(c.src), phrase+len(ref.Phrase))]
	if cmp, _ := parsedComparison(fix.String() + rest); cmp == nil {
		c.add(SeverityWarning, CodeUnresolvedReference, from, end, message)
		return true
	}
	c.add(SeverityWarning, CodeUnresolvedReference, from, end, message, fix.String())
	return true
}
