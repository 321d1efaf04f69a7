package service

import (
	"context"
	"encoding/json"
	"errors"
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

// RunPolicyBatch runs a policy's latest version, else its draft, on each
// item (POST /run/policy/{baseId}/batch).
func (s *Service) RunPolicyBatch(ctx context.Context, baseID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	return s.runPolicyBatch(ctx, baseID, uuid.Nil, items)
}

// RunPolicyVersionBatch runs exactly one record on each item (POST
// /run/policy_version/{policyId}/batch).
func (s *Service) RunPolicyVersionBatch(ctx context.Context, recordID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	return s.runPolicyBatch(ctx, uuid.Nil, recordID, items)
}

// runPolicyBatch checks every item before anything is charged or run, so
// a bad item refuses the whole call; then the policy is resolved and
// authorized once, each item evaluated as a single run would be, and one
// `executed` event records the call.
func (s *Service) runPolicyBatch(ctx context.Context, baseID, recordID uuid.UUID, items []json.RawMessage) (*BatchResult, error) {
	t := startTimings(ctx)
	parsed, err := s.decodeItems(items)
	if err != nil {
		return nil, err
	}
	p, err := startRuns(ctx, len(items))
	if err != nil {
		return nil, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindPolicy, baseID, recordID)
	if err != nil {
		return nil, err
	}
	prog := s.program(target.record)

	out := &BatchResult{Results: make([]*RunResult, len(items))}
	// One allocation holds every item's result wrapper.
	runs := make([]RunResult, len(items))
	passed, failed := 0, 0
	for i, data := range parsed {
		began := time.Now()
		run := &runs[i]
		var into *engine.Result
		if prog.Program != nil {
			into, run.pool = s.results.Get().(*engine.Result), &s.results
		}
		run.Result = prog.Evaluate(into, data, items[i])
		took := time.Since(began)
		run.Result.Explain()
		run.Execution = Execution{Engine: Nanos(took), Total: Nanos(time.Since(began))}
		t.engine += took
		out.Results[i] = run

		res := run.Result
		switch {
		case res.Error != nil:
			failed++
		case res.Result:
			passed++
		}
		s.metrics.evaluations.WithLabelValues("policy", outcomeLabel(res.Result, res.Error != nil)).Inc()
		s.metrics.engineTime.WithLabelValues("policy").Observe(took.Seconds())
	}
	out.Execution = t.execution()
	// One event for the call: its result is whether every item passed,
	// and it counts the items.
	counts := map[string]any{"count": len(items), "passed": passed, "errors": failed}
	if err := s.recordExecution(ctx, p, target, passed == len(items), time.Duration(out.Execution.Total), counts, nil); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// decodeItems validates a batch's items: at least one and at most the
// configured number, each a JSON object as a single run's data must be.
func (s *Service) decodeItems(items []json.RawMessage) ([]map[string]any, error) {
	switch {
	case len(items) == 0:
		return nil, Invalid("items must hold at least one data object")
	case len(items) > s.maxBatchItems:
		return nil, Invalid("items holds %d data objects; the limit is %d a call", len(items), s.maxBatchItems)
	}
	parsed := make([]map[string]any, len(items))
	for i, raw := range items {
		data, err := s.decodeData(raw)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, Invalid("items[%d]: %s", i, e.Message)
			}
			return nil, err
		}
		parsed[i] = data
	}
	return parsed, nil
}
