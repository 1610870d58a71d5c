package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
)

// Every cart change is one statement that cannot lose a concurrent one:
// tools of one model reply run in parallel, the threads of a Slack channel
// share its cart, and several replicas share one database. The stock and
// active checks are inside the statement (INSERT ... SELECT ... ON
// CONFLICT DO UPDATE ... WHERE ... RETURNING), so no read-then-write
// window exists; only when the statement changed nothing does a second
// read classify why.

// addItemSQL inserts the line or adds to it, if the product is sold and
// the new quantity is within stock and MaxCartQuantity.
const addItemSQL = `INSERT INTO cart_items (cart_id, product_id, quantity, added_by)
SELECT ?, p.id, ?, ? FROM products AS p WHERE p.sku = ? AND p.active AND p.variant_count = 0 AND p.stock >= ?
AND (p.parent_id IS NULL OR EXISTS (SELECT 1 FROM products AS pp WHERE pp.id = p.parent_id AND pp.active))
ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity
WHERE cart_items.quantity + excluded.quantity <= ? AND EXISTS (
	SELECT 1 FROM products AS q WHERE q.id = excluded.product_id AND q.active
	AND q.stock >= cart_items.quantity + excluded.quantity)
RETURNING quantity`

// setItemSQL inserts the line or sets its quantity, if the product is
// sold and has that many in stock.
const setItemSQL = `INSERT INTO cart_items (cart_id, product_id, quantity, added_by)
SELECT ?, p.id, ?, ? FROM products AS p WHERE p.sku = ? AND p.active AND p.variant_count = 0 AND p.stock >= ?
AND (p.parent_id IS NULL OR EXISTS (SELECT 1 FROM products AS pp WHERE pp.id = p.parent_id AND pp.active))
ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = excluded.quantity
RETURNING quantity`

// removeItemSQL deletes a product's line from a scope's cart.
const removeItemSQL = `DELETE FROM cart_items
WHERE cart_id = (SELECT id FROM carts WHERE scope = ?) AND product_id = (SELECT id FROM products WHERE sku = ?)`

// AddCartItem atomically adds quantity units of a product to the scope's
// cart and returns the line's new quantity. It refuses unknown products
// (ErrNotFound), inactive ones and quantities beyond stock (ErrOutOfStock,
// with the count available) and lines over MaxCartQuantity (ErrInvalid).
func AddCartItem(ctx context.Context, db bun.IDB, scope CartScope, sku string, quantity int, by int64) (int, error) {
	if quantity < 1 || quantity > MaxCartQuantity {
		return 0, fmt.Errorf("catalog: add to cart: %w: quantity must be 1–%d", ErrInvalid, MaxCartQuantity)
	}
	return upsertItem(ctx, db, scope, sku, quantity, by, addItemSQL, MaxCartQuantity)
}

// SetCartQuantity atomically sets the quantity of a product in the scope's
// cart (0 removes the line) and returns it. Errors are AddCartItem's.
func SetCartQuantity(ctx context.Context, db bun.IDB, scope CartScope, sku string, quantity int, by int64) (int, error) {
	if quantity < 0 || quantity > MaxCartQuantity {
		return 0, fmt.Errorf("catalog: set cart item: %w: quantity must be 0–%d", ErrInvalid, MaxCartQuantity)
	}
	if quantity == 0 {
		return 0, RemoveCartItem(ctx, db, scope, sku)
	}
	return upsertItem(ctx, db, scope, sku, quantity, by, setItemSQL)
}

// RemoveCartItem deletes a product's line from the scope's cart in one
// statement; a product not in the cart is ErrNotFound.
func RemoveCartItem(ctx context.Context, db bun.IDB, scope CartScope, sku string) error {
	if err := scope.validate(); err != nil {
		return fmt.Errorf("catalog: remove from cart: %w", err)
	}
	res, err := db.NewRaw(removeItemSQL, scope.Key(), sku).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: remove %s from cart: %w", sku, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("catalog: remove %s: %w in cart", sku, ErrNotFound)
	}
	return nil
}

// upsertItem runs an add or set statement; extra are its arguments after
// the common ones.
func upsertItem(ctx context.Context, db bun.IDB, scope CartScope, sku string, quantity int, by int64, query string, extra ...any) (int, error) {
	if err := scope.validate(); err != nil {
		return 0, fmt.Errorf("catalog: cart item: %w", err)
	}
	cartID, err := ensureCart(ctx, db, scope)
	if err != nil {
		return 0, err
	}
	var adder *int64
	if by > 0 {
		adder = &by
	}
	args := append([]any{cartID, quantity, adder, sku, quantity}, extra...)
	var got int
	err = db.NewRaw(query, args...).Scan(ctx, &got)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, refusal(ctx, db, cartID, sku, quantity, query == addItemSQL)
	}
	if err != nil {
		return 0, fmt.Errorf("catalog: cart item %s: %w", sku, err)
	}
	return got, nil
}

// refusal explains why a cart statement changed nothing: the product is
// unknown, not sold or short of stock, or the line would pass
// MaxCartQuantity. adding says the quantity came on top of the line's.
func refusal(ctx context.Context, db bun.IDB, cartID int64, sku string, quantity int, adding bool) error {
	p, err := GetProduct(ctx, db, sku)
	if err != nil {
		return err
	}
	if p.HasVariants() {
		return fmt.Errorf("catalog: %s: %w", sku, ErrNeedsVariant)
	}
	want := quantity
	if adding {
		have, err := lineQuantity(ctx, db, cartID, p.ID)
		if err != nil {
			return err
		}
		want += have
	}
	if !p.Active || p.Stock < want || !parentSold(ctx, db, p) {
		return fmt.Errorf("catalog: %s: %w (%d available)", sku, ErrOutOfStock, availableOf(p))
	}
	return fmt.Errorf("catalog: set cart item: %w: quantity must be 0–%d", ErrInvalid, MaxCartQuantity)
}

func lineQuantity(ctx context.Context, db bun.IDB, cartID, productID int64) (int, error) {
	var have int
	err := db.NewSelect().Model((*CartItem)(nil)).Column("quantity").
		Where("cart_id = ? AND product_id = ?", cartID, productID).Scan(ctx, &have)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("catalog: cart line %d: %w", productID, err)
	}
	return have, nil
}

func availableOf(p *Product) int {
	if !p.Active {
		return 0
	}
	return p.Stock
}

// AddToCart adds quantity units of a product to the scope's cart (on top
// of any already there) with AddCartItem and returns the updated cart.
func AddToCart(ctx context.Context, db bun.IDB, scope CartScope, sku string, quantity int, by int64) (*Cart, error) {
	if _, err := AddCartItem(ctx, db, scope, sku, quantity, by); err != nil {
		return nil, err
	}
	return GetCart(ctx, db, scope)
}

// parentSold reports whether a variant's parent is sold (not archived); a
// product without a parent is.
func parentSold(ctx context.Context, db bun.IDB, p *Product) bool {
	if p.ParentID == nil {
		return true
	}
	parent, err := GetProductByID(ctx, db, *p.ParentID)
	return err == nil && parent.Active
}
