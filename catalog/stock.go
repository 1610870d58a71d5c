package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// ReserveStock takes n units of a product if that many are in stock. The
// conditional UPDATE is what prevents overselling: two concurrent buyers of
// the last unit cannot both match stock >= 1. Call it inside the order
// transaction.
func ReserveStock(ctx context.Context, db bun.IDB, productID int64, n int) error {
	if n <= 0 {
		return fmt.Errorf("catalog: reserve stock: %w: quantity %d", ErrInvalid, n)
	}
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("stock = stock - ?", n).
		Set("sold_count = sold_count + ?", n).
		Set("updated_at = ?", time.Now().UTC()).
		Where("id = ?", productID).Where("active = ?", true).Where("stock >= ?", n).
		// A variant of an archived product is not sold either.
		Where("parent_id IS NULL OR parent_id IN (SELECT pp.id FROM products AS pp WHERE pp.active = ?)", true).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: reserve stock of product %d: %w", productID, err)
	}
	if rows, err := res.RowsAffected(); err != nil || rows == 0 {
		return fmt.Errorf("catalog: reserve %d of product %d: %w", n, productID, ErrOutOfStock)
	}
	return nil
}

// ReleaseStock puts n units back, e.g. when an order is cancelled.
func ReleaseStock(ctx context.Context, db bun.IDB, productID int64, n int) error {
	if n <= 0 {
		return fmt.Errorf("catalog: release stock: %w: quantity %d", ErrInvalid, n)
	}
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("stock = stock + ?", n).
		Set("sold_count = CASE WHEN sold_count >= ? THEN sold_count - ? ELSE 0 END", n, n).
		Set("updated_at = ?", time.Now().UTC()).
		Where("id = ?", productID).
		Exec(ctx)
	if err := expectOneRow(res, err, "release stock of product %d", productID); err != nil {
		return err
	}
	return wakeStockAlertsByID(ctx, db, productID)
}

// SetStock replaces a product's stock level (merchant correction). A
// product with variants is refused (ErrInvalid): its stock is the sum of
// its variants'.
func SetStock(ctx context.Context, db bun.IDB, sku string, stock int) error {
	if stock < 0 {
		return fmt.Errorf("catalog: set stock: %w: %d is negative", ErrInvalid, stock)
	}
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("stock = ?", stock).Set("updated_at = ?", time.Now().UTC()).
		Where("sku = ?", sku).Where("variant_count = 0").Exec(ctx)
	if err := expectOneRow(res, err, "set stock of %q", sku); err != nil {
		if p, err2 := GetProduct(ctx, db, sku); err2 == nil && p.HasVariants() {
			return fmt.Errorf("catalog: set stock of %q: %w: its stock is its variants' (set theirs)", sku, ErrInvalid)
		}
		return err
	}
	if err := wakeStockAlertsBySKU(ctx, db, sku); err != nil {
		return err
	}
	return RollupParents(ctx, db, sku)
}
