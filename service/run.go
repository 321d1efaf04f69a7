package service

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
)

// RunResult is a policy run result with the service's timings.
type RunResult struct {
	*engine.Result
	Execution Execution `json:"execution"`

	pool *sync.Pool // where Result returns on Release, if it came from one
	// decoder read the run's data, and goes back to decoders on Release:
	// the result may hold the maps it decoded until then.
	decoder  *engine.DataDecoder
	decoders *sync.Pool
}

// Release hands the result's memory back for reuse by later runs. Call it
// once the result has been written out; it must not be used afterwards.
// Results that do not come from a pool ignore it.
func (r *RunResult) Release() {
	if r.pool != nil && r.Result != nil {
		r.Result.Data = nil
		r.pool.Put(r.Result)
		r.Result, r.pool = nil, nil
	}
	if r.decoder != nil {
		r.decoder.Recycle()
		r.decoders.Put(r.decoder)
		r.decoder, r.decoders = nil, nil
	}
}

// evaluate runs a policy on data, echoing input. Compiled programs
// evaluate into pooled results: a warm run then allocates almost nothing
// for its trace (see Release).
func (s *Service) evaluate(prog *flow.ResolvedPolicy, data map[string]any, input any) RunResult {
	run := s.resultFor(prog, nil)
	run.Result = prog.Evaluate(run.Result, data, input)
	return run
}

// evaluateJSON is evaluate on the data raw holds, which checkData has
// accepted, read by dec (see flow.ResolvedPolicy.EvaluateJSON), into the
// caller's result when it gives one.
func (s *Service) evaluateJSON(prog *flow.ResolvedPolicy, dec *engine.DataDecoder, raw []byte, into *engine.Result) (RunResult, error) {
	run := s.resultFor(prog, into)
	res, err := prog.EvaluateJSON(run.Result, dec, raw, engine.DataText(raw))
	if err != nil {
		run.Release()
		return RunResult{}, err
	}
	run.Result = res
	return run, nil
}

// evaluateData runs prog on raw, which checkData has accepted, as a batch
// runs an item: a compiled program reads only the values its conditions
// name, and decodes nothing else (see engine.DataDecoder.EvaluateInto).
// The decoder, from the service's pool, stays with the result until
// Release.
func (s *Service) evaluateData(prog *flow.ResolvedPolicy, raw json.RawMessage) (RunResult, error) {
	dec := s.decoders.Get().(*engine.DataDecoder)
	run, err := s.evaluateJSON(prog, dec, raw, nil)
	run.decoder, run.decoders = dec, &s.decoders
	if err != nil {
		run.Release()
		// Decoding refuses nothing checkData accepted; were it to, the
		// data would be at fault, not the service.
		return RunResult{}, invalidData(err)
	}
	return run, nil
}

// resultFor is the result a run of prog evaluates into: into, when the
// caller gives one, which Release then leaves alone; else a pooled one for
// a compiled program, or none, for a new one.
func (s *Service) resultFor(prog *flow.ResolvedPolicy, into *engine.Result) RunResult {
	if into == nil && prog.Program != nil {
		return RunResult{Result: s.results.Get().(*engine.Result), pool: &s.results}
	}
	return RunResult{Result: into}
}

// AppendJSON appends the result as JSON, byte for byte what encoding/json
// writes for it with HTML escaping off, without reflection: a run's answer
// is most of what a stored run costs to encode.
func (r *RunResult) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	if r.Result != nil {
		var err error
		if b, err = r.Result.AppendJSONMembers(b); err != nil {
			return b, err
		}
		b = append(b, ',')
	}
	b = append(b, `"execution":`...)
	return append(r.Execution.appendJSON(b), '}'), nil
}

// Execution holds timings in nanoseconds, each a string of digits.
type Execution struct {
	Orchestrator Orchestrator `json:"orchestrator"`
	Engine       Nanos        `json:"engine"`
	Total        Nanos        `json:"total"`
}

func (e Execution) appendJSON(b []byte) []byte {
	b = append(b, `{"orchestrator":{"go":`...)
	b = e.Orchestrator.Go.appendJSON(b)
	b = append(b, `,"database":`...)
	b = e.Orchestrator.Database.appendJSON(b)
	b = append(b, `,"total":`...)
	b = e.Orchestrator.Total.appendJSON(b)
	b = append(b, `},"engine":`...)
	b = e.Engine.appendJSON(b)
	b = append(b, `,"total":`...)
	b = e.Total.appendJSON(b)
	return append(b, '}')
}

// Orchestrator splits the service's own time: Database is storage, Go the
// rest, Total both.
type Orchestrator struct {
	Go       Nanos `json:"go"`
	Database Nanos `json:"database"`
	Total    Nanos `json:"total"`
}

// Nanos is a duration shown as a string of decimal nanoseconds.
type Nanos time.Duration

func (n Nanos) MarshalJSON() ([]byte, error) {
	return n.appendJSON(nil), nil
}

func (n Nanos) appendJSON(b []byte) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '"')
}

func (n *Nanos) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	*n = Nanos(v)
	return err
}

// timings accumulates a run's time by where it was spent.
type timings struct {
	start    time.Time
	database time.Duration
	engine   time.Duration
}

func startTimings(ctx context.Context) *timings {
	return &timings{start: requestStart(ctx, time.Now())}
}

func (t *timings) execution() Execution {
	total := time.Since(t.start)
	goTime := total - t.database - t.engine
	if goTime < 0 {
		goTime = 0
	}
	return Execution{
		Orchestrator: Orchestrator{Go: Nanos(goTime), Database: Nanos(t.database), Total: Nanos(goTime + t.database)},
		Engine:       Nanos(t.engine),
		Total:        Nanos(total),
	}
}

// decodeData validates a run's data: a JSON object within the engine's
// limits, without a NUL character. Anything else is a malformed request.
// NUL is refused as in every text: a run's data is kept in decision
// records, and a stored test's data must run as a run's does.
func (s *Service) decodeData(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return nil, invalidData(nil)
	}
	data, err := engine.DecodeData(raw, s.engine.Limits)
	if err != nil {
		return nil, invalidData(err)
	}
	if err := checkJSONText("data", raw); err != nil {
		return nil, err
	}
	return data, nil
}

// checkData is decodeData without the decoded data.
func (s *Service) checkData(raw json.RawMessage) error {
	if len(raw) == 0 {
		return invalidData(nil)
	}
	if err := engine.CheckData(raw, s.engine.Limits); err != nil {
		return invalidData(err)
	}
	return checkJSONText("data", raw)
}

// InvalidJSON is the malformed request of a text that JSON decoding
// refused with err, worded as every decoding of Verdict words it: where
// the syntax breaks, or that the text ends too early. what names the text.
func InvalidJSON(what string, err error) *Error {
	return Invalid("%s is not valid JSON: %s", what, engine.JSONProblem(err))
}

// invalidData is the malformed request of data that decoding refused with
// err, or of data that is missing (nil).
func invalidData(err error) error {
	switch {
	case err == nil:
		return Invalid("data is required and must be a JSON object")
	case errors.Is(err, engine.ErrDataNotObject):
		return Invalid("data must be a JSON object")
	}
	return Invalid("%v", err)
}

// RunRule evaluates a rule text against data, as POST /run: nothing
// stored is read or written. Parse and evaluation errors are part of the
// result, not errors.
func (s *Service) RunRule(ctx context.Context, rule string, rawData json.RawMessage) (*RunResult, error) {
	t := startTimings(ctx)
	p, err := startRun(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkNoNUL("rule", rule); err != nil {
		return nil, err
	}
	data, err := s.decodeData(rawData)
	if err != nil {
		return nil, err
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionRun, authz.KindOrganization); err != nil {
		return nil, err
	}
	began := time.Now()
	res, err := s.compileInline(ctx, rule).RunCharged(data, func(answer int) error { return s.spendAnswer(ctx, answer+len(rawData)) })
	if err != nil {
		return nil, err
	}
	t.engine = time.Since(began)
	res.Data = engine.DataText(rawData)
	if err := s.explain(ctx, res); err != nil {
		return nil, err
	}
	s.metrics.evaluations.WithLabelValues("rule", outcomeLabel(res.Result, res.Error != nil)).Inc()
	s.metrics.engineTime.WithLabelValues("rule").Observe(t.engine.Seconds())
	return &RunResult{Result: res, Execution: t.execution()}, nil
}

// compiledTexts are the rule texts one request's inline runs compiled, so
// that a GraphQL document running one text in many fields (through a
// variable) compiles it once, where each field compiling it anew made a
// few kilobytes of document cost seconds. What it holds is bounded twice:
// every text comes from the request's body, and it takes texts only while
// they add up to maxCompiledTextBytes.
type compiledTexts struct {
	mu     sync.Mutex
	bytes  int
	byText map[string]*engine.Inline
}

const maxCompiledTextBytes = 4 << 20

// compileInline is the rule text compiled for an inline run, the one the
// request compiled before when it did.
func (s *Service) compileInline(ctx context.Context, rule string) *engine.Inline {
	c := callOf(ctx)
	if c == nil || c.texts == nil {
		return s.engine.CompileInline(rule)
	}
	texts := c.texts
	texts.mu.Lock()
	in, ok := texts.byText[rule]
	texts.mu.Unlock()
	if ok {
		return in
	}
	in = s.engine.CompileInline(rule)
	texts.mu.Lock()
	defer texts.mu.Unlock()
	if texts.bytes+len(rule) <= maxCompiledTextBytes {
		if texts.byText == nil {
			texts.byText = map[string]*engine.Inline{}
		}
		texts.byText[rule] = in
		texts.bytes += len(rule)
	}
	return in
}
