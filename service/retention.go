package service

import (
	"context"
	"log/slog"
	"time"

	"github.com/verdict/verdict/storage"
)

// DefaultAuditRetention is how long `executed` events are kept unless
// configured otherwise (verdict serve --audit-retention).
const DefaultAuditRetention = 90 * 24 * time.Hour

// upkeepInterval is how often the partitions ahead are checked and
// expired events removed; a failed run is tried again after it.
const upkeepInterval = time.Hour

// upkeepTimeout bounds one run of the upkeep.
const upkeepTimeout = 10 * time.Minute

// auditUpkeep keeps the store of `executed` events in shape: partitions
// for the coming days exist before they begin, and events older than the
// retention are removed (ExpireExecutions). It runs when the service
// starts and then every upkeepInterval; every replica runs it, and runs
// that meet change nothing twice.
type auditUpkeep struct {
	store     storage.Executions
	retention time.Duration // 0 keeps events forever
	now       func() time.Time
	log       *slog.Logger
	metrics   *retentionMetrics
}

// run prepares the partitions ahead of now and expires what the
// retention no longer keeps.
func (u *auditUpkeep) run(ctx context.Context) error {
	now := u.now()
	err := u.store.PrepareExecutions(ctx, now)
	if err == nil && u.retention > 0 {
		var expired storage.Expired
		expired, err = u.store.ExpireExecutions(ctx, now.Add(-u.retention))
		u.metrics.partitionsDropped.Add(float64(expired.Partitions))
		u.metrics.eventsExpired.Add(float64(expired.Events))
		if expired.Partitions > 0 || expired.Events > 0 {
			u.log.Info("expired audit events", "partitions", expired.Partitions, "events", expired.Events,
				"olderThan", now.Add(-u.retention))
		}
	}
	if err != nil {
		u.metrics.failures.Inc()
		return err
	}
	u.metrics.lastRun.Set(float64(now.Unix()))
	return nil
}

// runEvery runs the upkeep now and then every upkeepInterval until ctx
// ends.
func (u *auditUpkeep) runEvery(ctx context.Context) {
	tick := time.NewTicker(upkeepInterval)
	defer tick.Stop()
	for {
		runCtx, cancelRun := context.WithTimeout(ctx, upkeepTimeout)
		if err := u.run(runCtx); err != nil && ctx.Err() == nil {
			u.log.Warn("audit upkeep failed; retrying later", "error", err, "retryIn", upkeepInterval.String())
		}
		cancelRun()
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}
