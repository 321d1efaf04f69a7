package engine

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// Engine holds what compilation and evaluation are configured with. The
// zero value is ready to use: UTC "today" from the system clock and the
// default limits.
type Engine struct {
	// Now supplies "today" for `is within`, `is older than` and `is younger
	// than`; only its UTC calendar date is used.
	Now    func() time.Time
	Limits Limits
}

// Result is a policy run result (docs/rules.md, "The result") without the
// service's timings.
type Result struct {
	Result bool            `json:"result"`
	Trace  Trace           `json:"trace"`
	Rule   []string        `json:"rule"`
	Data   any             `json:"data"`
	Error  *Error          `json:"error"`
	Labels map[string]bool `json:"labels"`
	// Explanation and Warnings are filled by Explain, when the result is
	// handed out.
	Explanation string   `json:"explanation"`
	Warnings    Warnings `json:"warnings"`

	exec    [1]RuleTrace // backs Trace.Execution, so a result is one allocation
	lines   *RuleLines   // Rule as SetRule set it, with its JSON written once
	about   *explainInfo // what Explain needs to know of the program
	failure *ParseFailed // why the text did not parse, for Explain
	notes   []nestedNote // referenced rules' conditions that call for a warning
	shown   int          // see ShownAnswerBytes
	reads   int          // see ReadBytes
}

// ReadBytes is about how many bytes of long texts, lists and objects of
// the data the conditions of r's run read, traced or not, counted as
// ShownAnswerBytes counts them but once a reading (Limits.MaxReadBytes
// bounds it for one run). A caller running many runs for one request
// bounds their sum: a batch multiplies what one run may read.
func (r *Result) ReadBytes() int { return r.reads }

// ShownAnswerBytes is about how many bytes the answer of r takes for the
// long texts, lists and objects of the data its trace shows, beyond what
// Program.AnswerWeight counted before the run: each is shown by the
// condition's property, its evaluation details and the explanation. A
// caller that bounds what it answers charges these before Explain, which
// writes them out: a 700 KB list read by each of a thousand conditions is
// two gigabytes of answer.
func (r *Result) ShownAnswerBytes() int { return 3 * r.shown }

// Run parses, compiles and evaluates a rule text in one go, as `POST /run`
// does: a text that does not parse gives a result with the parse error.
// The `rule` member has one entry per rule.
func (e *Engine) Run(src string, data map[string]any) *Result {
	res, _ := e.RunCharged(src, data, nil)
	return res
}

// RunCharged is Run that first charges charge, when set, with the
// answer's estimated size (Program.AnswerWeight, or the text's size when
// it does not parse): when charge fails, nothing is evaluated and its
// error is returned.
func (e *Engine) RunCharged(src string, data map[string]any, charge func(answer int) error) (*Result, error) {
	return e.CompileInline(src).RunCharged(data, charge)
}

// Inline is a rule text compiled to be run as Run runs it, for a caller
// that runs one text many times: a text that does not parse gives results
// with its parse error.
type Inline struct {
	src     string
	prog    *Program
	failure *ParseFailed
}

// CompileInline parses and compiles src for Inline.RunCharged.
func (e *Engine) CompileInline(src string) *Inline {
	prog, err := e.compileText(src, false)
	in := &Inline{src: src, prog: prog}
	if err != nil {
		in.failure = NewParseFailed(src, err.(ParseErrors))
	}
	return in
}

// RunCharged evaluates the text on data as Engine.RunCharged does.
func (in *Inline) RunCharged(data map[string]any, charge func(answer int) error) (*Result, error) {
	answer := len(in.src)
	if in.prog != nil {
		answer = in.prog.AnswerWeight(len(in.src))
	}
	if charge != nil {
		if err := charge(answer); err != nil {
			return nil, err
		}
	}
	if in.prog == nil {
		return in.failure.Result(data, Paragraphs(in.src)), nil
	}
	return in.prog.Evaluate(data), nil
}

// InlineRules returns the `rule` member of an inline run: the source of
// each rule from its label or article through its full stop.
func (p *Program) InlineRules() []string { return p.inline }

// Conditions counts the conditions of the program's rules: the most a run
// evaluates, and its trace and explanation show.
func (p *Program) Conditions() int { return p.conditions }

// ConditionAnswerBytes is what AnswerWeight counts for each condition
// beside the text of the condition, counted apart: its trace entry, its
// explanation clause and a warning, 250 to 500 bytes.
const ConditionAnswerBytes = 512

// AnswerWeight estimates the bytes a run's answer takes beyond its data:
// ConditionAnswerBytes for each condition, the rule text the answer
// echoes, and what its trace and explanation show of that text again (a
// long outcome that many conditions reference, a long written list).
func (p *Program) AnswerWeight(ruleText int) int {
	return ruleText + ConditionAnswerBytes*p.conditions + p.shownText
}

// MemoryBytesPerRuleByte is what MemoryWeight counts for each byte of a
// rule text: compiled rules measure about ten bytes for each.
const MemoryBytesPerRuleByte = 12

// memoryBytesPerListItem is what MemoryWeight adds for each item of a
// written list, which holds the item's literal and its entry in the list's
// index: lists of one- to five-byte items measure 50 to 85 bytes an item
// beyond their text's twelve.
const memoryBytesPerListItem = 112

// MemoryWeight estimates the bytes the program holds, for a cache that
// bounds its memory: MemoryBytesPerRuleByte for each byte of its rule text
// (ruleText bytes), and memoryBytesPerListItem for each item of its lists,
// which hold more than the bytes they are written in.
func (p *Program) MemoryWeight(ruleText int) int {
	return MemoryBytesPerRuleByte*ruleText + memoryBytesPerListItem*p.listItems
}

// Lines returns the `rule` member of a stored policy's run: one entry per
// line of the text, without line-ending characters.
func Lines(src string) []string {
	if src == "" {
		return []string{}
	}
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// RuleLines is a `rule` member that many results answer, a stored
// policy's lines, with its JSON written once rather than on every run.
type RuleLines struct {
	lines []string
	json  []byte
}

// NewRuleLines holds lines and their JSON.
func NewRuleLines(lines []string) *RuleLines {
	return &RuleLines{lines: lines, json: appendStrings(nil, lines)}
}

// Lines returns the lines.
func (l *RuleLines) Lines() []string { return l.lines }

// SetRule makes l the result's `rule` member. AppendJSONMembers copies
// its JSON for as long as Rule holds l's lines.
func (r *Result) SetRule(l *RuleLines) {
	r.Rule, r.lines = l.lines, l
}

// Paragraphs is the `rule` member of an inline run whose text does not
// parse: comment lines dropped, the rest split at blank lines.
func Paragraphs(src string) []string {
	out := []string{}
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "#"):
		case t == "":
			flush()
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}

// ParseFailure builds the result of a run whose text does not parse: the
// first problem as the error, and a trace with one synthetic condition that
// names the line that failed.
func ParseFailure(src string, errs ParseErrors, data any, rule []string) *Result {
	return NewParseFailed(src, errs).Result(data, rule)
}

// ParseFailed is a text that did not parse, for a caller that runs it
// many times: its results share one explanation, as explaining a long
// text's errors takes milliseconds.
type ParseFailed struct {
	src         string
	errs        ParseErrors
	once        sync.Once
	explanation string
}

// NewParseFailed is src, which failed to parse with errs.
func NewParseFailed(src string, errs ParseErrors) *ParseFailed {
	return &ParseFailed{src: src, errs: errs}
}

// Result is the result of a run of the text on data, as ParseFailure
// builds it.
func (f *ParseFailed) Result(data any, rule []string) *Result {
	src, errs := f.src, f.errs
	line, located := errs.failedLine()
	var failedAt any
	if located {
		failedAt = line
	}
	path := "$.rule_syntax.line_0"
	if located {
		path = "$.rule_syntax.line_" + strconv.Itoa(line)
	}
	cond := ConditionTrace{
		Selector: Text{"rule_syntax"},
		Property: PropertyTrace{Path: path, Value: map[string]any{
			"error_type":     "parse_error",
			"failed_at_line": failedAt,
			"rule_length":    len(Lines(src)),
		}},
		Operator: "EqualTo",
		Value:    TypedValue{Type: typeString, Value: "invalid"},
		Compared: true,
		Details: EvaluationDetails{
			LeftValue:  TypedValue{Type: "parse_error", Value: "invalid_syntax"},
			RightValue: TypedValue{Type: "expectation", Value: "valid_syntax"},
		},
	}
	return &Result{
		Trace: Trace{Execution: []RuleTrace{{
			Label:      "Parse Error",
			Selector:   Text{"parser"},
			Outcome:    Text{"parse_failed"},
			Conditions: []ConditionTrace{cond},
		}}},
		Rule:    rule,
		Data:    data,
		Error:   errs.asError(),
		failure: f,
	}
}
