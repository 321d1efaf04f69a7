package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/verdict/verdict/engine"
)

// ResolvedPolicy is a stored policy's rule text ready to run: what a
// resolver hands back for a node's policy, and what a stored policy run
// evaluates. It does not change once compiled, so one value serves every
// run of its text.
type ResolvedPolicy struct {
	Program     *engine.Program    // nil when the rule text does not parse
	ParseErrors engine.ParseErrors // why Program is nil
	Rule        string             // the stored rule text
	Lines       *engine.RuleLines  // the response's "rule": one entry per stored line (engine.Lines)

	failed *engine.ParseFailed // the runs of a text that does not parse
}

// CompilePolicy compiles a stored rule text. Drafts may be saved
// unparseable, so a text that does not parse gives a policy that answers
// every run with its parse errors.
func CompilePolicy(eng *engine.Engine, rule string) *ResolvedPolicy {
	p := &ResolvedPolicy{Rule: rule, Lines: engine.NewRuleLines(engine.Lines(rule))}
	prog, err := eng.Compile(rule)
	if err != nil {
		// Compile fails with nothing but parse errors.
		p.ParseErrors = err.(engine.ParseErrors)
		p.failed = engine.NewParseFailed(rule, p.ParseErrors)
		return p
	}
	p.Program = prog
	return p
}

// AnswerWeight estimates the bytes a run's answer takes beyond the data it
// echoes (see engine.Program.AnswerWeight); a text that does not parse
// answers its text and errors, counted as its text, as Engine.RunCharged
// counts one.
func (p *ResolvedPolicy) AnswerWeight() int {
	if p.Program == nil {
		return len(p.Rule)
	}
	return p.Program.AnswerWeight(len(p.Rule))
}

// MemoryWeight estimates the bytes the policy holds (see
// engine.Program.MemoryWeight); a text that does not parse holds its text
// and errors, counted as a program of that text.
func (p *ResolvedPolicy) MemoryWeight() int {
	if p.Program == nil {
		return engine.MemoryBytesPerRuleByte * len(p.Rule)
	}
	return p.Program.MemoryWeight(len(p.Rule))
}

// Evaluate runs the policy on data, echoing input as the result's data.
// It evaluates into res, reusing its memory, when res is not nil and the
// text parses; otherwise into a new result.
func (p *ResolvedPolicy) Evaluate(res *engine.Result, data map[string]any, input any) *engine.Result {
	res, _ = p.evaluateWith(res, input, func(res *engine.Result) error {
		p.Program.EvaluateInto(res, data)
		return nil
	})
	return res
}

// EvaluateJSON is Evaluate on the data raw holds, which engine.CheckData
// has accepted, read by dec: most items of a batch are never decoded whole
// (see engine.DataDecoder.EvaluateInto). The decoder's maps are recycled
// by its owner.
func (p *ResolvedPolicy) EvaluateJSON(res *engine.Result, dec *engine.DataDecoder, raw []byte, input any) (*engine.Result, error) {
	return p.evaluateWith(res, input, func(res *engine.Result) error {
		return dec.EvaluateInto(res, p.Program, raw)
	})
}

// evaluateWith has evaluate run the program into res, or a new result, and
// gives the result the policy's lines and input; a text that does not
// parse answers its parse failure instead.
func (p *ResolvedPolicy) evaluateWith(res *engine.Result, input any, evaluate func(*engine.Result) error) (*engine.Result, error) {
	if p.Program == nil {
		return p.failed.Result(input, p.Lines.Lines()), nil
	}
	if res == nil {
		res = new(engine.Result)
	}
	if err := evaluate(res); err != nil {
		return nil, err
	}
	res.SetRule(p.Lines)
	res.Data = input
	return res, nil
}

// PolicyResolver finds the compiled policy a node refers to, within what
// the caller may see. An error wrapping ErrPolicyNotFound stops the flow
// at that node, fail closed; any other error aborts the run and Run returns it.
type PolicyResolver interface {
	ResolvePolicy(ctx context.Context, ref PolicyRef) (*ResolvedPolicy, error)
}

// ErrPolicyNotFound is what a resolver wraps when a reference does not
// resolve for the caller: unknown, another tenant's, soft-deleted or not
// visible.
var ErrPolicyNotFound = errors.New("policy not found")

// DefaultMaxNodeExecutions is far above what a flow drawn in the UI needs
// (each node at most once) and low enough that branches with several
// children over a shared subgraph cannot multiply into a long run.
const DefaultMaxNodeExecutions = 1000

// Options tune a run.
type Options struct {
	// MaxNodeExecutions bounds the node executions of one run; 0 means
	// DefaultMaxNodeExecutions. Exceeding it stops the run, fail closed.
	MaxNodeExecutions int
	// Spend, when set, is charged the estimated bytes of each node's
	// answer (the policy's AnswerWeight, the node's own framing and the
	// data its response echoes) before
	// the node runs; its error stops the run, fail closed, with the
	// error's message: a flow of many nodes on large policies would
	// otherwise answer gigabytes.
	Spend func(answer int) error
	// Read, when set, is charged what each node's policy run read of the
	// data (engine.Result.ReadBytes) once it has run; its error stops the
	// run as Spend's does.
	Read func(bytes int) error
}

// Run prepares d and runs it once: Prepare's *DefinitionError when d is
// not valid for running, otherwise what Plan.Run returns. A caller that
// runs one definition many times prepares it once instead.
func Run(ctx context.Context, d *Definition, data any, rawData json.RawMessage, resolver PolicyResolver, opts Options) (*Result, error) {
	p, err := Prepare(d)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, data, rawData, resolver, opts)
}

// Plan is a definition ready to run: validated for StageRun, its nodes
// connected. None of that depends on the input, so it is done once per
// definition rather than once per run. A Plan does not change once
// prepared and is safe for concurrent use.
type Plan struct {
	g     graph
	start int
	// framing is each node's answer beside its policy's answer and the
	// data it echoes (nodeFraming).
	framing []int
}

// nodeAnswerBytes is what a node's entry in a run's answer takes beside
// the texts counted apart: its type, its times, the frame of its response
// and, for a custom node, the rest of that response.
const nodeAnswerBytes = 512

// nodeFraming estimates the bytes node n adds to a run's answer beside
// its policy's answer (engine.Program.AnswerWeight) and the data its
// response echoes: its id three times (its entry, the execution path and
// a flow's explanation, where a test or replay answers one), and a custom
// node's outcome four times (its trace, rule, explanation and the flow's
// outcome). A flow of a thousand nodes with long ids would otherwise
// answer far more than it was charged.
func nodeFraming(n *Node) int {
	framing := nodeAnswerBytes + 3*engine.QuotedLength(n.ID)
	if n.Type == TypeCustom && n.Outcome != nil {
		framing += 4 * engine.QuotedLength(*n.Outcome)
	}
	return framing
}

// Prepare validates d for StageRun and returns its plan; when d is not
// valid, a *DefinitionError lists every problem. The plan reads d's nodes
// as it runs, so d must not change afterwards.
func Prepare(d *Definition) (*Plan, error) {
	problems, p := Check(d, StageRun)
	if p == nil {
		return nil, &DefinitionError{Details: problems.Errors}
	}
	return p, nil
}

// Check validates d for stage, like Validate, and returns its plan when d
// is valid for running (like Prepare), else nil: a caller that needs both
// validates once. Every error of StageRun is one of the other stages too,
// so a definition without errors for its stage always has a plan.
func Check(d *Definition, stage Stage) (Problems, *Plan) {
	if d == nil {
		d = &Definition{}
	}
	p := &Plan{g: newGraph(d)}
	problems := p.g.validate(stage)
	if len(problems.Errors) > 0 && (stage == StageRun || len(p.g.validate(StageRun).Errors) > 0) {
		return problems, nil
	}
	// Validation leaves exactly one root: the start node.
	p.start = p.g.roots[0]
	p.framing = make([]int, len(d.Nodes))
	for i := range d.Nodes {
		p.framing[i] = nodeFraming(&d.Nodes[i])
	}
	return problems, p
}

// children are the nodes node i's onTrue, onFalse and next lists lead to.
// Validation leaves no branch id that names no node, so node i's targets
// are exactly those three lists in order.
func (p *Plan) children(i int) (onTrue, onFalse, next []int) {
	n := &p.g.d.Nodes[i]
	t := p.g.targets(i)
	f, x := len(n.OnTrue), len(n.OnTrue)+len(n.OnFalse)
	return t[:f], t[f:x], t[x:]
}

// Run executes the plan on data, the output of engine.DecodeData. rawData
// is the JSON text data was decoded from, echoed as each response's data;
// when empty, data is echoed instead. A node that cannot be evaluated
// stops the run with a false result and the reason in Errors; only a
// resolver failure other than ErrPolicyNotFound, or ctx ending, makes Run
// return an error.
func (p *Plan) Run(ctx context.Context, data any, rawData json.RawMessage, resolver PolicyResolver, opts Options) (*Result, error) {
	obj, ok := data.(map[string]any)
	if !ok {
		return nil, engine.ErrDataNotObject
	}
	r := runner{
		ctx:      ctx,
		resolver: resolver,
		data:     obj,
		input:    data,
		plan:     p,
		nodes:    p.g.d.Nodes,
		limit:    opts.MaxNodeExecutions,
		spend:    opts.Spend,
		read:     opts.Read,
		echoed:   len(rawData),
	}
	if len(rawData) > 0 {
		r.input = engine.DataText(rawData)
	}
	if r.limit <= 0 {
		r.limit = DefaultMaxNodeExecutions
	}
	start := &r.nodes[p.start]
	r.res = &Result{
		NodeID:        start.ID,
		NodeName:      start.Name,
		ExecutionPath: []string{},
		Errors:        []string{},
		NodeResponses: make([]NodeResponse, 0, len(r.nodes)),
	}
	if r.res.NodeName == "" {
		r.res.NodeName = "Start"
	}
	v, err := r.exec(p.start)
	switch {
	case errors.Is(err, errStopped):
		// Fail closed: a run that did not finish never approves.
	case err != nil:
		return nil, err
	default:
		r.res.Result = v.b
		r.res.FinalOutcome = v.b
		if v.outcome != nil {
			// A copy, so that the result does not alias the definition.
			outcome := *v.outcome
			r.res.Outcome = &outcome
		}
	}
	return r.res, nil
}

// errStopped unwinds a run stopped at a node; the result already says why.
var errStopped = errors.New("flow stopped")

// value is what a node yields: a boolean, or true with a custom outcome.
type value struct {
	b       bool
	outcome *string
}

type runner struct {
	ctx      context.Context
	resolver PolicyResolver
	data     map[string]any
	input    any // echoed as each response's data
	plan     *Plan
	nodes    []Node
	limit    int
	count    int
	res      *Result
	spend    func(answer int) error
	read     func(bytes int) error
	echoed   int // the bytes of data each response echoes
}

// charge spends n bytes on to, the run's Spend or Read, stopping the run
// when it refuses.
func (r *runner) charge(to func(int) error, n int) error {
	if to == nil || n == 0 {
		return nil
	}
	if err := to(n); err != nil {
		return r.stop("flow stopped: " + err.Error())
	}
	return nil
}

// exec runs node i and its taken branch depth-first.
func (r *runner) exec(i int) (value, error) {
	if err := r.ctx.Err(); err != nil {
		return value{}, err
	}
	if r.count == r.limit {
		return value{}, r.stop(fmt.Sprintf("flow stopped: more than %d node executions", r.limit))
	}
	r.count++
	n := &r.nodes[i]
	switch n.Type {
	case TypeReturn:
		b, _ := n.ReturnValue.(bool)
		return value{b: b}, nil
	case TypeCustom:
		if err := r.charge(r.spend, r.plan.framing[i]+r.echoed); err != nil {
			return value{}, err
		}
		start := time.Now()
		_, _, next := r.plan.children(i)
		resp := customResponse(*n.Outcome, r.input, len(next) > 0)
		r.respond(n, resp, NodeExecution{Total: Nanos(time.Since(start))})
		return r.branch(value{b: true, outcome: n.Outcome}, next)
	}
	return r.policy(i, n)
}

func (r *runner) policy(i int, n *Node) (value, error) {
	start := time.Now()
	rp, err := r.resolver.ResolvePolicy(r.ctx, *n.Policy)
	database := time.Since(start)
	switch {
	case errors.Is(err, ErrPolicyNotFound):
		msg := fmt.Sprintf("policy %q referenced by node %q not found", engine.Quoted(n.Policy.String()), engine.Quoted(n.ID))
		resp := &engine.Result{Rule: []string{}, Data: r.input, Error: &engine.Error{Kind: engine.KindEvaluation, Message: msg}}
		r.respond(n, resp, NodeExecution{Database: Nanos(database), Total: Nanos(time.Since(start))})
		return value{}, r.stop(msg)
	case err != nil:
		return value{}, err
	case rp == nil:
		return value{}, fmt.Errorf("flow: the resolver returned no policy for %q", engine.Quoted(n.Policy.String()))
	}

	if err := r.charge(r.spend, rp.AnswerWeight()+r.plan.framing[i]+r.echoed); err != nil {
		return value{}, err
	}
	evalStart := time.Now()
	resp := rp.Evaluate(nil, r.data, r.input)
	// What the response shows beyond its estimate is charged before it is
	// explained (engine.Result.ShownAnswerBytes).
	if err := r.charge(r.spend, resp.ShownAnswerBytes()); err != nil {
		return value{}, err
	}
	if err := r.charge(r.read, resp.ReadBytes()); err != nil {
		return value{}, err
	}
	r.respond(n, resp, NodeExecution{
		Database: Nanos(database),
		Engine:   Nanos(time.Since(evalStart)),
		Total:    Nanos(time.Since(start)),
	})
	if resp.Error != nil {
		// Fail closed: an error must not route to a false branch
		// that might approve.
		return value{}, r.stop(fmt.Sprintf("node %q: %s", engine.Quoted(n.ID), resp.Error.Message))
	}
	b := resp.Result
	if legacy, ok := n.ReturnValue.(bool); ok && !legacy {
		b = false
	}
	onTrue, onFalse, _ := r.plan.children(i)
	if b {
		return r.branch(value{b: true}, onTrue)
	}
	return r.branch(value{}, onFalse)
}

// branch runs the children of a taken branch in order; the last child's
// value wins, and a node without children keeps its own.
func (r *runner) branch(v value, children []int) (value, error) {
	for _, i := range children {
		child, err := r.exec(i)
		if err != nil {
			return value{}, err
		}
		v = child
	}
	return v, nil
}

func (r *runner) respond(n *Node, resp *engine.Result, exec NodeExecution) {
	resp.Explain()
	r.res.NodeResponses = append(r.res.NodeResponses, NodeResponse{
		NodeID: n.ID, NodeType: n.Type, Response: resp, Execution: exec,
	})
	if n != &r.nodes[r.plan.start] {
		r.res.ExecutionPath = append(r.res.ExecutionPath, n.ID)
	}
}

// stop records why the run ends here and unwinds it.
func (r *runner) stop(msg string) error {
	r.res.Errors = append(r.res.Errors, msg)
	return errStopped
}

// customResponse is the synthetic response of a custom node, which says
// whether the flow ends there or goes on to the node's next nodes.
func customResponse(outcome string, input any, goesOn bool) *engine.Result {
	explanation := "The flow ended on a custom node that answers " + strconv.Quote(outcome) + "."
	if goesOn {
		explanation = "The custom node answers " + strconv.Quote(outcome) + ", and the flow goes on to its next node."
	}
	return &engine.Result{
		Result: true,
		Trace: engine.Trace{Execution: []engine.RuleTrace{{
			Selector:   engine.Text{Value: "custom_response"},
			Outcome:    engine.Text{Value: outcome},
			Conditions: []engine.ConditionTrace{},
			Result:     true,
		}}},
		Rule:        []string{"Custom response: " + outcome},
		Data:        input,
		Explanation: explanation,
	}
}
