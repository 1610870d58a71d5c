package catalog

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// SharedCartsAddedTo returns up to limit shared carts of channel (Slack
// channels, Telegram groups) holding at least one line customerID added,
// most recently changed first, with their items, products and adders.
func SharedCartsAddedTo(ctx context.Context, db bun.IDB, channel string, customerID int64, limit int) ([]Cart, error) {
	var carts []Cart
	added := db.NewSelect().Model((*CartItem)(nil)).Column("cart_id").Where("added_by = ?", customerID)
	err := db.NewSelect().Model(&carts).
		Relation("Items", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("cart_item.id") }).
		Relation("Items.Product").Relation("Items.Adder").
		Where("cart.channel = ?", channel).Where("cart.chat_id <> ''").
		Where("cart.id IN (?)", added).
		Order("cart.updated_at DESC", "cart.id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: shared carts of customer %d: %w", customerID, err)
	}
	return carts, nil
}
