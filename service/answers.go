package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"golang.org/x/sync/semaphore"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/flow"
)

// DefaultMaxAnswerBytes bounds what the runs of one request may answer,
// all together, as estimated before each run (engine.Program.AnswerWeight
// and the data each answer echoes), when Config leaves it unset: a batch,
// a test call, a flow or a GraphQL document of many run fields on a large
// policy would otherwise answer gigabytes, and spend the CPU that goes
// with them (docs/endpoints.md, "How much one request may answer").
const DefaultMaxAnswerBytes = 64 << 20

// answersInFlightPerRequest is how many requests' worth of answers the
// requests under way may hold together when Config leaves it unset: an
// answer takes about four times its size in memory while it is built and
// written, so the default bounds that memory near a gigabyte.
const answersInFlightPerRequest = 4

// answerBudget is what the answers of one request's runs have taken, and
// what they have read (engine.Result.ReadBytes). held is what of spent
// the service's bound on answers in flight holds for the request, in
// from, until the request ends (Call.Done); busy counts the spends that
// bound refused.
type answerBudget struct {
	spent, read, held, busy atomic.Int64
	from                    atomic.Pointer[semaphore.Weighted]
	// share is the organization's part of the bound that held is also
	// counted in, once it holds any.
	share atomic.Pointer[tenantShare]
	// bounded is Call.Ends: whether the bound on answers in flight applies.
	bounded bool
}

// tenantShares are the organizations' parts of the bound on answers in
// flight, each at most limit.
type tenantShares struct {
	limit int64
	mu    sync.Mutex
	held  map[uuid.UUID]*tenantShare
}

// tenantShare is what one organization's requests under way hold; it is
// dropped from tenantShares once they hold nothing.
type tenantShare struct {
	of     *tenantShares
	tenant uuid.UUID
	held   int64 // guarded by of.mu
}

func newTenantShares(limit int64) *tenantShares {
	return &tenantShares{limit: limit, held: map[uuid.UUID]*tenantShare{}}
}

// take counts n more bytes to tenant, unless that would pass its share.
func (t *tenantShares) take(tenant uuid.UUID, n int64) (*tenantShare, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sh := t.held[tenant]
	if sh == nil {
		sh = &tenantShare{of: t, tenant: tenant}
	}
	if sh.held+n > t.limit {
		return nil, false
	}
	sh.held += n
	t.held[tenant] = sh
	return sh, true
}

// give returns n bytes of sh.
func (sh *tenantShare) give(n int64) {
	t := sh.of
	t.mu.Lock()
	defer t.mu.Unlock()
	sh.held -= n
	if sh.held <= 0 {
		delete(t.held, sh.tenant)
	}
}

// Done ends the call: what its answers held of the service's bound on
// answers in flight goes back to it, for other requests. The transport
// calls it once the answer is written.
func (c *Call) Done() {
	if c.answers == nil {
		return
	}
	if from := c.answers.from.Load(); from != nil {
		if n := c.answers.held.Swap(0); n > 0 {
			from.Release(n)
			if sh := c.answers.share.Load(); sh != nil {
				sh.give(n)
			}
		}
	}
}

// answersOf is the budget of the request ctx belongs to; nil for a
// context without a call (the service's own tools, the command line),
// which is not limited.
func answersOf(ctx context.Context) *answerBudget {
	if c := callOf(ctx); c != nil {
		return c.answers
	}
	return nil
}

// spendAnswer charges answer estimated bytes to the request's budget, or
// nothing when they would take it past the service's bound: then what is
// asked for must be asked in smaller requests. The bytes are held, too,
// of what all requests under way may answer together, which bounds the
// memory that many large requests at once take; past it the request is
// refused as unavailable, to be retried, rather than made to wait while
// it holds what it has spent already.
func (s *Service) spendAnswer(ctx context.Context, answer int) error {
	c := callOf(ctx)
	if c == nil || c.answers == nil || answer <= 0 {
		return nil
	}
	b, n := c.answers, int64(answer)
	if b.spent.Add(n) > int64(s.maxAnswer) {
		b.spent.Add(-n)
		return s.answersTooLarge()
	}
	if !b.bounded {
		return nil
	}
	// The organization's share first, then the bound of all requests.
	var share *tenantShare
	fits := true
	if c.Principal != nil {
		share, fits = s.tenantsInFlight.take(c.Principal.TenantID, n)
	}
	if fits && !s.inFlight.TryAcquire(n) {
		if share != nil {
			share.give(n)
		}
		fits = false
	}
	if !fits {
		b.spent.Add(-n)
		b.busy.Add(1)
		return s.answersBusy()
	}
	b.from.Store(s.inFlight)
	if share != nil {
		b.share.Store(share)
	}
	b.held.Add(n)
	return nil
}

// answersBusy is the refusal of a request that the bound on answers in
// flight has no room for.
func (s *Service) answersBusy() *Error {
	return &Error{Code: CodeUnavailable, Message: fmt.Sprintf("the server is answering as much as it may at once "+
		"(%s); retry in a moment", size(s.maxInFlight))}
}

// busyRefusals counts the spends of ctx's request that the bound on
// answers in flight refused.
func busyRefusals(ctx context.Context) int64 {
	if b := answersOf(ctx); b != nil {
		return b.busy.Load()
	}
	return 0
}

// refusedAsBusy is answersBusy when the bound on answers in flight
// refused a spend of ctx's request since it had refused before, which a
// flow, failing closed, does not return: a run cut short by other
// requests' load must not answer false.
func (s *Service) refusedAsBusy(ctx context.Context, before int64) error {
	if busyRefusals(ctx) > before {
		return s.answersBusy()
	}
	return nil
}

func (s *Service) answersTooLarge() *Error {
	return Invalid("this request would answer more than %s; ask for fewer runs, checks or records in one request", size(s.maxAnswer))
}

// explain charges to the request's bound what res shows beyond the
// estimate charged before its run (engine.Result.ShownAnswerBytes: a large
// value of the data that many conditions show), and then explains it;
// past the bound it is refused before anything is written out. What its
// conditions read counts against the same bound, apart: a run may read at
// most that much (engine.Limits.MaxReadBytes), and so may all the runs of
// a request together.
func (s *Service) explain(ctx context.Context, res *engine.Result) error {
	if err := s.spendReads(ctx, res.ReadBytes()); err != nil {
		return err
	}
	if err := s.spendAnswer(ctx, res.ShownAnswerBytes()); err != nil {
		return err
	}
	res.Explain()
	return nil
}

// spendReads charges what a run read of the data to the request, whose
// runs may read together at most what it may answer.
func (s *Service) spendReads(ctx context.Context, n int) error {
	if b := answersOf(ctx); b != nil && b.read.Add(int64(n)) > int64(s.maxAnswer) {
		return s.readsTooMuch()
	}
	return nil
}

func (s *Service) readsTooMuch() *Error {
	return Invalid("this request's runs would read more than %s of data values; ask for fewer runs in one request", size(s.maxAnswer))
}

// charged are the options of a flow run whose nodes' answers are charged
// to the request: past the bound, the run stops, fail closed, saying why.
func (s *Service) charged(ctx context.Context) flow.Options {
	return flow.Options{Spend: func(answer int) error {
		if err := s.spendAnswer(ctx, answer); err != nil {
			return errors.New(messageOf(err))
		}
		return nil
	}, Read: func(n int) error {
		if s.spendReads(ctx, n) != nil {
			return errors.New(s.readsTooMuch().Message)
		}
		return nil
	}}
}

// askForFewer is what admitRuns advises a call that can ask for fewer runs.
const askForFewer = "ask for at most %d in one request"

// admitRuns admits n runs of one policy at once, before any runs: a
// batch's items, the tests of a test call or a publish, or the decisions a
// replay runs, each answering about each bytes beside its data (data bytes
// in all). Their answers are charged to the request's bound, then the runs
// to its rate limits, so that a call refused for its size spends no runs.
// Refused for its size, it says how many such runs the request can still
// hold, in advice (a format of that number): the other fields of a GraphQL
// document may have spent some of it.
func (s *Service) admitRuns(ctx context.Context, what, advice string, n, each, data int) error {
	err := s.spendAnswer(ctx, n*each+data)
	switch {
	case err == nil:
		return chargeRuns(ctx, n)
	case CodeOf(err) == CodeUnavailable:
		return err
	}
	one := each + data/max(1, n)
	bound := size(s.maxAnswer) + " one request may"
	left := s.maxAnswer
	if b := answersOf(ctx); b != nil {
		if spent := int(b.spent.Load()); spent > 0 {
			left = max(0, s.maxAnswer-spent)
			bound = size(left) + " this request has left of the " + bound
		}
	}
	return Invalid("%d %s of this policy would answer about %s, more than the %s: each answers about %s; "+advice,
		n, what, size(n*each+data), bound, size(one), left/max(1, one))
}

// size words a number of bytes in KiB below a MiB, else in MiB.
func size(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
