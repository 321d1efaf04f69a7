package engine

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Rule states during one evaluation.
const (
	unvisited uint8 = iota
	running
	passed
	failed
	errored
)

// evaluator holds one evaluation's memo of rule results. A program without
// references needs no memo, so evaluating it allocates only the result.
type evaluator struct {
	prog *Program
	data map[string]any
	// picked, when set, holds the value of every path instead of data.
	picked   []pickedValue
	state    []uint8 // per rule; nil when the program has one rule
	stack    []int   // rules being evaluated, golden first
	today    int
	hasToday bool
	// shown counts the bytes of the data values the trace shows beyond a
	// condition's allowance (see show); sizes remembers those of lists and
	// objects, which a run may show in many conditions.
	shown int
	reads int // the same for every value a condition reads (see read)
	sizes map[valueKey]int
	// looseKeys holds the index lookup made of each large object it
	// searched for a name that is not an exact key.
	looseKeys map[unsafe.Pointer]looseIndex
	// counted remembers the length of each long text it was asked for.
	counted map[valueKey]int
	// noting is set from the golden rule's evaluation on: the conditions
	// of the rules it refers to and of the labelled rules the labels are
	// read from, which have no trace, are then noted in notes when they
	// call for a warning.
	noting bool
	notes  []nestedNote
}

// nestedNote is a condition of a referenced rule that calls for a warning,
// traced as a condition of the golden rule would be, and the rule it is in
// (its index, whose name explainInfo keeps).
type nestedNote struct {
	rule int
	cond ConditionTrace
}

// noteNested notes c, a condition of a referenced rule (ct is nil) whose
// operands did not go together or that a data property decided, so that
// its warning is not lost with the trace it does not have. It evaluates c
// again with a trace; what that shows counts toward the answer's bound,
// and a note that would pass it is left out rather than failing the run.
func (e *evaluator) noteNested(c *ccond, ct *ConditionTrace) {
	if ct != nil || !e.noting || len(e.stack) == 0 {
		return
	}
	reads, shown := e.reads, e.shown
	e.noting = false
	var traced ConditionTrace
	_, err := e.condition(c, &traced)
	e.noting = true
	e.reads = reads
	if err != nil || 3*e.shown > e.prog.limits.MaxShownAnswerBytes {
		e.shown = shown
		return
	}
	e.notes = append(e.notes, nestedNote{rule: e.stack[len(e.stack)-1], cond: traced})
}

// Evaluate runs the program against a JSON object. Its `rule` member has
// one entry per rule; stored runs replace it with Lines of their text.
func (p *Program) Evaluate(data map[string]any) *Result {
	res := new(Result)
	p.EvaluateInto(res, data)
	return res
}

// EvaluateInto is Evaluate writing into res, reusing the memory of the
// result it held before, so that a server can pool results. Whatever res
// held is overwritten; the previous result's trace must no longer be in use.
func (p *Program) EvaluateInto(res *Result, data map[string]any) {
	p.evaluateInto(res, evaluator{prog: p, data: data})
	res.Data = data
}

func (p *Program) evaluateInto(res *Result, e evaluator) {
	if p.memo {
		e.state = make([]uint8, len(p.rules))
		e.stack = make([]int, 0, min(len(p.rules), p.limits.MaxReferenceDepth)+1)
	}

	labels := res.Labels
	conds := res.exec[0].Conditions
	e.notes = res.notes[:0]
	*res = Result{Rule: p.inline, about: p.about}
	g := &p.rules[p.golden]
	entry := &res.exec[0]
	entry.Label, entry.Selector, entry.Outcome = g.label, Text{g.selector}, Text{g.outcome}
	entry.Conditions = conds[:0]
	res.Trace.Execution = res.exec[:]

	e.enter(p.golden)
	e.noting = true
	result, err := e.rule(g, entry)
	e.leave(p.golden, result, err)
	entry.Result = result && err == nil
	if err != nil {
		res.Labels = e.labelsAfterError()
	} else {
		res.Labels = e.labels(result, labels)
		// Labelled rules' errors only make their labels false, but one
		// past the bound on reads stops the run, as it would the golden
		// rule.
		err = e.overRead()
	}
	res.notes = e.notes
	res.shown, res.reads = e.shown, e.reads
	if err != nil {
		err.suggest(p)
		res.Error = err
		return
	}
	res.Result = result
}

// valueKey names a list, an object or a text of the data by where it is
// held, for the memos of one run.
type valueKey struct {
	at  unsafe.Pointer
	len int
}

// show counts a data value the trace shows. Numbers, booleans and short
// texts fit the bytes Program.AnswerWeight allows each condition; longer
// texts, lists and objects are counted at about their size in JSON, each
// time they are shown, since one value may be shown by every condition.
// Past Limits.MaxShownAnswerBytes the run stops.
func (e *evaluator) show(v any) *Error {
	e.shown += e.weight(v)
	if limit := e.prog.limits.MaxShownAnswerBytes; 3*e.shown > limit {
		return newError(KindEvaluation, "the data values this run shows would answer more than %d bytes; read large values in fewer conditions", limit)
	}
	return nil
}

// read counts a data value a condition reads, whether the trace shows it
// or not: comparing a list or a long text reads all of it, and one large
// value may be read by every condition of every rule. Past
// Limits.MaxReadBytes the run stops.
func (e *evaluator) read(v any) *Error {
	e.reads += e.weight(v)
	return e.overRead()
}

// overRead is the error of a run whose reads passed Limits.MaxReadBytes.
func (e *evaluator) overRead() *Error {
	if limit := e.prog.limits.MaxReadBytes; e.reads > limit {
		return newError(KindEvaluation, "the conditions of this run read more than %d bytes of data values; read large values in fewer conditions", limit)
	}
	return nil
}

// weight is what show and read count of a value: nothing for a number, a
// boolean or a short text, which a condition's allowance covers; about
// its size in JSON for a longer text, a list or an object.
func (e *evaluator) weight(v any) int {
	switch v := v.(type) {
	case string:
		if len(v) > shortText {
			return len(v) + 2
		}
	case []any, map[string]any:
		return e.size(v)
	}
	return 0
}

// shortText is the longest text weight leaves to a condition's allowance.
const shortText = 128

// size is about the bytes of v in JSON, worked out once per list and
// object.
func (e *evaluator) size(v any) int {
	var key valueKey
	switch v := v.(type) {
	case string:
		return len(v) + 2
	case []any:
		if len(v) == 0 {
			return 2
		}
		key = valueKey{unsafe.Pointer(unsafe.SliceData(v)), len(v)}
	case map[string]any:
		if len(v) == 0 {
			return 2
		}
		key = valueKey{reflect.ValueOf(v).UnsafePointer(), len(v)}
	default:
		return 8 // a number, a boolean or null, about
	}
	if n, ok := e.sizes[key]; ok {
		return n
	}
	n := 1
	switch v := v.(type) {
	case []any:
		for _, it := range v {
			n += 1 + e.size(it)
		}
	case map[string]any:
		for k, it := range v {
			n += len(k) + 4 + e.size(it)
		}
	}
	if e.sizes == nil {
		e.sizes = map[valueKey]int{}
	}
	e.sizes[key] = n
	return n
}

// labels evaluates every labelled rule the golden rule did not need; their
// errors only make their label false: they never change the result.
func (e *evaluator) labels(golden bool, reuse map[string]bool) map[string]bool {
	if len(e.prog.labelled) == 0 {
		return nil
	}
	out := reuse
	if out == nil {
		out = make(map[string]bool, len(e.prog.labelled))
	} else {
		clear(out)
	}
	for _, i := range e.prog.labelled {
		if i == e.prog.golden {
			out[e.prog.rules[i].label] = golden
			continue
		}
		ok, err := e.ruleResult(i)
		out[e.prog.rules[i].label] = ok && err == nil
		if e.overRead() != nil {
			break
		}
	}
	return out
}

// labelsAfterError reports the labelled rules that completed before the
// error, and the golden rule's label as false.
func (e *evaluator) labelsAfterError() map[string]bool {
	var out map[string]bool
	for _, i := range e.prog.labelled {
		var v bool
		switch {
		case i == e.prog.golden:
		case e.state == nil:
			continue
		case e.state[i] == passed:
			v = true
		case e.state[i] == failed:
		default:
			continue
		}
		if out == nil {
			out = make(map[string]bool)
		}
		out[e.prog.rules[i].label] = v
	}
	return out
}

// ruleResult evaluates a referenced rule once and remembers the result.
func (e *evaluator) ruleResult(i int) (bool, *Error) {
	switch e.state[i] {
	case passed:
		return true, nil
	case failed:
		return false, nil
	case errored:
		return false, errAlreadyReported
	case running:
		return false, e.cycle(i)
	}
	if len(e.stack) > e.prog.limits.MaxReferenceDepth {
		return false, newError(KindEvaluation, "references nest deeper than %d rules", e.prog.limits.MaxReferenceDepth)
	}
	e.enter(i)
	ok, err := e.rule(&e.prog.rules[i], nil)
	e.leave(i, ok, err)
	return ok, err
}

func (e *evaluator) enter(i int) {
	if e.state != nil {
		e.state[i] = running
		e.stack = append(e.stack, i)
	}
}

func (e *evaluator) leave(i int, ok bool, err *Error) {
	if e.state == nil {
		return
	}
	e.stack = e.stack[:len(e.stack)-1]
	switch {
	case err != nil:
		e.state[i] = errored
	case ok:
		e.state[i] = passed
	default:
		e.state[i] = failed
	}
}

// errAlreadyReported stands for an error a rule raised earlier in the same
// evaluation; it only arises while filling labels, where errors are dropped.
var errAlreadyReported = &Error{Kind: KindEvaluation, Message: "Evaluation error: rule failed earlier"}

func (e *evaluator) cycle(i int) *Error {
	var b strings.Builder
	b.WriteString("Evaluation error: Infinite loop detected in rule evaluation: ")
	for _, j := range e.stack {
		b.WriteString(e.prog.rules[j].outcome)
		b.WriteString(" -> ")
	}
	b.WriteString(e.prog.rules[i].outcome)
	return &Error{Kind: KindEvaluation, Message: b.String()}
}

// rule evaluates every condition in order (no short-circuit) and combines
// them: `and` binds tighter than `or`. With a trace entry it records each
// condition; referenced rules run without one.
func (e *evaluator) rule(r *crule, entry *RuleTrace) (bool, *Error) {
	var conds []ConditionTrace
	if entry != nil {
		conds = entry.Conditions[:0]
		if cap(conds) < len(r.conds) {
			conds = make([]ConditionTrace, 0, len(r.conds))
		}
	}
	any, group := false, true
	for i := range r.conds {
		var ct *ConditionTrace
		if entry != nil {
			conds = append(conds, ConditionTrace{})
			ct = &conds[i]
		}
		ok, err := e.condition(&r.conds[i], ct)
		if err != nil {
			if entry != nil {
				entry.Conditions = conds
			}
			return false, err
		}
		group = group && ok
		if i == len(r.or) || r.or[i] {
			any = any || group
			group = true
		}
	}
	if entry != nil {
		entry.Conditions = conds
	}
	return any, nil
}

func (e *evaluator) condition(c *ccond, ct *ConditionTrace) (bool, *Error) {
	switch c.kind {
	case condComparison:
		return e.comparison(c, ct)
	case condCount:
		return e.count(c, ct)
	}
	if ct != nil {
		ct.Reference = true
		ct.Selector, ct.RuleName = Text{c.refSelector}, c.ruleName
	}
	switch c.kind {
	case condRuleRef:
		if ct != nil {
			ct.ReferencedRuleOutcome = e.prog.rules[c.target].outcome
		}
		ok, err := e.ruleResult(c.target)
		if ct != nil {
			ct.Result = ok && err == nil
		}
		return ok, err
	case condInference:
		return e.infer(c, ct)
	}
	return false, nil // an unresolved label reference is simply false
}

// infer decides an unresolved phrase reference from a data property named
// after the phrase, and fails closed when there is none: a mistyped
// reference must not grant anything.
func (e *evaluator) infer(c *ccond, ct *ConditionTrace) (bool, *Error) {
	root, _, err := e.resolve(&c.left)
	if err != nil {
		return false, err
	}
	if obj, ok := root.(map[string]any); ok {
		for _, cand := range c.candidates {
			if _, v, ok := e.lookup(obj, step(cand)); ok {
				if err := e.read(v); err != nil {
					return false, err
				}
				ok := truthy(v)
				e.noteNested(c, ct)
				if ct != nil {
					ct.PropertyCheck = &PropertyCheck{PropertyName: cand.name, PropertyValue: wrapKind(v), found: v}
					if err := e.show(v); err != nil {
						return false, err
					}
					ct.Result = ok
				}
				return ok, nil
			}
		}
	}
	self := e.prog.golden
	if len(e.stack) > 0 {
		self = e.stack[len(e.stack)-1]
	}
	return false, missingOutcome(newError(KindUnresolvedReference, "no rule or data property matches %q", c.ruleName), c.ruleName, self)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch strings.ToLower(x) {
		case "pass", "true", "yes", "passed", "valid":
			return true
		}
	case float64:
		return x != 0
	}
	return false
}

func wrapKind(v any) any {
	switch x := v.(type) {
	case bool:
		return map[string]any{"Boolean": x}
	case string:
		return map[string]any{"String": x}
	case float64:
		return map[string]any{"Number": x}
	}
	return v
}

// searchKey finds a name that is not an exact key among an object's keys:
// the first key in byte order with the same canonical form.
func searchKey(obj map[string]any, s step) (string, any, bool) {
	best, found := "", false
	for k := range obj {
		if canonEqual(k, s.canon) && (!found || k < best) {
			best, found = k, true
		}
	}
	if !found {
		return "", nil, false
	}
	return best, obj[best], true
}

// longText is the length beyond which runes remembers a text's count.
const longText = 1024

// runes counts the characters of a text, once a run for a long one: a rule
// may take the length of one long text in each of thousands of conditions,
// and each count reads the whole text.
func (e *evaluator) runes(s string) int {
	if len(s) <= longText {
		return utf8.RuneCountInString(s)
	}
	at := valueKey{unsafe.Pointer(unsafe.StringData(s)), len(s)}
	if n, ok := e.counted[at]; ok {
		return n
	}
	n := utf8.RuneCountInString(s)
	if e.counted == nil {
		e.counted = map[valueKey]int{}
	}
	e.counted[at] = n
	return n
}

// searchedKeys is the size of an object beyond which lookup indexes its
// keys: a smaller one is searched faster than indexed.
const searchedKeys = 32

// looseIndex maps the canonical form of each of an object's keys that is
// not canonical itself to the first such key in byte order. A canonical key
// is left out, as it is its own canonical form: lookup finds it as an exact
// key, so an object whose keys are all canonical needs no index.
type looseIndex map[string]string

func indexLoose(obj map[string]any) looseIndex {
	// Counting first sizes the map once and lets the canonical forms share
	// one allocation: growing the map as it fills and allocating each form
	// cost more than reading the keys twice.
	n, size := 0, 0
	for k := range obj {
		if !isCanonical(k) {
			n++
			size += len(k)
		}
	}
	if n == 0 {
		return nil
	}
	index := make(looseIndex, n)
	var forms strings.Builder
	forms.Grow(size)
	for k := range obj {
		if isCanonical(k) {
			continue
		}
		start := forms.Len()
		writeCanon(&forms, k)
		c := forms.String()[start:]
		if first, ok := index[c]; !ok || k < first {
			index[c] = k
		}
	}
	return index
}

// lookup finds a name among an object's keys: the exact key, else the
// first key in byte order with the same canonical form (searchKey). A
// large object's keys are indexed the first time it is searched, once for
// the run: a rule may read thousands of names that are not exact keys, and
// searching every key for each would cost their product.
func (e *evaluator) lookup(obj map[string]any, s step) (string, any, bool) {
	if v, ok := obj[s.name]; ok {
		return s.name, v, true
	}
	if len(obj) <= searchedKeys {
		return searchKey(obj, s)
	}
	at := reflect.ValueOf(obj).UnsafePointer()
	index, ok := e.looseKeys[at]
	if !ok {
		index = indexLoose(obj)
		if e.looseKeys == nil {
			e.looseKeys = map[unsafe.Pointer]looseIndex{}
		}
		e.looseKeys[at] = index
	}
	key, ok := index[s.canon]
	// The key spelled as the canonical form itself is not indexed.
	if v, canonical := obj[s.canon]; canonical && (!ok || s.canon < key) {
		return s.canon, v, true
	}
	if !ok {
		return "", nil, false
	}
	return key, obj[key], true
}

// resolve follows a path through the data. It returns the value and the
// path of actual keys; on failure, the error and the intended path (keys
// found so far, then the remaining names as written).
func (e *evaluator) resolve(p *cpath) (any, string, *Error) {
	if e.picked != nil {
		v := &e.picked[p.slot]
		return v.value, v.path, nil
	}
	var cur any = e.data
	exact := true
	var keyBuf [8]string
	keys := keyBuf[:0]
	for i, s := range p.steps {
		obj, isObj := cur.(map[string]any)
		var key string
		var v any
		found := false
		if isObj {
			key, v, found = e.lookup(obj, s)
		}
		if !found {
			parent := joinPath(keys)
			var err *Error
			switch {
			case i == 0:
				err = newError(KindMissingSelector, "selector '%s' not found in data", s.name)
			case i < p.rootSteps:
				err = newError(KindMissingSelector, "selector '%s' not found at %s", s.name, parent)
			default:
				err = newError(KindMissingProperty, "property '%s' not found at %s", s.name, parent)
			}
			if isObj {
				err = missingIn(err, obj, s)
			}
			for _, rest := range p.steps[i:] {
				keys = append(keys, rest.name)
			}
			return nil, joinPath(keys), err
		}
		if key != s.name {
			exact = false
		}
		keys = append(keys, key)
		cur = v
	}
	if exact {
		return cur, p.exact, nil
	}
	return cur, p.keyedPath(keys), nil
}

// keyedPath renders the path of the actual keys. Data of one policy tends to
// have one shape, so the last rendering is kept and reused when the keys
// match it, which saves an allocation per condition.
func (p *cpath) keyedPath(keys []string) string {
	if last := p.lastKeyed.Load(); last != nil && pathHasKeys(*last, keys) {
		return *last
	}
	s := joinPath(keys)
	p.lastKeyed.Store(&s)
	return s
}

func pathHasKeys(path string, keys []string) bool {
	if !strings.HasPrefix(path, "$") {
		return false
	}
	path = path[1:]
	for _, k := range keys {
		if len(path) < len(k)+1 || path[0] != '.' || path[1:1+len(k)] != k {
			return false
		}
		path = path[1+len(k):]
	}
	return path == ""
}

func joinPath(keys []string) string {
	n := 1
	for _, k := range keys {
		n += 1 + len(k)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('$')
	for _, k := range keys {
		b.WriteByte('.')
		b.WriteString(k)
	}
	return b.String()
}

// typeError quotes the value whole, as countOf does: a stored decision
// hides a masked value where it appears whole, and a value cut short
// would leave its start.
func typeError(v value, raw any) *Error {
	switch v.kind {
	case vNull:
		return newError(KindType, "Unsupported JSON value type: null")
	case vObject:
		return newError(KindType, "Unsupported JSON value type: %s", ValueText(raw))
	case vInvalidList:
		for _, it := range v.arr {
			switch it.(type) {
			case float64, string, bool:
			default:
				return newError(KindType, "Unsupported array item type: %s", ValueText(it))
			}
		}
	}
	return nil
}

func (e *evaluator) comparison(c *ccond, ct *ConditionTrace) (bool, *Error) {
	raw, path, err := e.resolve(&c.left)
	if ct != nil {
		ct.Selector = Text{c.left.root}
		ct.Property = PropertyTrace{Path: path}
		ct.Operator = c.op.String()
		if c.right != nil {
			ct.Value, ct.rightPath = c.right.display, true
		} else if c.op.isEmpty() {
			ct.Value = emptyString
		} else {
			ct.Value = c.lit.trace
		}
	}
	if err != nil {
		return false, err
	}
	if err := e.read(raw); err != nil {
		return false, err
	}
	left := fromJSON(raw)

	if c.op.isEmpty() {
		empty, ok := emptiness(left)
		if ct != nil {
			ct.Property.Value = raw
			if err := e.show(raw); err != nil {
				return false, err
			}
		}
		if !ok {
			e.noteNested(c, ct)
			return false, nil
		}
		res := empty == (c.op == OpIsEmpty)
		if ct != nil {
			ct.Compared = true
			ct.Details = EvaluationDetails{
				LeftValue:        TypedValue{Type: vkindNames[left.kind], Value: raw},
				RightValue:       emptyString,
				ComparisonResult: res,
			}
			ct.Result = res
		}
		return res, nil
	}

	var right value
	var rightShown TypedValue
	var rightRaw any
	if c.right != nil {
		rightRaw, _, err = e.resolve(c.right)
		if err == nil {
			err = e.read(rightRaw)
		}
		if err != nil {
			return false, rightFailed(ct, err)
		}
		right = fromJSON(rightRaw)
	} else {
		right, rightShown = c.lit.v, c.lit.trace
	}
	if err := typeError(left, raw); err != nil {
		return false, err
	}
	if c.right != nil {
		if err := typeError(right, rightRaw); err != nil {
			return false, rightFailed(ct, err)
		}
		rightShown = TypedValue{Type: vkindNames[right.kind], Value: rightRaw}
	}
	if ct != nil {
		ct.Property.Value = raw
		if err := e.show(raw); err != nil {
			return false, err
		}
		if c.right != nil {
			if err := e.show(rightRaw); err != nil {
				return false, err
			}
			ct.rightFound = rightRaw
		}
	}
	res, ok := e.compare(c.op, left, right)
	// Only an untraced condition is noted: the golden rule's text is not
	// scanned for a number on every run.
	if ct == nil && (!ok || (c.op == OpIn || c.op == OpNotIn) && left.kind == vString && isNumberText(left.str)) {
		e.noteNested(c, ct)
	}
	if !ok {
		return false, nil
	}
	if ct != nil {
		ct.Compared = true
		ct.Details = EvaluationDetails{
			LeftValue:        TypedValue{Type: vkindNames[left.kind], Value: raw},
			RightValue:       rightShown,
			ComparisonResult: res,
		}
		ct.Result = res
	}
	return res, nil
}

// rightFailed notes in the trace, when there is one, that err arose on the
// right-hand path, and returns it.
func rightFailed(ct *ConditionTrace, err *Error) *Error {
	if ct != nil {
		ct.rightFailed = true
	}
	return err
}

// emptyString is how traces show the missing operand of the emptiness
// operators.
var emptyString = TypedValue{Type: typeString, Value: ""}

func emptiness(v value) (empty, ok bool) {
	switch v.kind {
	case vString:
		return v.str == "", true
	case vList, vInvalidList:
		return len(v.arr) == 0, true
	case vNull:
		return true, true
	case vObject:
		return v.num == 0, true
	}
	return false, false
}

func (e *evaluator) count(c *ccond, ct *ConditionTrace) (bool, *Error) {
	raw, path, err := e.resolve(&c.left)
	suffix := ".number"
	if c.length {
		suffix = ".length"
	}
	if ct != nil {
		ct.Selector = Text{c.left.root}
		ct.Property = PropertyTrace{Path: path + suffix}
		ct.Operator = c.op.String()
		ct.Value = c.lit.trace
	}
	if err == nil {
		var n int
		n, err = e.countOf(raw, c.length)
		if err == nil {
			count := float64(n)
			res, ok := e.compare(c.op, value{kind: vNumber, num: count}, c.lit.v)
			if !ok {
				e.noteNested(c, ct)
			}
			if ct != nil {
				ct.Property.Value = count
				if ok {
					ct.Compared = true
					ct.Details = EvaluationDetails{
						LeftValue:        TypedValue{Type: typeNumber, Value: count},
						RightValue:       c.lit.trace,
						ComparisonResult: res,
					}
					ct.Result = res
				}
			}
			return res && ok, nil
		}
	}
	return false, err
}

func (e *evaluator) countOf(raw any, length bool) (int, *Error) {
	switch x := raw.(type) {
	case []any:
		return len(x), nil
	case nil:
		return 0, nil
	case string:
		if length {
			return e.runes(x), nil
		}
	case map[string]any:
		if length {
			return len(x), nil
		}
	}
	if length {
		return 0, newError(KindEvaluation, "Cannot calculate length of %s", ValueText(raw))
	}
	return 0, newError(KindEvaluation, "Cannot calculate number of %s for non array", ValueText(raw))
}

// compare applies an operator to typed operands (the table of
// docs/rules.md, "Operators"). ok is false when the
// operand types do not go together: the condition is then false.
func (e *evaluator) compare(op Operator, l, r value) (res, ok bool) {
	switch op {
	case OpGreaterThanOrEqual, OpLessThanOrEqual, OpGreaterThan, OpLessThan:
		if l.kind != vNumber || r.kind != vNumber {
			return false, false
		}
		switch op {
		case OpGreaterThanOrEqual:
			return l.num >= r.num, true
		case OpLessThanOrEqual:
			return l.num <= r.num, true
		case OpGreaterThan:
			return l.num > r.num, true
		}
		return l.num < r.num, true
	case OpEqualTo, OpExactlyEqualTo:
		return equal(l, r, op == OpExactlyEqualTo)
	case OpNotEqualTo:
		eq, ok := equal(l, r, false)
		return !eq && ok, ok
	case OpLaterThan, OpEarlierThan:
		ld, lok := l.asDate()
		rd, rok := r.asDate()
		if !lok || !rok {
			return false, false
		}
		if op == OpLaterThan {
			return ld > rd, true
		}
		return ld < rd, true
	case OpIn, OpNotIn:
		if r.kind != vList {
			return false, false
		}
		var found bool
		if r.set != nil {
			found = r.set.contains(l)
		} else {
			for i := 0; i < len(r.arr) && !found; i++ {
				found, _ = equal(l, fromItem(r.arr[i]), false)
			}
		}
		return found == (op == OpIn), true
	case OpContains:
		switch {
		case l.kind == vString && r.kind == vString:
			return containsWord(l.str, r.str), true
		case l.kind == vList:
			found := false
			for i := 0; i < len(l.arr) && !found; i++ {
				found, _ = equal(fromItem(l.arr[i]), r, false)
			}
			return found, true
		}
		return false, false
	case OpWithin, OpOlderThan, OpYoungerThan:
		d, ok := l.asDate()
		if !ok || r.kind != vDuration {
			return false, false
		}
		age := float64(e.todayDay() - d)
		switch op {
		case OpWithin:
			if age < 0 {
				age = -age
			}
			return age <= r.num, true
		case OpOlderThan:
			return age > r.num, true
		}
		return age < r.num, true
	}
	return false, false
}

func (e *evaluator) todayDay() int {
	if !e.hasToday {
		y, m, d := e.prog.now().UTC().Date()
		e.today, e.hasToday = daysFromCivil(y, int(m), d), true
	}
	return e.today
}

// equal is the equality of `is equal to` and of list membership: strings
// case-insensitively unless exact, a date and a string as dates.
func equal(l, r value, exact bool) (eq, ok bool) {
	switch {
	case l.kind == r.kind && (l.kind == vNumber || l.kind == vBool || l.kind == vDate):
		return l.num == r.num, true
	case l.kind == vString && r.kind == vString:
		if exact {
			return l.str == r.str, true
		}
		return lowerEqual(l.str, r.str), true
	case l.kind == vDate && r.kind == vString:
		d, ok := timestampDay(r.str)
		return ok && float64(d) == l.num, ok
	case l.kind == vString && r.kind == vDate:
		d, ok := timestampDay(l.str)
		return ok && float64(d) == r.num, ok
	}
	return false, false
}

// lowerEqual reports whether two strings are equal once lower-cased, as
// strings.ToLower would, without allocating.
func lowerEqual(a, b string) bool {
	for a != "" && b != "" {
		ca, cb := a[0], b[0]
		if ca < utf8.RuneSelf && cb < utf8.RuneSelf {
			if 'A' <= ca && ca <= 'Z' {
				ca += 'a' - 'A'
			}
			if 'A' <= cb && cb <= 'Z' {
				cb += 'a' - 'A'
			}
			if ca != cb {
				return false
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if unicode.ToLower(ra) != unicode.ToLower(rb) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == b
}

// containsWord is string `contains`: case-insensitive, and the match must
// not touch a letter or digit on either side.
func containsWord(hay, needle string) bool {
	h, n := strings.ToLower(hay), strings.ToLower(needle)
	if len(n) > shortNeedle {
		return containsLongWord(h, n)
	}
	return containsShortWord(h, n)
}

// containsShortWord searches again a rune after each match of n in h that
// touches a letter, which costs up to len(n) comparisons a byte of h.
func containsShortWord(h, n string) bool {
	for from := 0; from <= len(h); {
		i := strings.Index(h[from:], n)
		if i < 0 {
			return false
		}
		i += from
		if wordBounded(h, i, i+len(n)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(h[i:])
		if size == 0 {
			return false
		}
		from = i + size
	}
	return false
}

// shortNeedle is the longest needle containsWord searches for by starting
// again after each match that touches a letter; a longer one read from the
// data (`a` contains `b`, each of a megabyte of one letter) would take
// time in the product of their lengths.
const shortNeedle = 64

// containsLongWord finds every match of n in h in one pass (Knuth, Morris
// and Pratt), in time linear in both, and says whether one is a word of h.
// n is valid UTF-8, so it cannot match from inside a character of h.
func containsLongWord(h, n string) bool {
	// fail[i] is the length of the longest proper prefix of n[:i+1] that
	// is also its suffix.
	fail := make([]int, len(n))
	for i, k := 1, 0; i < len(n); i++ {
		for k > 0 && n[i] != n[k] {
			k = fail[k-1]
		}
		if n[i] == n[k] {
			k++
		}
		fail[i] = k
	}
	for i, k := 0, 0; i < len(h); i++ {
		for k > 0 && h[i] != n[k] {
			k = fail[k-1]
		}
		if h[i] == n[k] {
			k++
		}
		if k == len(n) {
			if wordBounded(h, i+1-len(n), i+1) {
				return true
			}
			k = fail[k-1]
		}
	}
	return false
}

// wordBounded says whether h[from:to] touches no letter or digit of h on
// either side.
func wordBounded(h string, from, to int) bool {
	before, _ := utf8.DecodeLastRuneInString(h[:from])
	after, _ := utf8.DecodeRuneInString(h[to:])
	return (from == 0 || !isLetterOrDigit(before)) && (to == len(h) || !isLetterOrDigit(after))
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
