package model

import (
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// ReplayPolicyInput is replayPolicy's input.
type ReplayPolicyInput struct {
	PolicyID uuid.UUID
	Since    *time.Time
	Until    *time.Time
	Limit    *int
}

// ReplayFlowInput is replayFlow's input.
type ReplayFlowInput struct {
	FlowID uuid.UUID
	Since  *time.Time
	Until  *time.Time
	Limit  *int
}

// ReplayInput is the service's input for a replay; an absent limit is the
// default, and a given one is checked, not taken for "absent" when 0.
func ReplayInput(since, until *time.Time, limit *int) (service.ReplayInput, error) {
	in := service.ReplayInput{Since: since, Until: until}
	if limit != nil {
		if *limit < 1 || *limit > service.MaxReplayLimit {
			return in, service.Invalid("limit must be between 1 and %d, not %d", service.MaxReplayLimit, *limit)
		}
		in.Limit = *limit
	}
	return in, nil
}

// TraceOf is a recomputed run's trace in the schema's types.
func TraceOf(t engine.Trace) *Trace { return traceOf(t) }
