package service

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/base"
)

// FlowBatchResult is the answer of a flow batch run: one flow run result
// per item, in the items' order, each as a single run answers it.
type FlowBatchResult struct {
	Results []*FlowResult `json:"results"`
	// Execution is the whole call's time.
	Execution Execution `json:"execution"`
}

// RunFlowBatch runs a flow's latest version, else its draft, on each item
// (POST /run/flow/{baseId}/batch).
func (s *Service) RunFlowBatch(ctx context.Context, baseID uuid.UUID, items Items) (*FlowBatchResult, error) {
	return s.runFlowBatch(ctx, baseID, uuid.Nil, items)
}

// RunFlowVersionBatch runs exactly one flow record on each item (POST
// /run/flow_version/{flowId}/batch).
func (s *Service) RunFlowVersionBatch(ctx context.Context, recordID uuid.UUID, items Items) (*FlowBatchResult, error) {
	return s.runFlowBatch(ctx, uuid.Nil, recordID, items)
}

// runFlowBatch checks every item before anything is charged or run, as a
// policy batch does; then the flow is resolved and authorized once, and
// so is each policy it names, through one resolver for the whole call.
// Each item runs as a single run would, its nodes' answers charged to the
// request's bound as they run; one `executed` event records the call with
// its counts. Batches are not recorded as decisions, as policy batches
// are not: a decision is one run.
func (s *Service) runFlowBatch(ctx context.Context, baseID, recordID uuid.UUID, items Items) (*FlowBatchResult, error) {
	t := startTimings(ctx)
	if err := s.checkItems(items); err != nil {
		return nil, err
	}
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindFlow, baseID, recordID)
	if err != nil {
		return nil, err
	}
	plan, err := s.flow(target.record).runPlan()
	if err != nil {
		return nil, err
	}
	if err := chargeRuns(ctx, len(items.List)); err != nil {
		return nil, err
	}
	resolver, opts := s.resolverFor(p), s.charged(ctx)
	out := &FlowBatchResult{Results: make([]*FlowResult, 0, len(items.List))}
	var tally batchTally
	for _, item := range items.List {
		// checkItems has accepted every item.
		data, err := s.decodeData(item)
		if err != nil {
			return nil, err
		}
		res, err := s.execute(ctx, resolver, plan, data, item, opts)
		if err != nil {
			return nil, err
		}
		for _, n := range res.NodeResponses {
			t.engine += time.Duration(n.Execution.Engine)
		}
		tally.add(res.Result, len(res.Errors) > 0)
		out.Results = append(out.Results, res)
	}
	out.Execution = t.execution()
	if err := s.recordBatch(ctx, p, target, tally, out.Execution); err != nil {
		return nil, err
	}
	return out, nil
}
