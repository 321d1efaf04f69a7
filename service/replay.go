package service

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/storage"
)

// Bounds of a replay's limit: how many recorded decisions it runs.
const (
	DefaultReplayLimit = 1000
	MaxReplayLimit     = 10000
)

// ReplayInput chooses the recorded decisions a replay runs: those of the
// base at or after Since and before Until, the newest Limit of them (0 is
// DefaultReplayLimit).
type ReplayInput struct {
	Since *time.Time
	Until *time.Time
	Limit int
}

// Replay is what running a record against its base's recorded decisions
// found (docs/decisions.md, "Replay before publishing").
type Replay struct {
	Compared  int          `json:"compared"`
	Changed   int          `json:"changed"`
	Unchanged int          `json:"unchanged"`
	Errors    int          `json:"errors"`
	Items     []ReplayItem `json:"items"`
}

// ReplayItem compares one decision as it was recorded with the replayed
// run. Changed is whether the replayed run decides otherwise; one that
// failed as the recorded one did, or could not start, has its Error set
// and counts among the errors.
type ReplayItem struct {
	DecisionID uuid.UUID     `json:"decisionId"`
	At         time.Time     `json:"at"`
	Changed    bool          `json:"changed"`
	Before     ReplayOutcome `json:"before"`
	After      ReplayOutcome `json:"after"`
}

// ReplayOutcome is a result with its explanation; Error is the error the
// run stopped with, null when it did not; Outcome, the outcome of the
// custom node a flow run ended on, null when it ended on none and for a
// policy.
type ReplayOutcome struct {
	Result      bool    `json:"result"`
	Explanation string  `json:"explanation"`
	Error       *string `json:"error"`
	Outcome     *string `json:"outcome"`
}

// decidesOtherwise says whether run o decides otherwise than the recorded
// before: another result, another outcome (a flow that now ends elsewhere
// with the same result), or an error where there was none, or none where
// there was one (a run that failed closed answered false, which is no
// decision).
func (o ReplayOutcome) decidesOtherwise(before ReplayOutcome) bool {
	return o.Result != before.Result || !equalText(o.Outcome, before.Outcome) || (o.Error == nil) != (before.Error == nil)
}

// equalText says whether two texts that may be absent are the same.
func equalText(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func (in ReplayInput) check() (int, error) {
	if in.Since != nil && in.Until != nil && !in.Until.After(*in.Since) {
		return 0, Invalid("until must be later than since")
	}
	switch {
	case in.Limit == 0:
		return DefaultReplayLimit, nil
	case in.Limit < 1 || in.Limit > MaxReplayLimit:
		return 0, Invalid("limit must be between 1 and %d, not %d", MaxReplayLimit, in.Limit)
	}
	return in.Limit, nil
}

// ReplayPolicy runs a policy record, typically a draft, on the recorded
// inputs of its base and compares each result with the recorded one
// (POST /policy/{policyId}/replay). The id is addressed like GET
// /policy/{id}. Nothing is stored.
//
// Whoever may publish the base may replay against it (see replayInputs).
func (s *Service) ReplayPolicy(ctx context.Context, id uuid.UUID, in ReplayInput) (*Replay, error) {
	l, rows, err := s.replayInputs(ctx, s.policyKind, id, in)
	if err != nil {
		return nil, err
	}
	prog := s.program(l.record)
	// A replayed run answers its explanation, not a trace: a clause of
	// about an eighth of a condition's answer each. The recorded
	// explanation, of whatever version ran then, counts as it is stored.
	each := replayedAnswer
	if prog.Program != nil {
		each += engine.ConditionAnswerBytes / 8 * prog.Program.Conditions()
	}
	if err := s.spendReplay(ctx, rows, each); err != nil {
		return nil, err
	}
	return compareAll(rows, func(data map[string]any, raw json.RawMessage) (ReplayOutcome, error) {
		run := s.evaluate(prog, data, raw)
		defer run.Release()
		if err := s.explain(ctx, run.Result); err != nil {
			return ReplayOutcome{}, err
		}
		return policyOutcome(run.Result), nil
	}, s.engine.Limits)
}

// ReplayFlow is ReplayPolicy for flows (POST /flow/{flowId}/replay): the
// flow's policies resolve as the caller's runs resolve them.
func (s *Service) ReplayFlow(ctx context.Context, id uuid.UUID, in ReplayInput) (*Replay, error) {
	l, rows, err := s.replayInputs(ctx, s.flowKind, id, in)
	if err != nil {
		return nil, err
	}
	plan, err := s.flow(l.record).runPlan()
	if err != nil {
		return nil, err
	}
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.spendReplay(ctx, rows, replayedAnswer); err != nil {
		return nil, err
	}
	// Once a replayed run has run, its explanation is charged too: it
	// names every node that ran.
	runs := &explainedRuns{s: s, resolver: s.resolverFor(p), plan: plan,
		tooMuch:      Invalid("the replay would answer more than %s, what one request may; ask for a smaller limit", size(s.maxAnswer)),
		readsTooMuch: Invalid("the replayed runs would read more than %s of data values, what the runs of one request may; ask for a smaller limit", size(s.maxAnswer)),
	}
	return compareAll(rows, func(data map[string]any, raw json.RawMessage) (ReplayOutcome, error) {
		res, err := runs.run(ctx, data, raw)
		if err != nil {
			return ReplayOutcome{}, err
		}
		out := flowOutcome(res)
		shown := len(out.Explanation)
		if out.Outcome != nil {
			shown += len(*out.Outcome)
		}
		if err := runs.explained(ctx, shown); err != nil {
			return ReplayOutcome{}, err
		}
		return out, nil
	}, s.engine.Limits)
}

// spendReplay admits the decisions a replay runs before any runs: each
// answers each bytes and decodes its recorded input.
func (s *Service) spendReplay(ctx context.Context, rows []*ent.DecisionRecord, each int) error {
	inputs := 0
	for _, row := range rows {
		// Its input is decoded; what was recorded of its run, answered.
		inputs += len(row.Input) + len(row.Explanation)
		if row.Error != nil {
			inputs += len(*row.Error)
		}
		if row.Outcome != nil {
			inputs += len(*row.Outcome)
		}
	}
	return s.admitRuns(ctx, "recorded decisions", askForFewer, len(rows), each, inputs)
}

// replayedAnswer is what a replayed decision answers beside its
// explanations and its recorded input: its id, time and results.
const replayedAnswer = 256

func policyOutcome(res *engine.Result) ReplayOutcome {
	out := ReplayOutcome{Result: res.Result, Explanation: res.Explanation}
	if res.Error != nil {
		msg := res.Error.Message
		out.Error = &msg
	}
	return out
}

func flowOutcome(res *flow.Result) ReplayOutcome {
	out := ReplayOutcome{Result: res.Result, Explanation: flowExplanation(res), Outcome: res.Outcome}
	if len(res.Errors) > 0 {
		msg := strings.Join(res.Errors, "; ")
		out.Error = &msg
	}
	return out
}

// replayInputs checks a replay and reads the decisions it runs, newest
// first.
func (s *Service) replayInputs(ctx context.Context, k *kindRules, id uuid.UUID, in ReplayInput) (*target, []*ent.DecisionRecord, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	limit, err := in.check()
	if err != nil {
		return nil, nil, err
	}
	// Replay is the evidence for a publish decision, so whoever may publish
	// the base may replay against it; the stored inputs it runs are already
	// masked, so it needs no permission to read decisions as well.
	l, err := s.load(ctx, p, k, id, authz.ActionPublish)
	if err != nil {
		return nil, nil, err
	}
	rows, err := s.store.DecisionInputs(ctx, storage.DecisionFilter{Tenant: p.TenantID, BaseID: &l.base.ID,
		Kind: decisionrecord.Kind(l.base.Kind), Since: toStoredPrecision(in.Since), Until: toStoredPrecision(in.Until)}, limit)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	return l, rows, nil
}

// compareAll runs each recorded input and compares; the changed come
// first, then the failed, then the unchanged, each newest first. run
// holds nothing of the data it is given once it returns: the next input
// is decoded into its maps.
func compareAll(rows []*ent.DecisionRecord, run func(map[string]any, json.RawMessage) (ReplayOutcome, error),
	limits engine.Limits) (*Replay, error) {
	out := &Replay{Compared: len(rows), Items: make([]ReplayItem, 0, len(rows))}
	decoder := engine.NewDataDecoder(limits)
	for _, r := range rows {
		item := ReplayItem{DecisionID: r.ID, At: r.At,
			Before: ReplayOutcome{Result: r.Result, Explanation: r.Explanation, Error: r.Error, Outcome: r.Outcome}}
		raw := json.RawMessage(r.Input)
		data, err := decoder.Decode(raw)
		started := err == nil
		if !started {
			msg := "the recorded input does not decode: " + err.Error()
			item.After = ReplayOutcome{Explanation: "The run could not start: " + msg + ".", Error: &msg}
		} else if item.After, err = run(data, raw); err != nil {
			return nil, err
		}
		decoder.Recycle()
		switch {
		case started && item.After.decidesOtherwise(item.Before):
			item.Changed = true
			out.Changed++
		case item.After.Error != nil:
			out.Errors++
		default:
			out.Unchanged++
		}
		out.Items = append(out.Items, item)
	}
	rank := func(it ReplayItem) int {
		switch {
		case it.Changed:
			return 0
		case it.After.Error != nil:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(out.Items, func(a, b ReplayItem) int { return rank(a) - rank(b) })
	return out, nil
}
