package service

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/base"
	"github.com/verdict/verdict/ent/record"
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
	parsed, err := s.decodeData(rawData)
	if err != nil {
		return nil, err
	}
	target, err := s.runTarget(ctx, t, p, base.KindPolicy, baseID, recordID)
	if err != nil {
		return nil, err
	}
	prog := s.program(target.record)

	began := time.Now()
	out := &RunResult{}
	var into *engine.Result
	if prog.Program != nil {
		// Compiled programs evaluate into pooled results: a warm run then
		// allocates almost nothing for its trace (see RunResult.Release).
		into, out.pool = s.results.Get().(*engine.Result), &s.results
	}
	out.Result = prog.Evaluate(into, parsed, rawData)
	t.engine = time.Since(began)
	res := out.Result
	res.Explain()

	s.metrics.evaluations.WithLabelValues("policy", outcomeLabel(res.Result, res.Error != nil)).Inc()
	s.metrics.engineTime.WithLabelValues("policy").Observe(t.engine.Seconds())
	out.Execution = t.execution()
	details := executionDetails(target, res.Result, time.Duration(out.Execution.Total))
	if res.Error != nil {
		details["error"] = res.Error.Message
	}
	decision := s.decisionOf(target, rawData, res.Result, res.Explanation, time.Duration(out.Execution.Total))
	if err := s.recordExecution(ctx, p, target, details, decision); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// target is the base and record a run resolved to.
type target struct {
	base   *ent.Base
	record *ent.Record
	// recording is how the base records its runs; nil when it does not.
	recording *recording
}

// runTarget resolves what to run, through the run cache: a base id means
// its latest version, else its draft; a record id means that record.
// Either way the base must be the caller's tenant's (else not found), not
// deleted (else gone), and runnable by the caller.
func (s *Service) runTarget(ctx context.Context, t *timings, p *Principal, kind base.Kind, baseID, recordID uuid.UUID) (*target, error) {
	var rec *ent.Record
	if recordID != uuid.Nil {
		r, err := s.cachedRecord(ctx, t, recordID)
		if err != nil || r.OrganizationID != p.TenantID || r.Kind != record.Kind(kind) {
			return nil, notFoundOr(err, kind, recordID)
		}
		rec, baseID = r, r.BaseID
	}
	cb, err := s.cachedBase(ctx, t, baseID)
	if err != nil || cb.base.OrganizationID != p.TenantID || cb.base.Kind != kind {
		return nil, notFoundOr(err, kind, baseID)
	}
	b := cb.base
	if b.DeletedAt != nil {
		return nil, newError(CodeDeleted, "%s %s was deleted", kind, b.ID)
	}
	if err := s.authorize(ctx, p, authz.ActionRun, cb.resource); err != nil {
		return nil, err
	}
	if rec == nil {
		current := currentRecord(b)
		if current == nil {
			return nil, newError(CodeNotFound, "%s %s has nothing to run", kind, b.ID)
		}
		if rec, err = s.cachedRecord(ctx, t, *current); err != nil {
			return nil, notFoundOr(err, kind, *current)
		}
	}
	return &target{base: b, record: rec, recording: cb.recording}, nil
}

func notFoundOr(err error, kind base.Kind, id uuid.UUID) error {
	if err == nil || ent.IsNotFound(err) {
		return newError(CodeNotFound, "no %s %s", kind, id)
	}
	return unavailable(err)
}

// executionDetails are what the `executed` event of every run says; each
// kind of run adds how it failed.
func executionDetails(t *target, result bool, took time.Duration) map[string]any {
	details := recordDetails(t, took)
	details["result"] = result
	return details
}

// recordDetails are what every `executed` event says of what ran and for
// how long; a single run adds its result, a batch its counts.
func recordDetails(t *target, took time.Duration) map[string]any {
	details := map[string]any{"durationNs": took.Nanoseconds(), "status": string(t.record.Status)}
	if t.record.Version != nil {
		details["version"] = *t.record.Version
	}
	return details
}

// recordExecution queues the `executed` audit event of a run, with its
// decision record when there is one (the event's details then name it). A
// run whose event cannot be queued fails: its result is never answered
// unaudited.
func (s *Service) recordExecution(ctx context.Context, p *Principal, t *target, details map[string]any, decision *decisionRow) error {
	if decision != nil {
		details["decisionId"] = decision.id.String()
	}
	return s.execLog.add(ctx, event{id: uuid.Must(uuid.NewV7()), tenant: p.TenantID, at: s.timestamp(),
		action: auditevent.ActionExecuted, kind: auditevent.Kind(t.base.Kind), base: &t.base.ID,
		record: &t.record.ID, actor: p, details: details, decision: decision})
}
