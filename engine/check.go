package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Diagnostic severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Diagnostic codes. docs/errors.md explains each one.
const (
	CodeParseError            = "parse-error"
	CodeUnknownOperator       = "unknown-operator"
	CodeThousandsSeparator    = "thousands-separator"
	CodeMissingFullStop       = "missing-full-stop"
	CodeLowercaseArticle      = "lowercase-article"
	CodeUnbalancedMarker      = "unbalanced-marker"
	CodeInvalidDate           = "invalid-date"
	CodeCountOperator         = "count-operator"
	CodeNoRules               = "no-rules"
	CodeLimit                 = "limit"
	CodeUnknownLabel          = "unknown-label"
	CodeUnresolvedReference   = "unresolved-reference"
	CodeUnusedRule            = "unused-rule"
	CodeTypeMismatch          = "type-mismatch"
	CodeCircularReference     = "circular-reference"
	CodeConnectiveInText      = "connective-in-text"
	CodeWrongKeyword          = "wrong-keyword"
	CodeUnknownCount          = "unknown-count"
	CodeUnclosedQuote         = "unclosed-quote"
	CodeLabelWithSpaces       = "label-with-spaces"
	CodeFullStopInOutcome     = "full-stop-in-outcome"
	CodeDuplicateLabel        = "duplicate-label"
	CodeBooleanCase           = "boolean-case"
	CodeNegatedReference      = "negated-reference"
	CodeConditionInPhrase     = "condition-in-reference"
	CodeLooseReference        = "loose-reference"
	CodeReferenceAsComparison = "reference-as-comparison"
	CodeShadowedReference     = "shadowed-reference"
)

// DiagnosticCodes lists every code Check and CheckWithSchema can report.
var DiagnosticCodes = []string{
	CodeParseError, CodeUnknownOperator, CodeThousandsSeparator, CodeMissingFullStop,
	CodeLowercaseArticle, CodeUnbalancedMarker, CodeInvalidDate, CodeCountOperator, CodeNoRules,
	CodeLimit, CodeUnknownLabel, CodeUnresolvedReference, CodeUnusedRule, CodeTypeMismatch, CodeNotInSchema,
	CodeSchemaTypeMismatch, CodeCircularReference, CodeConnectiveInText, CodeWrongKeyword,
	CodeUnknownCount, CodeUnclosedQuote, CodeLabelWithSpaces, CodeFullStopInOutcome,
	CodeDuplicateLabel, CodeBooleanCase, CodeNegatedReference, CodeConditionInPhrase, CodeLooseReference,
	CodeReferenceAsComparison, CodeShadowedReference,
}

// Diagnostic is one problem found in a rule text, in plain words. A
// suggestion is a replacement for the text in Range.
type Diagnostic struct {
	Severity    string   `json:"severity"`
	Code        string   `json:"code"`
	Message     string   `json:"message"`
	Range       Range    `json:"range"`
	Suggestions []string `json:"suggestions"`
}

// CheckResult is what Check finds in a text.
type CheckResult struct {
	Tokens      []Token      `json:"tokens"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// HasErrors reports whether any diagnostic is an error: the text would
// not run.
func (c CheckResult) HasErrors() bool {
	for _, d := range c.Diagnostics {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Check reads a rule text the way evaluation would and reports its tokens
// and every problem found, with suggested fixes. It never fails: a text
// that does not parse gets error diagnostics.
func Check(src string) CheckResult { return check(src, nil) }

// check is Check, following the text's names through schema when it is a
// JSON object (see CheckWithSchema).
func check(src string, schema any) CheckResult {
	li := newLineIndex(src)
	out := CheckResult{Tokens: []Token{}, Diagnostics: []Diagnostic{}}
	if len(src) <= DefaultLimits.MaxTextBytes {
		out.Tokens = tokenize(src, li)
	}
	c := newChecker(src, li)
	text, errs := Parse(src, DefaultLimits)
	if errs != nil {
		c.syntax(errs)
	} else {
		c.semantics(text)
		if obj, ok := schema.(map[string]any); ok {
			c.schemaPaths(text, obj)
		}
	}
	sort.SliceStable(c.diags, func(i, j int) bool { return before(c.diags[i].Range.Start, c.diags[j].Range.Start) })
	out.Diagnostics = append(out.Diagnostics, c.diags...)
	return out
}

type checker struct {
	src   string
	li    *lineIndex
	diags []Diagnostic
	// suggestionWork is what is left of maxSuggestionWork.
	suggestionWork int
	// phrases and labels are the rules' outcome phrases and labels, as
	// suggestions compare them, made once for every reference to compare.
	phrases, labels []suggestible
	// inferred are the references no rule answers, which a run answers
	// from the data (see semantics).
	inferred map[*PhraseRef]bool
	// spacedLabels are the text's labels with spaces, read at the first
	// reference that seems to name one (see labelWithSpaces).
	spacedLabels []spacedLabel
	// textLabels holds the labels the text's rules have, read once from
	// the text when a parse error asks (see labelWithSpaces).
	textLabels map[string]bool
	// operators are the suggestions made for each wording of an unknown
	// comparison (see operatorSuggestions).
	operators map[string]operatorSuggestion
}

type operatorSuggestion struct {
	n       int
	phrases []string
}

func newChecker(src string, li *lineIndex) *checker {
	return &checker{src: src, li: li, suggestionWork: maxSuggestionWork, inferred: map[*PhraseRef]bool{}}
}

// before says whether a comes before b in the text.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}

// maxSuggestionWork bounds the comparisons one Check spends on suggesting
// labels and phrases, counted as the cells of the edit distances it
// computes (a few milliseconds of work). Every unresolved reference is
// compared with every rule, so without a bound a text of many long
// phrases costs the square of its size (seconds for a hundred kilobytes);
// past it, diagnostics come without suggestions.
const maxSuggestionWork = 1 << 22

func (c *checker) add(sev, code string, from, to int, msg string, suggestions ...string) {
	if suggestions == nil {
		suggestions = []string{}
	}
	c.diags = append(c.diags, Diagnostic{Severity: sev, Code: code, Message: msg,
		Range: c.li.span(from, to), Suggestions: suggestions})
}

// syntax explains each parse error, naming the likely mistake where the
// text shows one.
func (c *checker) syntax(errs ParseErrors) {
	unbalanced := c.unbalancedMarkers()
	for _, e := range errs {
		if !e.Located {
			c.unlocated(e)
			continue
		}
		if unbalanced[e.Pos.Line] || c.invisibleCharacter(e) || c.curlyQuote(e) || c.numberTooLarge(e) || c.emptyName(e) || c.selectorCharacter(e) || c.unclosedQuote(e) || c.lowercaseArticle(e) || c.thousandsSeparator(e) || c.looseValue(e) || c.labelColon(e) || c.emptyList(e) ||
			c.punctuatedIf(e) || c.wrongKeyword(e) || c.fullStopInOutcome(e) || c.labelWithSpaces(e) || c.unknownCount(e) ||
			c.between(e) || c.spacedOperator(e) || c.equalsOnItsLine(e) || c.missingBeforeConnective(e) || c.unknownOperator(e) || c.missingFullStop(e) {
			continue
		}
		c.generic(e)
	}
}

func (c *checker) unlocated(e SyntaxError) {
	msg := e.Expected
	switch {
	case msg == "No global rule found":
		c.add(SeverityError, CodeNoRules, 0, 0, "The text has no rule. A rule reads like: "+
			"A **Person** gets a discount if the __age__ of the **Person** is at least 65.")
	case strings.HasPrefix(msg, "Invalid date: "):
		day := strings.TrimPrefix(msg, "Invalid date: ")
		from := e.off
		if i := strings.Index(c.src[from:], day); i >= 0 {
			from += i
		}
		c.add(SeverityError, CodeInvalidDate, from, from+len(day),
			fmt.Sprintf("%s is not a date on the calendar. Write dates as YYYY-MM-DD with a real month and day.", day))
	case strings.Contains(msg, "comparisons require") || strings.HasPrefix(msg, "Unsupported operator for"):
		c.countOperator(e)
	default:
		c.add(SeverityError, CodeLimit, 0, 0, "The text is too large: "+msg+".")
	}
}

// countOperator explains a count compared with what it cannot be: with
// an operator other than the number comparisons, or with a value of the
// data. The parser's message is the run's; the diagnostic has its own.
func (c *checker) countOperator(e SyntaxError) {
	count := "`the number of`"
	if strings.HasPrefix(strings.ToLower(e.Expected), "length of") ||
		strings.HasPrefix(e.Expected, "Unsupported operator for length of") {
		count = "`the length of`"
	}
	const operators = "`is equal to`, `is not equal to`, `is greater than`, `is less than`, `is at least`, `is no more than` or their longer forms"
	if strings.HasSuffix(e.Expected, "require a numeric value") {
		p := parser{scanner: scanner{src: c.src, pos: e.off}, limits: DefaultLimits}
		p.acceptThe()
		p.path()
		c.add(SeverityError, CodeCountOperator, e.off, p.pos, fmt.Sprintf("%s compares a count with a number written "+
			"in the rule, not with a value of the data.", count))
		return
	}
	for _, ph := range operatorPhrases {
		if strings.HasSuffix(c.src[:e.off], ph.text) {
			c.add(SeverityError, CodeCountOperator, e.off-len(ph.text), e.off, fmt.Sprintf("%s compares a count with a "+
				"number, so `%s` cannot follow it: use %s.", count, ph.text, operators))
			return
		}
	}
	c.add(SeverityError, CodeCountOperator, e.off, lineEnd(c.src, e.off),
		fmt.Sprintf("%s compares a count with a number, using %s.", count, operators))
}

// unbalancedMarkers reports `**` or `__` without its partner on a line and
// returns the lines concerned; their parse errors say nothing more useful.
func (c *checker) unbalancedMarkers() map[int]bool {
	lines := map[int]bool{}
	for start := 0; start < len(c.src); {
		end := lineEnd(c.src, start)
		line := c.src[start:end]
		if t := strings.TrimSpace(line); !strings.HasPrefix(t, "#") {
			for _, m := range [...]string{"**", "__"} {
				if at := unpaired(line, m); at >= 0 {
					// A marker right before a name opens it; any other
					// closes one.
					which := "A closing `%s` without an opening one"
					if after := start + at + 2; after < len(c.src) && isNameStart(c.src[after]) && c.src[after] != '_' {
						which = "An opening `%s` without a closing one"
					}
					c.add(SeverityError, CodeUnbalancedMarker, start+at, start+at+2,
						fmt.Sprintf(which+" on this line. Write names between a pair: `**Person**` for a selector, "+
							"`__age__` for a property.", m),
					)
					lines[c.li.pos(start).Line] = true
				}
			}
		}
		start = end + 1
		for start < len(c.src) && c.src[start-1] != '\n' {
			start++
		}
	}
	return lines
}

// unpaired returns the offset of the marker left without a partner when
// markers on a line are paired left to right, outside quoted strings, or
// -1 if they pair up.
func unpaired(line, marker string) int {
	last, n := -1, 0
	quoted := false
	for i := 0; i+1 < len(line); i++ {
		switch {
		case line[i] == '"':
			quoted = !quoted
		case !quoted && line[i:i+2] == marker:
			n++
			last = i
			i++
			for i+1 < len(line) && line[i+1] == marker[0] {
				i++ // a run such as ___ is one marker and part of a name
			}
		}
	}
	if n%2 == 1 {
		return last
	}
	return -1
}

func wants(e SyntaxError, what string) bool {
	for _, w := range e.wanted {
		if w == what {
			return true
		}
	}
	return false
}

// emptyName explains a property or a selector with a dot that has no name
// on one side (`__.a__`, `__a..b__`, `**a.**`): the parser stops there
// wanting a name. The suggestion is the name without the empty ones.
func (c *checker) emptyName(e SyntaxError) bool {
	s := c.src
	var open, end int
	var mark string
	switch {
	case wants(e, "property name"):
		mark, open = "__", strings.LastIndex(s[:e.off], "__")
		if open < 0 {
			return false
		}
		for open > 0 && s[open-1] == '_' {
			open-- // a name may begin with `_`: `___a..b__` is `_a..b`
		}
		end = strings.Index(s[open+2:], "__")
		if end < 0 {
			return false
		}
		end += open + 2
	case wants(e, "selector name") && e.off < len(s) && e.off >= 3 &&
		(s[e.off] == '.' || s[e.off-1] == '.' && strings.HasPrefix(s[e.off:], "**")):
		mark, open, end = "**", e.off, e.off
		for open > 0 && (isNameByte(s[open-1]) || s[open-1] == '.') {
			open--
		}
		for end < len(s) && (isNameByte(s[end]) || s[end] == '.') {
			end++
		}
		if open < 2 || s[open-2:open] != "**" || !strings.HasPrefix(s[end:], "**") {
			return false // another character is wrong too: selectorCharacter says which
		}
		open -= 2
	default:
		return false
	}
	name := s[open+2 : end]
	where := "between two dots"
	switch i := emptySegment(name); {
	case i < 0:
		return false
	case i == 0:
		where = "before its first dot"
	case i == len(name):
		where = "after its last dot"
	}
	var names []string
	for _, n := range strings.Split(name, ".") {
		if n != "" {
			names = append(names, n)
		}
	}
	fixed := strings.Join(names, ".")
	valid := fixed != ""
	for _, n := range names {
		valid = valid && (mark == "__" || isNameStart(n[0]))
	}
	msg := fmt.Sprintf("`%s%s%s` has no name %s. A dot steps from the name before it into the name after it, "+
		"so every dot stands between two names.", mark, name, mark, where)
	if !valid {
		c.add(SeverityError, CodeParseError, open, end+2, msg+" Write a name on each side of every dot.")
		return true
	}
	fix := mark + fixed + mark
	c.add(SeverityError, CodeParseError, open, end+2, fmt.Sprintf("%s Write `%s`.", msg, fix), fix)
	return true
}

// selectorCharacter explains a selector whose name holds a character a
// selector cannot, such as a hyphen or a letter beyond ASCII (`**Bürger**`,
// `**e-mail**`): the parser stops at it wanting the closing `**`, which
// says nothing of the cause. In a condition a property may hold any
// characters and reads the same data; a header selector can only be
// renamed.
func (c *checker) selectorCharacter(e SyntaxError) bool {
	if !wants(e, `"**"`) && !wants(e, "selector name") || e.off >= len(c.src) {
		return false
	}
	s := c.src
	open := e.off
	for open > 0 && (isNameByte(s[open-1]) || s[open-1] == '.') {
		open--
	}
	if open < 2 || s[open-2:open] != "**" {
		return false
	}
	open -= 2
	bad, _ := decodeRune(s[e.off:])
	if bad == '*' || bad == '\n' || bad == '\r' {
		return false
	}
	end := strings.Index(s[e.off:lineEnd(s, e.off)], "**")
	if end < 0 {
		return false
	}
	end += e.off + 2
	name := s[open+2 : end-2]
	var msg strings.Builder
	fmt.Fprintf(&msg, "A selector's name may hold only ASCII letters (a to z, A to Z), digits, `_` and spaces, "+
		"starting with a letter or `_`, so `%c` cannot be in `%s`.", bad, s[open:end])
	var fixes []string
	words := strings.Fields(s[strings.LastIndexByte(s[:open], '\n')+1 : open])
	header := len(words) > 0 && (words[len(words)-1] == "A" || words[len(words)-1] == "An")
	if !header && !strings.Contains(name, "__") && emptySegment(name) < 0 {
		fixes = append(fixes, "__"+name+"__")
		fmt.Fprintf(&msg, " A property may hold any characters and reads the same data: `__%s__`.", name)
	}
	if ascii := asciiSelectorName(name); ascii != "" {
		fixes = append(fixes, "**"+ascii+"**")
		if header {
			fmt.Fprintf(&msg, " Rename it `**%s**`.", ascii)
		} else {
			fmt.Fprintf(&msg, " Or rename it `**%s**`, in the data too.", ascii)
		}
	} else if header {
		msg.WriteString(" Rename it with ASCII letters: this selector need not be in the data.")
	}
	c.add(SeverityError, CodeParseError, open, end, msg.String(), fixes...)
	return true
}

// asciiSelectorName is name without the punctuation a selector cannot
// hold, when that leaves a selector name and no letter beyond ASCII is
// lost; "" otherwise.
func asciiSelectorName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf && (isNameByte(byte(r)) || r == '.'):
			b.WriteRune(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return ""
		}
	}
	out := b.String()
	for _, seg := range strings.Split(out, ".") {
		if seg == "" || !isNameStart(seg[0]) {
			return ""
		}
	}
	return out
}

func (c *checker) lowercaseArticle(e SyntaxError) bool {
	n, ok := lowerArticleAt(c.src, e.off)
	if !ok {
		return false
	}
	fix := "A"
	if n == 2 {
		fix = "An"
	}
	c.add(SeverityError, CodeLowercaseArticle, e.off, e.off+n,
		fmt.Sprintf("A rule starts with a capital %s: write `%s`, not `%s`.", fix, fix, c.src[e.off:e.off+n]), fix)
	return true
}

func (c *checker) thousandsSeparator(e SyntaxError) bool {
	s, i := c.src, e.off
	if i >= len(s) || s[i] != ',' || i == 0 || !isDigit(s[i-1]) || !threeDigits(s, i+1) {
		return false
	}
	from := i
	for from > 0 && (isDigit(s[from-1]) || s[from-1] == ',') {
		from--
	}
	to := i
	for to < len(s) && (isDigit(s[to]) || s[to] == ',' && threeDigits(s, to+1)) {
		to++
	}
	c.separatedThousands(from, to, ",")
	return true
}

// separatedThousands reports the number from from to to, its digits
// grouped in threes by sep, with its decimals if it has any.
func (c *checker) separatedThousands(from, to int, sep string) {
	s := c.src
	if to+1 < len(s) && s[to] == '.' && isDigit(s[to+1]) {
		for to++; to < len(s) && isDigit(s[to]); to++ {
		}
	}
	written := s[from:to]
	fix := strings.ReplaceAll(written, sep, "")
	c.add(SeverityError, CodeThousandsSeparator, from, to,
		fmt.Sprintf("Numbers are written without thousands separators: write %s, not %s.", fix, written), fix)
}

func threeDigits(s string, i int) bool {
	return i+3 <= len(s) && isDigit(s[i]) && isDigit(s[i+1]) && isDigit(s[i+2]) &&
		(i+3 == len(s) || !isDigit(s[i+3]))
}

// spacedOperator recognises an operator phrase whose words are apart by
// more than one space, a tab or a line break (`is  at least`) where the
// parser stopped, at the phrase or inside it: a phrase is read only as
// written, its words one space apart, so the parser read none of it or a
// shorter phrase and a value.
func (c *checker) spacedOperator(e SyntaxError) bool {
	if e.cond < 0 || e.cond > e.off {
		return false
	}
	// A phrase has at most six words: one holding the error's place starts
	// at most six words before it.
	for k, starts := e.off, 0; k >= e.cond && starts < 6; k-- {
		if k == len(c.src) || !isASCIILetter(c.src[k]) || k > e.cond && !isSpace(c.src[k-1]) {
			continue // no word starts here
		}
		starts++
		if phrase, to, ok := spacedPhraseAt(c.src, k); ok && to > e.off {
			c.spacedPhrase(k, to, phrase)
			return true
		}
	}
	return false
}

// spacedPhraseAt is the operator phrase whose words begin at from, one
// space apart or not, and where it ends, when they are not one space
// apart.
func spacedPhraseAt(src string, from int) (string, int, bool) {
	var words []string
	var ends []int
	for i := from; len(words) < 6 && i < len(src) && isASCIILetter(src[i]); {
		start := i
		for i < len(src) && isWordByte(src[i]) {
			i++
		}
		words, ends = append(words, src[start:i]), append(ends, i)
		for i < len(src) && isSpace(src[i]) {
			i++
		}
	}
	spaced := strings.Join(words, " ")
	for _, ph := range operatorPhrases {
		if hasWordAt(spaced, 0, ph.text) {
			to := ends[strings.Count(ph.text, " ")]
			return ph.text, to, src[from:to] != ph.text
		}
	}
	return "", 0, false
}

// spacedPhrase reports the operator phrase written from from to to with
// its words apart by more than one space.
func (c *checker) spacedPhrase(from, to int, phrase string) {
	apart := "more than one space"
	switch written := c.src[from:to]; {
	case strings.Contains(written, "\n"):
		apart = "a line break"
	case strings.Contains(written, "\t"):
		apart = "a tab"
	}
	c.add(SeverityError, CodeUnknownOperator, from, to, fmt.Sprintf("The words of `%s` are separated here by %s, "+
		"but a comparison's words are separated by one space, on one line. Write `%s`.", phrase, apart, phrase), phrase)
}

func (c *checker) unknownOperator(e SyntaxError) bool {
	if !wants(e, "predicate") {
		return false
	}
	words, ends := operatorWords(c.src, e.off)
	if c.symbolOperator(e, words, ends) || c.onOrDay(e, words, ends) {
		return true
	}
	if len(words) == 0 {
		return false
	}
	n, suggestions := c.operatorSuggestions(words)
	written := strings.Join(words[:n], " ")
	msg := fmt.Sprintf("`%s` is not a comparison Verdict knows.", written)
	if len(suggestions) > 0 {
		msg += fmt.Sprintf(" Did you mean `%s`?", suggestions[0])
	} else {
		msg += " Comparisons read like `is at least`, `is equal to` or `is in`; docs/rules.md lists them all."
	}
	c.add(SeverityError, CodeUnknownOperator, e.off, ends[n-1], msg, suggestions...)
	return true
}

// onOrDay reports `is on or after 2024-01-01` (or `on or before`): days
// are compared by `is later than` and `is earlier than`, which leave out
// the day itself, so the suggestion moves the day by one.
func (c *checker) onOrDay(e SyntaxError, words []string, ends []int) bool {
	if len(words) < 4 {
		return false
	}
	written := strings.ToLower(strings.Join(words[:4], " "))
	op := map[string]Operator{"is on or after": OpGreaterThanOrEqual, "is on or before": OpLessThanOrEqual}[written]
	day, ok := dayOperators[op]
	if !ok {
		return false
	}
	at := ends[3]
	for at < len(c.src) && (c.src[at] == ' ' || c.src[at] == '\t') {
		at++
	}
	lit, end, ok := valueAt(c.src, at)
	if ok && lit.Kind == LitString && c.src[at] == '"' {
		// A day in quotes is a text; the suggestion writes it as a day.
		if _, isDay := parseDay(lit.Text); isDay && isDateShape(lit.Text) {
			lit.Kind = LitDate
		}
	}
	// A time after the day (`2024-01-01T09:00:00Z`) is no day.
	if !ok || lit.Kind != LitDate || end < len(c.src) && !isSpace(c.src[end]) && c.src[end] != '.' {
		return false
	}
	msg := fmt.Sprintf("`%s` is not a comparison Verdict knows: days are compared with `is later than` and "+
		"`is earlier than`, which leave out the day itself", c.src[e.off:ends[3]])
	shifted, ok := shiftDay(lit.Text, day.shift)
	if !ok {
		c.add(SeverityError, CodeUnknownOperator, e.off, end, msg+".")
		return true
	}
	fix := day.phrase + " " + shifted
	c.add(SeverityError, CodeUnknownOperator, e.off, end, msg+fmt.Sprintf(". Did you mean `%s`?", fix), fix)
	return true
}

// symbolOperators are the comparisons of other languages, and the phrase
// each is in Verdict's; longer symbols first.
var symbolOperators = []struct{ symbol, phrase string }{
	{"===", "is equal to"}, {"!==", "is not equal to"},
	{">=", "is at least"}, {"=>", "is at least"}, {"<=", "is no more than"}, {"=<", "is no more than"},
	{"!=", "is not equal to"}, {"<>", "is not equal to"}, {"==", "is equal to"},
	{"≥", "is at least"}, {"≤", "is no more than"}, {"≠", "is not equal to"},
	{">", "is greater than"}, {"<", "is less than"}, {"=", "is equal to"},
}

// symbolOperator reports a comparison written as a symbol, alone or after
// `is` (`>= 18`, `is >= 18`), with the phrase that says it in words.
func (c *checker) symbolOperator(e SyntaxError, words []string, ends []int) bool {
	at := e.off
	switch {
	case len(words) == 1 && strings.EqualFold(words[0], "is"):
		at = ends[0]
	case len(words) != 0:
		return false
	}
	for at < len(c.src) && (c.src[at] == ' ' || c.src[at] == '\t') {
		at++
	}
	for _, op := range symbolOperators {
		if strings.HasPrefix(c.src[at:], op.symbol) {
			end := at + len(op.symbol)
			written := c.src[e.off:end]
			// `==65` keeps its value apart from the words that replace `==`.
			fix := op.phrase
			if end < len(c.src) && !isSpace(c.src[end]) {
				fix += " "
			}
			c.add(SeverityError, CodeUnknownOperator, e.off, end,
				fmt.Sprintf("`%s` is not a comparison Verdict knows: comparisons are written in words. Did you mean `%s`?", written, op.phrase),
				fix)
			return true
		}
	}
	return false
}

// operatorWords reads the words where an operator was expected, up to the
// value: a digit, a quote, a name marker, a bracket or the end of the line.
func operatorWords(src string, from int) (words []string, ends []int) {
	i := from
	for len(words) < 6 && i < len(src) {
		if !isASCIILetter(src[i]) {
			break
		}
		start := i
		for i < len(src) && (isWordByte(src[i]) || src[i] == '-' || apostropheAt(src, i) > 0) {
			i += max(1, apostropheAt(src, i))
		}
		w := src[start:i]
		if len(words) > 0 && (w == "true" || w == "false" || w == "and" || w == "or" && !orInOperator(src[i:])) {
			break
		}
		words, ends = append(words, w), append(ends, i)
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	return words, ends
}

// orInOperator tells whether an `or` followed by rest is one of an
// operator's words, as in `is greater or equal to` and `is equal or more
// than`, rather than a connective.
func orInOperator(rest string) bool {
	next, _ := operatorWords(strings.TrimLeft(rest, " \t"), 0)
	return len(next) > 0 && slices.Contains([]string{"equal", "equals", "greater", "more", "less", "higher", "lower", "after", "before"},
		strings.ToLower(next[0]))
}

// apostropheAt is the length of the apostrophe inside a word at i (`isn't`,
// `isn’t`), or 0.
func apostropheAt(src string, i int) int {
	for _, a := range [...]string{"'", "’"} {
		if strings.HasPrefix(src[i:], a) && i > 0 && isASCIILetter(src[i-1]) &&
			i+len(a) < len(src) && isASCIILetter(src[i+len(a)]) {
			return len(a)
		}
	}
	return 0
}

// operatorSynonyms are phrases people write for an operator.
var operatorSynonyms = map[string]string{
	"is more than": "is greater than", "is bigger than": "is greater than",
	"is larger than": "is greater than", "is higher than": "is greater than",
	"is above": "is greater than", "is over": "is greater than", "exceeds": "is greater than",
	"is greater then": "is greater than", "is fewer than": "is less than",
	"is smaller than": "is less than", "is lower than": "is less than", "is below": "is less than",
	"is under": "is less than", "is less then": "is less than", "is at most": "is no more than",
	"is not more than": "is no more than", "is not greater than": "is no more than",
	"is no less than": "is at least", "is not less than": "is at least",
	"is not at least": "is less than", "is not at most": "is greater than",
	"is greater or equal to": "is greater than or equal to", "is more than or equal to": "is greater than or equal to",
	"is less or equal to": "is less than or equal to", "equals": "is equal to", "is equal": "is equal to",
	"is greater or equal": "is greater than or equal to", "is less or equal": "is less than or equal to",
	"is equal or greater than": "is at least", "is equal or more than": "is at least", "is equal or higher than": "is at least",
	"is equal or less than": "is no more than", "is equal or lower than": "is no more than",
	"is equal to or greater than": "is at least", "is equal to or more than": "is at least",
	"is equal to or less than": "is no more than", "is": "is equal to",
	"is not": "is not equal to", "is different from": "is not equal to",
	"does not equal": "is not equal to", "is before": "is earlier than", "is after": "is later than",
	"is one of": "is in", "is not one of": "is not in", "is among": "is in", "includes": "contains",
	"has": "contains", "contain": "contains", "is blank": "is empty", "is not blank": "is not empty",
	"is null": "is empty", "is not null": "is not empty", "is nil": "is empty", "is not nil": "is not empty",
	"is none": "is empty", "is on or after": "is at least", "is on or before": "is no more than",
	"is more or equal to": "is at least", "is more or equal": "is at least",
	"is higher or equal to": "is at least", "is lower or equal to": "is no more than",
}

// notValues are words after `is` or `is not` that are no value to compare
// with, so `is equal to` is not suggested: `is present` asks whether a
// value is there, which no comparison does (`is empty` fails on a member
// that is missing), and `is not contains` a comparison the language lacks.
var notValues = map[string]bool{
	"present": true, "missing": true, "absent": true, "set": true, "unset": true,
	"defined": true, "undefined": true, "provided": true, "given": true, "known": true, "unknown": true,
	"contains": true, "contain": true, "includes": true, "include": true,
	"between": true, "from": true, "outside": true, "inside": true,
}

// opensOperator tells whether an operator phrase goes on with word after
// its first, `is` (`later` in `is later than`).
func opensOperator(word string) bool {
	prefix := "is " + strings.ToLower(word)
	for _, ph := range operatorPhrases {
		if ph.text == prefix || strings.HasPrefix(ph.text, prefix+" ") {
			return true
		}
	}
	return false
}

// expandContractions spells out the contractions the language does not
// read (`isn't` is `is not`), so that the words after one keep its
// negation: `isn't greater than` is `is no more than`, never `is greater
// than`. written[i] is the word of words that expanded word i comes from.
func expandContractions(words []string) (expanded []string, written []int) {
	for i, w := range words {
		lower := strings.ReplaceAll(strings.ToLower(w), "’", "'")
		if base, ok := strings.CutSuffix(lower, "n't"); ok && base != "" {
			expanded, written = append(expanded, base, "not"), append(written, i, i)
			continue
		}
		expanded, written = append(expanded, w), append(written, i)
	}
	return expanded, written
}

// operatorSuggestions is suggestOperators made once for each wording, as
// a long text often repeats one mistake, with the edit distances charged
// to the check's suggestion work: past it, only a synonym is suggested.
func (c *checker) operatorSuggestions(words []string) (int, []string) {
	key := strings.ToLower(strings.Join(words, " "))
	if s, ok := c.operators[key]; ok {
		return s.n, s.phrases
	}
	cost := (len(key) + 1) * operatorPhraseBytes
	fuzzy := cost <= c.suggestionWork
	if fuzzy {
		c.suggestionWork -= cost
	}
	n, phrases := suggestOperators(words, fuzzy)
	if c.operators == nil {
		c.operators = map[string]operatorSuggestion{}
	}
	c.operators[key] = operatorSuggestion{n, phrases}
	return n, phrases
}

// operatorPhraseBytes bounds the cells of the edit distances between a
// wording and every operator phrase, per byte of the wording.
var operatorPhraseBytes = func() int {
	n := 0
	for _, ph := range operatorPhrases {
		n += len(ph.text) + 1
	}
	return n
}()

// suggestOperators finds the operator phrases closest to the words written
// (with fuzzy unset, only a known synonym). It returns how many of the
// words the suggestions replace. A known synonym is the one suggestion,
// unless a misspelt phrase replaces more of the words: `is at lest` is
// `is at least` misspelt, not a bare `is` (`is equal to`) followed by
// stray words.
func suggestOperators(writtenWords []string, fuzzy bool) (int, []string) {
	words, from := expandContractions(writtenWords)
	// A suggestion replaces whole written words: one that would replace
	// half of a contraction is not made.
	splits := func(n int) bool { return n < len(words) && from[n] == from[n-1] }
	synonym, synonymWords := "", 0
	for n := len(words); n > 0; n-- {
		if splits(n) {
			continue
		}
		if s, ok := operatorSynonyms[strings.ToLower(strings.Join(words[:n], " "))]; ok {
			synonym, synonymWords = s, n
			break
		}
	}
	// `is not` followed by `later than` is no `is not equal to` with
	// words after it: the words go on into an operator the language lacks.
	if synonym != "" && synonymWords < len(words) && opensOperator(words[synonymWords]) {
		synonym, synonymWords = "", 0
	}
	if strings.HasSuffix(synonym, "equal to") && synonymWords < len(words) && notValues[strings.ToLower(words[synonymWords])] {
		return from[synonymWords] + 1, nil
	}
	type scored struct {
		phrase string
		n, d   int
	}
	var near []scored
	candidates := operatorPhrases
	if !fuzzy {
		candidates = nil
	}
	for _, ph := range candidates {
		n := min(len(strings.Fields(ph.text)), len(words))
		if splits(n) {
			continue
		}
		written := strings.ToLower(strings.Join(words[:n], " "))
		d := editDistance(written, ph.text)
		if d <= max(2, utf8.RuneCountInString(ph.text)/4) {
			near = append(near, scored{ph.text, n, d})
		}
	}
	sort.SliceStable(near, func(i, j int) bool {
		if near[i].n != near[j].n {
			return near[i].n > near[j].n
		}
		return near[i].d < near[j].d
	})
	switch {
	case synonym != "" && (len(near) == 0 || synonymWords >= near[0].n):
		return from[synonymWords-1] + 1, []string{synonym}
	case len(near) == 0:
		return 1, nil
	}
	// Each suggestion replaces the same words.
	out := []string{}
	for _, b := range near {
		if b.n == near[0].n && len(out) < 3 {
			out = append(out, b.phrase)
		}
	}
	return from[near[0].n-1] + 1, out
}

// editDistance is the Levenshtein distance between two strings, by
// letter (rune), so that an accented letter is one change, as docs/errors.md
// promises.
func editDistance(a, b string) int {
	if !isASCII(a) || !isASCII(b) {
		return levenshtein([]rune(a), []rune(b))
	}
	// ASCII text, nearly every name, is compared byte by byte.
	return levenshtein([]byte(a), []byte(b))
}

func levenshtein[T byte | rune](a, b []T) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// missingBeforeConnective explains `is equal to and __b__ is equal to 1`
// and `the **Q** and __b__ ...`: an `and`/`or` that starts a new condition
// ends a bare word or a reference phrase, even where it would begin, so
// the condition before it lacks its value or its phrase.
func (c *checker) missingBeforeConnective(e SyntaxError) bool {
	if !wants(e, "value") && !wants(e, "reference phrase") || e.off >= len(c.src) || !connectiveAhead(c.src, e.off) {
		return false
	}
	word := "and"
	if hasWordAt(c.src, e.off, "or") {
		word = "or"
	}
	then := "Complete the condition before `" + word + "`."
	if wants(e, "value") {
		then = "Write the value to compare with before `" + word + "`."
	}
	c.add(SeverityError, CodeParseError, e.off, e.off+len(word),
		fmt.Sprintf("Verdict expected %s here, but found `%s`, which begins the next condition. %s", expectedText(e), word, then))
	return true
}

// missingFullStop recognises a rule that runs into the next rule or the
// end of the text without its full stop.
func (c *checker) missingFullStop(e SyntaxError) bool {
	if !wants(e, `"."`) {
		return false
	}
	rest := c.src[e.off:]
	end := e.off
	for end > 0 && isSpace(c.src[end-1]) {
		end--
	}
	newLine := strings.Contains(c.src[end:e.off], "\n")
	if strings.TrimSpace(rest) != "" && !(newLine && startsRuleLine(rest)) {
		return false
	}
	c.add(SeverityError, CodeMissingFullStop, end, end,
		"This rule has no full stop at its end. Every rule ends with a full stop (.).", ".")
	return true
}

// startsRuleLine reports whether text starts a rule, with or without a
// label.
func startsRuleLine(s string) bool {
	line := s[:lineEnd(s, 0)]
	if strings.HasPrefix(line, "A **") || strings.HasPrefix(line, "An **") || strings.HasPrefix(line, "#") {
		return true
	}
	return strings.Contains(line, ". A **") || strings.Contains(line, ". An **")
}

// expectedWords turns the parser's expectations into plain words.
var expectedWords = map[string]string{
	"rule (A **selector** ... if ...)": "a rule, such as `A **Person** gets a discount if ...`",
	"A or An":                          "`A` or `An`",
	"selector (**name**)":              "a selector such as `**Person**`",
	"selector name":                    "a name after `**` (ASCII letters, digits, _ and spaces, starting with a letter or _)",
	`"**"`:                             "`**` closing the selector",
	"property (__name__)":              "a property such as `__age__`",
	"property name and closing __":     "a property name closed by `__`",
	"property name":                    "a property name",
	`"if"`:                             "`if` after the outcome",
	"outcome phrase":                   "an outcome such as `gets a discount`",
	"condition":                        "a condition such as `the __age__ of the **Person** is at least 18`",
	`"of"`:                             "`of`",
	"predicate":                        "a comparison such as `is at least` or `is equal to`",
	"selector or property":             "a selector (`**name**`) or a property (`__name__`)",
	"label name":                       "a label name (letters, digits and dots)",
	"label predicate":                  "`is valid`, `passes` or a similar phrase",
	"reference phrase":                 "what the rule referred to says, such as `passes the eye test`",
	"list ([...])":                     "a list such as `[1, 2, 3]`",
	`"," or "]"`:                       "`,` or `]`",
	"date (YYYY-MM-DD)":                "a date written YYYY-MM-DD",
	`closing '"'`:                      "a closing `\"`",
	"number":                           "a number",
	"value":                            "a value: a number, a date, true, false or text",
	`"and"`:                            "`and`",
	`"or"`:                             "`or`",
	`"."`:                              "a full stop",
}

// expectedText is what the parser expected, in plain words.
func expectedText(e SyntaxError) string {
	var wanted []string
	for _, w := range e.wanted {
		if w == "selector (**name**)" && wants(e, "selector or property") {
			continue // said by "selector or property"
		}
		if p, ok := expectedWords[w]; ok {
			wanted = append(wanted, p)
		} else {
			wanted = append(wanted, w)
		}
	}
	return joinAlternatives(wanted)
}

func (c *checker) generic(e SyntaxError) {
	found, to := "the end of the text", e.off
	if e.off < len(c.src) {
		to = wordEnd(c.src, e.off)
		found = "`" + c.src[e.off:to] + "`"
	}
	msg := fmt.Sprintf("Verdict expected %s here, but found %s.", expectedText(e), found)
	if fix, how := doubledMarks(c.src[e.off:to]); fix != "" && (wants(e, "selector or property") || wants(e, "selector (**name**)")) {
		c.add(SeverityError, CodeParseError, e.off, to, fmt.Sprintf("%s %s: `%s`.", msg, how, fix), fix)
		return
	}
	// `A *Person* gets ...`: the rule's selector with single marks.
	if article := c.src[e.off:to]; wants(e, "rule (A **selector** ... if ...)") && (article == "A" || article == "An") {
		from := to
		for from < len(c.src) && (c.src[from] == ' ' || c.src[from] == '\t') {
			from++
		}
		if from < len(c.src) {
			end := wordEnd(c.src, from)
			if fix, how := doubledMarks(c.src[from:end]); strings.HasPrefix(fix, "**") {
				c.add(SeverityError, CodeParseError, from, end, fmt.Sprintf("Verdict expected the rule's selector here, but found `%s`. %s: `%s`.",
					c.src[from:end], how, fix), fix)
				return
			}
		}
	}
	c.add(SeverityError, CodeParseError, e.off, to, msg)
}

// doubledMarks is `_age_` or `*Person*` written with the double marks of
// a property or a selector, and how those are written; "" if the word is
// not one of those.
func doubledMarks(w string) (fix, how string) {
	for _, m := range [...]struct{ mark, how string }{
		{"_", "A property is written between double underscores"},
		{"*", "A selector is written between double asterisks"},
	} {
		name := strings.TrimSuffix(strings.TrimPrefix(w, m.mark), m.mark)
		if len(name) == len(w)-2 && name != "" && isNameStart(name[0]) && !strings.HasSuffix(name, m.mark) {
			return m.mark + m.mark + name + m.mark + m.mark, m.how
		}
	}
	return "", ""
}

// wordEnd is the end of the word (or the single character) at from, on its
// line.
func wordEnd(src string, from int) int {
	i := from
	for i < len(src) && !isSpace(src[i]) {
		i++
	}
	if i == from {
		i++
	}
	return i
}

// semantics checks a text that parses: references that resolve to no
// rule, rules nothing uses, and literals no operand can ever match.
func (c *checker) semantics(text *RuleText) {
	res := &resolver{rules: text.Rules}
	referenced := make([]bool, len(text.Rules))
	// comparedNotReferenced are the rules a comparison names as a
	// reference would: comparisonNamingARule says why they are unused.
	comparedNotReferenced := make([]bool, len(text.Rules))
	refs := make([][]reference, len(text.Rules))
	for i, r := range text.Rules {
		for _, cond := range r.Conditions {
			switch cd := cond.(type) {
			case *LabelRef:
				if t := res.label(cd.Label, i); t >= 0 {
					referenced[t] = true
					from, to := c.labelSpan(cd)
					refs[i] = append(refs[i], reference{t, from, to})
				} else {
					c.unknownLabel(text, cd)
				}
			case *PhraseRef:
				t := res.phrase(cd.Phrase, i)
				if named, _ := res.named(cd.Phrase); named < 0 {
					c.conditionInPhrase(cd)
				}
				if t >= 0 {
					referenced[t] = true
					from, to := c.phraseSpan(cd)
					refs[i] = append(refs[i], reference{t, from, to})
					if !c.shadowedReference(text, res, cd, t) && !c.negatedReference(cd, fullPhrase(text.Rules[t])) {
						c.matchedInsideAWord(cd, text.Rules[t])
					}
				} else {
					if !c.possessive(cd) && !c.negatedReference(cd, "") {
						c.unresolvedPhrase(text, i, cd)
					}
					c.inferred[cd] = true
				}
			case *Comparison:
				if t := c.comparisonNamingARule(text, res, i, cd); t >= 0 {
					comparedNotReferenced[t] = true
				}
				if cd.Right == nil && !cd.Op.isEmpty() && !c.missingTo(cd.Op, cd.Value) && !c.numberOperatorOnDay(cd.Op, cd.Value) {
					c.typeMismatch(cd.Op, cd.Value)
					c.connectiveInText(cd.Op, cd.Value)
					c.booleanCase(cd.Value)
				}
			case *Count:
				if !c.missingTo(cd.Op, cd.Value) {
					c.typeMismatch(cd.Op, cd.Value)
				}
			}
		}
	}
	c.duplicateLabels(text)
	golden := len(text.Rules) - 1
	for i := len(text.Rules) - 1; i >= 0; i-- {
		if !referenced[i] {
			golden = i
			break
		}
	}
	for i, r := range text.Rules {
		if referenced[i] || i == golden || r.Label != "" || comparedNotReferenced[i] {
			continue
		}
		head := int(r.Selector.Pos) + len(r.Selector.Text) + 4
		if later := sameOutcomeAfter(text, i); later >= 0 {
			c.add(SeverityWarning, CodeUnusedRule, int(r.Pos), head,
				fmt.Sprintf("Another rule, on line %d, has this rule's outcome (%s), and references to an outcome reach "+
					"only the last rule that has it, so this rule's result is never used. Join the two rules' conditions "+
					"with `or` in one rule, give this one another outcome or a label, or remove it.",
					c.li.pos(int(text.Rules[later].Pos)).Line, sharedOutcome(r, text.Rules[later])))
			continue
		}
		c.add(SeverityWarning, CodeUnusedRule, int(r.Pos), head,
			fmt.Sprintf("No rule refers to the rule that %s %s, and it is not the golden rule (%q decides the result), "+
				"so its result is never used. Refer to it from another rule, give it a label, or remove it.",
				r.Selector.Text, fullPhrase(r), text.Rules[golden].Outcome))
	}
	c.circles(text, refs, golden)
}

// duplicateLabels warns about a label that a later rule has too: §label
// reaches only the last of them, and the result's labels name it once.
func (c *checker) duplicateLabels(text *RuleText) {
	last := map[string]int{}
	for i, r := range text.Rules {
		if r.Label != "" {
			last[r.Label] = i
		}
	}
	for i, r := range text.Rules {
		j := last[r.Label]
		if r.Label == "" || j == i {
			continue
		}
		from := int(r.Pos)
		c.add(SeverityWarning, CodeDuplicateLabel, from, from+len(r.Label),
			fmt.Sprintf("Another rule, on line %d, has the label %q too. A reference to it (`§%s`) and the result's "+
				"labels reach only the last rule that has it, so this rule's label is never used. Give one of them "+
				"another label.", c.li.pos(int(text.Rules[j].Pos)).Line, r.Label, r.Label))
	}
}

// booleanCase warns about `is equal to True`: only `true` and `false` in
// lower case are booleans, so an unquoted True is the text "True".
func (c *checker) booleanCase(lit Literal) {
	items := []Literal{lit}
	if lit.Kind == LitList {
		items = lit.Items
	}
	for _, it := range items {
		if it.Kind != LitString || c.src[it.Pos] == '"' {
			continue
		}
		for _, b := range [...]string{"true", "false"} {
			if it.Text != b && strings.EqualFold(it.Text, b) {
				from := int(it.Pos)
				c.add(SeverityWarning, CodeBooleanCase, from, from+len(it.Text),
					fmt.Sprintf("`%s` is the text %q, not the boolean %s: only `true` and `false`, in lower case, are "+
						"booleans. Write `%s`, or \"%s\" in quotes to mean the text.", it.Text, it.Text, b, b, it.Text), b)
			}
		}
	}
}

// sameOutcomeAfter is the last rule after rule i with its outcome, which
// references reach instead (see resolver.shadow), or -1 if none.
func sameOutcomeAfter(text *RuleText, i int) int {
	for j := len(text.Rules) - 1; j > i; j-- {
		if text.Rules[j].Outcome == text.Rules[i].Outcome {
			return j
		}
	}
	return -1
}

// sharedOutcome names the outcome two rules share: the phrase, or, where
// their verbs differ, the words after them.
func sharedOutcome(r, other *Rule) string {
	if fullPhrase(r) == fullPhrase(other) {
		return "`" + fullPhrase(r) + "`"
	}
	return fmt.Sprintf("`%s`, its words after the verb: that rule is `%s`", r.Outcome, fullPhrase(other))
}

func fullPhrase(r *Rule) string {
	if r.Verb == "" {
		return r.Outcome
	}
	return r.Verb + " " + r.Outcome
}

// labelSpan is where `§label` (or `$label`) is written.
func (c *checker) labelSpan(ref *LabelRef) (from, to int) {
	from = int(ref.Pos)
	return from, from + len(c.src[from:]) - len(strings.TrimPrefix(strings.TrimPrefix(c.src[from:], "$"), "§")) + len(ref.Label)
}

// phraseSpan is where the phrase of `the **Person** passes the eye test`
// is written.
func (c *checker) phraseSpan(ref *PhraseRef) (from, to int) {
	from = int(ref.Selector.Pos) + len(ref.Selector.Text) + 4
	for from < len(c.src) && isSpace(c.src[from]) {
		from++
	}
	return from, from + len(ref.Phrase)
}

func (c *checker) unknownLabel(text *RuleText, ref *LabelRef) {
	from, to := c.labelSpan(ref)
	if c.labels == nil {
		c.labels = []suggestible{}
		for i, r := range text.Rules {
			if r.Label != "" {
				c.labels = append(c.labels, newSuggestible(r.Label, strings.ToLower(r.Label), i))
			}
		}
	}
	sigil := c.src[from : to-len(ref.Label)]
	var suggestions []string
	for _, l := range closest(ref.Label, c.labels, -1, nearSuggestion, &c.suggestionWork) {
		suggestions = append(suggestions, sigil+l)
	}
	c.add(SeverityWarning, CodeUnknownLabel, from, to,
		fmt.Sprintf("No rule has the label %q and no rule's outcome matches it, so this condition is always false.", ref.Label),
		suggestions...)
}

// negatingWords say the opposite of what follows them; negatingPrefixes
// make a word the opposite of the word after them.
var (
	negatingWords = []string{"not", "no", "never", "non", "without", "cannot", "isn't", "doesn't", "hasn't", "aren't"}
	// negatingVerbs say the opposite of another rule's verb (`fails` of
	// `passes`); alone they are verbs like any other, which a data
	// property may be named after (`lacks signature`).
	negatingVerbs    = []string{"fails", "lacks", "misses", "loses"}
	negatingPrefixes = []string{"un", "in", "im", "il", "ir", "dis", "non", "non-"}
)

// negatedReference reports a reference that says the opposite of what
// decides it: `is not a smoker` or `is ineligible` matches the rule
// `is a smoker` or `is eligible` loosely, one containing the other, and
// is true when that rule passes; with no rule (matched, "") a data
// property named after the phrase's words is read as it is, its `not`
// dropped. Verdict has no `not`, so the condition means the opposite of
// its words. It reports whether it found one.
func (c *checker) negatedReference(ref *PhraseRef, matched string) bool {
	negation := negationOf(ref.Phrase, matched)
	what := fmt.Sprintf("matches the rule %q only loosely, leaving out %s, so it is true when that rule passes", matched, negation)
	if negation == "" && matched != "" {
		// The other way round: `passes the exam` matching the rule
		// `fails the exam`, `is eligible` the rule `is ineligible`.
		if negation = negationOf(matched, ref.Phrase); negation != "" {
			what = fmt.Sprintf("matches the rule %q only loosely, which says %s, so it is true when that rule passes", matched, negation)
		}
	}
	if negation == "" {
		return false
	}
	from, to := c.phraseSpan(ref)
	if matched == "" {
		what = fmt.Sprintf("matches no rule, so Verdict reads a data property named after its words inside **%s**, "+
			"leaving out %s, so it is true when that property is", ref.Selector.Text, negation)
		// The property named after all the words comes first, and keeps
		// the negation; the one named after the last word does not.
		if cands := inferenceCandidates(ref.Phrase); len(cands) > len(inferenceSuffixes) && cands[0].name != cands[len(inferenceSuffixes)].name {
			what = fmt.Sprintf("matches no rule, so Verdict reads a data property inside **%s**: `%s` when the data has it, "+
				"else `%s`, which leaves out %s, so it is true when that property is",
				ref.Selector.Text, cands[0].name, cands[len(inferenceSuffixes)].name, negation)
		}
	}
	c.add(SeverityError, CodeNegatedReference, from, to, fmt.Sprintf("The reference %q %s: the opposite of what it says. "+
		"Verdict has no `not` for references: write a rule for the opposite case and refer to its outcome.", ref.Phrase, what))
	return true
}

// shadowedReference reports a reference that names one rule as written
// (`passes the exam`) and reaches another: the outcome of a rule is its
// words after the verb, and references reach the last rule of an outcome,
// so `fails the exam`, written after, takes every reference to `passes the
// exam`. It reports whether it found one.
func (c *checker) shadowedReference(text *RuleText, res *resolver, ref *PhraseRef, reached int) bool {
	named, label := res.named(ref.Phrase)
	if named < 0 || label || named == reached {
		return false
	}
	n, norms := normPhrase(ref.Phrase), res.norms()
	if norms[named].phrase != n || norms[reached].outcome != norms[named].outcome || norms[reached].phrase == n {
		return false
	}
	r := text.Rules[named]
	from, to := c.phraseSpan(ref)
	c.add(SeverityError, CodeShadowedReference, from, to,
		fmt.Sprintf("The reference %q names the rule on line %d, but reaches the rule %q on line %d: a rule's outcome is "+
			"its words after the verb (here %q), and a reference reaches the last rule with its outcome. "+
			"Give the rules outcomes that differ beyond their verbs, or labels, and refer to those.",
			ref.Phrase, c.li.pos(int(r.Pos)).Line, fullPhrase(text.Rules[reached]), c.li.pos(int(text.Rules[reached].Pos)).Line,
			r.Outcome))
	return true
}

// conditionInPhrase reports a reference whose phrase runs on past `and`
// or `or` into a condition of its own. The phrase ends before a connective
// only when the next condition begins as one does (`**`, `__`, `§`, `$`,
// `number of`, `length of`), so in `is eligible and the score of the
// **Person** is at least 50` the unmarked property keeps the condition in
// the phrase, the reference still matches `is eligible` loosely, and the
// condition is never checked. Words after the connective read as a
// condition when they hold a mark or a comparison (`and the age of the P
// is at least 17`); a phrase that names its rule exactly is left alone.
func (c *checker) conditionInPhrase(ref *PhraseRef) {
	phrase := ref.Phrase
	for i := 0; i < len(phrase); i++ {
		if i > 0 && !isSpace(phrase[i-1]) {
			continue
		}
		connective := ""
		for _, w := range [...]string{"and", "or"} {
			if hasWordAt(phrase, i, w) {
				connective = w
			}
		}
		rest := phrase[i+len(connective):]
		if connective == "" || !strings.Contains(rest, "**") && !strings.Contains(rest, "__") && !holdsComparison(rest) {
			continue
		}
		start, _ := c.phraseSpan(ref)
		from, to := start+i, start+len(phrase)
		fix := "Begin that condition as one: mark its property with `__` and its selector with `**`."
		var suggestions []string
		// The common case: `the score of the **Person** ...`, a property
		// written without its marks.
		after := strings.TrimLeft(rest, " \t")
		at := start + len(phrase) - len(after)
		if the, ok := strings.CutPrefix(after, "the "); ok {
			at += len(after) - len(the)
			after = the
		}
		if end := strings.Index(after, " of "); end > 0 && !strings.ContainsAny(after[:end], "*_§$\"") &&
			len(strings.Fields(after[:end])) <= 4 && startsCondition(after, end+len(" of ")) {
			from, to = at, at+end
			name := strings.Join(strings.Fields(after[:end]), " ")
			fix = fmt.Sprintf("Mark its property: `__%s__`.", name)
			suggestions = []string{"__" + name + "__"}
		}
		c.add(SeverityError, CodeConditionInPhrase, from, to,
			fmt.Sprintf("The reference %q runs on past `%s` into a condition of its own, which is never checked: "+
				"a reference's words end before `and` or `or` only when what follows begins as a condition does, "+
				"with `**`, `__`, `§`, `$`, `number of` or `length of` (or `the` and one of them). %s",
				phrase, connective, fix), suggestions...)
		return
	}
}

// comparisonNamingARule reports a comparison of a whole selector whose
// words are another rule's outcome: `the **order** contains alcohol`,
// meant as a reference to the rule `contains alcohol`, begins with a
// comparison and so compares the whole order with the text "alcohol". It
// returns the rule named, or -1.
func (c *checker) comparisonNamingARule(text *RuleText, res *resolver, self int, cmp *Comparison) int {
	if len(cmp.Left.Elements) != 1 || !cmp.Left.Elements[0].IsSelector || cmp.Right != nil {
		return -1
	}
	sel := cmp.Left.Elements[0]
	from := int(sel.Pos) + len(sel.Text) + 4
	for from < len(c.src) && isSpace(c.src[from]) {
		from++
	}
	to := from
	if cmp.Op.isEmpty() {
		for _, ph := range operatorPhrases {
			if ph.op == cmp.Op && hasWordAt(c.src, from, ph.text) {
				to = from + len(ph.text)
			}
		}
	} else {
		to = literalEnd(c.src, cmp.Value)
	}
	if to <= from {
		return -1
	}
	written := c.src[from:to]
	t, _ := res.named(written)
	if t < 0 || t == self {
		return -1
	}
	c.add(SeverityWarning, CodeReferenceAsComparison, from, to,
		fmt.Sprintf("`%s` begins with a comparison, so it compares the whole **%s** and does not refer to the rule %q. "+
			"Give that rule a label and refer to it as §label, or give it an outcome that does not begin with a comparison.",
			written, sel.Text, fullPhrase(text.Rules[t])))
	return t
}

// holdsComparison reports whether words hold an operator phrase of the
// language, whole words in any case.
func holdsComparison(words string) bool {
	lower := strings.ToLower(words)
	for i := 0; i < len(lower); i++ {
		if i > 0 && !isSpace(lower[i-1]) {
			continue
		}
		for _, ph := range operatorPhrases {
			if hasWordAt(lower, i, ph.text) {
				return true
			}
		}
	}
	return false
}

// matchedInsideAWord reports a reference that matches a rule only through
// part of a word: matched loosely, one phrase containing the other, `is
// broken` and `is revoked` both contain the rule `is ok`.
func (c *checker) matchedInsideAWord(ref *PhraseRef, r *Rule) {
	written := strings.Fields(strings.ToLower(ref.Phrase))
	outcome := strings.Fields(strings.ToLower(r.Outcome))
	if strings.EqualFold(strings.Join(written, " "), strings.Join(strings.Fields(r.Label), " ")) {
		return // the rule's label, named exactly
	}
	// The words of a fuzzy match's leading verb say nothing of the rule.
	written = slices.DeleteFunc(written, func(w string) bool { return slices.Contains(fuzzyVerbWords, w) })
	inside, part := "", ""
	for _, w := range outcome {
		if slices.Contains(written, w) {
			return
		}
		for _, v := range written {
			switch {
			case inside != "":
			case strings.Contains(v, w):
				inside, part = v, w
			case strings.Contains(w, v):
				inside, part = w, v
			}
		}
	}
	if inside == "" {
		return
	}
	from, to := c.phraseSpan(ref)
	c.add(SeverityWarning, CodeLooseReference, from, to,
		fmt.Sprintf("The reference %q matches the rule %q only because %q contains %q. A reference that matches "+
			"no rule's outcome exactly is matched loosely, one containing the other, even inside a word. "+
			"Refer to the outcome of the rule you mean, as written.", ref.Phrase, fullPhrase(r), inside, part))
}

// fuzzyVerbWords are the words of the verbs loose matching leaves out.
var fuzzyVerbWords = []string{"passes", "has", "gets", "is", "the"}

// negationOf is what in the words written says the opposite of matched:
// a negating word it lacks ("not"), or a word made from one of its words
// by a negating prefix (the "in" of "invalid"); "" when there is none.
func negationOf(written, matched string) string {
	has := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(matched)) {
		has[w] = true
	}
	for _, w := range strings.Fields(strings.ToLower(written)) {
		if has[w] {
			continue
		}
		if slices.Contains(negatingWords, w) || matched != "" && slices.Contains(negatingVerbs, w) {
			return fmt.Sprintf("%q", w)
		}
		for _, p := range negatingPrefixes {
			if rest, ok := strings.CutPrefix(w, p); ok && has[rest] {
				return fmt.Sprintf("the %q of %q", p, w)
			}
		}
	}
	return ""
}

func (c *checker) unresolvedPhrase(text *RuleText, self int, ref *PhraseRef) {
	from, to := c.phraseSpan(ref)
	if c.phrases == nil {
		c.phrases = make([]suggestible, len(text.Rules))
		for i, r := range text.Rules {
			phrase := fullPhrase(r)
			c.phrases[i] = newSuggestible(phrase, phraseWords(phrase), i)
		}
	}
	suggestions := closestPhrases(ref.Phrase, c.phrases, self, &c.suggestionWork)
	words, _ := operatorWords(ref.Phrase, 0)
	if n, ops := c.operatorSuggestions(words); len(ops) > 0 && len(words) > 0 {
		written := strings.Join(words[:n], " ")
		if i := strings.Index(ref.Phrase, written); i == 0 {
			if fix := ops[0] + ref.Phrase[len(written):]; usefulComparison(ref.Selector.Text, fix) {
				suggestions = append(suggestions, fix)
			}
		}
	}
	c.add(SeverityWarning, CodeUnresolvedReference, from, to,
		fmt.Sprintf("No rule's outcome matches %q. When the rule runs, Verdict looks for a data property named after "+
			"the phrase inside **%s**, and the run fails if there is none.", ref.Phrase, ref.Selector.Text),
		suggestions...)
}

// usefulComparison tells whether a reference's phrase rewritten as a
// comparison, `the **selector** <fix>`, is worth suggesting: it must parse
// as a comparison, and not with a bare word, which reads as text compared
// with the whole selector (`is old enough` is no `is equal to old enough`).
// Otherwise applying the suggestion only trades one problem for another.
func usefulComparison(selector, fix string) bool {
	cmp, src := parsedComparison("the **" + selector + "** " + fix)
	if cmp == nil {
		return false
	}
	bare := cmp.Right == nil && !cmp.Op.isEmpty() && cmp.Value.Kind == LitString && src[cmp.Value.Pos] != '"'
	return !bare
}

// parsedComparison is condition parsed alone in a rule, with the rule's
// text, or nil when it does not parse as one comparison.
func parsedComparison(condition string) (*Comparison, string) {
	src := "A **x** is y if " + condition + "."
	text, errs := Parse(src, DefaultLimits)
	if len(errs) > 0 || len(text.Rules) != 1 || len(text.Rules[0].Conditions) != 1 {
		return nil, src
	}
	cmp, _ := text.Rules[0].Conditions[0].(*Comparison)
	return cmp, src
}

// phraseWords is a phrase as suggestions compare it: lower-cased, without
// the articles a, an and the, which writers add and drop freely
// (`is an adlt` is close to `is adult`).
func phraseWords(phrase string) string {
	words := strings.Fields(strings.ToLower(phrase))
	kept := words[:0]
	for _, w := range words {
		if w != "a" && w != "an" && w != "the" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// missingTo reports `is greater than or equal 18`: without its `to`, the
// text parses as `is greater than` the bare text "or equal 18", which no
// value is greater than, so the condition is never true. It is an error,
// though the text runs: as written it cannot mean what it says. With
// `equals` the same happens whether a `to` follows or not; a `to` that
// does is part of the range the suggestion replaces, so applying it gives
// `is greater than or equal to 18`, not `... to to 18`.
func (c *checker) missingTo(op Operator, lit Literal) bool {
	var phrase, fix string
	switch op {
	case OpGreaterThan:
		phrase, fix = "is greater than", "is greater than or equal to"
	case OpLessThan:
		phrase, fix = "is less than", "is less than or equal to"
	default:
		return false
	}
	if lit.Kind != LitString || c.src[lit.Pos] == '"' {
		return false
	}
	words := strings.Fields(lit.Text)
	if len(words) < 2 || !strings.EqualFold(words[0], "or") ||
		!strings.EqualFold(words[1], "equal") && !strings.EqualFold(words[1], "equals") {
		return false
	}
	from, _ := c.writtenOperator(int(lit.Pos), op)
	// `to` may be there, after a line break: the phrase is then whole but
	// not one space apart.
	if written, to, ok := spacedPhraseAt(c.src, from); ok && written == fix {
		c.spacedPhrase(from, to, fix)
		return true
	}
	end := strings.Index(lit.Text, words[1]) + len(words[1])
	written := phrase + " " + words[0] + " " + words[1]
	why := "without `to`, it reads as"
	if len(words) > 2 && strings.EqualFold(words[2], "to") {
		end += strings.Index(lit.Text[end:], words[2]) + len(words[2])
		written += " " + words[2]
		why = "it reads as"
	}
	c.add(SeverityError, CodeUnknownOperator, from, int(lit.Pos)+end,
		fmt.Sprintf("`%s` is not a comparison Verdict knows: %s `%s` the text %q, "+
			"so the condition is never true. Did you mean `%s`?", written, why, phrase, lit.Text, fix), fix)
	return true
}

// equalsOnItsLine explains `is greater than or equals` (or `or equal`,
// or `or equals to`) at the end of a line, its value on the next: a bare
// text value ends with its line, so the condition reads `is greater than`
// the text "or equals" and the parser stops at the next line, before
// missingTo, which reads the value, could see it. A `to` beginning the
// next line belongs to the phrase the suggestion replaces.
func (c *checker) equalsOnItsLine(e SyntaxError) bool {
	if e.cond < 0 || e.cond > e.off {
		return false
	}
	lineEnd := strings.LastIndexByte(c.src[e.cond:e.off], '\n')
	if lineEnd < 0 {
		return false
	}
	lineEnd = e.cond + len(strings.TrimRight(c.src[e.cond:e.cond+lineEnd], " \t\r"))
	to := lineEnd
	if next, _ := operatorWords(c.src, e.off); len(next) > 0 && strings.EqualFold(next[0], "to") {
		to = e.off + len("to")
	}
	for k, starts := lineEnd-1, 0; k >= e.cond && starts < 8; k-- {
		if !isASCIILetter(c.src[k]) || k > e.cond && !isSpace(c.src[k-1]) {
			continue // no word starts here
		}
		starts++
		line := strings.ToLower(strings.Join(strings.Fields(c.src[k:lineEnd]), " "))
		for _, phrase := range [...]string{"is greater than", "is less than"} {
			value, ok := strings.CutPrefix(line, phrase+" ")
			if !ok || value != "or equal" && value != "or equals" && value != "or equals to" {
				continue
			}
			fix := phrase + " or equal to"
			written := strings.ToLower(strings.Join(strings.Fields(c.src[k:to]), " "))
			c.add(SeverityError, CodeUnknownOperator, k, to,
				fmt.Sprintf("`%s` is not a comparison Verdict knows: a text value ends with its line, so it reads as `%s` "+
					"the text %q, and the next line is left over. Did you mean `%s`?", written, phrase, value, fix), fix)
			return true
		}
	}
	return false
}

// writtenOperator is where the phrase of op written before a value
// begins, and the phrase; the value's own offset and "" if no phrase of op
// is right before it.
func (c *checker) writtenOperator(value int, op Operator) (int, string) {
	before := strings.TrimRight(c.src[:value], " \t\r\n")
	for _, ph := range operatorPhrases {
		if ph.op == op && strings.HasSuffix(before, ph.text) {
			return len(before) - len(ph.text), ph.text
		}
	}
	return value, ""
}

// connectiveInText warns about `is equal to gold or silver`: an unquoted
// text is read whole, so the value compared is "gold or silver", never
// one of two. A text that begins with `or` or `and` (`is equal to or
// silver`) has lost the value before it.
func (c *checker) connectiveInText(op Operator, lit Literal) {
	list := "is in"
	switch {
	case op == OpNotEqualTo:
		list = "is not in"
	case op != OpEqualTo:
		return
	}
	if lit.Kind != LitString || c.src[lit.Pos] == '"' {
		return
	}
	words := strings.Fields(lit.Text)
	// `AND` and `OR` are connectives written in capitals (wrong-keyword
	// says so where one joins conditions); in a text they join it too.
	connective := func(w string) bool { return strings.EqualFold(w, "or") || strings.EqualFold(w, "and") }
	// `OR` alone is a text of its own (Oregon); one that begins a longer
	// text has lost the value before it.
	if len(words) > 1 && connective(words[0]) {
		from, _ := c.writtenOperator(int(lit.Pos), op)
		c.add(SeverityWarning, CodeConnectiveInText, from, int(lit.Pos)+len(lit.Text),
			fmt.Sprintf("The text compared here, %q, begins with `%s`, so the value before `%s` seems to be missing. "+
				"Write that value; to compare with the text itself, put it in quotes.", lit.Text, words[0], words[0]))
		return
	}
	var items []string
	item := []string{}
	for _, w := range words {
		if connective(w) && len(item) > 0 {
			items = append(items, strings.Join(item, " "))
			item = item[:0]
			continue
		}
		item = append(item, w)
	}
	if len(items) == 0 || len(item) == 0 {
		return
	}
	items = append(items, strings.Join(item, " "))
	from, _ := c.writtenOperator(int(lit.Pos), op)
	fix := list + " [" + strings.Join(items, ", ") + "]"
	c.add(SeverityWarning, CodeConnectiveInText, from, int(lit.Pos)+len(lit.Text),
		fmt.Sprintf("`%s` is compared as one text, %q, not as a choice between values. "+
			"To compare with each of them, write `%s`; to compare with the text itself, put it in quotes.",
			lit.Text, lit.Text, fix), fix)
}

// dayOperators are the date comparisons that stand for a number
// comparison of a day: the operator, and how many days the written day
// moves, since `is later than` and `is earlier than` leave the day out.
var dayOperators = map[Operator]struct {
	phrase string
	shift  int
}{
	OpGreaterThan: {"is later than", 0}, OpGreaterThanOrEqual: {"is later than", -1},
	OpLessThan: {"is earlier than", 0}, OpLessThanOrEqual: {"is earlier than", 1},
}

// numberOperatorOnDay warns about `is greater than 2024-01-01`: a number
// comparison with a day is always false; the date comparisons compare days.
func (c *checker) numberOperatorOnDay(op Operator, lit Literal) bool {
	day, ok := dayOperators[op]
	if !ok || lit.Kind != LitDate {
		return false
	}
	from, phrase := c.writtenOperator(int(lit.Pos), op)
	if phrase == "" {
		return false // a comment between them: typeMismatch says it plainly
	}
	to := literalEnd(c.src, lit)
	msg := fmt.Sprintf("`%s` compares numbers, but %s is a date, so the condition is always false. Days are compared with "+
		"`is later than` and `is earlier than`, which leave out the day itself", phrase, c.src[lit.Pos:to])
	shifted, ok := shiftDay(lit.Text, day.shift)
	if !ok {
		// The day before year 0 or after year 9999 cannot be written.
		c.add(SeverityWarning, CodeTypeMismatch, from, to, msg+".")
		return true
	}
	fix := day.phrase + " " + shifted
	c.add(SeverityWarning, CodeTypeMismatch, from, to, msg+fmt.Sprintf(": write `%s`.", fix), fix)
	return true
}

// typeMismatch warns about a written value that the operator can never
// match: text with a number comparison, a non-date with a date comparison,
// a non-duration with an age comparison.
func (c *checker) typeMismatch(op Operator, lit Literal) {
	from := int(lit.Pos)
	to := literalEnd(c.src, lit)
	written := c.src[from:to]
	var want string
	var fix []string
	switch op {
	case OpGreaterThanOrEqual, OpLessThanOrEqual, OpGreaterThan, OpLessThan:
		if lit.Kind == LitNumber {
			return
		}
		want = "a number"
		if n, ok := writtenNumber(lit.Text); ok && lit.Kind == LitString {
			fix = []string{n}
		}
	case OpLaterThan, OpEarlierThan:
		if lit.Kind == LitDate {
			return
		}
		if _, ok := timestampDay(lit.Text); ok && lit.Kind == LitString {
			return
		}
		want = "a date (YYYY-MM-DD)"
	case OpWithin, OpOlderThan, OpYoungerThan:
		if lit.Kind == LitDuration {
			return
		}
		want = "a duration such as `30 days` or `18 years`"
	default:
		return
	}
	c.add(SeverityWarning, CodeTypeMismatch, from, to,
		fmt.Sprintf("This comparison needs %s, but %s is not one, so the condition is always false.",
			want, written), fix...)
}

// writtenNumber is a quoted text that holds a number as a rule writes it,
// its thousands maybe separated by commas, without quotes or commas:
// `"1,500"` is 1500. The parser decides what a number is; a sign, an
// exponent or commas that are not between thousands are none a rule can
// write.
func writtenNumber(text string) (string, bool) {
	plain := strings.ReplaceAll(text, ",", "")
	if plain == "" || !isDigit(plain[0]) {
		return "", false
	}
	if lit, end, ok := valueAt(plain, 0); !ok || lit.Kind != LitNumber || end != len(plain) {
		return "", false
	}
	whole, fraction, _ := strings.Cut(text, ".")
	if strings.Contains(fraction, ",") {
		return "", false
	}
	if groups := strings.Split(whole, ","); len(groups) > 1 {
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return "", false
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return "", false
			}
		}
	}
	return plain, true
}

// literalEnd finds where a written literal ends.
func literalEnd(src string, lit Literal) int {
	p := parser{scanner: scanner{src: src, pos: int(lit.Pos)}, limits: DefaultLimits}
	if lit.Kind == LitList {
		p.list()
	} else {
		p.value(false)
	}
	return p.pos
}
