package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// PurchaseLine is one product line of a customer's order, at the price
// paid, with the product's current category path ("" when the product is
// gone or uncategorized).
type PurchaseLine struct {
	OrderNumber string    `bun:"order_number"`
	OrderedAt   time.Time `bun:"ordered_at"`
	SKU         string    `bun:"sku"`
	Title       string    `bun:"title"`
	Category    string    `bun:"category"`
	Qty         int       `bun:"qty"`
	UnitPrice   int64     `bun:"unit_price"`
	Currency    string    `bun:"currency"`
}

// PurchaseHistory returns the lines of a customer's orders placed since the
// given time, cancelled orders left out, oldest first.
func PurchaseHistory(ctx context.Context, db bun.IDB, customerID int64, since time.Time) ([]PurchaseLine, error) {
	var lines []PurchaseLine
	err := db.NewSelect().
		TableExpr("order_items AS oi").
		Join("JOIN orders AS o ON o.id = oi.order_id").
		Join("LEFT JOIN products AS p ON p.id = oi.product_id").
		Join("LEFT JOIN categories AS c ON c.id = p.category_id").
		ColumnExpr("o.number AS order_number, o.created_at AS ordered_at").
		ColumnExpr("oi.sku, oi.title, COALESCE(c.path, '') AS category").
		ColumnExpr("oi.quantity AS qty, oi.unit_price, o.currency").
		Where("o.customer_id = ?", customerID).
		Where("o.status <> ?", StatusCancelled).
		Where("o.created_at >= ?", since.UTC()).
		OrderExpr("o.created_at ASC, o.id ASC, oi.id ASC").
		Scan(ctx, &lines)
	if err != nil {
		return nil, fmt.Errorf("catalog: purchase history of customer %d: %w", customerID, err)
	}
	return lines, nil
}
