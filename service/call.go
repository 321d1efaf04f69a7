package service

import (
	"context"
	"time"
)

// Call is what the transport knows of one request and the service needs:
// who makes it, when it arrived and what its runs are charged to. It
// travels as one context value, which the transport fills in as it learns
// each part, so that a request does not copy its context, and its
// request, once per part.
type Call struct {
	// Principal is the caller; nil until the request is authenticated.
	Principal *Principal
	// Arrived is when the request arrived, so that a run's `total` covers
	// the whole request and not only the service's part; zero means when
	// the run began.
	Arrived time.Time
	// Budget is what runs are charged to; nil means runs are not limited
	// (the service's own tests, the command line).
	Budget RunBudget
	// Ends says that the transport calls Done once the answer is written:
	// only then do the call's answers count against what the requests
	// under way may answer together (Config.MaxAnswersInFlight), since
	// only then are they let go.
	Ends bool
	// answers is what the request's runs have answered (see
	// spendAnswer), shared by every context derived from the call.
	answers *answerBudget
	// texts are the rule texts its inline runs compiled (see
	// Service.compileInline).
	texts *compiledTexts
	// checks are the rule texts it checked (see Service.CheckRule).
	checks *checkedTexts
	// objectBytes is what its transport spends building each object of
	// an answer, beyond the object's bytes in JSON (see WithObjectBytes).
	objectBytes int
}

type callKey struct{}

// WithCall returns a context carrying c. The transport may fill in c's
// fields after this, but only before the service reads them.
func WithCall(ctx context.Context, c *Call) context.Context {
	if c.answers == nil {
		c.answers = &answerBudget{bounded: c.Ends}
	}
	if c.texts == nil {
		c.texts = new(compiledTexts)
	}
	if c.checks == nil {
		c.checks = new(checkedTexts)
	}
	return context.WithValue(ctx, callKey{}, c)
}

func callOf(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// withCallChange returns a context whose call is ctx's with change made,
// leaving ctx's own call as it was.
func withCallChange(ctx context.Context, change func(*Call)) context.Context {
	var c Call
	if prev := callOf(ctx); prev != nil {
		c = *prev
	}
	change(&c)
	return WithCall(ctx, &c)
}

// WithPrincipal returns a context carrying the caller.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return withCallChange(ctx, func(c *Call) { c.Principal = p })
}

// PrincipalFrom returns the caller a context carries.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	if c := callOf(ctx); c != nil && c.Principal != nil {
		return c.Principal, true
	}
	return nil, false
}

// WithRunBudget returns a context whose runs are charged to b.
func WithRunBudget(ctx context.Context, b RunBudget) context.Context {
	return withCallChange(ctx, func(c *Call) { c.Budget = b })
}

// WithObjectBytes returns a context whose answers are charged n bytes
// more for each object they are made of where the service counts them (a
// check's tokens and diagnostics, a diff's lines): what a transport that
// builds an object for each spends beyond the bytes the object answers in
// JSON, in the bytes the bound on answers counts. GraphQL sets it; REST
// encodes the service's values as they are and leaves it 0.
func WithObjectBytes(ctx context.Context, n int) context.Context {
	return withCallChange(ctx, func(c *Call) { c.objectBytes = n })
}

// objectBytesOf is what ctx's transport spends on each object of an
// answer beyond its JSON (WithObjectBytes).
func objectBytesOf(ctx context.Context) int {
	if c := callOf(ctx); c != nil {
		return c.objectBytes
	}
	return 0
}

func requestStart(ctx context.Context, fallback time.Time) time.Time {
	if c := callOf(ctx); c != nil && !c.Arrived.IsZero() {
		return c.Arrived
	}
	return fallback
}

func runBudgetOf(ctx context.Context) RunBudget {
	if c := callOf(ctx); c != nil {
		return c.Budget
	}
	return nil
}
