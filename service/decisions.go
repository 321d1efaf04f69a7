package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/verdict/verdict/authz"
	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/ent"
	"github.com/verdict/verdict/ent/auditevent"
	"github.com/verdict/verdict/ent/decisionrecord"
	"github.com/verdict/verdict/ent/record"
	"github.com/verdict/verdict/flow"
	"github.com/verdict/verdict/internal/redact"
	"github.com/verdict/verdict/storage"
)

// DecisionSettings say whether a base's stored runs are recorded
// (docs/decisions.md): Enabled, for SampleRate of its runs (in (0, 1]),
// with the values at the Mask paths replaced before anything is stored.
type DecisionSettings struct {
	BaseID     uuid.UUID `json:"baseId"`
	Enabled    bool      `json:"enabled"`
	SampleRate float64   `json:"sampleRate"`
	Mask       []string  `json:"mask"`
}

// DecisionSettingsInput is what PUT .../decision-records and
// setDecisionRecords set: the whole setting. A SampleRate not given is 1,
// a Mask not given is none.
type DecisionSettingsInput struct {
	Enabled    bool
	SampleRate *float64
	Mask       []string
}

func (in DecisionSettingsInput) check() (float64, []maskPath, error) {
	rate := 1.0
	if in.SampleRate != nil {
		rate = *in.SampleRate
		if !(rate > 0 && rate <= 1) {
			return 0, nil, Invalid("sampleRate must be greater than 0 and at most 1, not %v", rate)
		}
	}
	mask, err := checkMask(in.Mask)
	return rate, mask, err
}

// recording is how a base records its runs, read once with the base into
// the run cache; nil when it does not.
type recording struct {
	rate float64
	mask []maskPath
	// texts are the mask's paths as they were set.
	texts []string
}

// recordingOf parses a base's settings. Stored masks were checked when
// they were set; one that no longer parses records nothing rather than
// storing what it was meant to hide.
func recordingOf(b *ent.Base) *recording {
	if !b.DecisionsEnabled {
		return nil
	}
	mask, err := parseMask(b.DecisionsMask)
	if err != nil {
		return nil
	}
	return &recording{rate: b.DecisionsSampleRate, mask: mask, texts: b.DecisionsMask}
}

// maskTexts is the mask a run of a base recording as r masks with, as
// set: none when r is nil.
func (r *recording) maskTexts() []string {
	if r == nil {
		return nil
	}
	return r.texts
}

func settingsOf(b *ent.Base) *DecisionSettings {
	mask := b.DecisionsMask
	if mask == nil {
		mask = []string{}
	}
	return &DecisionSettings{BaseID: b.ID, Enabled: b.DecisionsEnabled, SampleRate: b.DecisionsSampleRate, Mask: mask}
}

// PolicyDecisionSettings reads a policy base's decision-record settings
// (GET /policy/{policyId}/decision-records): any id of the base, for
// those who may view it.
func (s *Service) PolicyDecisionSettings(ctx context.Context, id uuid.UUID) (*DecisionSettings, error) {
	return s.decisionSettings(ctx, s.policyKind, id)
}

// FlowDecisionSettings is PolicyDecisionSettings for flows.
func (s *Service) FlowDecisionSettings(ctx context.Context, id uuid.UUID) (*DecisionSettings, error) {
	return s.decisionSettings(ctx, s.flowKind, id)
}

// SetPolicyDecisionSettings turns a policy base's decision records on or
// off (PUT /policy/{policyId}/decision-records): for those who may edit
// the base, which records an `edited` event.
func (s *Service) SetPolicyDecisionSettings(ctx context.Context, id uuid.UUID, in DecisionSettingsInput) (*DecisionSettings, error) {
	return s.setDecisionSettings(ctx, s.policyKind, id, in)
}

// SetFlowDecisionSettings is SetPolicyDecisionSettings for flows.
func (s *Service) SetFlowDecisionSettings(ctx context.Context, id uuid.UUID, in DecisionSettingsInput) (*DecisionSettings, error) {
	return s.setDecisionSettings(ctx, s.flowKind, id, in)
}

func (s *Service) decisionSettings(ctx context.Context, k *kindRules, id uuid.UUID) (*DecisionSettings, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionView)
	if err != nil {
		return nil, err
	}
	return settingsOf(l.base), nil
}

func (s *Service) setDecisionSettings(ctx context.Context, k *kindRules, id uuid.UUID, in DecisionSettingsInput) (*DecisionSettings, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	rate, _, err := in.check()
	if err != nil {
		return nil, err
	}
	l, err := s.load(ctx, p, k, id, authz.ActionEdit)
	if err != nil {
		return nil, err
	}
	mask := in.Mask
	if mask == nil {
		mask = []string{}
	}
	var out *ent.Base
	err = s.inTx(ctx, func(tx storage.Tx) error {
		now := s.timestamp()
		var changed bool
		if out, changed, err = tx.SetDecisions(ctx, l.base, in.Enabled, rate, mask, now); err != nil {
			return changeErr(err, l.base)
		}
		if !changed {
			// The setting as it was: no event, and no cache to drop.
			return nil
		}
		// Runs read the setting with the cached base.
		return s.changed(ctx, tx, baseChange(out, uuid.Nil), event{tenant: p.TenantID, action: auditevent.ActionEdited,
			kind: k.auditKind(), base: &out.ID, actor: p, details: map[string]any{
				"fields":          []string{"decisionRecords"},
				"decisionRecords": map[string]any{"enabled": in.Enabled, "sampleRate": rate, "mask": mask},
			}})
	})
	if err != nil {
		return nil, err
	}
	return settingsOf(out), nil
}

// decisionRow is a decision record on its way to the table with its run's
// `executed` event, which holds the tenant, time, base, record and actor.
type decisionRow struct {
	id          uuid.UUID
	version     *int
	revision    int
	result      bool
	explanation string
	// cut says that the explanation was cut to MaxStoredExplanation.
	cut      bool
	duration time.Duration
	input    string
	// policies is a flow run's FlowPolicies as JSON; nil for a policy run.
	policies *string
	// err is the error the run stopped with, masked; nil for none.
	err *string
	// errCut says that err was cut to MaxStoredExplanation.
	errCut bool
	// outcome is the outcome of the custom node a flow run ended on; nil
	// for none. It is the definition's text, which masks do not concern.
	outcome *string
}

// FlowPolicy is a policy record a flow run's nodes resolved a reference
// to, as the flow's decision record keeps it: ids only, so that the run
// can be recomputed with exactly the records that ran.
type FlowPolicy struct {
	// Ref is the reference as the flow's nodes name it.
	Ref      flow.PolicyRef `json:"ref"`
	RecordID uuid.UUID      `json:"recordId"`
	// Revision tells which state of a draft ran.
	Revision int `json:"revision"`
}

// resolvedPolicies lists, as a decision record keeps them, the policy
// records the run's references resolved to, in the order the run first
// met them. A reference that did not resolve is left out: recomputed, it
// does not resolve either.
func (r *policyResolver) resolvedPolicies() *string {
	list := make([]FlowPolicy, 0, len(r.memo))
	for _, res := range r.memo {
		if res.target != nil {
			list = append(list, FlowPolicy{Ref: res.ref, RecordID: res.target.record.ID, Revision: res.target.record.Revision})
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		// A list of ids and ints always encodes.
		panic(err)
	}
	text := string(b)
	return &text
}

// maskErrors hides, in the error texts of a run's `executed` event, the
// values that t's mask hides in its decision records: an error may quote
// the data it met ("Unsupported JSON value type: {...}"), and a masked
// value is stored nowhere. Without a mask the texts stay as they are.
func maskErrors(t *target, raw json.RawMessage, texts []string) {
	if t.recording == nil || len(t.recording.mask) == 0 {
		return
	}
	_, hidden, err := maskInput(raw, t.recording.mask)
	for i := range texts {
		if err != nil {
			// The data decoded when the run began; should it not now,
			// nothing of the texts is kept.
			texts[i] = Masked
			continue
		}
		texts[i] = redact.Whole(texts[i], hidden, Masked)
	}
}

// decisionOf is the record of a run of t, or nil when its base records
// no runs or the sample leaves this one out. The input is masked, and so
// is the explanation, before the record leaves this function.
func (s *Service) decisionOf(t *target, raw json.RawMessage, result bool, explanation string, failure *string, took time.Duration) *decisionRow {
	rec := t.recording
	if rec == nil || rec.rate < 1 && rand.Float64() >= rec.rate {
		return nil
	}
	input, hidden, err := maskInput(raw, rec.mask)
	if err != nil {
		// The data decoded when the run began; a record that could not be
		// masked is not stored at all.
		s.log.Error("masking a decision record failed; not recording it", "base", t.base.ID, "error", err)
		return nil
	}
	var compact bytes.Buffer
	if json.Compact(&compact, input) == nil {
		input = compact.Bytes()
	}
	d := &decisionRow{id: uuid.Must(uuid.NewV7()), version: t.record.Version, revision: t.record.Revision, result: result,
		duration: took, input: string(input)}
	d.explanation, d.cut = maskedToStore(explanation, hidden)
	if failure != nil {
		var masked string
		masked, d.errCut = maskedToStore(*failure, hidden)
		d.err = &masked
	}
	return d
}

// maskedToStore is a text of a run as a decision record keeps it: masked,
// and cut to MaxStoredExplanation; cut says whether it was.
func maskedToStore(text string, hidden []string) (kept string, cut bool) {
	return storedExplanation(redact.Whole(text, hidden, Masked)), len(text) > MaxStoredExplanation
}

// maskedAgain is a stored text masked again: one that was cut keeps only
// the note of the cut, since a value cut in two no longer matches.
func maskedAgain(text string, cut bool, hidden []string) string {
	if cut {
		return strings.TrimPrefix(cutExplanation, " ")
	}
	return redact.Whole(text, hidden, Masked)
}

// underCurrentSettings holds the decision records of a batch of events,
// and their error texts, to the settings their bases have now. A run
// records and masks with the settings its replica has cached, which
// another replica may have changed a moment before (the change reaches
// this one's cache a few milliseconds later, or when the expiry ends it,
// if the change feed is lost): the writer reads the settings after the
// runs, so that no run that began after a change was acknowledged is
// stored under the settings that the change replaced. A record whose base
// records no runs now is not stored, and its event no longer names it; one
// whose mask changed is masked again with the mask of now, in its input,
// its explanation and its event's error texts. The error texts of an event
// without a record, whose values cannot be found again, are hidden whole
// when a mask applies now that did not when the run masked them.
func underCurrentSettings(ctx context.Context, store storage.DecisionWrites, batch []queued) error {
	var held []*queued
	var bases []uuid.UUID
	for i := range batch {
		if ev := &batch[i]; ev.decision != nil || hasErrorTexts(ev.Extra) {
			held = append(held, ev)
			bases = append(bases, ev.BaseID)
		}
	}
	if len(held) == 0 {
		return nil
	}
	slices.SortFunc(bases, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })
	now, err := store.Recordings(ctx, slices.Compact(bases))
	if err != nil {
		return err
	}
	for _, ev := range held {
		cur := now[ev.BaseID]
		var mask []string
		if cur.Enabled {
			mask = cur.Mask
		} else {
			ev.dropDecision()
		}
		if slices.Equal(mask, ev.mask) {
			continue
		}
		if ev.decision != nil && !ev.decision.remask(mask, ev.Extra) {
			ev.dropDecision()
		}
		if ev.decision == nil && len(mask) > 0 {
			eachErrorText(ev.Extra, func(string) string { return Masked })
		}
		ev.mask = mask
	}
	return nil
}

// dropDecision leaves the event's decision record unstored and unnamed.
func (q *queued) dropDecision() {
	q.decision = nil
	delete(q.Extra, "decisionId")
}

// hasErrorTexts reports whether an `executed` event's extra keeps what a
// failed run said: "error" for a policy, "errors" for a flow.
func hasErrorTexts(extra map[string]any) bool {
	_, policy := extra["error"]
	_, flow := extra["errors"]
	return policy || flow
}

// eachErrorText replaces each error text of an event's extra with what
// change makes of it.
func eachErrorText(extra map[string]any, change func(string) string) {
	if text, ok := extra["error"].(string); ok {
		extra["error"] = change(text)
	}
	if texts, ok := extra["errors"].([]string); ok {
		for i := range texts {
			texts[i] = change(texts[i])
		}
	}
}

// remask masks the record again with mask, and the error texts of its
// event's extra, and reports whether it could: a mask that does not
// parse records nothing, as recordingOf has it. An explanation or error
// that was cut is not kept, since a masked value may begin before the cut
// and end after it.
func (d *decisionRow) remask(mask []string, extra map[string]any) bool {
	paths, err := parseMask(mask)
	if err != nil {
		return false
	}
	input, hidden, err := maskInput(json.RawMessage(d.input), paths)
	if err != nil {
		return false
	}
	d.input = string(input)
	d.explanation = maskedAgain(d.explanation, d.cut, hidden)
	if d.err != nil {
		masked := maskedAgain(*d.err, d.errCut, hidden)
		d.err = &masked
	}
	eachErrorText(extra, func(text string) string {
		// A value cut in two no longer matches: keep only the note.
		if strings.HasSuffix(text, cutEventError) {
			return strings.TrimPrefix(cutEventError, " ")
		}
		return redact.Whole(text, hidden, Masked)
	})
	return true
}

// MaxStoredExplanation bounds the explanation a decision record keeps.
// Most are a line; one that shows large values of the data can reach
// megabytes, and a page of records would answer a hundred of them. Reading
// the record recomputes the run, explanation whole.
const MaxStoredExplanation = 16 << 10

// cutExplanation ends an explanation cut to MaxStoredExplanation.
const cutExplanation = " … (cut at 16 KiB: reading the decision recomputes the run in full)"

// cutEventError ends an `executed` event's error text cut to
// MaxStoredExplanation. An error may quote a value of the data whole, up
// to the size of a body, and the audit log keeps events for months.
const cutEventError = " … (cut at 16 KiB)"

func storedExplanation(text string) string {
	return cutTo(text, cutExplanation)
}

// eventErrorText is an error text as an `executed` event keeps it.
func eventErrorText(text string) string {
	return cutTo(text, cutEventError)
}

// cutTo cuts text to MaxStoredExplanation bytes, note included, on a
// character's boundary.
func cutTo(text, note string) string {
	if len(text) <= MaxStoredExplanation {
		return text
	}
	end := MaxStoredExplanation - len(note)
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end] + note
}

// Decision is one recorded run (docs/decisions.md, "Reading decisions").
type Decision struct {
	ID       uuid.UUID `json:"id"`
	Kind     string    `json:"kind"`
	BaseID   uuid.UUID `json:"baseId"`
	RecordID uuid.UUID `json:"recordId"`
	// Version is null when the draft ran; Revision is then the draft's
	// revision at the time.
	Version     *int            `json:"version"`
	Revision    int             `json:"revision"`
	At          time.Time       `json:"at"`
	Result      bool            `json:"result"`
	Explanation string          `json:"explanation"`
	Duration    Nanos           `json:"durationNs"`
	Actor       Actor           `json:"actor"`
	Data        json.RawMessage `json:"data"`
	// Policies are, for a flow, the policy records its nodes resolved
	// to; null for a policy, and for a flow recorded before they were
	// kept.
	Policies []FlowPolicy `json:"policies"`
	// Error is the error the run stopped with (a flow's errors joined by
	// "; "), masked; null when it stopped on none, and for a decision
	// recorded before errors were kept.
	Error *string `json:"error"`
	// Outcome is the outcome of the custom node a flow run ended on; null
	// when it ended on none, for a policy, and for a decision recorded
	// before outcomes were kept.
	Outcome *string `json:"outcome"`

	tenant uuid.UUID
}

// DecisionDetail is a decision with its run recomputed (GET
// /decision/{id}), when that is possible; Note says why it is not.
type DecisionDetail struct {
	Decision
	Recomputed *Recomputed `json:"recomputed"`
	Note       *string     `json:"note"`
}

// Recomputed is a run done again on a decision's stored input with the
// record that ran (and, for a flow, the policy records its nodes resolved
// to): its trace, which records do not store, and its result and
// explanation, which differ from the recorded ones only where a masked
// value decided. A flow's Trace is its last node's, whose explanation the
// flow's ends with; every node's is in Flow.
type Recomputed struct {
	Result      bool          `json:"result"`
	Explanation string        `json:"explanation"`
	Trace       engine.Trace  `json:"trace"`
	Error       *RecomputeErr `json:"error"`
	// Flow is a flow's run result, as a flow run answers it; null for a
	// policy.
	Flow *FlowResult `json:"flow"`
}

// RecomputeErr is the error a recomputed run stopped with. It is written
// as its message, as a run result's error and the record's own are.
type RecomputeErr struct {
	Message string
}

func (e RecomputeErr) MarshalJSON() ([]byte, error) { return json.Marshal(e.Message) }

func decisionOfRow(r *ent.DecisionRecord) Decision {
	d := Decision{
		ID: r.ID, Kind: string(r.Kind), BaseID: r.BaseID, RecordID: r.RecordID, Version: r.Version,
		Revision: r.Revision, At: r.At, Result: r.Result, Explanation: r.Explanation,
		Duration: Nanos(r.DurationNs), Actor: Actor{Kind: string(r.ActorKind), ID: r.ActorID},
		Data: json.RawMessage(r.Input), Error: r.Error, Outcome: r.Outcome, tenant: r.OrganizationID,
	}
	if r.Policies != nil && json.Unmarshal([]byte(*r.Policies), &d.Policies) != nil {
		// Written by decisionOf's caller only; a list that does not read
		// back is treated as none, and the run is not recomputed.
		d.Policies = nil
	}
	return d
}

// decisionCursor is the cursor of the decision list resuming after d: the
// list is ordered like the audit log, by time then id, newest first.
func decisionCursor(d Decision) string { return list{kind: decisionList}.timeCursor(d.At, d.ID) }

// DecisionFilter narrows the decision list; zero fields do not filter.
// Since includes its instant and Until excludes its own.
type DecisionFilter struct {
	BaseID *uuid.UUID
	Result *bool
	Since  *time.Time
	Until  *time.Time
}

// Decisions lists the tenant's decision records, newest first (GET
// /decisions): admins and auditors only, like the audit log.
func (s *Service) Decisions(ctx context.Context, f DecisionFilter, o ListOptions) (*Page[Decision], error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	limit, err := o.limit()
	if err != nil {
		return nil, err
	}
	if o.Query != "" || o.groupFilter() != "" {
		return nil, Invalid("decisions filter by baseId, result, since and until only")
	}
	if f.Since != nil && f.Until != nil && !f.Until.After(*f.Since) {
		return nil, Invalid("until must be later than since")
	}
	f.Since, f.Until = toStoredPrecision(f.Since), toStoredPrecision(f.Until)
	var at time.Time
	var after uuid.UUID
	if o.Cursor != "" {
		if at, after, err = (list{kind: decisionList}).decodeTime(o.Cursor); err != nil {
			return nil, err
		}
	}
	if err := s.authorizeOnTenant(ctx, p, authz.ActionReadAudit, authz.KindAudit); err != nil {
		return nil, err
	}
	if err := s.recordIDAsBase(ctx, p, f.BaseID); err != nil {
		return nil, err
	}
	filter := storage.DecisionFilter{Tenant: p.TenantID, BaseID: f.BaseID, Result: f.Result, Since: f.Since, Until: f.Until}
	var n *int
	if o.WithTotal {
		count, err := s.store.CountDecisions(ctx, filter)
		if err != nil {
			return nil, unavailable(err)
		}
		n = &count
	}
	if o.Cursor != "" {
		filter.Before = &storage.Position{At: at, ID: after}
	}
	filter.Scan = s.listScan
	rows, scanned, err := s.store.Decisions(ctx, filter, limit+1)
	if err != nil {
		return nil, unavailable(err)
	}
	// Each decision answers the data it was run on, up to a request body
	// each: a page is charged as runs echoing that data are.
	answer := 0
	for _, r := range rows[:min(len(rows), limit)] {
		answer += rowAnswerBytes + len(r.Input) + engine.QuotedLength(r.Explanation)
		if r.Error != nil {
			answer += engine.QuotedLength(*r.Error)
		}
		if r.Outcome != nil {
			answer += engine.QuotedLength(*r.Outcome)
		}
	}
	if err := s.spendAnswer(ctx, answer); err != nil {
		return nil, err
	}
	page := pageOf(rows, limit, n, decisionOfRow, decisionCursor)
	if scanned != nil {
		page.NextCursor = list{kind: decisionList}.timeCursor(scanned.At, scanned.ID)
	}
	return page, nil
}

// Decision reads one decision record of the tenant and recomputes its
// policy run (GET /decision/{id}); admins and auditors only. Another
// tenant's record is not found.
//
// A published version never changes, so its run is recomputed exactly. A
// draft is recomputed only while it is at the revision that ran: drafts
// keep no history, and the text that ran is gone once it changed. A flow
// is recomputed with the policy records its nodes resolved to when it ran
// (kept with the record), on the same terms for each of them.
func (s *Service) Decision(ctx context.Context, id uuid.UUID) (*DecisionDetail, error) {
	p, err := s.allowed(ctx, authz.ActionReadAudit, authz.KindAudit)
	if err != nil {
		return nil, err
	}
	row, err := s.store.Decision(ctx, p.TenantID, id)
	if err != nil {
		return nil, lookupErr(err, "decision", id)
	}
	out := &DecisionDetail{Decision: decisionOfRow(row)}
	if out.Recomputed, out.Note, err = s.recompute(ctx, &out.Decision); err != nil {
		return nil, err
	}
	return out, nil
}

// RecomputeDecision is the recomputed run of a decision read already, or
// the note saying why there is none, as GET /decision/{id} shows them; for
// GraphQL, where a decision of a list may ask for its run. It needs the
// permission to read decisions, like the read itself.
func (s *Service) RecomputeDecision(ctx context.Context, d *Decision) (*Recomputed, *string, error) {
	p, err := s.allowed(ctx, authz.ActionReadAudit, authz.KindAudit)
	if err != nil {
		return nil, nil, err
	}
	if d.tenant != p.TenantID {
		return nil, nil, newError(CodeNotFound, "no decision %s", d.ID)
	}
	return s.recompute(ctx, d)
}

func (s *Service) recompute(ctx context.Context, d *Decision) (*Recomputed, *string, error) {
	rec, err := s.store.Record(ctx, d.RecordID)
	switch {
	case errors.Is(err, storage.ErrNotFound), err == nil && rec.OrganizationID != d.tenant:
		return note("the record that ran no longer exists")
	case err != nil:
		return nil, nil, unavailable(err)
	case rec.Revision != d.Revision:
		return note("the draft that ran has changed since, so its run cannot be recomputed; replay the draft to compare it with the recorded result")
	}
	data, err := s.decodeData(d.Data)
	if err != nil {
		return nil, nil, internal(err)
	}
	if d.Kind == string(decisionrecord.KindFlow) {
		return s.recomputeFlow(ctx, d, rec, data)
	}
	prog := s.program(rec)
	if err := s.spendAnswer(ctx, prog.AnswerWeight()+len(d.Data)); err != nil {
		return nil, nil, err
	}
	res := prog.Evaluate(nil, data, d.Data)
	if err := s.explain(ctx, res); err != nil {
		return nil, nil, err
	}
	out := &Recomputed{Result: res.Result, Explanation: res.Explanation, Trace: res.Trace}
	if res.Error != nil {
		out.Error = &RecomputeErr{Message: res.Error.Message}
	}
	return out, nil, nil
}

// note is a recompute that cannot be done, and why.
func note(why string) (*Recomputed, *string, error) { return nil, &why, nil }

// recomputeFlow runs the flow record that ran again, its nodes' policies
// resolving to exactly the records (and revisions) they resolved to then.
func (s *Service) recomputeFlow(ctx context.Context, d *Decision, rec *ent.Record, data map[string]any) (*Recomputed, *string, error) {
	if d.Policies == nil {
		return note("this flow run was recorded before the policies its nodes resolved to were, so it is not recomputed")
	}
	ids := make([]uuid.UUID, len(d.Policies))
	for i, p := range d.Policies {
		ids[i] = p.RecordID
	}
	stored, err := s.store.RecordsIn(ctx, d.tenant, record.KindPolicy, ids)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	byID := make(map[uuid.UUID]*ent.Record, len(stored))
	for _, r := range stored {
		byID[r.ID] = r
	}
	resolved := make(recordedPolicies, len(d.Policies))
	for _, p := range d.Policies {
		r := byID[p.RecordID]
		switch {
		case r == nil:
			return note(fmt.Sprintf("the policy record %s that the flow's reference %s resolved to no longer exists", p.RecordID, engine.Quoted(p.Ref.String())))
		case r.Revision != p.Revision:
			return note(fmt.Sprintf("the policy draft %s that the flow's reference %s resolved to has changed since, so the run cannot be recomputed", p.RecordID, engine.Quoted(p.Ref.String())))
		}
		resolved[p.Ref] = s.program(r)
	}
	plan, err := s.flow(rec).runPlan()
	if err != nil {
		return note("the flow that ran no longer reads as a flow: " + err.Error())
	}
	busy := busyRefusals(ctx)
	res, err := plan.Run(ctx, data, d.Data, resolved, s.charged(ctx))
	if err != nil {
		return nil, nil, internal(err)
	}
	if err := s.refusedAsBusy(ctx, busy); err != nil {
		return nil, nil, err
	}
	// The trace is the last node's, whose explanation the flow's ends
	// with; every node's is in the flow result.
	trace := engine.Trace{Execution: []engine.RuleTrace{}}
	if n := len(res.NodeResponses); n > 0 && res.NodeResponses[n-1].Response != nil {
		trace = res.NodeResponses[n-1].Response.Trace
	}
	out := &Recomputed{Result: res.Result, Explanation: flowExplanation(res), Trace: trace, Flow: res}
	if len(res.Errors) > 0 {
		out.Error = &RecomputeErr{Message: strings.Join(res.Errors, "; ")}
	}
	return out, nil, nil
}

// recordedPolicies resolve a recomputed flow's references to the policy
// records they resolved to when it ran; one that did not resolve then
// does not now.
type recordedPolicies map[flow.PolicyRef]*flow.ResolvedPolicy

func (r recordedPolicies) ResolvePolicy(_ context.Context, ref flow.PolicyRef) (*flow.ResolvedPolicy, error) {
	if p, ok := r[ref]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("%w: %s", flow.ErrPolicyNotFound, engine.Quoted(ref.String()))
}

// ExpireDecisions removes the decision records older than the retention
// period and returns how many it removed (see storage.DecisionWrites for
// how each database does it).
func (s *Service) ExpireDecisions(ctx context.Context) (int, error) {
	now := s.timestamp()
	expired, err := s.store.ExpireDecisions(ctx, now, now.Add(-s.decisionRetention))
	s.metrics.decisionsExpired.Add(float64(expired))
	if err != nil {
		return expired, unavailable(err)
	}
	return expired, nil
}

// expireDecisionsEvery runs ExpireDecisions at once and then every
// interval until ctx ends; a failed round is logged and retried at the
// next one.
func (s *Service) expireDecisionsEvery(ctx context.Context, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if n, err := s.ExpireDecisions(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("deleting expired decision records failed", "error", err, "deleted", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
