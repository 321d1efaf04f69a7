package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Warning codes of run results. docs/errors.md explains each one.
const (
	WarnTextComparedWithNumber = "text-compared-with-number"
	WarnDateNotParsed          = "date-not-parsed"
	WarnListComparedWithValue  = "list-compared-with-value"
	WarnValuesNotCompared      = "values-not-compared"
	WarnUnresolvedLabel        = "unresolved-label"
	WarnInferredReference      = "inferred-reference"
)

// WarningCodes lists every warning code a run result can carry.
var WarningCodes = []string{
	WarnTextComparedWithNumber, WarnDateNotParsed, WarnListComparedWithValue,
	WarnValuesNotCompared, WarnUnresolvedLabel, WarnInferredReference,
}

// Warning points at something in a run that most likely did not go as the
// rule's author meant, though the run itself succeeded.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warnings is a result's list of warnings; it is written as [] when empty.
type Warnings []Warning

func (w Warnings) MarshalJSON() ([]byte, error) {
	if w == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Warning(w))
}

// Explain fills the result's explanation and warnings from its trace. It
// is meant for the moment a result is handed out, so that evaluation
// itself never pays for it; calling it again changes nothing.
func (r *Result) Explain() {
	if r.Explanation != "" {
		return
	}
	r.Warnings = Warnings{}
	switch {
	case r.failure != nil || r.Error != nil && r.Error.Kind == KindParse:
		r.Explanation = r.parseExplanation()
		return
	case len(r.Trace.Execution) == 0 && r.Error != nil:
		r.Explanation = "Nothing was evaluated: " + r.Error.explained() + "."
		return
	case len(r.Trace.Execution) == 0:
		r.Explanation = "Nothing was evaluated."
		return
	}
	entry := &r.Trace.Execution[0]
	rule := r.about
	if rule != nil {
		for _, l := range rule.labelMisses {
			msg := fmt.Sprintf("§%s names no rule, so that condition counted as false.", l.label)
			if l.nearest != "" {
				msg += fmt.Sprintf(" Did you mean §%s?", l.nearest)
			}
			r.warn(WarnUnresolvedLabel, msg)
		}
	}
	var b strings.Builder
	b.WriteString(headline(entry, rule))
	b.WriteString(": ")
	if r.Result {
		b.WriteString("yes")
	} else {
		b.WriteString("no")
	}
	clauses := r.clauses(entry, rule)
	for i := range entry.Conditions {
		r.conditionWarnings(&entry.Conditions[i], rule.subject(i), "")
	}
	for i := range r.notes {
		r.conditionWarnings(&r.notes[i].cond, "", rule.names[r.notes[i].rule])
	}
	if len(clauses) > 0 {
		b.WriteString(" — ")
		b.WriteString(strings.Join(clauses, "; "))
	}
	if r.Error != nil {
		b.WriteString(". The run stopped with an error: ")
		b.WriteString(r.Error.explained())
	}
	b.WriteString(".")
	r.Explanation = b.String()
}

func (r *Result) parseExplanation() string {
	if r.failure == nil {
		return "The rule text does not parse: " + r.Error.Message
	}
	f := r.failure
	f.once.Do(func() {
		f.explanation = "The rule text does not parse: " + f.errs.asError().Message
		if d, ok := firstSyntaxError(f.src, f.errs); ok {
			f.explanation = fmt.Sprintf("The rule text does not parse (line %d, column %d): %s",
				d.Range.Start.Line, d.Range.Start.Column, d.Message)
		}
	})
	return f.explanation
}

// ParseProblem is the first problem of src, which failed to parse with
// errs, in the plain words a run's explanation and Check use, after the
// line and column where it is; the parser's own message when Check has
// none for it.
func ParseProblem(src string, errs ParseErrors) string {
	if d, ok := firstSyntaxError(src, errs); ok {
		return fmt.Sprintf("line %d, column %d: %s", d.Range.Start.Line, d.Range.Start.Column, d.Message)
	}
	return errs.asError().Message
}

// firstSyntaxError is the first error Check reports for src, which failed
// to parse with errs, worked out from errs without highlighting the text
// or parsing it again.
func firstSyntaxError(src string, errs ParseErrors) (Diagnostic, bool) {
	c := newChecker(src, newLineIndex(src))
	c.syntax(errs)
	var first *Diagnostic
	for i := range c.diags {
		d := &c.diags[i]
		if d.Severity == SeverityError && (first == nil || before(d.Range.Start, first.Range.Start)) {
			first = d
		}
	}
	if first == nil {
		return Diagnostic{}, false
	}
	return *first, true
}

// explainInfo is what explanations need to know of a program beyond the
// trace, worked out once when it is compiled: the golden rule's verb and
// connectives, its conditions' subjects as written, and the label
// references of any rule that name no rule.
type explainInfo struct {
	verb        string
	or          []bool
	subjects    []string // per golden condition: "the age of the Person", or "" for references
	labelMisses []labelMiss
	words       ruleWords // for the outcome a reference misspelt
	// names are the rules' names as warnings about their conditions give
	// them ("Person passes the eye test"), cut at maxNotedRuleName.
	names []string
}

// maxNotedRuleName is how many characters of a rule's name its warnings
// quote: a rule's many conditions do not repeat a long outcome whole
// beyond what the answer's bound counted for them.
const maxNotedRuleName = 60

// subject is how the explanation names golden condition i; "" when the
// trace's path is to say it.
func (info *explainInfo) subject(i int) string {
	if info == nil || i >= len(info.subjects) {
		return ""
	}
	return info.subjects[i]
}

// ruleName is a rule's subject and its outcome phrase with its verb.
func ruleName(selector, verb, outcome string) string {
	if verb != "" {
		return selector + " " + verb + " " + outcome
	}
	return selector + " " + outcome
}

func newExplainInfo(p *Program) *explainInfo {
	g := &p.rules[p.golden]
	info := &explainInfo{verb: g.verb, or: g.or, subjects: make([]string, len(g.conds)), names: make([]string, len(p.rules))}
	for i := range p.rules {
		r := &p.rules[i]
		info.names[i] = Cut(ruleName(r.selector, r.verb, r.outcome), maxNotedRuleName)
	}
	for i := range g.conds {
		c := &g.conds[i]
		switch c.kind {
		case condComparison, condCount:
			names := make([]string, len(c.left.steps))
			for j, s := range c.left.steps {
				names[j] = s.name
			}
			subject := namesWords(names)
			if c.kind == condCount {
				word := "number"
				if c.length {
					word = "length"
				}
				subject = "the " + word + " of " + subject
			}
			info.subjects[i] = subject
		}
	}
	var labels []suggestible
	for i := range p.rules {
		if l := p.rules[i].label; l != "" {
			labels = append(labels, newSuggestible(l, strings.ToLower(l), i))
		}
	}
	// One search's work for all the program's §labels: a text may hold
	// thousands of them and of labels.
	work := maxNearestOutcome
	for i := range p.rules {
		for j := range p.rules[i].conds {
			if c := &p.rules[i].conds[j]; c.kind == condLabelMiss {
				nearest := first(closest(c.ruleName, labels, -1, nearSuggestion, &work))
				info.labelMisses = append(info.labelMisses, labelMiss{c.ruleName, nearest})
			}
		}
	}
	return info
}

// labelMiss is a §label that names no rule, and the rules' label closest
// to it, as the checker suggests one, if any.
type labelMiss struct{ label, nearest string }

// headline is "Person gets senior discount", the rule's subject and its
// outcome phrase with its verb.
func headline(entry *RuleTrace, rule *explainInfo) string {
	verb := ""
	if rule != nil {
		verb = rule.verb
	}
	return ruleName(entry.Selector.Value, verb, entry.Outcome.Value)
}

// clauses explains the conditions that decided the result: on success the
// ones of the first group of `and`-ed conditions that held, otherwise every
// condition that did not hold.
func (r *Result) clauses(entry *RuleTrace, rule *explainInfo) []string {
	conds := entry.Conditions
	var picked []int
	if r.Result && rule != nil {
		start := 0
		for i := range conds {
			last := i == len(rule.or) || i < len(rule.or) && rule.or[i]
			if !last {
				continue
			}
			group := true
			for j := start; j <= i; j++ {
				group = group && conds[j].Result
			}
			if group {
				for j := start; j <= i; j++ {
					picked = append(picked, j)
				}
				break
			}
			start = i + 1
		}
	} else {
		for i, c := range conds {
			if c.Result == r.Result {
				picked = append(picked, i)
			}
		}
	}
	out := make([]string, 0, len(picked))
	for _, i := range picked {
		out = append(out, r.clause(&conds[i], rule.subject(i)))
	}
	return out
}

func (r *Result) clause(c *ConditionTrace, subject string) string {
	if c.Reference {
		return referenceClause(c)
	}
	subject = subjectOf(c, subject)
	value := ValueText(c.Property.Value)
	if !c.Compared {
		if r.stoppedOn(c) {
			if c.rightFailed {
				return shownRight(c) + " " + stoppedAt(r.Error.Kind, "")
			}
			return subject + " " + stoppedAt(r.Error.Kind, c.Property.Path)
		}
		if isEmptiness(c.Operator) {
			return neitherEmpty(subject, value)
		}
		return fmt.Sprintf("%s is %s, which cannot be compared with %s, so the condition is false", subject, value, otherSide(c))
	}
	phrase, negated := operatorSaid(c.Operator)
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s, which ", subject, value)
	if c.Operator == OpContains.String() {
		if c.Result {
			b.WriteString("contains ")
		} else {
			b.WriteString("does not contain ")
		}
	} else {
		b.WriteString("is ")
		if c.Result == negated {
			b.WriteString("not ")
		}
		b.WriteString(phrase)
	}
	if !isEmptiness(c.Operator) {
		if c.Operator != OpContains.String() {
			b.WriteString(" ")
		}
		b.WriteString(otherSide(c))
		if c.Operator == OpWithin.String() {
			b.WriteString(" of today")
		}
	}
	return b.String()
}

// subjectOf is how an explanation names a condition's left side: subject
// when the golden rule's text gave it, otherwise the trace's path in words.
func subjectOf(c *ConditionTrace, subject string) string {
	if subject != "" {
		return subject
	}
	p := strings.TrimSuffix(strings.TrimSuffix(c.Property.Path, ".number"), ".length")
	return namesWords(strings.Split(strings.TrimPrefix(p, "$."), "."))
}

// stoppedOn tells whether the run's error arose on c, which then holds no
// value: its path, or its right-hand path, could not be read or compared.
func (r *Result) stoppedOn(c *ConditionTrace) bool {
	return c.Property.Value == nil && c.Property.Path != "" && r.Error != nil
}

func isEmptiness(op string) bool {
	return op == OpIsEmpty.String() || op == OpIsNotEmpty.String()
}

// neitherEmpty says why `is empty` or `is not empty` held for neither
// reading: the value is a number or a boolean.
func neitherEmpty(subject, value string) string {
	return fmt.Sprintf("%s is %s, and only a text, a list or an object is empty or not, so the condition is false", subject, value)
}

// conditionWarnings adds the warnings c calls for: a data property that
// decided a reference, an unresolved label, values that could not be
// compared, a number sent as text or a list looked for among values. in
// names the referenced rule c belongs to, empty for the golden rule's
// conditions.
func (r *Result) conditionWarnings(c *ConditionTrace, subject, in string) {
	warn := func(code, msg string) {
		if in != "" {
			msg = fmt.Sprintf("In the rule %q, %s", in, msg)
		}
		r.warn(code, msg)
	}
	switch {
	case c.Reference && c.PropertyCheck != nil:
		warn(WarnInferredReference, fmt.Sprintf("no rule matches %q; the data property %s of %s decided it (%s).",
			c.RuleName, c.PropertyCheck.PropertyName, c.Selector.Value, ValueText(c.PropertyCheck.found)))
	case c.Reference:
		if c.Selector.Value == "" && c.ReferencedRuleOutcome == "" && r.about == nil {
			warn(WarnUnresolvedLabel, fmt.Sprintf("§%s names no rule, so that condition counted as false.", c.RuleName))
		}
	case !c.Compared && (in != "" || !r.stoppedOn(c)):
		warn(notCompared(c, subjectOf(c, subject)))
	case c.Operator == "In" || c.Operator == "NotIn":
		if msg := textAmongNumbers(c, subjectOf(c, subject)); msg != "" {
			warn(WarnTextComparedWithNumber, msg)
		}
		if list, ok := c.Property.Value.([]any); ok {
			warn(WarnListComparedWithValue, fmt.Sprintf(
				"%s is a list, %s, which is never one of the values in %s, so the condition is %v. Use `contains` to look for a value in a list.",
				subjectOf(c, subject), ValueText(list), otherSide(c), c.Result))
		}
	}
}

// stoppedAt says what went wrong with the condition a run stopped on, as
// its error's kind tells: the value was not there to read, was there but
// of a kind no comparison can use, or could not be counted.
func stoppedAt(k Kind, path string) string {
	switch {
	case k == KindType:
		return "could not be compared"
	case k == KindEvaluation && (strings.HasSuffix(path, ".number") || strings.HasSuffix(path, ".length")):
		return "could not be counted"
	}
	return "could not be read"
}

// operatorSaid is how an explanation says an operator after "is": the
// phrase and whether it is the negative form (so that a true result reads
// "is not ...").
func operatorSaid(op string) (string, bool) {
	switch op {
	case "GreaterThanOrEqual":
		return "at least", false
	case "LessThanOrEqual":
		return "no more than", false
	case "EqualTo":
		return "equal to", false
	case "ExactlyEqualTo":
		return "exactly equal to", false
	case "NotEqualTo":
		return "equal to", true
	case "LaterThan":
		return "later than", false
	case "EarlierThan":
		return "earlier than", false
	case "GreaterThan":
		return "greater than", false
	case "LessThan":
		return "less than", false
	case "In":
		return "in", false
	case "NotIn":
		return "in", true
	case "IsEmpty":
		return "empty", false
	case "IsNotEmpty":
		return "empty", true
	case "Within":
		return "within", false
	case "OlderThan":
		return "older than", false
	case "YoungerThan":
		return "younger than", false
	}
	return op, false
}

// shownRight renders a condition's other side as the rule wrote it: text
// in quotes, numbers, dates and durations as written, lists as [a, b], a
// right-hand path in words.
func shownRight(c *ConditionTrace) string {
	v := c.Value
	switch v.Type {
	case typeDate, typeDuration:
		if s, ok := v.Value.(string); ok {
			return s
		}
	case typeString:
		if s, ok := v.Value.(string); ok && c.rightPath {
			return pathText(s)
		}
	}
	return ValueText(v.Value)
}

// otherSide is shownRight with, for a right-hand path, the value it found:
// "the min age of the config (30)".
func otherSide(c *ConditionTrace) string {
	if c.rightPath && c.rightFound != nil {
		return shownRight(c) + " (" + ValueText(c.rightFound) + ")"
	}
	return shownRight(c)
}

// pathText turns a displayed right-hand path `$.root.a.b` into words.
func pathText(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "$."), ".")
	var b strings.Builder
	for i := len(parts) - 1; i > 0; i-- {
		b.WriteString("the ")
		b.WriteString(parts[i])
		b.WriteString(" of ")
	}
	b.WriteString("the ")
	b.WriteString(parts[0])
	return b.String()
}

// namesWords says a path, root first, as "the age of the Person".
func namesWords(names []string) string {
	var b strings.Builder
	for i := len(names) - 1; i >= 0; i-- {
		b.WriteString("the ")
		b.WriteString(names[i])
		if i > 0 {
			b.WriteString(" of ")
		}
	}
	return b.String()
}

func referenceClause(c *ConditionTrace) string {
	verdict := "does not hold"
	if c.Result {
		verdict = "holds"
	}
	switch {
	case c.PropertyCheck != nil:
		return fmt.Sprintf("the %s %s: the data property %s is %s", c.Selector.Value, c.RuleName,
			c.PropertyCheck.PropertyName, ValueText(c.PropertyCheck.found))
	case c.Selector.Value == "":
		return "§" + c.RuleName + " " + verdict
	}
	// Concatenated rather than formatted: every reference of every run is
	// explained this way.
	return "the " + c.Selector.Value + " " + c.RuleName + ": " + verdictWord(c.Result)
}

func verdictWord(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// notCompared is the warning that says why c's values could not be
// compared, subject naming its left side.
func notCompared(c *ConditionTrace, subject string) (code, msg string) {
	value := ValueText(c.Property.Value)
	other := otherSide(c)
	_, isText := c.Property.Value.(string)
	_, isList := c.Property.Value.([]any)
	switch c.Operator {
	case "GreaterThanOrEqual", "LessThanOrEqual", "GreaterThan", "LessThan":
		if isText && rightIsNumber(c) {
			return textComparedWithNumber(subject, value, other)
		}
	case "EqualTo", "ExactlyEqualTo", "NotEqualTo":
		if text, _ := c.Property.Value.(string); isNumberText(text) && rightIsNumber(c) {
			return textComparedWithNumber(subject, value, other)
		}
	case "LaterThan", "EarlierThan", "Within", "OlderThan", "YoungerThan":
		text, _ := c.Property.Value.(string)
		if _, date := timestampDay(text); isText && !date {
			return WarnDateNotParsed, fmt.Sprintf("%s is %s, which is not %s, so the condition is false.", subject, value, aDate)
		} else if isText {
			// The data holds a date, so the other side is what is wrong.
			needs := aDate
			if c.Operator != "LaterThan" && c.Operator != "EarlierThan" {
				needs = "a duration (a number and a unit, such as 30 days)"
			}
			if c.rightFound != nil {
				return WarnDateNotParsed, fmt.Sprintf("%s is compared with %s, which is %s, not %s, so the condition is false.",
					subject, shownRight(c), ValueText(c.rightFound), needs)
			}
			return WarnDateNotParsed, fmt.Sprintf("The rule compares %s with %s, which is not %s, so the condition is false.",
				subject, other, needs)
		}
	case "IsEmpty", "IsNotEmpty":
		return WarnValuesNotCompared, neitherEmpty(subject, value) + "."
	}
	if isList {
		return WarnListComparedWithValue, fmt.Sprintf(
			"%s is a list, %s, compared with the single value %s, so the condition is false. Use `contains` to look for a value in a list.",
			subject, value, other)
	}
	return WarnValuesNotCompared, fmt.Sprintf("%s is %s, which cannot be compared with %s, so the condition is false.",
		subject, value, other)
}

const aDate = "a date (YYYY-MM-DD or an ISO 8601 timestamp)"

// textComparedWithNumber is the warning that a text was not compared with
// a number.
func textComparedWithNumber(subject, value, other string) (code, msg string) {
	return WarnTextComparedWithNumber, fmt.Sprintf(
		"%s is the text %s, not a number, so it was not compared with %s and the condition is false. Send numbers without quotes.",
		subject, value, other)
}

// textAmongNumbers is the warning, or "", for a number sent as text looked
// for in a list of numbers: it equals none of them, which is seldom what
// was meant.
func textAmongNumbers(c *ConditionTrace, subject string) string {
	text, _ := c.Property.Value.(string)
	list := c.Value.Value
	if c.rightFound != nil {
		list = c.rightFound
	}
	if !isNumberText(text) || !holdsNumber(list) {
		return ""
	}
	return fmt.Sprintf(
		"%s is the text %s, not a number, so it equals none of the numbers in %s and the condition is %v. Send numbers without quotes.",
		subject, ValueText(text), otherSide(c), c.Result)
}

// rightIsNumber tells whether a condition's other side is a number, written
// or found by a right-hand path.
func rightIsNumber(c *ConditionTrace) bool {
	if c.rightFound != nil {
		_, ok := c.rightFound.(float64)
		return ok
	}
	return c.Value.Type == typeNumber
}

func holdsNumber(list any) bool {
	switch l := list.(type) {
	case listShown:
		for _, it := range l {
			if it.Kind == LitNumber {
				return true
			}
		}
	case []any:
		for _, it := range l {
			if _, ok := it.(float64); ok {
				return true
			}
		}
	}
	return false
}

// isNumberText tells whether text is a number as JSON would write it
// without quotes (`65`, `-2.5`), spaces around it allowed.
func isNumberText(text string) bool {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(t, "-")
	digits, dot := 0, false
	for i := 0; i < len(t); i++ {
		switch {
		case isDigit(t[i]):
			digits++
		case t[i] == '.' && !dot && digits > 0:
			dot = true
		default:
			return false
		}
	}
	return digits > 0 && t[len(t)-1] != '.'
}

func (r *Result) warn(code, msg string) {
	if msg != "" && msg[0] >= 'a' && msg[0] <= 'z' {
		msg = string(msg[0]-'a'+'A') + msg[1:]
	}
	r.Warnings = append(r.Warnings, Warning{Code: code, Message: msg})
}
