package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func order(t *testing.T, db bun.IDB, c *catalog.Customer, key string) (*catalog.Order, error) {
	t.Helper()
	return catalog.PlaceOrder(context.Background(), db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: catalog.PersonalCart(c.ID), CustomerID: c.ID,
		Channel: c.Channel, ChatID: c.PlatformUserID,
		Contact: catalog.Contact{Name: "Ann", Phone: "+1 555 0100", Address: "1 Main St"},
	})
}

func TestOrderLifecycle(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1999, 5), product("B-1", 500, 2))
		ann := customer(t, db, "telegram", "1")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 2, ann.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "B-1", 1, ann.ID))

		o, err := order(t, db, ann, "telegram:update:1")
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != catalog.StatusNew || o.Total != 2*1999+500 || o.Currency != "USD" || len(o.Items) != 2 || o.ShippingAddress != "1 Main St" {
			t.Fatalf("order = %+v", o)
		}
		if stockOf(t, db, "A-1") != 3 || stockOf(t, db, "B-1") != 1 {
			t.Errorf("stock after order: A-1 %d, B-1 %d", stockOf(t, db, "A-1"), stockOf(t, db, "B-1"))
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, catalog.PersonalCart(ann.ID))); len(c.Items) != 0 {
			t.Errorf("cart not emptied: %d lines", len(c.Items))
		}

		// The price snapshot survives a later price change.
		changed := product("A-1", 9999, 3)
		seed(t, db, changed)
		got, _ := catalog.GetOrder(ctx, db, o.Number)
		if got.Items[0].UnitPrice != 1999 {
			t.Errorf("snapshot price = %d, want 1999", got.Items[0].UnitPrice)
		}

		// Payment is idempotent on the charge id.
		paid, first, err := catalog.MarkOrderPaid(ctx, db, o.Number, "telegram", "charge-1")
		if err != nil || !first || paid.Status != catalog.StatusPaid || paid.PaidAt == nil {
			t.Fatalf("mark paid = %+v, %v, %v", paid, first, err)
		}
		if _, first, err := catalog.MarkOrderPaid(ctx, db, o.Number, "telegram", "charge-1"); err != nil || first {
			t.Errorf("second delivery: first=%v err=%v", first, err)
		}
		if _, _, err := catalog.MarkOrderPaid(ctx, db, o.Number, "telegram", "charge-2"); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("other charge: err = %v, want ErrConflict", err)
		}

		shipped, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusShipped, "UPS 1Z999")
		if err != nil || shipped.TrackingNote != "UPS 1Z999" || shipped.ShippedAt == nil {
			t.Fatalf("ship = %+v, %v", shipped, err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusPaid, ""); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("shipped → paid: err = %v", err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusDelivered, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusCancelled, ""); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("delivered → cancelled: err = %v", err)
		}
		orders, err := catalog.ListCustomerOrders(ctx, db, ann.ID, 10)
		if err != nil || len(orders) != 1 || orders[0].Status != catalog.StatusDelivered {
			t.Errorf("orders = %+v, %v", orders, err)
		}
		if byKey, err := catalog.GetOrderByKey(ctx, db, "telegram:update:1"); err != nil || byKey.Number != o.Number {
			t.Errorf("by key = %+v, %v", byKey, err)
		}
		if _, err := catalog.GetOrder(ctx, db, "SB-NOPE"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing order: err = %v", err)
		}
	})
}

func TestCancelReturnsStock(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 4))
		ann := customer(t, db, "web", "s1")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 3, ann.ID))
		o, err := order(t, db, ann, "k1")
		if err != nil {
			t.Fatal(err)
		}
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := catalog.SetOrderStatus(ctx, tx, o.Number, catalog.StatusCancelled, "")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := stockOf(t, db, "A-1"); got != 4 {
			t.Errorf("stock after cancel = %d, want 4", got)
		}
	})
}

func TestIdempotentOrders(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 10))
		ann, bob := customer(t, db, "telegram", "1"), customer(t, db, "telegram", "2")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 2, ann.ID))

		first, err := order(t, db, ann, "telegram:update:7")
		if err != nil {
			t.Fatal(err)
		}
		again, err := order(t, db, ann, "telegram:update:7")
		if err != nil || again.ID != first.ID {
			t.Fatalf("replay = %+v, %v; want order %d", again, err, first.ID)
		}
		if got := stockOf(t, db, "A-1"); got != 8 {
			t.Errorf("stock after replay = %d, want 8 (one order)", got)
		}

		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "A-1", 1, bob.ID))
		if _, err := order(t, db, bob, "telegram:update:7"); !errors.Is(err, catalog.ErrIdempotencyKey) {
			t.Errorf("same key, other cart: err = %v, want ErrIdempotencyKey", err)
		}
		if got := stockOf(t, db, "A-1"); got != 8 {
			t.Errorf("stock after conflicting key = %d, want 8", got)
		}
		if _, err := order(t, db, ann, "telegram:update:8"); !errors.Is(err, catalog.ErrEmptyCart) {
			t.Errorf("empty cart: err = %v, want ErrEmptyCart", err)
		}

		// Concurrent replays of one turn still make one order.
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		var wg sync.WaitGroup
		ids := make([]int64, 8)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if o, err := order(t, db, ann, "telegram:update:9"); err == nil {
					ids[i] = o.ID
				} else {
					t.Errorf("concurrent replay %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("concurrent replays made several orders: %v", ids)
			}
		}
		if got := stockOf(t, db, "A-1"); got != 7 {
			t.Errorf("stock after concurrent replays = %d, want 7", got)
		}
	})
}

func TestOutOfStockChangesNothing(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 5), product("B-1", 1000, 2))
		ann, bob := customer(t, db, "web", "a"), customer(t, db, "web", "b")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 3, ann.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "B-1", 2, ann.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "B-1", 1, bob.ID))
		if _, err := order(t, db, bob, "bob-1"); err != nil {
			t.Fatal(err)
		}
		if _, err := order(t, db, ann, "ann-1"); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Fatalf("err = %v, want ErrOutOfStock", err)
		}
		if a, b := stockOf(t, db, "A-1"), stockOf(t, db, "B-1"); a != 5 || b != 1 {
			t.Errorf("stock after failed order: A-1 %d (want 5), B-1 %d (want 1)", a, b)
		}
		if c := mustCart(t)(catalog.GetCart(ctx, db, catalog.PersonalCart(ann.ID))); c.Count() != 5 {
			t.Errorf("failed order emptied the cart: %d units left", c.Count())
		}
		if os, _ := catalog.ListCustomerOrders(ctx, db, ann.ID, 10); len(os) != 0 {
			t.Errorf("failed order left %d orders", len(os))
		}
	})
}

// TestLastUnits: 100 buyers race for the last 5 units; exactly 5 win.
func TestLastUnits(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("LAST-1", 1000, 100))
		buyers := make([]*catalog.Customer, 100)
		for i := range buyers {
			buyers[i] = customer(t, db, "web", fmt.Sprint("buyer-", i))
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(buyers[i].ID), "LAST-1", 1, buyers[i].ID))
		}
		if err := catalog.SetStock(ctx, db, "LAST-1", 5); err != nil {
			t.Fatal(err)
		}
		var (
			wg            sync.WaitGroup
			mu            sync.Mutex
			sold, refused int
		)
		for i, b := range buyers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := order(t, db, b, fmt.Sprint("race-", i))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					sold++
				case errors.Is(err, catalog.ErrOutOfStock):
					refused++
				default:
					t.Errorf("buyer %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if sold != 5 || refused != 95 {
			t.Errorf("sold %d, refused %d; want 5 and 95", sold, refused)
		}
		if got := stockOf(t, db, "LAST-1"); got != 0 {
			t.Errorf("stock = %d, want 0", got)
		}
	})
}

func TestStockNeverNegative(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 1))
		p, _ := catalog.GetProduct(ctx, db, "A-1")
		if err := catalog.ReserveStock(ctx, db, p.ID, 2); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Errorf("reserve 2 of 1: err = %v", err)
		}
		// The CHECK constraint backs the conditional update.
		_, err := db.NewUpdate().Model((*catalog.Product)(nil)).Set("stock = -1").Where("id = ?", p.ID).Exec(ctx)
		if err == nil {
			t.Error("schema accepted negative stock")
		}
		if err := catalog.SetStock(ctx, db, "A-1", -3); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("set negative stock: err = %v", err)
		}
	})
}

// TestOrdersNotifyTheSearchIndex: placing and cancelling an order change
// stock and sales, so each moves the product in the change feed (the
// search backends learn of stock only through it).
func TestOrdersNotifyTheSearchIndex(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A-1", 1000, 4))
		ann := customer(t, db, "web", "s1")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A-1", 1, ann.ID))
		// changed reports whether the feed lists A-1 as written after since.
		changed := func(since time.Time) (bool, time.Time) {
			cs, err := catalog.ChangedSince(ctx, db, since, 1<<62, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if c.SKU == "A-1" {
					return true, c.UpdatedAt
				}
			}
			return false, since
		}
		p, err := catalog.GetProduct(ctx, db, "A-1")
		if err != nil {
			t.Fatal(err)
		}
		o, err := order(t, db, ann, "k1")
		if err != nil {
			t.Fatal(err)
		}
		ok, at := changed(p.UpdatedAt)
		if !ok {
			t.Errorf("after the order: A-1 not in the change feed after %v", p.UpdatedAt)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		if ok, _ := changed(at); !ok {
			t.Errorf("after the cancellation: A-1 not in the change feed after %v", at)
		}
	})
}

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
