package panel

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// ShopCounts are the shop's state at a glance, for the metrics scrape.
type ShopCounts struct {
	OrdersByStatus map[catalog.OrderStatus]int // statuses without orders are absent
	// Revenue is the sum of order totals (minor units, delivery and
	// discounts included, refunds taken off) by status and currency.
	Revenue    []StatusRevenue
	Carts      int // carts with at least one item
	NeedsHuman int // conversations waiting for a merchant
	Paused     int // conversations the bot stays out of
}

// StatusRevenue is the value of the orders of one status in one currency.
type StatusRevenue struct {
	Status   catalog.OrderStatus
	Currency string
	Minor    int64 // minor units (cents)
}

// CountShop counts orders by status, non-empty carts and the
// conversations needing a human or paused.
func CountShop(ctx context.Context, db bun.IDB) (ShopCounts, error) {
	var rows []struct {
		Status   catalog.OrderStatus `bun:"status"`
		Currency string              `bun:"currency"`
		N        int                 `bun:"n"`
		Minor    int64               `bun:"minor"`
	}
	if err := db.NewSelect().Model((*catalog.Order)(nil)).
		ColumnExpr("status, currency, COUNT(*) AS n, COALESCE(SUM(total - refunded_total), 0) AS minor").
		Group("status", "currency").Order("status", "currency").Scan(ctx, &rows); err != nil {
		return ShopCounts{}, fmt.Errorf("catalog: count orders by status: %w", err)
	}
	c := ShopCounts{OrdersByStatus: map[catalog.OrderStatus]int{}}
	for _, r := range rows {
		c.OrdersByStatus[r.Status] += r.N
		c.Revenue = append(c.Revenue, StatusRevenue{Status: r.Status, Currency: r.Currency, Minor: r.Minor})
	}
	carts, err := db.NewSelect().TableExpr("cart_items").ColumnExpr("COUNT(DISTINCT cart_id)").Count(ctx)
	if err != nil {
		return ShopCounts{}, fmt.Errorf("catalog: count carts: %w", err)
	}
	c.Carts = int(carts)
	for _, q := range []struct {
		n   *int
		col string
	}{{&c.NeedsHuman, "needs_human"}, {&c.Paused, "paused"}} {
		n, err := db.NewSelect().Model((*catalog.Conversation)(nil)).Where("? = ?", bun.Ident(q.col), true).Count(ctx)
		if err != nil {
			return ShopCounts{}, fmt.Errorf("catalog: count conversations %s: %w", q.col, err)
		}
		*q.n = int(n)
	}
	return c, nil
}
