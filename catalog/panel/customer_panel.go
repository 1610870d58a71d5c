package panel

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Spent is what a customer has paid in one currency: the totals of their
// orders that were not cancelled, less what was refunded.
type Spent struct {
	Currency string `bun:"currency"`
	Amount   int64  `bun:"amount"`
	Orders   int    `bun:"orders"`
}

// CustomerSpent sums a customer's orders per currency (most first).
func CustomerSpent(ctx context.Context, db bun.IDB, customerID int64) ([]Spent, error) {
	var out []Spent
	err := db.NewSelect().Model((*catalog.Order)(nil)).
		ColumnExpr("currency, SUM(total - refunded_total) AS amount, COUNT(*) AS orders").
		Where("customer_id = ?", customerID).Where("status <> ?", catalog.StatusCancelled).
		Group("currency").OrderExpr("amount DESC, currency").Scan(ctx, &out)
	if err != nil {
		return nil, fmt.Errorf("catalog: spent by customer %d: %w", customerID, err)
	}
	return out, nil
}

// CustomerIdentities lists the customer's identities on every channel: the
// customer itself, then the customers of other channels that gave the
// same phone or e-mail (the same person writing from elsewhere), at most
// 20. A customer with neither has only its own.
func CustomerIdentities(ctx context.Context, db bun.IDB, c *catalog.Customer) ([]catalog.Customer, error) {
	out := []catalog.Customer{*c}
	if c.Phone == "" && c.Email == "" {
		return out, nil
	}
	var more []catalog.Customer
	q := db.NewSelect().Model(&more).Where("id <> ?", c.ID).WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		if c.Phone != "" {
			q = q.WhereOr("phone = ?", c.Phone)
		}
		if c.Email != "" {
			q = q.WhereOr("email = ?", c.Email)
		}
		return q
	})
	if err := q.Order("channel", "id").Limit(20).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: identities of customer %d: %w", c.ID, err)
	}
	return append(out, more...), nil
}

// InboxCount is what the panel's title counts: conversations with a
// message staff have not seen, and those waiting for a person (not
// resolved). Each count stops at InboxCountCap.
type InboxCount struct {
	Unread     int `json:"unread"`
	NeedsHuman int `json:"needs_human"`
}

// InboxCountCap is where InboxCounts stops counting ("99+"), so a count
// costs a bounded walk of the newest conversations, whatever their
// number.
const InboxCountCap = 100

// InboxCounts counts the unread conversations and those that need a
// human, each up to InboxCountCap.
func InboxCounts(ctx context.Context, db bun.IDB) (InboxCount, error) {
	var n InboxCount
	count := func(q *bun.SelectQuery) (int, error) {
		var c int
		sub := q.TableExpr("conversations AS c").ColumnExpr("1").OrderExpr("c.last_message_at DESC").Limit(InboxCountCap)
		err := db.NewSelect().TableExpr("(?) AS capped", sub).ColumnExpr("COUNT(*)").Scan(ctx, &c)
		return c, err
	}
	var err error
	if n.Unread, err = count(db.NewSelect().Where("(c.last_read_at IS NULL OR c.last_read_at < c.last_message_at)")); err != nil {
		return n, fmt.Errorf("catalog: count unread conversations: %w", err)
	}
	if n.NeedsHuman, err = count(db.NewSelect().Where("c.needs_human = ?", true).Where("c.status <> ?", catalog.ConvResolved)); err != nil {
		return n, fmt.Errorf("catalog: count conversations needing a human: %w", err)
	}
	return n, nil
}
