package engine

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Program is a compiled rule text. It is immutable and safe for concurrent
// use; evaluate it as often as needed.
type Program struct {
	rules    []*crule
	golden   int
	labelled []int // rules with a label, in text order
	inline   []string
	now      func() time.Time
	limits   Limits
}

type crule struct {
	label    string
	selector string
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

	left   cpath
	right  *cpath // right-hand path, or nil
	lit    *clit  // right-hand literal, or nil
	length bool   // count: `length of`

	refSelector string // as written; "" for label references
	ruleName    string
	target      int
	candidates  []candidate
	refStep     step
}

// step is one name to look up, with its canonical form worked out once.
type step struct {
	name  string
	canon string
}

type cpath struct {
	root      string // the root element's name as written
	steps     []step // in navigation order: root first
	rootSteps int    // how many steps the root element contributes
	exact     string // "$." + names as written: the path when every key matched exactly
	display   string // "$.<root>.<names>": how a right-hand path is shown
}

type clit struct {
	v     value
	trace TypedValue
}

type candidate struct {
	name  string
	canon string
}

// Compile parses and compiles a rule text.
func (e *Engine) Compile(src string) (*Program, error) {
	text, errs := Parse(src, e.Limits)
	if errs != nil {
		return nil, errs
	}
	return e.compile(src, text), nil
}

func (e *Engine) compile(src string, text *RuleText) *Program {
	p := &Program{now: e.Now, limits: e.Limits.withDefaults()}
	if p.now == nil {
		p.now = time.Now
	}
	for _, r := range text.Rules {
		p.rules = append(p.rules, &crule{label: r.Label, selector: r.Selector.Text, outcome: r.Outcome, or: r.Or})
		p.inline = append(p.inline, strings.TrimSpace(src[r.Pos:r.End]))
	}
	res := newResolver(text.Rules)
	referenced := make([]bool, len(text.Rules))
	for i, r := range text.Rules {
		cr := p.rules[i]
		if r.Label != "" {
			p.labelled = append(p.labelled, i)
		}
		cr.conds = make([]ccond, len(r.Conditions))
		for j, c := range r.Conditions {
			cc := &cr.conds[j]
			compileCondition(cc, c, r, i, res)
			if cc.kind == condRuleRef {
				referenced[cc.target] = true
			}
		}
	}
	p.golden = len(p.rules) - 1
	for i := len(p.rules) - 1; i >= 0; i-- {
		if !referenced[i] {
			p.golden = i
			break
		}
	}
	return p
}

func compileCondition(cc *ccond, c Condition, r *Rule, self int, res *resolver) {
	switch c := c.(type) {
	case *Comparison:
		cc.kind, cc.op = condComparison, c.Op
		cc.left = compilePath(c.Left, r.Selector.Text)
		switch right := c.Right.(type) {
		case *Path:
			rp := compilePath(*right, r.Selector.Text)
			cc.right = &rp
		case *Literal:
			cc.lit = compileLiteral(*right)
		}
	case *Count:
		cc.kind, cc.op, cc.length = condCount, c.Op, c.Length
		cc.left = compilePath(c.Path, r.Selector.Text)
		cc.lit = compileLiteral(c.Value)
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
			cc.refStep = step{c.Selector.Text, canon(c.Selector.Text)}
			cc.candidates = inferenceCandidates(c.Phrase)
		}
	}
}

// compilePath turns a written chain into lookup steps. A lone property is
// looked up in the rule's header selector.
func compilePath(p Path, header string) cpath {
	els := p.Elements
	if len(els) == 1 && !els[0].IsSelector {
		els = []Element{els[0], {Name: Name{Text: header}, IsSelector: true}}
	}
	root := els[len(els)-1]
	cp := cpath{root: root.Text}
	var names []string
	for i := len(els) - 1; i >= 0; i-- {
		for _, seg := range strings.Split(els[i].Text, ".") {
			cp.steps = append(cp.steps, step{seg, canon(seg)})
			names = append(names, seg)
		}
		if i == len(els)-1 {
			cp.rootSteps = len(cp.steps)
		}
	}
	cp.exact = "$." + strings.Join(names, ".")
	var rest []string
	for i := len(els) - 2; i >= 0; i-- {
		rest = append(rest, els[i].Text)
	}
	cp.display = "$." + root.Text + "." + strings.Join(rest, ".")
	return cp
}

func compileLiteral(l Literal) *clit {
	v, shown := literalValue(l)
	return &clit{v: v, trace: TypedValue{Type: vkindNames[v.kind], Value: shown}}
}

// literalValue types a literal and renders it as traces show it.
func literalValue(l Literal) (value, any) {
	switch l.Kind {
	case LitNumber:
		return value{kind: vNumber, num: l.Number}, l.Number
	case LitBoolean:
		return value{kind: vBool, b: l.Bool}, l.Bool
	case LitDate:
		return value{kind: vDate, str: l.Text, day: l.Day}, l.Text
	case LitDuration:
		days := l.Number * unitByName(l.Unit).days
		return value{kind: vDuration, num: days}, durationText(l.Number, l.Unit)
	case LitList:
		items := make([]value, len(l.Items))
		shown := make([]any, len(l.Items))
		for i, it := range l.Items {
			items[i], shown[i] = literalValue(it)
		}
		return value{kind: vList, items: items}, shown
	}
	return value{kind: vString, str: l.Text}, l.Text
}

// canon is the key-matching form of a name: spaces and underscores removed,
// ASCII letters lower-cased (§2.5).
func canon(s string) string {
	var b strings.Builder
	b.Grow(len(s))
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
	return b.String()
}

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
// guess the data property that stands for it (§5.4).
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
