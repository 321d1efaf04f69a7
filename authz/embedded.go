package authz

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/open-policy-agent/opa/v1/rego"
)

//go:embed authz.rego
var policySource string

const decisionQuery = "data.verdict.authz.decision"

// Embedded evaluates the policy in-process with a query prepared once at
// construction. It is safe for concurrent use.
type Embedded struct {
	query   rego.PreparedEvalQuery
	timeout time.Duration
	cache   *decisionCache // nil: every decision runs the query
}

var _ Authorizer = (*Embedded)(nil)

// NewEmbedded compiles the embedded policy.
func NewEmbedded(opts ...Option) (*Embedded, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return newEmbedded(policySource, c.timeout, newDecisionCache(decisionCacheSize))
}

func newEmbedded(module string, timeout time.Duration, cache *decisionCache) (*Embedded, error) {
	query, err := rego.New(
		rego.Query(decisionQuery),
		rego.Module("authz.rego", module),
		// A failing builtin would otherwise leave its expression undefined and
		// could let a later rule decide; an error denies instead.
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(context.Background())
	if err != nil {
		return nil, fmt.Errorf("authz: compile policy: %w", err)
	}
	return &Embedded{query: query, timeout: timeout, cache: cache}, nil
}

// Decide evaluates the policy for one action.
func (e *Embedded) Decide(ctx context.Context, p Principal, a Action, r Resource) (Decision, error) {
	// A caller that has given up gets no decision, cached or not.
	if err := ctx.Err(); err != nil {
		return Decision{}, unavailable(err)
	}
	key := decisionKey{p: p, a: a, r: r}
	if d, ok := e.cache.get(key); ok {
		return d, nil
	}
	d, err := e.evaluate(ctx, inputDocument(p, a, r))
	if err != nil {
		return Decision{}, err
	}
	e.cache.put(key, d)
	return d, nil
}

func (e *Embedded) evaluate(ctx context.Context, input map[string]any) (Decision, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	rs, err := e.query.Eval(ctx, rego.EvalInput(input))
	// OPA reports cancellation in an error of its own, and notices it
	// asynchronously, so a query can even finish after its deadline without
	// reporting it. The context says uniformly what happened.
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = ctxErr
	}
	if err != nil {
		return Decision{}, unavailable(err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return Decision{}, fmt.Errorf("%w: %s is undefined", ErrUnavailable, decisionQuery)
	}
	return decisionFrom(rs[0].Expressions[0].Value)
}
