package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestPurchaseHistory(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 50), product("B-1", 500, 50, "Grocery", "Coffee"), product("C-1", 700, 50, "Books"))
		ann, bob := customer(t, db, "web", "ann"), customer(t, db, "web", "bob")
		now := time.Now().UTC().Truncate(time.Second)
		days := func(n int) time.Time { return now.AddDate(0, 0, -n) }
		buy := func(c *catalog.Customer, key string, at time.Time, lines map[string]int) *catalog.Order {
			t.Helper()
			for sku, qty := range lines {
				mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), sku, qty, c.ID))
			}
			o, err := order(t, db, c, key)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.NewUpdate().Model((*catalog.Order)(nil)).Set("created_at = ?", at).Where("id = ?", o.ID).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			return o
		}
		first := buy(ann, "k1", days(40), map[string]int{"A-1": 2, "B-1": 1})
		second := buy(ann, "k2", days(10), map[string]int{"B-1": 3})
		cancelled := buy(ann, "k3", days(5), map[string]int{"C-1": 1})
		buy(ann, "k4", days(100), map[string]int{"C-1": 4}) // before the period
		buy(bob, "k5", days(3), map[string]int{"A-1": 1})   // someone else's
		if _, err := catalog.SetOrderStatus(ctx, db, cancelled.Number, catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		// Later price changes do not rewrite history; a product that is gone
		// keeps its line, without a category.
		seed(t, db, product("A-1", 9999, 50))
		if _, err := db.NewUpdate().Model((*catalog.OrderItem)(nil)).Set("product_id = NULL").Where("order_id = ?", second.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		got, err := catalog.PurchaseHistory(ctx, db, ann.ID, days(60))
		if err != nil {
			t.Fatal(err)
		}
		want := []catalog.PurchaseLine{
			{OrderNumber: first.Number, OrderedAt: days(40), SKU: "A-1", Title: "Product A-1", Category: "Shoes > Running", Qty: 2, UnitPrice: 1000, Currency: "USD"},
			{OrderNumber: first.Number, OrderedAt: days(40), SKU: "B-1", Title: "Product B-1", Category: "Grocery > Coffee", Qty: 1, UnitPrice: 500, Currency: "USD"},
			{OrderNumber: second.Number, OrderedAt: days(10), SKU: "B-1", Title: "Product B-1", Category: "", Qty: 3, UnitPrice: 500, Currency: "USD"},
		}
		if len(got) != len(want) {
			t.Fatalf("got %d lines, want %d: %+v", len(got), len(want), got)
		}
		for i := range want {
			g, w := got[i], want[i]
			if !g.OrderedAt.Equal(w.OrderedAt) {
				t.Errorf("line %d ordered at %v, want %v", i, g.OrderedAt, w.OrderedAt)
			}
			g.OrderedAt, w.OrderedAt = time.Time{}, time.Time{}
			if g != w {
				t.Errorf("line %d = %+v, want %+v", i, g, w)
			}
		}

		if none, err := catalog.PurchaseHistory(ctx, db, ann.ID, now.Add(time.Hour)); err != nil || len(none) != 0 {
			t.Errorf("future period = %+v, %v", none, err)
		}
	})
}
