package service

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/storage"
)

// RunPolicy runs a policy's latest version, else its draft (POST
// /run/policy/{baseId}).
func (s *Service) RunPolicy(ctx context.Context, baseID uuid.UUID, data json.RawMessage) (*RunResult, error) {
	return s.runPolicy(ctx, baseID, uuid.Nil, data)
}

// RunPolicyVersion runs exactly one record (POST
// /run/policy_version/{policyId}).
func (s *Service) RunPolicyVersion(ctx context.Context, recordID uuid.UUID, data json.RawMessage) (*RunResult, error) {
	return s.runPolicy(ctx, uuid.Nil, recordID, data)
}

func (s *Service) runPolicy(ctx context.Context, baseID, recordID uuid.UUID, rawData json.RawMessage) (*RunResult, error) {
	t := startTimings(ctx)
	p, err := startRun(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.checkData(rawData); err != nil {
		return nil, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindPolicy, baseID, recordID)
	if err != nil {
		return nil, err
	}
	prog := s.program(target.record)
	if err := s.spendAnswer(ctx, prog.AnswerWeight()+len(rawData)); err != nil {
		return nil, err
	}

	// The data is read as it is evaluated, so the engine's time includes
	// the reading.
	began := time.Now()
	run, err := s.evaluateData(prog, rawData)
	if err != nil {
		return nil, err
	}
	out := &run
	t.engine = time.Since(began)
	res := out.Result
	if err := s.explain(ctx, res); err != nil {
		out.Release()
		return nil, err
	}

	s.metrics.evaluations.WithLabelValues("policy", outcomeLabel(res.Result, res.Error != nil)).Inc()
	s.metrics.engineTime.WithLabelValues("policy").Observe(t.engine.Seconds())
	out.Execution = t.execution()
	var failure map[string]any
	var stopped *string
	if res.Error != nil {
		stopped = &res.Error.Message
		message := []string{res.Error.Message}
		maskErrors(target, rawData, message)
		failure = map[string]any{"error": message[0]}
	}
	decision := s.decisionOf(target, rawData, res.Result, res.Explanation, stopped, time.Duration(out.Execution.Total))
	if err := s.recordExecution(ctx, p, target, res.Result, time.Duration(out.Execution.Total), failure, decision); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// recordExecution queues the `executed` audit event of a run: its result,
// how long it took, the version run (or the draft), what else the event
// says (extra: how a run failed, each error text cut by eventErrorText; a
// batch's counts), and the run's decision record when there is one (the
// event then names it). A run whose event cannot be queued fails: its
// result is never answered unaudited.
func (s *Service) recordExecution(ctx context.Context, p *Principal, t *target, result bool, took time.Duration, extra map[string]any, decision *decisionRow) error {
	eachErrorText(extra, eventErrorText)
	if decision != nil {
		if extra == nil {
			extra = map[string]any{}
		}
		extra["decisionId"] = decision.id.String()
	}
	at := s.timestamp()
	return s.execLog.add(ctx, storage.Execution{
		ID: s.eventIDs.At(at), Tenant: p.TenantID, At: at,
		Kind: string(t.base.Kind), BaseID: t.base.ID, RecordID: t.record.ID,
		ActorKind: p.ActorKind(), ActorID: p.ActorID(),
		Result: result, Duration: took,
		Published: t.record.Status == record.StatusPublished, Version: t.record.Version,
		Extra: extra,
	}, recorded{decision: decision, mask: t.recording.maskTexts()})
}
