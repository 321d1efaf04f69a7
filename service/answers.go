package service

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

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

// answerBudget is what the answers of one request's runs have taken, and
// what they have read (engine.Result.ReadBytes).
type answerBudget struct{ spent, read atomic.Int64 }

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
// asked for must be asked in smaller requests.
func (s *Service) spendAnswer(ctx context.Context, answer int) error {
	b := answersOf(ctx)
	if b == nil {
		return nil
	}
	if b.spent.Add(int64(answer)) > int64(s.maxAnswer) {
		b.spent.Add(-int64(answer))
		return s.answersTooLarge()
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
		if s.spendAnswer(ctx, answer) != nil {
			return errors.New(s.answersTooLarge().Message)
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
	if s.spendAnswer(ctx, n*each+data) == nil {
		return chargeRuns(ctx, n)
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
