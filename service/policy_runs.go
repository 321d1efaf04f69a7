package service

import (
	"context"
	"encoding/json"
	"slices"
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
	t := s.startTimings(ctx)
	p, err := principalOf(ctx)
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
	if prog.program != nil {
		// Compiled programs evaluate into pooled results: a warm run then
		// allocates almost nothing for its trace (see RunResult.Release).
		out.Result, out.pool = s.results.Get().(*engine.Result), &s.results
		prog.program.EvaluateInto(out.Result, parsed)
	} else {
		out.Result = engine.ParseFailure(target.record.Rule, prog.parseErr, nil, nil)
	}
	t.engine = time.Since(began)
	res := out.Result
	res.Rule, res.Data = prog.lines, rawData

	s.metrics.evaluations.WithLabelValues("policy", outcomeLabel(res.Result, res.Error != nil)).Inc()
	s.metrics.engineTime.WithLabelValues("policy").Observe(t.engine.Seconds())
	out.Execution = t.execution()
	s.recordExecution(p, target, res.Result, res.Error, nil, time.Duration(out.Execution.Total))
	return out, nil
}

// target is the base and record a run resolved to.
type target struct {
	base   *ent.Base
	record *ent.Record
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
	b, err := s.cachedBase(ctx, t, baseID)
	if err != nil || b.OrganizationID != p.TenantID || b.Kind != kind {
		return nil, notFoundOr(err, kind, baseID)
	}
	if b.DeletedAt != nil {
		return nil, newError(CodeDeleted, "%s %s was deleted", kind, b.ID)
	}
	if err := s.authorize(ctx, p, authz.ActionRun, resourceOf(b)); err != nil {
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
	return &target{base: b, record: rec}, nil
}

func notFoundOr(err error, kind base.Kind, id uuid.UUID) error {
	if err == nil || ent.IsNotFound(err) {
		return newError(CodeNotFound, "no %s %s", kind, id)
	}
	return unavailable(err)
}

func (s *Service) cachedBase(ctx context.Context, t *timings, id uuid.UUID) (*ent.Base, error) {
	if b, ok := s.cache.bases.Get(id); ok {
		s.cache.count("base", true)
		return b, nil
	}
	s.cache.count("base", false)
	gen := s.cache.generation.Load()
	began := time.Now()
	b, err := s.client.Base.Get(ctx, id)
	t.database += time.Since(began)
	if err == nil && s.cache.generation.Load() == gen {
		s.cache.bases.Add(id, b)
	}
	return b, err
}

func (s *Service) cachedRecord(ctx context.Context, t *timings, id uuid.UUID) (*ent.Record, error) {
	if r, ok := s.cache.records.Get(id); ok {
		s.cache.count("record", true)
		return r, nil
	}
	s.cache.count("record", false)
	gen := s.cache.generation.Load()
	began := time.Now()
	r, err := s.client.Record.Get(ctx, id)
	t.database += time.Since(began)
	if err == nil && s.cache.generation.Load() == gen {
		s.cache.records.Add(id, r)
	}
	return r, err
}

// program compiles a record once per revision.
func (s *Service) program(r *ent.Record) *compiled {
	key := programKey{record: r.ID, revision: r.Revision}
	if c, ok := s.cache.programs.Get(key); ok {
		s.cache.count("program", true)
		return c
	}
	s.cache.count("program", false)
	c := compile(&s.engine, r.Rule)
	s.cache.programs.Add(key, c)
	return c
}

// recordExecution queues the `executed` audit event of a run: a policy
// run's error is runErr, the reasons a flow run stopped are errs.
func (s *Service) recordExecution(p *Principal, t *target, result bool, runErr *engine.Error, errs []string, took time.Duration) {
	details := map[string]any{"result": result, "durationNs": took.Nanoseconds(), "status": string(t.record.Status)}
	if t.record.Version != nil {
		details["version"] = *t.record.Version
	}
	if runErr != nil {
		details["error"] = runErr.Message
	}
	if len(errs) > 0 {
		// A copy: the event is stored after the caller has the result.
		details["errors"] = slices.Clone(errs)
	}
	s.execLog.add(event{tenant: p.TenantID, at: s.timestamp(), action: auditevent.ActionExecuted,
		kind: auditevent.Kind(t.base.Kind), base: &t.base.ID, record: &t.record.ID, actor: p, details: details})
}
