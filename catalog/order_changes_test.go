package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// placed orders 3 of A (1000 each) and 1 of B (500) for a new customer.
func placed(t *testing.T, db bun.IDB, user string) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	c := customer(t, db, "telegram", user)
	mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "A", 3, c.ID))
	mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "B", 1, c.ID))
	o, err := order(t, db, c, "key-"+user)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func lineOf(o *catalog.Order, sku string) catalog.OrderItem {
	for _, it := range o.Items {
		if it.SKU == sku {
			return it
		}
	}
	return catalog.OrderItem{}
}

func TestRefundOrder(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10))
		o := placed(t, db, "1")
		other := placed(t, db, "2")
		a := lineOf(o, "A").ID
		refund := func(key string, lines map[int64]int, seen int64) (*catalog.Order, bool, error) {
			return catalog.RefundOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: key, Staff: "admin", Lines: lines, SeenRefunded: seen})
		}
		if _, _, err := refund("k0", map[int64]int{a: 1}, 0); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Fatalf("refund of an unpaid order: %v", err)
		}
		if _, _, err := catalog.MarkOrderPaid(ctx, db, o.Number, "manual", "ch-1"); err != nil {
			t.Fatal(err)
		}
		// Hostile input changes nothing.
		for name, lines := range map[string]map[int64]int{
			"more than bought": {a: 4},
			"negative":         {a: -1},
			"other order":      {lineOf(other, "A").ID: 1},
			"nothing":          {a: 0},
		} {
			if _, _, err := refund("bad", lines, 0); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, _, err := refund("", map[int64]int{a: 1}, 0); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no form key: %v", err)
		}
		if stockOf(t, db, "A") != 4 {
			t.Fatalf("stock after hostile refunds: %d", stockOf(t, db, "A"))
		}
		got, applied, err := refund("k1", map[int64]int{a: 2}, 0)
		if err != nil || !applied || got.RefundedTotal != 2000 || lineOf(got, "A").RefundedQty != 2 || stockOf(t, db, "A") != 6 {
			t.Fatalf("refund = %+v, %v, %v; stock %d", got, applied, err, stockOf(t, db, "A"))
		}
		// The same form again, or another form that saw the old total, changes nothing.
		if _, applied, err := refund("k1", map[int64]int{a: 2}, 0); err != nil || applied {
			t.Errorf("same form again = %v, %v", applied, err)
		}
		if _, _, err := refund("k2", map[int64]int{a: 1}, 0); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("stale form: %v", err)
		}
		if _, _, err := refund("k3", map[int64]int{a: 2}, 2000); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("past what is left: %v", err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusShipped, ""); err != nil {
			t.Fatal(err)
		}
		if _, _, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "c1"}); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("cancel a shipped order: %v", err)
		}
		got, applied, err = catalog.RefundOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "k4", All: true, SeenRefunded: 2000})
		if err != nil || !applied || got.RefundedTotal != o.Total || got.CanRefund() || stockOf(t, db, "A") != 7 || stockOf(t, db, "B") != 9 {
			t.Fatalf("refund the rest = %+v, %v, %v", got, applied, err)
		}
		rs, err := catalog.ListOrderRefunds(ctx, db, o.ID)
		if err != nil || len(rs) != 2 || rs[0].Amount != 2000 || rs[0].Staff != "admin" || rs[0].Note != catalog.RefundNote || len(rs[0].Lines) != 1 {
			t.Errorf("refunds = %+v, %v", rs, err)
		}
	})
}

// Ten admins press Cancel at once (the same form, or each their own): the
// stock comes back once.
func TestCancelOrderOnce(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 5), product("B", 500, 5))
		o := placed(t, db, "1")
		if _, _, err := catalog.MarkOrderPaid(ctx, db, o.Number, "manual", "ch-1"); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		applied := 0
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				key := "same"
				if i%2 == 1 {
					key = fmt.Sprint("own-", i)
				}
				_, ok, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: key, Staff: "admin"})
				if err != nil && !errors.Is(err, catalog.ErrInvalidTransition) && !errors.Is(err, catalog.ErrConflict) {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					applied++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		got, _ := catalog.GetOrder(ctx, db, o.Number)
		if applied != 1 || got.Status != catalog.StatusCancelled || got.RefundedTotal != o.Total || stockOf(t, db, "A") != 5 || stockOf(t, db, "B") != 5 {
			t.Fatalf("applied %d, order %+v, stock A %d B %d", applied, got, stockOf(t, db, "A"), stockOf(t, db, "B"))
		}
		if _, _, err := catalog.RefundOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "r", All: true, SeenRefunded: o.Total}); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("refund a cancelled order: %v", err)
		}
	})
}
