package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// parser is a recursive-descent parser with ordered choice: where the
// grammar offers alternatives it tries them in order and backtracks. The
// furthest point any alternative reached is remembered with what was
// expected there, which is what a syntax error reports.
type parser struct {
	scanner
	limits Limits

	failPos  int
	expected []string

	conditions int
	errs       ParseErrors
	// ruleStart and condStart are where the rule and the condition being
	// read began (see SyntaxError).
	ruleStart, condStart int
	// lines locates errors; made at the first one, since a text that
	// parses never needs it, and one with an error in every rule would
	// otherwise scan from its start for each.
	lines *lineIndex
}

// position is where the byte at off stands, for an error.
func (p *parser) position(off int) Position {
	if p.lines == nil {
		p.lines = newLineIndex(p.src)
	}
	return p.lines.pos(off)
}

// bailout carries an error that ends the current rule at once (an invalid
// date, a misused count expression, a limit): no alternative can succeed.
type bailout struct{ err SyntaxError }

// Parse parses a rule text into its syntax tree. It reports every problem it
// finds, resuming at the next rule after an error.
func Parse(src string, limits Limits) (*RuleText, ParseErrors) {
	limits = limits.withDefaults()
	if len(src) > limits.MaxTextBytes {
		return nil, ParseErrors{{Expected: fmt.Sprintf("rule text is %d bytes, the limit is %d", len(src), limits.MaxTextBytes)}}
	}
	p := &parser{scanner: scanner{src: src}, limits: limits}
	text := &RuleText{}
	for {
		p.skipTopLevel()
		if p.eof() {
			break
		}
		if len(text.Rules) == limits.MaxRules {
			p.errs = append(p.errs, SyntaxError{Expected: fmt.Sprintf("more than %d rules", limits.MaxRules)})
			break
		}
		start := p.pos
		r, err := p.rule()
		if err != nil {
			p.errs = append(p.errs, *err)
			p.resync(start)
			continue
		}
		text.Rules = append(text.Rules, r)
	}
	if len(p.errs) > 0 {
		return nil, p.errs.sorted()
	}
	if len(text.Rules) == 0 {
		return nil, ParseErrors{{Expected: "No global rule found"}}
	}
	return text, nil
}

// skipTopLevel skips whitespace and comments between rules; there any `#`
// starts a comment, including one after a rule's full stop.
func (p *parser) skipTopLevel() {
	for !p.eof() {
		switch c := p.peek(); {
		case isSpace(c):
			p.pos++
		case c == '#':
			p.skipLine()
		default:
			return
		}
	}
}

// resync moves past a rule that failed to parse: to the next line that
// starts a rule or follows a blank line.
func (p *parser) resync(start int) {
	p.pos = start
	p.skipLine()
	for !p.eof() {
		line := p.rest()
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		trimmed := strings.TrimLeft(line, " \t\r")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") ||
			strings.HasPrefix(trimmed, "A **") || strings.HasPrefix(trimmed, "An **") {
			return
		}
		p.skipLine()
	}
}

// expect records that what was expected at pos; only the furthest position
// is kept.
func (p *parser) expect(pos int, what string) {
	switch {
	case pos > p.failPos:
		p.failPos = pos
		p.expected = append(p.expected[:0], what)
	case pos == p.failPos:
		for _, e := range p.expected {
			if e == what {
				return
			}
		}
		p.expected = append(p.expected, what)
	}
}

func (p *parser) syntaxError() *SyntaxError {
	what := "expected " + joinAlternatives(p.expected)
	return &SyntaxError{Pos: p.position(p.failPos), Located: true, Expected: what,
		off: p.failPos, wanted: append([]string(nil), p.expected...), rule: p.ruleStart, cond: p.condStart}
}

func joinAlternatives(list []string) string {
	switch len(list) {
	case 0:
		return "rule"
	case 1:
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " or " + list[len(list)-1]
}

// abort records where the problem arose even though its message shows no
// position, so that diagnostics can still point at it.
func (p *parser) abort(format string, args ...any) {
	panic(bailout{SyntaxError{Pos: p.position(p.pos), Expected: fmt.Sprintf(format, args...), off: p.pos,
		rule: p.ruleStart, cond: p.condStart}})
}

func (p *parser) rule() (r *Rule, err *SyntaxError) {
	p.failPos, p.expected = -1, p.expected[:0]
	defer func() {
		if e := recover(); e != nil {
			b, ok := e.(bailout)
			if !ok {
				panic(e)
			}
			r, err = nil, &b.err
		}
	}()
	r = &Rule{Pos: Pos(p.pos)}
	p.ruleStart, p.condStart = p.pos, -1
	if !p.atArticle() {
		label, ok := p.label()
		if !ok {
			p.expect(p.pos, "rule (A **selector** ... if ...)")
			return nil, p.syntaxError()
		}
		r.Label = label
	}
	if !p.acceptWord("An") && !p.acceptWord("A") {
		p.expect(p.pos, "A or An")
		return nil, p.syntaxError()
	}
	p.skipSpace()
	sel, ok := p.selector()
	if !ok {
		return nil, p.syntaxError()
	}
	r.Selector = sel
	if !p.outcome(r) {
		return nil, p.syntaxError()
	}
	for {
		p.skipSpace()
		if p.conditions++; p.conditions > p.limits.MaxConditions {
			p.abort("more than %d conditions", p.limits.MaxConditions)
		}
		p.condStart = p.pos
		c, ok := p.condition()
		if !ok {
			return nil, p.syntaxError()
		}
		r.Conditions = append(r.Conditions, c)
		p.skipSpace()
		switch {
		case p.acceptWord("and"):
			r.Or = append(r.Or, false)
		case p.acceptWord("or"):
			r.Or = append(r.Or, true)
		case p.peek() == '.':
			p.pos++
			r.End = Pos(p.pos)
			return r, nil
		default:
			p.expect(p.pos, `"and"`)
			p.expect(p.pos, `"or"`)
			p.expect(p.pos, `"."`)
			return nil, p.syntaxError()
		}
	}
}

// atArticle reports whether a rule starts here without a label.
func (p *parser) atArticle() bool {
	for _, a := range [...]string{"A", "An"} {
		if hasWordAt(p.src, p.pos, a) {
			i := p.pos + len(a)
			if i < len(p.src) && isSpace(p.src[i]) {
				for i < len(p.src) && isSpace(p.src[i]) {
					i++
				}
				if strings.HasPrefix(p.src[i:], "**") {
					return true
				}
			}
		}
	}
	return false
}

// label reads `label. ` before the article. A label stays on one line and
// cannot contain `**` or `__`, so a previous rule can never become one.
// Blank and comment lines may stand between it and the article.
func (p *parser) label() (string, bool) {
	for i := p.pos; i < len(p.src); i++ {
		switch c := p.src[i]; {
		case c == '\n':
			return "", false
		case strings.HasPrefix(p.src[i:], "**"), strings.HasPrefix(p.src[i:], "__"):
			return "", false
		case c == '.' && i > p.pos && i+1 < len(p.src) && isSpace(p.src[i+1]):
			after := scanner{src: p.src, pos: i + 1}
			after.skipSpace()
			j := after.pos
			if (hasWordAt(p.src, j, "A") || hasWordAt(p.src, j, "An")) && p.articleFollowedBySpace(j) {
				label := p.src[p.pos:i]
				p.pos = j
				return label, true
			}
		}
	}
	return "", false
}

func (p *parser) articleFollowedBySpace(j int) bool {
	n := 1
	if strings.HasPrefix(p.src[j:], "An") {
		n = 2
	}
	return j+n < len(p.src) && isSpace(p.src[j+n])
}

// selector reads `**name(.name)***`.
func (p *parser) selector() (Name, bool) {
	start := p.pos
	if !strings.HasPrefix(p.rest(), "**") {
		p.expect(p.pos, "selector (**name**)")
		return Name{}, false
	}
	i := p.pos + 2
	for {
		if i >= len(p.src) || !isNameStart(p.src[i]) {
			p.expect(i, "selector name")
			return Name{}, false
		}
		for i < len(p.src) && isNameByte(p.src[i]) {
			i++
		}
		if i < len(p.src) && p.src[i] == '.' {
			i++
			continue
		}
		break
	}
	if !strings.HasPrefix(p.src[i:], "**") {
		p.expect(i, `"**"`)
		return Name{}, false
	}
	p.pos = i + 2
	return Name{Pos: Pos(start), Text: p.src[start+2 : i]}, true
}

// property reads `__name__`. Its dots step into nested objects, so each
// stands between two names: a dot first, last or next to another leaves
// an empty name, which no key of the data is meant by (`__a..b__` would
// otherwise read a key such as `_` between `a` and `b`).
func (p *parser) property() (Name, bool) {
	start := p.pos
	if !strings.HasPrefix(p.rest(), "__") {
		p.expect(p.pos, "property (__name__)")
		return Name{}, false
	}
	end := strings.Index(p.src[start+2:], "__")
	if end <= 0 {
		p.expect(start+2, "property name and closing __")
		return Name{}, false
	}
	name := p.src[start+2 : start+2+end]
	if i := emptySegment(name); i >= 0 {
		p.expect(start+2+i, "property name")
		return Name{}, false
	}
	p.pos = start + 2 + end + 2
	return Name{Pos: Pos(start), Text: name}, true
}

// emptySegment is the offset in a dotted name where an empty name
// between dots begins (at a dot, or at the name's end), or -1 if every
// dot stands between two names.
func emptySegment(name string) int {
	if strings.HasPrefix(name, ".") {
		return 0
	}
	for i := 0; i < len(name); i++ {
		if name[i] == '.' && (i+1 == len(name) || name[i+1] == '.') {
			return i + 1
		}
	}
	return -1
}

// outcome reads the outcome phrase up to ` if ` and splits off its verb.
// Whole comment lines inside it are no part of the phrase: a full stop or an
// `if` in them ends nothing.
func (p *parser) outcome(r *Rule) bool {
	p.skipSpace()
	start := p.pos
	// lineStart tells whether only blanks stand before i on its line, kept
	// as the scan goes rather than looked back for at each `#`; skipSpace
	// has read the comment lines before start.
	var comments, lineStart bool
	for i := start; i < len(p.src); i++ {
		c := p.src[i]
		switch {
		case c == '\n':
			lineStart = true
		case c == '#' && lineStart:
			comments = true
			if n := strings.IndexByte(p.src[i:], '\n'); n >= 0 {
				i += n - 1 // the line break is read next
			} else {
				i = len(p.src)
			}
			continue
		case c != ' ' && c != '\t' && c != '\r':
			lineStart = false
		}
		if c == '.' {
			p.expect(i, `"if"`)
			return false
		}
		if c == 'i' && i > start && isSpace(p.src[i-1]) && strings.HasPrefix(p.src[i:], "if") &&
			i+2 < len(p.src) && isSpace(p.src[i+2]) {
			phrase := p.src[start:i]
			if comments {
				phrase = withoutCommentLines(phrase)
			}
			r.Verb, r.Outcome = splitVerb(strings.TrimSpace(phrase))
			p.pos = i + 2
			return true
		}
	}
	if strings.TrimSpace(p.src[start:]) == "" {
		p.expect(start, "outcome phrase")
	} else {
		p.expect(len(p.src), `"if"`)
	}
	return false
}

// withoutCommentLines drops the whole comment lines of a phrase, line
// breaks included, keeping its other lines as written.
func withoutCommentLines(phrase string) string {
	var b strings.Builder
	for line := range strings.Lines(phrase) {
		if !strings.HasPrefix(strings.TrimLeft(line, " \t\r"), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// splitVerb removes one outcome verb, as a whole word that leaves something
// behind; a phrase that is only a verb is its own outcome.
func splitVerb(phrase string) (verb, outcome string) {
	for _, v := range outcomeVerbs {
		if len(phrase) > len(v) && strings.HasPrefix(phrase, v) && isSpace(phrase[len(v)]) {
			if rest := strings.TrimSpace(phrase[len(v):]); rest != "" {
				return v, rest
			}
		}
	}
	return "", phrase
}

func (p *parser) condition() (Condition, bool) {
	start := p.pos
	if c, ok := p.count(); ok {
		return c, true
	}
	p.pos = start
	if c, ok := p.comparison(); ok {
		return c, true
	}
	p.pos = start
	if strings.HasPrefix(p.rest(), "§") || p.peek() == '$' {
		return p.labelRef()
	}
	if c, ok := p.phraseRef(); ok {
		return c, true
	}
	p.pos = start
	if p.failPos <= start {
		// No alternative got past the first token: name the whole thing.
		p.failPos, p.expected = start, append(p.expected[:0], "condition")
	}
	return nil, false
}

func (p *parser) count() (*Count, bool) {
	c := &Count{Pos: Pos(p.pos)}
	p.acceptThe()
	switch {
	case p.acceptWord("number"):
	case p.acceptWord("length"):
		c.Length = true
	default:
		return nil, false
	}
	p.skipSpace()
	if !p.acceptWord("of") {
		p.expect(p.pos, `"of"`)
		return nil, false
	}
	p.skipSpace()
	path, ok := p.path()
	if !ok {
		return nil, false
	}
	c.Path = path
	what := "Number of"
	if c.Length {
		what = "Length of"
	}
	p.skipSpace()
	op, phrase, ok := p.operator()
	if !ok {
		return nil, false
	}
	if op.isList() || op.isEmpty() {
		p.abort("%s comparisons require comparison operators", what)
	}
	if !op.countable() {
		p.abort("Unsupported operator for %s comparison: %s", strings.ToLower(what), phrase)
	}
	p.skipSpace()
	if p.atPath() {
		p.abort("%s comparisons require a numeric value", what)
	}
	lit, ok := p.value(false)
	if !ok {
		return nil, false
	}
	c.Op, c.Value = op, lit
	return c, true
}

func (p *parser) comparison() (*Comparison, bool) {
	c := &Comparison{Pos: Pos(p.pos)}
	p.acceptThe()
	path, ok := p.path()
	if !ok {
		return nil, false
	}
	c.Left = path
	p.skipSpace()
	op, _, ok := p.operator()
	if !ok {
		return nil, false
	}
	c.Op = op
	if op.isEmpty() {
		return c, true
	}
	p.skipSpace()
	if p.atPath() {
		p.acceptThe()
		right, ok := p.path()
		if !ok {
			return nil, false
		}
		c.Right = &right
		return c, true
	}
	var lit Literal
	if op.isList() {
		lit, ok = p.list()
	} else {
		lit, ok = p.value(false)
	}
	if !ok {
		return nil, false
	}
	c.Value = lit
	return c, true
}

// atPath reports whether a path (after an optional `the`) starts here.
func (p *parser) atPath() bool {
	i := p.pos
	if hasWordAt(p.src, i, "the") {
		j := i + 3
		for j < len(p.src) && isSpace(p.src[j]) {
			j++
		}
		if j > i+3 {
			i = j
		}
	}
	return strings.HasPrefix(p.src[i:], "**") || strings.HasPrefix(p.src[i:], "__")
}

func (p *parser) operator() (Operator, string, bool) {
	rest := p.rest()
	for _, ph := range operatorPhrases {
		if hasWordAt(rest, 0, ph.text) {
			p.pos += len(ph.text)
			return ph.op, ph.text, true
		}
	}
	p.expect(p.pos, "predicate")
	return 0, "", false
}

func (p *parser) path() (Path, bool) {
	path := Path{Elements: make([]Element, 0, 4)}
	el, ok := p.element()
	if !ok {
		return path, false
	}
	path.Elements = append(path.Elements, el)
	for {
		save := p.pos
		p.skipSpace()
		if !p.acceptWord("of") && !p.acceptWord("in") {
			p.pos = save
			return path, true
		}
		if p.eof() || !isSpace(p.peek()) {
			p.pos = save
			return path, true
		}
		p.skipSpace()
		p.acceptThe()
		el, ok := p.element()
		if !ok {
			p.pos = save
			return path, true
		}
		path.Elements = append(path.Elements, el)
	}
}

func (p *parser) element() (Element, bool) {
	switch {
	case strings.HasPrefix(p.rest(), "**"):
		n, ok := p.selector()
		return Element{Name: n, IsSelector: true}, ok
	case strings.HasPrefix(p.rest(), "__"):
		n, ok := p.property()
		return Element{Name: n}, ok
	}
	p.expect(p.pos, "selector or property")
	return Element{}, false
}

func (p *parser) labelRef() (*LabelRef, bool) {
	c := &LabelRef{Pos: Pos(p.pos)}
	if p.peek() == '$' {
		p.pos++
	} else {
		p.pos += len("§")
	}
	start := p.pos
	for !p.eof() && (isASCIILetter(p.peek()) || isDigit(p.peek()) || p.peek() == '.') {
		p.pos++
	}
	// A dot that ends the name and is followed by whitespace or the end of
	// the text is the rule's full stop.
	if p.pos > start && p.src[p.pos-1] == '.' && (p.eof() || isSpace(p.peek())) {
		p.pos--
	}
	if p.pos == start {
		p.expect(p.pos, "label name")
		return nil, false
	}
	c.Label = p.src[start:p.pos]
	save := p.pos
	p.skipSpace()
	for _, pred := range labelPredicates {
		if p.acceptWord(pred) {
			return c, true
		}
	}
	p.expect(p.pos, "label predicate")
	p.pos = save
	return c, true
}

func (p *parser) phraseRef() (*PhraseRef, bool) {
	c := &PhraseRef{Pos: Pos(p.pos)}
	p.acceptThe()
	sel, ok := p.selector()
	if !ok {
		return nil, false
	}
	c.Selector = sel
	p.skipBlanks()
	start := p.pos
	i := start
	for ; i < len(p.src); i++ {
		ch := p.src[i]
		if ch == '.' || ch == '\n' {
			break
		}
		// Where the phrase would begin, such a connective leaves it empty.
		// One in capitals ends it too, as a mistake: the condition after
		// it would otherwise be read as words of the phrase, and dropped
		// from the rule without a word.
		if (i == start || isSpace(p.src[i-1])) && (connectiveAhead(p.src, i) || connectiveInCapitalsAhead(p.src, i)) {
			break
		}
	}
	c.Phrase = strings.TrimSpace(p.src[start:i])
	if c.Phrase == "" {
		p.expect(start, "reference phrase")
		return nil, false
	}
	p.pos = i
	return c, true
}

func (p *parser) list() (Literal, bool) {
	lit := Literal{Pos: Pos(p.pos), Kind: LitList}
	if p.peek() != '[' {
		p.expect(p.pos, "list ([...])")
		return lit, false
	}
	p.pos++
	lit.Items = make([]Literal, 0, min(countItems(p.rest()), p.limits.MaxListItems))
	for {
		p.skipSpace()
		item, ok := p.value(true)
		if !ok {
			return lit, false
		}
		if len(lit.Items) == p.limits.MaxListItems {
			p.abort("list has more than %d items", p.limits.MaxListItems)
		}
		lit.Items = append(lit.Items, item)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return lit, true
		default:
			p.expect(p.pos, `"," or "]"`)
			return lit, false
		}
	}
}

// countItems estimates a list's length, to allocate it once: the commas
// before the closing bracket, outside quotes.
func countItems(s string) int {
	n, quoted := 1, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ',':
			n++
		case c == ']':
			return n
		}
	}
	return n
}

// value reads a literal: date, duration, number, boolean or string, tried
// in that order.
func (p *parser) value(inList bool) (Literal, bool) {
	lit := Literal{Pos: Pos(p.pos)}
	rest := p.rest()
	switch {
	case strings.HasPrefix(rest, "date("):
		if len(rest) < 16 || !isDateShape(rest[5:15]) || rest[15] != ')' {
			p.expect(p.pos+5, "date (YYYY-MM-DD)")
			return lit, false
		}
		p.date(&lit, rest[5:15])
		p.pos += 16
		return lit, true
	case len(rest) >= 10 && isDateShape(rest[:10]) && (len(rest) == 10 || !isDigit(rest[10])):
		p.date(&lit, rest[:10])
		p.pos += 10
		return lit, true
	case isDigit(p.peek()):
		return p.numberOrDuration(lit)
	case p.acceptWord("true"):
		lit.Kind, lit.Bool = LitBoolean, true
		return lit, true
	case p.acceptWord("false"):
		lit.Kind = LitBoolean
		return lit, true
	case p.peek() == '"':
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			p.expect(len(p.src), `closing '"'`)
			return lit, false
		}
		lit.Kind, lit.Text = LitString, rest[1:1+end]
		p.pos += end + 2
		return lit, true
	case !p.eof() && isBareRune(p.peekRune()) && !isDigit(p.peek()) && !connectiveAhead(p.src, p.pos):
		lit.Kind, lit.Text = LitString, p.bareWord()
		return lit, true
	}
	p.expect(p.pos, "value")
	return lit, false
}

func (p *parser) date(lit *Literal, text string) {
	if _, ok := parseDay(text); !ok {
		p.abort("Invalid date: %s", text)
	}
	lit.Kind, lit.Text = LitDate, text
}

func (p *parser) numberOrDuration(lit Literal) (Literal, bool) {
	start := p.pos
	for !p.eof() && isDigit(p.peek()) {
		p.pos++
	}
	if p.peek() == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]) {
		p.pos++
		for !p.eof() && isDigit(p.peek()) {
			p.pos++
		}
	}
	n, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		p.expect(start, "number")
		return lit, false
	}
	lit.Kind, lit.Number = LitNumber, n
	save := p.pos
	p.skipBlanks()
	if c := p.peek(); strings.IndexByte("smhdwyc", c) >= 0 && c != 0 {
		for _, u := range durationUnits {
			if p.acceptWord(u.word) {
				lit.Kind, lit.Text = LitDuration, u.unit
				return lit, true
			}
		}
	}
	p.pos = save
	return lit, true
}

// bareWord reads an unquoted string. It ends at the end of the line, at
// anything that is not a letter, digit, `_` or blank, or before `and`/`or`
// when a new condition follows them. The same `and`/`or` where the word
// would begin leaves it empty, so value does not read one there: the value
// is missing (`is equal to and __b__ ...`). Words that only begin with
// those letters (`android`, `order`) are words like any other.
func (p *parser) bareWord() string {
	start, end := p.pos, p.pos
	for i := p.pos; i < len(p.src); {
		r, size := rune(p.src[i]), 1
		if r >= 0x80 {
			r, size = decodeRune(p.src[i:])
		}
		switch {
		case isBareRune(r):
			i += size
			end = i
		case r == ' ' || r == '\t':
			j := i
			for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
				j++
			}
			if connectiveAhead(p.src, j) || connectiveInCapitalsAhead(p.src, j) {
				i = len(p.src)
				continue
			}
			i = j
		default:
			i = len(p.src)
		}
	}
	p.pos = end
	return p.src[start:end]
}

func isDateShape(s string) bool {
	return len(s) == 10 && isDigit(s[0]) && isDigit(s[1]) && isDigit(s[2]) && isDigit(s[3]) &&
		s[4] == '-' && isDigit(s[5]) && isDigit(s[6]) && s[7] == '-' && isDigit(s[8]) && isDigit(s[9])
}
