package service

import "context"

// RunBudget is what runs are charged to: every evaluation of a rule,
// policy or flow costs one, whatever carried it, so that a GraphQL
// document of many run fields, or a batch of many items, costs as many
// runs as it makes. The transport hands one to each request as its
// Call's Budget; without one runs are not limited (the service's own
// tests, the command line).
type RunBudget interface {
	// SpendRuns takes n runs from the budget at once, or none and says
	// why it cannot: a rate_limited error.
	SpendRuns(n int) error
}

// startRun is where every single run begins: it finds the caller and
// charges the run to the request's budget, before any work. Many runs of
// one call are admitted whole by admitRuns (policies) or chargeRuns
// (flows, whose answers are charged as their nodes run).
func startRun(ctx context.Context) (*Principal, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := chargeRuns(ctx, 1); err != nil {
		return nil, err
	}
	return p, nil
}

// chargeRuns charges n runs of one call to the request's budget, all or
// none.
func chargeRuns(ctx context.Context, n int) error {
	if b := runBudgetOf(ctx); b != nil && n > 0 {
		return b.SpendRuns(n)
	}
	return nil
}
