package service

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent/base"
)

// DefaultMaxBatchItems is how many items one batch run may hold when
// Config leaves it unset: enough for a page of a nightly job, small
// enough that one call's answer stays a few megabytes.
const DefaultMaxBatchItems = 1000

// BatchResult is the answer of a batch run: one policy run result per
// item, in the items' order, each as a single run answers it.
type BatchResult struct {
	Results []*RunResult `json:"results"`
	// Execution is the whole call's time; each result's own covers its
	// evaluation alone.
	Execution Execution `json:"execution"`
}

// Release hands every result's memory back for reuse (see
// RunResult.Release).
func (b *BatchResult) Release() {
	for _, r := range b.Results {
		r.Release()
	}
}

// Items are the data of a batch's runs, each a JSON object as a single
// run's data must be. Items made of a List are checked when the batch
// runs; those SplitItems gives were checked as they were split.
type Items struct {
	List    []json.RawMessage
	checked bool
}

// SplitItems reads a JSON array of objects at the start of text, splitting
// off each item and checking it as a batch checks its items, in one pass
// over each (engine.CheckedObjects); end is where the array ends. It
// reports false for an array that holds anything else, or an item a run
// would refuse: the caller then splits or decodes the text as it would
// without this, and the batch's own checks say what is wrong.
func (s *Service) SplitItems(text []byte) (items Items, end int, ok bool) {
	list, end, ok := engine.CheckedObjects(text, s.engine.Limits)
	if !ok {
		return Items{}, 0, false
	}
	for _, item := range list {
		if checkJSONText("data", item) != nil {
			return Items{}, 0, false
		}
	}
	return Items{List: list, checked: true}, end, true
}

// RunPolicyBatch runs a policy's latest version, else its draft, on each
// item (POST /run/policy/{baseId}/batch).
func (s *Service) RunPolicyBatch(ctx context.Context, baseID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	return s.collectBatch(ctx, baseID, uuid.Nil, items)
}

// RunPolicyVersionBatch runs exactly one record on each item (POST
// /run/policy_version/{policyId}/batch).
func (s *Service) RunPolicyVersionBatch(ctx context.Context, recordID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	return s.collectBatch(ctx, uuid.Nil, recordID, items)
}

// RunPolicyBatchJSON is RunPolicyBatch with its answer appended to buf as
// BatchResult.AppendJSON writes it. Each result is encoded as soon as it is
// explained and its memory reused by the next item, so that a batch holds
// one result at a time rather than a thousand for the collector to scan.
func (s *Service) RunPolicyBatchJSON(ctx context.Context, baseID uuid.UUID, items Items, buf []byte) ([]byte, error) {
	return s.encodeBatch(ctx, baseID, uuid.Nil, items, buf)
}

// RunPolicyVersionBatchJSON is RunPolicyVersionBatch as RunPolicyBatchJSON
// answers it.
func (s *Service) RunPolicyVersionBatchJSON(ctx context.Context, recordID uuid.UUID, items Items, buf []byte) ([]byte, error) {
	return s.encodeBatch(ctx, uuid.Nil, recordID, items, buf)
}

// collectBatch keeps every item's result.
func (s *Service) collectBatch(ctx context.Context, baseID, recordID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	out := &BatchResult{Results: make([]*RunResult, 0, len(items))}
	// One allocation holds every item's result wrapper.
	runs := make([]RunResult, len(items))
	execution, err := s.runPolicyBatch(ctx, baseID, recordID, Items{List: items}, false, func(run RunResult) error {
		i := len(out.Results)
		runs[i] = run
		out.Results = append(out.Results, &runs[i])
		return nil
	})
	if err != nil {
		out.Release()
		return nil, err
	}
	out.Execution = execution
	return out, nil
}

// encodeBatch writes every item's result as it comes and hands its memory
// back at once.
func (s *Service) encodeBatch(ctx context.Context, baseID, recordID uuid.UUID, items Items, buf []byte) ([]byte, error) {
	buf = append(buf, `{"results":[`...)
	first := true
	execution, err := s.runPolicyBatch(ctx, baseID, recordID, items, true, func(run RunResult) error {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		var err error
		buf, err = run.AppendJSON(buf)
		run.Release()
		return err
	})
	if err != nil {
		return buf, err
	}
	buf = append(buf, `],"execution":`...)
	return append(execution.appendJSON(buf), '}'), nil
}

// runPolicyBatch checks every item before anything is charged or run, so
// a bad item refuses the whole call; then the policy is resolved and
// authorized once, each item decoded, evaluated as a single run would be
// and handed to each in order, which owns it (see RunResult.Release); and
// one `executed` event records the call, whose execution it answers. An
// error of each stops the batch unrecorded: nothing of it is answered.
// done says that each is done with a run when it returns.
func (s *Service) runPolicyBatch(ctx context.Context, baseID, recordID uuid.UUID, items Items, done bool, each func(RunResult) error) (Execution, error) {
	t := startTimings(ctx)
	if err := s.checkItems(items); err != nil {
		return Execution{}, err
	}
	p, err := principalOf(ctx)
	if err != nil {
		return Execution{}, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindPolicy, baseID, recordID)
	if err != nil {
		return Execution{}, err
	}
	prog := s.program(target.record)
	data := 0
	for _, item := range items.List {
		data += len(item)
	}
	if err := s.admitRuns(ctx, "items", askForFewer, len(items.List), prog.AnswerWeight(), data); err != nil {
		return Execution{}, err
	}

	// The metrics' children are looked up once per call, not per item.
	engineTime := s.metrics.engineTime.WithLabelValues("policy")
	var tally batchTally
	// Runs that each is done with leave their maps to the next item; held
	// runs keep their own.
	decoder := engine.NewDataDecoder(s.engine.Limits)
	// Runs that each is done with are all evaluated into one result.
	var held *engine.Result
	if done && prog.Program != nil {
		held = s.results.Get().(*engine.Result)
		defer func() {
			held.Data = nil
			s.results.Put(held)
		}()
	}
	// An item's times are read as offsets from one reading of the clock.
	start := time.Now()
	for _, item := range items.List {
		// checkItems has accepted every item. Its data is read as it is
		// evaluated, so the engine's time includes the reading.
		began := time.Since(start)
		run, err := s.evaluateJSON(prog, decoder, item, held)
		if err != nil {
			return Execution{}, err
		}
		took := time.Since(start) - began
		res := run.Result
		if err := s.explain(ctx, res); err != nil {
			run.Release()
			return Execution{}, err
		}
		run.Execution = Execution{Engine: Nanos(took), Total: Nanos(time.Since(start) - began)}
		t.engine += took
		tally.add(res.Result, res.Error != nil)
		engineTime.Observe(took.Seconds())
		if err := each(run); err != nil {
			return Execution{}, err
		}
		if done {
			decoder.Recycle()
		}
	}
	for _, o := range [...]struct {
		label string
		n     int
	}{{"true", tally.passed}, {"false", tally.runs - tally.passed - tally.failed}, {"error", tally.failed}} {
		if o.n > 0 {
			s.metrics.evaluations.WithLabelValues("policy", o.label).Add(float64(o.n))
		}
	}
	execution := t.execution()
	if err := s.recordBatch(ctx, p, target, tally, execution); err != nil {
		return Execution{}, err
	}
	return execution, nil
}

// batchTally counts a batch's runs: those that passed (true), and those
// that failed (an error).
type batchTally struct{ runs, passed, failed int }

func (b *batchTally) add(result, failed bool) {
	b.runs++
	switch {
	case failed:
		b.failed++
	case result:
		b.passed++
	}
}

// recordBatch records a batch call, policy or flow, as one `executed`
// event: its result is whether every item passed, and it counts them.
func (s *Service) recordBatch(ctx context.Context, p *Principal, t *target, tally batchTally, execution Execution) error {
	counts := map[string]any{"count": tally.runs, "passed": tally.passed, "errors": tally.failed}
	return s.recordExecution(ctx, p, t, tally.passed == tally.runs, time.Duration(execution.Total), counts, nil)
}

// checkItems validates a batch's items: at least one and at most the
// configured number, each a JSON object as a single run's data must be.
func (s *Service) checkItems(items Items) error {
	switch n := len(items.List); {
	case n == 0:
		return Invalid("items must hold at least one data object")
	case n > s.maxBatchItems:
		return Invalid("items holds %d data objects; the limit is %d a call", n, s.maxBatchItems)
	case items.checked:
		return nil
	}
	for i, raw := range items.List {
		if err := s.checkData(raw); err != nil {
			return Invalid("items[%d]: %s", i, messageOf(err))
		}
	}
	return nil
}
