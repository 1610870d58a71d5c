package catalog

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Limits shared by every replica (turns per customer, sign-in attempts per
// user and per address) count hits in the rate_limits table, one row per
// key. Windows are fixed, aligned on multiples of the window length since
// the Unix epoch, so every replica agrees on where a window starts: a
// burst that straddles a boundary may see up to twice the limit within one
// window's length, never more than the limit within one window. A hit is
// counted by one atomic upsert that returns the new count, so exactly Max
// hits are allowed per window however many replicas count at once, and a
// restart keeps the count. Refused hits are counted too: a refused caller
// must not get through later in the same window by retrying. On Postgres
// the table is unlogged (migration 0037): a hit writes no WAL and does not
// wait for a flush, and after a Postgres crash the windows start again.

// Limit allows Max hits per Window per key.
type Limit struct {
	Max    int
	Window time.Duration
}

// HitResult is the outcome of counting one hit.
type HitResult struct {
	Allowed bool
	Count   int // hits in the current window, this one included
	// RetryAfter is how long until the window ends (when a refused caller
	// may try again).
	RetryAfter time.Duration
}

// maxLimitKey bounds a counter's key.
const maxLimitKey = 200

// hitSQL counts a hit: a new window starts the count again at 1. A replica
// whose clock lags (an older window_start) counts into the newer window
// rather than resetting it. {max} is the dialect's two-argument maximum.
const hitSQL = `INSERT INTO rate_limits (key, window_start, window_end, hits) VALUES ($1, $2, $3, 1)
	ON CONFLICT (key) DO UPDATE SET
	hits = CASE WHEN rate_limits.window_start >= EXCLUDED.window_start THEN rate_limits.hits + 1 ELSE 1 END,
	window_start = %[1]s(rate_limits.window_start, EXCLUDED.window_start),
	window_end = %[1]s(rate_limits.window_end, EXCLUDED.window_end)
	RETURNING hits, window_end`

var (
	hitSQLPostgres = fmt.Sprintf(hitSQL, "GREATEST")
	hitSQLSQLite   = fmt.Sprintf(hitSQL, "MAX")
)

// Hit counts one hit of key at now against lim and reports whether it is
// allowed: one statement, which on SQLite takes the process's write slot
// like every other write (catalog/sqliteconn).
func Hit(ctx context.Context, db bun.IDB, key string, lim Limit, now time.Time) (HitResult, error) {
	if err := checkLimit(key, lim); err != nil {
		return HitResult{}, err
	}
	start, end := limitWindow(lim, now)
	query := hitSQLPostgres
	if db.Dialect().Name() == dialect.SQLite {
		query = hitSQLSQLite
	}
	var count int
	var windowEnd int64
	if err := selectValues(ctx, db, query, []any{key, start, end}, &count, &windowEnd); err != nil {
		return HitResult{}, fmt.Errorf("catalog: hit %s: %w", key, err)
	}
	return hitResult(count, windowEnd, lim, now), nil
}

func checkLimit(key string, lim Limit) error {
	if key == "" || len(key) > maxLimitKey || lim.Max <= 0 || lim.Window < time.Millisecond {
		return fmt.Errorf("catalog: hit %q: %w: key of 1 to %d bytes, a positive limit and window required",
			key, ErrInvalid, maxLimitKey)
	}
	return nil
}

// limitWindow is the window of now, in Unix milliseconds.
func limitWindow(lim Limit, now time.Time) (start, end int64) {
	window := lim.Window.Milliseconds()
	ms := now.UnixMilli()
	start = ms - ms%window
	return start, start + window
}

func hitResult(count int, windowEnd int64, lim Limit, now time.Time) HitResult {
	return HitResult{Allowed: count <= lim.Max, Count: count, RetryAfter: time.Duration(max(windowEnd-now.UnixMilli(), 0)) * time.Millisecond}
}

// PruneLimits deletes the counters whose window ended before now.
func PruneLimits(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := db.NewDelete().TableExpr("rate_limits").Where("window_end < ?", now.UnixMilli()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune limits: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// LimitPruner prunes expired counters, sign-in delays (delays.go),
// idempotency keys (idempotency.go) and UCP records (ucp_records.go) at
// most once per Every (default 10 minutes) from one process: each
// replica deletes what has expired now and then, one indexed statement
// per table.
type LimitPruner struct {
	Every time.Duration
	next  atomic.Int64 // Unix nanoseconds of the next prune
}

// Maybe prunes when the last prune from this pruner is Every old.
func (p *LimitPruner) Maybe(ctx context.Context, db bun.IDB, now time.Time) error {
	every := p.Every
	if every <= 0 {
		every = 10 * time.Minute
	}
	next := p.next.Load()
	if now.UnixNano() < next || !p.next.CompareAndSwap(next, now.Add(every).UnixNano()) {
		return nil
	}
	_, err := PruneLimits(ctx, db, now)
	if err == nil {
		_, err = PruneDelays(ctx, db, now)
	}
	if err == nil {
		_, err = PruneKeys(ctx, db, now)
	}
	if err == nil {
		_, err = PruneUCPRecords(ctx, db, now)
	}
	return err
}
