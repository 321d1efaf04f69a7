package engine

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Program is a compiled rule text. It is immutable and safe for concurrent
// use; evaluate it as often as needed.
type Program struct {
	rules    []crule
	golden   int
	labelled []int // rules with a label, in text order
	inline   []string
	memo     bool // rule results must be remembered: several rules, or references
	// conditions counts the conditions of all rules, for AnswerWeight.
	conditions int
	// shownText is about the bytes of rule text a run's answer shows
	// beyond the text it echoes, for AnswerWeight: see ruleShownText.
	shownText int
	// listItems counts the items of the written lists, for MemoryWeight.
	listItems int
	now       func() time.Time
	limits    Limits
	about     *explainInfo
	// plan reads a batch item's values by their paths; nil when the
	// program was compiled to run once or reads the data otherwise.
	plan *dataPlan
}

type crule struct {
	label    string
	selector string
	verb     string
	outcome  string
	conds    []ccond
	or       []bool
}

type condKind uint8

const (
	condComparison condKind = iota
	condCount
	condRuleRef   // a reference resolved to a rule
	condLabelMiss // an unresolved label reference: false
	condInference // an unresolved phrase reference: decided by a data property
)

type ccond struct {
	kind condKind
	op   Operator

	left   cpath  // the path compared or counted; an inferred reference's selector
	right  *cpath // right-hand path, or nil
	lit    clit   // right-hand literal, when right is nil
	length bool   // count: `length of`

	refSelector string // as written; "" for label references
	ruleName    string
	target      int
	candidates  []candidate
}

// step is one name to look up, with its canonical form worked out once.
type step struct {
	name  string
	canon string
}

type cpath struct {
	root      string     // the root element's name as written
	steps     []step     // in navigation order: root first
	rootSteps int        // how many steps the root element contributes
	exact     string     // "$." + names as written: the path when every key matched exactly
	display   TypedValue // "$.<root>.<names>": how a right-hand path is shown
	slot      int        // where a picked item holds its value (see dataPlan)

	lastKeyed atomic.Pointer[string] // the last path of actual keys, see keyedPath
}

type clit struct {
	v     value
	trace TypedValue
}

type candidate struct {
	name  string
	canon string
}

// Compile parses and compiles a rule text into a program meant to be
// evaluated many times.
func (e *Engine) Compile(src string) (*Program, error) {
	return e.compileText(src, true)
}

func (e *Engine) compileText(src string, reused bool) (*Program, error) {
	text, errs := Parse(src, e.Limits)
	if errs != nil {
		return nil, errs
	}
	return e.compile(src, text, reused), nil
}

// compile builds a program. One that will be reused gets lookup tables whose
// construction would cost a single evaluation more than it saves.
func (e *Engine) compile(src string, text *RuleText, reused bool) *Program {
	p := &Program{now: e.Now, limits: e.Limits.withDefaults()}
	if p.now == nil {
		p.now = time.Now
	}
	p.rules = make([]crule, len(text.Rules))
	p.inline = make([]string, len(text.Rules))
	for i, r := range text.Rules {
		p.rules[i] = crule{label: r.Label, selector: r.Selector.Text, verb: r.Verb, outcome: r.Outcome, or: r.Or}
		p.inline[i] = strings.TrimSpace(src[r.Pos:r.End])
	}
	res := &resolver{rules: text.Rules}
	referenced := make([]bool, len(text.Rules))
	for i, r := range text.Rules {
		cr := &p.rules[i]
		if r.Label != "" {
			p.labelled = append(p.labelled, i)
		}
		cr.conds = make([]ccond, len(r.Conditions))
		p.conditions += len(r.Conditions)
		p.shownText += ruleShownText(r)
		for j, c := range r.Conditions {
			cc := &cr.conds[j]
			compileCondition(cc, c, r, i, res, reused)
			if cc.kind == condRuleRef {
				p.shownText += QuotedLength(text.Rules[cc.target].Outcome)
			}
			if cc.lit.v.set != nil {
				p.listItems += len(cc.lit.v.set.items)
			}
			if cc.kind == condRuleRef {
				referenced[cc.target] = true
				p.memo = true
			}
		}
	}
	p.memo = p.memo || len(p.rules) > 1
	p.golden = len(p.rules) - 1
	for i := len(p.rules) - 1; i >= 0; i-- {
		if !referenced[i] {
			p.golden = i
			break
		}
	}
	p.about = newExplainInfo(p)
	if reused {
		p.plan = newDataPlan(p)
	}
	return p
}

// ruleShownText is about the bytes of r's text that the answer of a run
// shows again beyond the echoed rule text: its label, selector and outcome
// in its trace entry and its explanation, and each condition's own text
// (its names, its phrase, its written literal) three times, in its trace
// entry, its evaluation details and its explanation clause. A reference's
// target outcome, which its trace entry shows too, is counted where the
// reference is compiled.
func ruleShownText(r *Rule) int {
	n := 2 * (len(r.Label) + len(r.Selector.Text) + QuotedLength(r.Outcome))
	for j, c := range r.Conditions {
		end := r.End
		if j+1 < len(r.Conditions) {
			end = r.Conditions[j+1].conditionPos()
		}
		n += 3 * int(end-c.conditionPos())
	}
	return n
}

// QuotedLength is the length of s written as a JSON string, as answers
// write it (appendString without HTML escapes), counted without writing
// it: for estimates of what an answer that shows s takes.
func QuotedLength(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		if i = plainEnd(s, i, false); i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			switch c {
			case '\\', '"', '\b', '\f', '\n', '\r', '\t':
				n++
			default:
				n += len(`\u0000`) - 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += len(`\ufffd`) - 1
		case r == '\u2028' || r == '\u2029':
			n += len(`\u2028`) - size
		}
		i += size
	}
	return n
}

func compileCondition(cc *ccond, c Condition, r *Rule, self int, res *resolver, reused bool) {
	switch c := c.(type) {
	case *Comparison:
		cc.kind, cc.op = condComparison, c.Op
		cc.left.compile(c.Left, r.Selector.Text, false)
		switch {
		case c.Right != nil:
			cc.right = new(cpath)
			cc.right.compile(*c.Right, r.Selector.Text, true)
		case !c.Op.isEmpty():
			cc.lit = compileLiteral(c.Value, reused)
		}
	case *Count:
		cc.kind, cc.op, cc.length = condCount, c.Op, c.Length
		cc.left.compile(c.Path, r.Selector.Text, false)
		cc.lit = compileLiteral(c.Value, reused)
	case *LabelRef:
		cc.ruleName = c.Label
		if t := res.label(c.Label, self); t >= 0 {
			cc.kind, cc.target = condRuleRef, t
		} else {
			cc.kind = condLabelMiss
		}
	case *PhraseRef:
		cc.refSelector, cc.ruleName = c.Selector.Text, c.Phrase
		if t := res.phrase(c.Phrase, self); t >= 0 {
			cc.kind, cc.target = condRuleRef, t
		} else {
			cc.kind = condInference
			cc.left.compile(Path{Elements: []Element{{Name: c.Selector, IsSelector: true}}}, r.Selector.Text, false)
			cc.candidates = inferenceCandidates(c.Phrase)
		}
	}
}

// compile turns a written chain into lookup steps. A lone property is
// looked up in the rule's header selector. Only right-hand paths are ever
// displayed, so only they get their display form.
func (cp *cpath) compile(p Path, header string, rightHand bool) {
	els := p.Elements
	if len(els) == 1 && !els[0].IsSelector {
		els = []Element{els[0], {Name: Name{Text: header}, IsSelector: true}}
	}
	n, size := 0, 1
	for _, el := range els {
		n += strings.Count(el.Text, ".") + 1
		size += len(el.Text) + 1
	}
	cp.steps = make([]step, 0, n)
	var exact strings.Builder
	exact.Grow(size)
	exact.WriteByte('$')
	for i := len(els) - 1; i >= 0; i-- {
		for text, more := els[i].Text, true; more; {
			var seg string
			seg, text, more = strings.Cut(text, ".")
			cp.steps = append(cp.steps, step{seg, canon(seg)})
			exact.WriteByte('.')
			exact.WriteString(seg)
		}
		if i == len(els)-1 {
			cp.rootSteps = len(cp.steps)
		}
	}
	cp.exact = exact.String()
	cp.root = els[len(els)-1].Text
	if rightHand {
		var b strings.Builder
		b.WriteString("$.")
		b.WriteString(cp.root)
		b.WriteByte('.')
		for i := len(els) - 2; i >= 0; i-- {
			b.WriteString(els[i].Text)
			if i > 0 {
				b.WriteByte('.')
			}
		}
		cp.display = TypedValue{Type: typeString, Value: b.String()}
	}
}

func compileLiteral(l Literal, reused bool) clit {
	var c clit
	c.v = literalOperand(&l)
	switch l.Kind {
	case LitNumber:
		c.trace = TypedValue{typeNumber, l.Number}
	case LitBoolean:
		c.trace = TypedValue{typeBoolean, l.Bool}
	case LitDate:
		c.trace = TypedValue{typeDate, l.Text}
	case LitDuration:
		c.trace = TypedValue{typeDuration, durationText(l.Number, l.Text)}
	case LitList:
		c.v.set = newMembership(l.Items, reused)
		c.trace = TypedValue{typeList, listShown(l.Items)}
	default:
		c.trace = TypedValue{typeString, l.Text}
	}
	return c
}

// literalOperand types a literal for comparison; a list's membership is
// attached by compileLiteral.
func literalOperand(l *Literal) value {
	switch l.Kind {
	case LitNumber:
		return value{kind: vNumber, num: l.Number}
	case LitBoolean:
		return boolValue(l.Bool)
	case LitDate:
		return value{kind: vDate, str: l.Text, num: float64(l.day())}
	case LitDuration:
		return value{kind: vDuration, num: l.Number * unitByName(l.Text).days}
	case LitList:
		return value{kind: vList}
	}
	return value{kind: vString, str: l.Text}
}

// listShown renders a written list in traces: each item as its literal
// is shown (dates and durations as text).
type listShown []Literal

func (l listShown) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, it := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendLiteralJSON(b, it); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

func appendLiteralJSON(b []byte, l Literal) ([]byte, error) {
	switch l.Kind {
	case LitNumber:
		return appendJSON(b, l.Number)
	case LitBoolean:
		return strconv.AppendBool(b, l.Bool), nil
	case LitDuration:
		return appendJSON(b, durationText(l.Number, l.Text))
	}
	return appendJSON(b, l.Text)
}

func appendJSON(b []byte, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	return append(b, enc...), err
}

// canon is the key-matching form of a name: spaces and underscores removed,
// ASCII letters lower-cased (docs/rules.md, "How names match JSON keys").
func canon(s string) string {
	if isCanonical(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	writeCanon(&b, s)
	return b.String()
}

// writeCanon writes canon(s) to b.
func writeCanon(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '_':
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
}

func isCanonical(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '_' || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

// CanonicalName is the form in which a rule's name is compared with the
// keys of the data when no key is spelled exactly as the name: without
// spaces and underscores, lower-cased (docs/rules.md, "How names match
// JSON keys").
func CanonicalName(name string) string { return canon(name) }

// KeyAnswersTo reports whether a rule that names a name of canonical form
// c (CanonicalName) may read key: a rule reads the key spelled as its
// name, else the first key in byte order of the same canonical form.
func KeyAnswersTo(key, c string) bool { return canonEqual(key, c) }

// canonEqual compares canon(key) with an already canonical name without
// allocating.
func canonEqual(key, want string) bool {
	j := 0
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c == ' ' || c == '_' {
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if j >= len(want) || want[j] != c {
			return false
		}
		j++
	}
	return j == len(want)
}

// qualificationPhrases are removed from an unresolved reference phrase to
// guess the data property that stands for it (docs/rules.md, "A phrase
// that matches no rule").
var qualificationPhrases = []string{
	"passes the", "passes", "qualifies for the", "qualifies for", "qualifies",
	"meets the", "meets", "satisfies the", "satisfies", "is eligible for the",
	"is eligible for", "is eligible", "has passed the", "has passed",
	"has qualified for the", "has qualified for", "has qualified",
	"is approved for the", "is approved for", "is approved",
}

var inferenceSuffixes = []string{"", "Passed", "Qualified", "Eligible", "Approved", "Status"}

func inferenceCandidates(phrase string) []candidate {
	rest := phrase
	for _, q := range qualificationPhrases {
		rest = strings.ReplaceAll(rest, q, "")
	}
	words := strings.FieldsFunc(strings.TrimSpace(rest), func(r rune) bool { return r == '_' || unicode.IsSpace(r) })
	if len(words) == 0 {
		return nil
	}
	var out []candidate
	add := func(base string) {
		for _, s := range inferenceSuffixes {
			out = append(out, candidate{base + s, canon(base + s)})
		}
	}
	add(camelCase(words))
	add(camelCase(words[len(words)-1:]))
	return out
}

func camelCase(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(words[0]))
	for _, w := range words[1:] {
		r, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(strings.ToLower(w[size:]))
	}
	return b.String()
}
