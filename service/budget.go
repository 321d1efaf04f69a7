package service

import "context"

// RunBudget is what runs are charged to: every evaluation of a rule,
// policy or flow costs one, whatever carried it, so that a GraphQL
// document of many run fields costs as many runs as it makes. The
// transport hands one to each request through WithRunBudget; without one
// runs are not limited (the service's own tests, the command line).
type RunBudget interface {
	// SpendRun takes one run from the budget, or says why it cannot:
	// a rate_limited error.
	SpendRun() error
}

type budgetKey struct{}

// WithRunBudget returns a context whose runs are charged to b.
func WithRunBudget(ctx context.Context, b RunBudget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// startRun is where every run begins: it finds the caller and charges the
// run to the request's budget, before any work.
func startRun(ctx context.Context) (*Principal, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if b, ok := ctx.Value(budgetKey{}).(RunBudget); ok {
		if err := b.SpendRun(); err != nil {
			return nil, err
		}
	}
	return p, nil
}
