package engine

import (
	"context"
	"sync/atomic"
	"time"

	"shopbot/catalog"
)

// keepEffects is how long the effects journal remembers a turn: far past
// any client retry or inbox resume (the inboxes keep handled updates for
// a day or two), short enough that the table stays small.
const keepEffects = 72 * time.Hour

// keepTombstones is how long the search feed remembers a deletion
// (catalog.Tombstone): a follower further behind than that rebuilds
// (the embedded index on every start; Weaviate with shopbot reindex).
const keepTombstones = 30 * 24 * time.Hour

// pruneEvery is how often a process prunes the journal, the ended
// rate-limit counters and the search feed's old tombstones, and sweeps
// undelivered notices.
const pruneEvery = 10 * time.Minute

// effectPruner deletes old journal rows, at most once per pruneEvery per
// process, on the turn that finds the last prune old enough (by the
// engine's clock, Config.Now). Replicas each prune; the DELETE is
// idempotent.
type effectPruner struct {
	last atomic.Int64 // unix nanoseconds of the last prune; 0 never
}

// maybePrune prunes if it is time; a failure is logged and retried at
// the next prune.
func (e *Engine) maybePrune(ctx context.Context, now time.Time) {
	last := e.pruner.last.Load()
	if last != 0 && now.Sub(time.Unix(0, last)) < pruneEvery {
		return
	}
	if !e.pruner.last.CompareAndSwap(last, now.UnixNano()) {
		return // another turn is pruning
	}
	ctx = context.WithoutCancel(ctx)
	e.sweepNotices(ctx, now)
	if _, err := catalog.PruneLimits(ctx, e.cfg.DB, now); err != nil {
		e.log.WarnContext(ctx, "rate limit counters not pruned", "err", err)
	}
	if _, err := catalog.PruneTombstones(ctx, e.cfg.DB, now.Add(-keepTombstones)); err != nil {
		e.log.WarnContext(ctx, "search tombstones not pruned", "err", err)
	}
	n, err := catalog.PruneEffects(ctx, e.cfg.DB, now.Add(-keepEffects))
	if err != nil {
		e.log.WarnContext(ctx, "effects journal not pruned", "err", err)
		return
	}
	if n > 0 {
		e.log.InfoContext(ctx, "effects journal pruned", "rows", n)
	}
}

// noticeGrace is how long a notice may wait for its own turn to deliver
// it before the sweep does.
const noticeGrace = time.Minute

// sweepNotices delivers the notices of effects whose turn stopped after
// the commit and never ran again (a web client that did not retry). Each
// is claimed first, so a replica or the turn itself cannot send it too.
func (e *Engine) sweepNotices(ctx context.Context, now time.Time) {
	if e.deps.Notify == nil {
		return
	}
	rows, err := catalog.PendingNotices(ctx, e.cfg.DB, now.Add(-noticeGrace), 1000)
	if err != nil {
		e.log.WarnContext(ctx, "pending notices not swept", "err", err)
		return
	}
	for _, row := range rows {
		e.deps.Deliver(ctx, row.TurnKey, row.EffectKey)
	}
}
