package catalogtest

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// PlaceOrderAt puts lines (SKU → quantity) in req.Scope's cart, orders
// them with req (a test contact when it has none) and dates the order at.
func PlaceOrderAt(t testing.TB, db *bun.DB, req catalog.OrderRequest, at time.Time, lines map[string]int) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	for sku, qty := range lines {
		if _, err := catalog.AddToCart(ctx, db, req.Scope, sku, qty, req.CustomerID); err != nil {
			t.Fatal(err)
		}
	}
	if req.Contact == (catalog.Contact{}) {
		req.Contact = catalog.Contact{Name: "Ann Lee", Phone: "+1 555 0100", Address: "1 Main St"}
	}
	o, err := catalog.PlaceOrder(ctx, db, req)
	if err != nil {
		t.Fatal(err)
	}
	o.CreatedAt = at
	if _, err := db.NewUpdate().Model(o).Column("created_at").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return o
}

// PlaceOrder orders c's personal cart with idempotency key, to a test
// contact, and returns what catalog.PlaceOrder returns.
func PlaceOrder(t testing.TB, db bun.IDB, c *catalog.Customer, key string) (*catalog.Order, error) {
	t.Helper()
	return catalog.PlaceOrder(context.Background(), db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: catalog.PersonalCart(c.ID), CustomerID: c.ID,
		Channel: c.Channel, ChatID: c.PlatformUserID,
		Contact: catalog.Contact{Name: "Ann", Phone: "+1 555 0100", Address: "1 Main St"},
	})
}
