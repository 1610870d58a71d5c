package panel

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
)

// DayFigures are one UTC day of a dashboard series; each query fills the
// fields it counts.
type DayFigures struct {
	Day     string  `bun:"day"` // YYYY-MM-DD
	N       int     `bun:"n"`
	Total   int64   `bun:"total"`   // order totals, minor units
	Latency float64 `bun:"latency"` // average model latency, ms
	Tokens  int64   `bun:"tokens"`  // prompt plus completion tokens
}

// dayExpr is the UTC day of created_at as YYYY-MM-DD. Times are stored
// in UTC, so SQLite's text timestamps start with the day.
func dayExpr(db bun.IDB) string {
	if db.Dialect().Name() == dialect.PG {
		return "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	return "substr(created_at, 1, 10)"
}

// ConversationsPerDay counts the conversations started since, by day (N).
func ConversationsPerDay(ctx context.Context, db bun.IDB, since time.Time) ([]DayFigures, error) {
	var rows []DayFigures
	day := dayExpr(db)
	if err := db.NewSelect().Model((*catalog.Conversation)(nil)).ColumnExpr(day+" AS day, COUNT(*) AS n").
		Where("created_at >= ?", since).GroupExpr(day).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("catalog: conversations per day: %w", err)
	}
	return rows, nil
}

// OrdersPerDay counts the orders placed since in currency and not
// cancelled (N) and sums their totals (Total), by day.
func OrdersPerDay(ctx context.Context, db bun.IDB, since time.Time, currency string) ([]DayFigures, error) {
	var rows []DayFigures
	day := dayExpr(db)
	if err := db.NewSelect().Model((*catalog.Order)(nil)).
		ColumnExpr(day+" AS day, COUNT(*) AS n, COALESCE(SUM(total), 0) AS total").
		Where("created_at >= ?", since).Where("status <> ?", catalog.StatusCancelled).Where("currency = ?", currency).
		GroupExpr(day).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("catalog: orders per day: %w", err)
	}
	return rows, nil
}

// ModelUsagePerDay counts the model's calls since (N: assistant messages
// with token counts, so not the offline planner nor merchants), their
// average latency and their tokens, by day.
func ModelUsagePerDay(ctx context.Context, db bun.IDB, since time.Time) ([]DayFigures, error) {
	var rows []DayFigures
	day := dayExpr(db)
	err := db.NewSelect().Model((*catalog.Message)(nil)).
		ColumnExpr(day+" AS day, COUNT(*) AS n, AVG(latency_ms) AS latency, COALESCE(SUM(prompt_tokens + completion_tokens), 0) AS tokens").
		Where("tool_name = ''").Where("created_at >= ?", since).Where("role = ?", catalog.RoleAssistant).
		Where("prompt_tokens + completion_tokens > 0").
		GroupExpr(day).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("catalog: model usage per day: %w", err)
	}
	return rows, nil
}

// ConvertedConversations counts the conversations started since whose
// chat placed an order after they started.
func ConvertedConversations(ctx context.Context, db bun.IDB, since time.Time) (int, error) {
	n, err := db.NewSelect().TableExpr("conversations AS c").Where("c.created_at >= ?", since).
		Where("EXISTS (SELECT 1 FROM orders AS o WHERE o.channel = c.channel AND o.chat_id = c.chat_id AND o.thread_id = c.thread_id AND o.created_at >= c.created_at)").
		Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: converted conversations: %w", err)
	}
	return int(n), nil
}

// CountNeedsHuman counts the conversations waiting for a merchant.
func CountNeedsHuman(ctx context.Context, db bun.IDB) (int, error) {
	n, err := db.NewSelect().Model((*catalog.Conversation)(nil)).Where("needs_human = ?", true).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count conversations needing a human: %w", err)
	}
	return int(n), nil
}
