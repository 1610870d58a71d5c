package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// ChatLocker serializes the turns of one chat across processes.
type ChatLocker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// allowTurn counts the turn against its customer's rate limit (RateLimit
// turns per RateWindow) before any of the turn's work. The counter lives
// in the database (catalog.Hit), so the limit holds across replicas and
// restarts. On Postgres the count is one statement. On SQLite the counts
// of turns arriving together share a transaction (e.hits: a group commit
// apart from the turns' writes, which a count would otherwise wait
// behind), so a busy shop takes the single write slot once for many
// counts, not once each (+10 % turns/s with 100 conversations).
// On Postgres the count was made with the conversation's read
// (counted, catalog.OpenCounted), one round trip for both.
// Ended counters are pruned with the effects journal (prune.go).
func (e *Engine) allowTurn(ctx context.Context, s *session.Session, counted *catalog.HitResult) (catalog.HitResult, error) {
	if counted != nil {
		return *counted, nil
	}
	key := e.limitKey(s)
	lim := e.turnLimit()
	if !e.hits.Grouped() { // Postgres: one statement, no transaction around it
		return catalog.Hit(ctx, e.cfg.DB, key, lim, s.Now)
	}
	var res catalog.HitResult
	err := e.hits.Run(ctx, func(ctx context.Context, tx bun.Tx) error {
		var err error
		res, err = catalog.Hit(ctx, tx, key, lim, s.Now)
		return err
	})
	return res, err
}

// limitKey is the rate-limit counter of the session's customer.
func (e *Engine) limitKey(s *session.Session) string { return limitKey(s.Customer.ID) }

func limitKey(customerID int64) string { return limitPrefix + strconv.FormatInt(customerID, 10) }

// limitPrefix starts every customer's turn-limit key.
const limitPrefix = "turn:"

// turnLimit is the turns a customer may take per window.
func (e *Engine) turnLimit() catalog.Limit {
	return catalog.Limit{Max: e.cfg.RateLimit, Window: e.cfg.RateWindow}
}

// overTokenBudget reports whether the customer used up today's model
// tokens (counted on the customer row, so it holds across replicas).
func (e *Engine) overTokenBudget(s *session.Session) bool {
	return s.Customer.TokensToday(tokenDay(s.Now)) >= e.cfg.DailyTokens
}

func tokenDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }
