package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// OrderList selects a page of the merchant's order list, newest first.
// Zero fields select any.
type OrderList struct {
	Status  OrderStatus
	Channel string
	From    time.Time // placed at or after
	Before  time.Time // placed before
	// Customer is one customer's orders (0 for everyone's).
	Customer int64
	AfterID  int64 // the previous page's last id; 0 for the first page
	Limit    int   // default 50, at most 500
}

// ListOrderPage returns one page of the orders l selects, with their
// customers and each order's LineCount and UnitCount (not its Items), and
// the id to pass as AfterID for the next page (0 on the last). The page
// is one query: the counts are correlated subqueries on order_items'
// order_id index, not a query per order.
func ListOrderPage(ctx context.Context, db bun.IDB, l OrderList) ([]Order, int64, error) {
	limit := l.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	var os []Order
	items := func(expr string) *bun.SelectQuery {
		return db.NewSelect().Model((*OrderItem)(nil)).ColumnExpr(expr).
			Where("?TableAlias.order_id = ?", bun.Ident("order.id"))
	}
	q := db.NewSelect().Model(&os).ColumnExpr("?TableAlias.*").
		ColumnExpr("(?) AS line_count", items("COUNT(*)")).
		ColumnExpr("(?) AS unit_count", items("COALESCE(SUM(?TableAlias.quantity), 0)")).
		Relation("Customer")
	if l.Status != "" {
		q = q.Where("?TableAlias.status = ?", l.Status)
	}
	if l.Channel != "" {
		q = q.Where("?TableAlias.channel = ?", l.Channel)
	}
	if l.Customer > 0 {
		q = q.Where("?TableAlias.customer_id = ?", l.Customer)
	}
	if !l.From.IsZero() {
		q = q.Where("?TableAlias.created_at >= ?", l.From)
	}
	if !l.Before.IsZero() {
		q = q.Where("?TableAlias.created_at < ?", l.Before)
	}
	if l.AfterID > 0 {
		q = q.Where("?TableAlias.id < ?", l.AfterID)
	}
	if err := q.OrderExpr("?TableAlias.id DESC").Limit(int64(limit + 1)).Scan(ctx); err != nil {
		return nil, 0, fmt.Errorf("catalog: list orders: %w", err)
	}
	if len(os) <= limit {
		return os, 0, nil
	}
	os = os[:limit]
	return os, os[len(os)-1].ID, nil
}

// ChangeOrderStatus is SetOrderStatus in a transaction of its own, so a
// cancellation's stock and status change together.
func ChangeOrderStatus(ctx context.Context, db bun.IDB, number string, next OrderStatus, note string) (*Order, error) {
	var o *Order
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		o, err = SetOrderStatus(ctx, tx, number, next, note)
		return err
	})
	return o, err
}
