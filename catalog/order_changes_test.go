package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// TestCancelPathsAreOne: the merchant's Cancel (CancelOrder) and a status
// change to cancelled (SetOrderStatus, as the admin's status form and the
// bot use it) race on a paid order with a variant and a promo code: one
// applies, the variant's stock (and its parent's roll-up), the plain
// product's stock and the promo use come back exactly once, and one
// refund row records the amount owed.
func TestCancelPathsAreOne(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db) // TEE-NAVY-M 3, TEE-NAVY-L 0, TEE-RED-M 5
		seed(t, db, product("A", 1000, 5))
		createPromo(t, db, promo("SAVE5", catalog.PromoFixed, 500))
		ann := customer(t, db, "telegram", "1")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "TEE-NAVY-M", 2, ann.ID))
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), "A", 1, ann.ID))
		if _, err := catalog.ApplyCartPromo(ctx, db, catalog.PersonalCart(ann.ID), ann.ID, "SAVE5", time.Now()); err != nil {
			t.Fatal(err)
		}
		o, err := orderWith(db, ann, "k1", "SAVE5")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := catalog.MarkOrderPaid(ctx, db, o.Number, "manual", "ch-1"); err != nil {
			t.Fatal(err)
		}
		if stockOf(t, db, "TEE-NAVY-M") != 1 || stockOf(t, db, "TEE") != 6 {
			t.Fatalf("after ordering: variant %d, parent %d", stockOf(t, db, "TEE-NAVY-M"), stockOf(t, db, "TEE"))
		}
		var wg sync.WaitGroup
		var applied atomic.Int32
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				ok := false
				if i%2 == 0 {
					_, err = catalog.ChangeOrderStatus(ctx, db, o.Number, catalog.StatusCancelled, "")
					ok = err == nil
				} else {
					_, ok, err = catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: fmt.Sprint("form-", i), Staff: "admin"})
				}
				if err != nil && !errors.Is(err, catalog.ErrInvalidTransition) && !errors.Is(err, catalog.ErrConflict) {
					t.Error(err)
				}
				if ok {
					applied.Add(1)
				}
			}()
		}
		wg.Wait()
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil {
			t.Fatal(err)
		}
		if applied.Load() != 1 || got.Status != catalog.StatusCancelled || got.RefundedTotal != o.Total {
			t.Errorf("applied %d, status %s, refunded %d of %d", applied.Load(), got.Status, got.RefundedTotal, o.Total)
		}
		if v, p, a := stockOf(t, db, "TEE-NAVY-M"), stockOf(t, db, "TEE"), stockOf(t, db, "A"); v != 3 || p != 8 || a != 5 {
			t.Errorf("stock after cancelling: variant %d, parent %d, A %d; want 3, 8, 5", v, p, a)
		}
		if p, _ := catalog.GetPromo(ctx, db, "SAVE5"); p.Uses != 0 {
			t.Errorf("promo uses after cancelling = %d, want 0", p.Uses)
		}
		refunds, err := catalog.ListOrderRefunds(ctx, db, o.ID)
		if err != nil || len(refunds) != 1 || refunds[0].Kind != catalog.RefundCancel || refunds[0].Amount != o.Total {
			t.Errorf("refund rows %+v, %v; want one cancel of %d", refunds, err, o.Total)
		}
		// Either path again changes nothing.
		if _, err := catalog.ChangeOrderStatus(ctx, db, o.Number, catalog.StatusCancelled, ""); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("cancelling a cancelled order by status: %v", err)
		}
		// The status path's own key finds its row when it won (applied
		// false), and is refused as a transition when a form won.
		_, ok, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: catalog.StatusCancelKey})
		statusWon := len(refunds) == 1 && refunds[0].FormKey == catalog.StatusCancelKey
		if ok || statusWon && err != nil || !statusWon && !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("cancelling a cancelled order by form (status path won: %v): applied %v, %v", statusWon, ok, err)
		}
		if stockOf(t, db, "TEE-NAVY-M") != 3 || stockOf(t, db, "A") != 5 {
			t.Errorf("a second cancel returned stock again")
		}
	})
}

// TestSetOrderStatusCancel: cancelling a new order by status returns its
// stock and records a cancel row without an amount (nothing was paid); a
// shipped order cannot be cancelled and keeps its stock out.
func TestSetOrderStatusCancel(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 5), product("B", 500, 5))
		o := placed(t, db, "1")
		got, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusCancelled, "")
		if err != nil || got.Status != catalog.StatusCancelled || got.CancelledAt == nil || got.RefundedTotal != 0 {
			t.Fatalf("cancel a new order: %+v, %v", got, err)
		}
		if stockOf(t, db, "A") != 5 || stockOf(t, db, "B") != 5 {
			t.Errorf("stock A %d, B %d; want 5, 5", stockOf(t, db, "A"), stockOf(t, db, "B"))
		}
		if rs, _ := catalog.ListOrderRefunds(ctx, db, o.ID); len(rs) != 1 || rs[0].Amount != 0 || rs[0].FormKey != catalog.StatusCancelKey {
			t.Errorf("refund rows %+v", rs)
		}

		shipped := placed(t, db, "2")
		if _, err := catalog.SetOrderStatus(ctx, db, shipped.Number, catalog.StatusShipped, "TRACK-1"); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, shipped.Number, catalog.StatusCancelled, ""); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("cancel a shipped order: %v", err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, "NO-SUCH", catalog.StatusCancelled, ""); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("cancel an unknown order: %v", err)
		}
		if stockOf(t, db, "A") != 2 || stockOf(t, db, "B") != 4 {
			t.Errorf("stock after refused cancels: A %d, B %d; want 2, 4", stockOf(t, db, "A"), stockOf(t, db, "B"))
		}
	})
}
