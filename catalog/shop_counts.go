package catalog

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// ShopCounts are the shop's state at a glance, for the metrics scrape.
type ShopCounts struct {
	OrdersByStatus map[OrderStatus]int // statuses without orders are absent
	Carts          int                 // carts with at least one item
	NeedsHuman     int                 // conversations waiting for a merchant
	Paused         int                 // conversations the bot stays out of
}

// CountShop counts orders by status, non-empty carts and the
// conversations needing a human or paused.
func CountShop(ctx context.Context, db bun.IDB) (ShopCounts, error) {
	var rows []struct {
		Status OrderStatus `bun:"status"`
		N      int         `bun:"n"`
	}
	if err := db.NewSelect().Model((*Order)(nil)).ColumnExpr("status, COUNT(*) AS n").Group("status").Scan(ctx, &rows); err != nil {
		return ShopCounts{}, fmt.Errorf("catalog: count orders by status: %w", err)
	}
	c := ShopCounts{OrdersByStatus: map[OrderStatus]int{}}
	for _, r := range rows {
		c.OrdersByStatus[r.Status] = r.N
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
		n, err := db.NewSelect().Model((*Conversation)(nil)).Where("? = ?", bun.Ident(q.col), true).Count(ctx)
		if err != nil {
			return ShopCounts{}, fmt.Errorf("catalog: count conversations %s: %w", q.col, err)
		}
		*q.n = int(n)
	}
	return c, nil
}
