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

// startRun is where every run begins: it finds the caller and charges the
// run to the request's budget, before any work.
func startRun(ctx context.Context) (*Principal, error) {
	return startRuns(ctx, 1)
}

// startRuns is startRun for n runs made by one call (a batch): all of
// them are charged before any is made, or none is.
func startRuns(ctx context.Context, n int) (*Principal, error) {
	p, err := principalOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := chargeRuns(ctx, n); err != nil {
		return nil, err
	}
	return p, nil
}

// chargeRuns charges n runs of a call whose caller is known already: the
// tests of a test call or of a publish, each of which is a run.
func chargeRuns(ctx context.Context, n int) error {
	if b := runBudgetOf(ctx); b != nil && n > 0 {
		return b.SpendRuns(n)
	}
	return nil
}
