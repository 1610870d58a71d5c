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

// TestChangeOrderAddress: a pending order's address changes once; a
// shipped one's, or a blank address, is refused without a change.
func TestChangeOrderAddress(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10))
		o := placed(t, db, "1")
		for _, bad := range []string{"", "  ", "x"} {
			if _, _, err := catalog.ChangeOrderAddress(ctx, db, o.Number, bad); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("address %q: %v", bad, err)
			}
		}
		got, applied, err := catalog.ChangeOrderAddress(ctx, db, o.Number, "1 New Street, Springfield")
		if err != nil || !applied || got.ShippingAddress != "1 New Street, Springfield" || got.Revision != o.Revision+1 {
			t.Fatalf("change = %+v, %v, %v", got, applied, err)
		}
		if _, applied, err := catalog.ChangeOrderAddress(ctx, db, o.Number, "1 New Street, Springfield"); err != nil || applied {
			t.Errorf("same address again = %v, %v", applied, err)
		}
		if _, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusShipped, ""); err != nil {
			t.Fatal(err)
		}
		if _, _, err := catalog.ChangeOrderAddress(ctx, db, o.Number, "2 Other Road, Shelbyville"); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("shipped: %v", err)
		}
	})
}

// TestChangeOrderItems: quantities, removals and additions move stock and
// totals together; bad edits and a paid order change nothing.
func TestChangeOrderItems(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10), product("C", 300, 2))
		o := placed(t, db, "1") // 3 A + 1 B = 3500
		for name, want := range map[string]map[string]int{
			"unknown":      {"NOPE": 1},
			"negative":     {"A": -1},
			"too many":     {"A": 1000},
			"every line":   {"A": 0, "B": 0},
			"out of stock": {"C": 3},
		} {
			_, _, _, err := catalog.ChangeOrderItems(ctx, db, o.Number, want)
			if !errors.Is(err, catalog.ErrInvalid) && !errors.Is(err, catalog.ErrOutOfStock) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if stockOf(t, db, "A") != 7 || stockOf(t, db, "C") != 2 {
			t.Fatalf("bad edits moved stock: A %d C %d", stockOf(t, db, "A"), stockOf(t, db, "C"))
		}
		got, q, applied, err := catalog.ChangeOrderItems(ctx, db, o.Number, map[string]int{"A": 1, "B": 0, "C": 2})
		if err != nil || !applied {
			t.Fatalf("change: %v, %v", applied, err)
		}
		if got.Total != 1600 || q.Total != 1600 || len(got.Items) != 2 || lineOf(got, "A").Quantity != 1 || lineOf(got, "C").Quantity != 2 {
			t.Errorf("after the change: total %d, items %+v", got.Total, got.Items)
		}
		if a, b, c := stockOf(t, db, "A"), stockOf(t, db, "B"), stockOf(t, db, "C"); a != 9 || b != 10 || c != 0 {
			t.Errorf("stock A %d B %d C %d, want 9 10 0", a, b, c)
		}
		if _, _, applied, err := catalog.ChangeOrderItems(ctx, db, o.Number, map[string]int{"A": 1}); err != nil || applied {
			t.Errorf("no change = %v, %v", applied, err)
		}
		if _, _, err := catalog.MarkOrderPaid(ctx, db, o.Number, "manual", "ch-1"); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := catalog.ChangeOrderItems(ctx, db, o.Number, map[string]int{"A": 2}); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("paid: %v", err)
		}
		// Cancelling after the change gives back what the order holds now.
		if _, _, err := catalog.CancelOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "f", Staff: "admin"}); err != nil {
			t.Fatal(err)
		}
		if a, c := stockOf(t, db, "A"), stockOf(t, db, "C"); a != 10 || c != 2 {
			t.Errorf("after cancel: A %d C %d, want 10 2", a, c)
		}
	})
}

// TestChangeShipRace: on SQLite and Postgres, 25 item changes (each its
// own request) race 25 ships of one order: every change either applied
// before the ship or was refused, and stock matches the lines the order
// ends with.
func TestChangeShipRace(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 100), product("B", 500, 100))
		o := placed(t, db, "1")
		const n = 50
		var wg sync.WaitGroup
		var mu sync.Mutex
		changed, refused, shipped := 0, 0, 0
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if i%2 == 0 {
					_, _, applied, err := catalog.ChangeOrderItems(ctx, db, o.Number, map[string]int{"A": 4 + i/2})
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && applied:
						changed++
					case errors.Is(err, catalog.ErrInvalidTransition) || errors.Is(err, catalog.ErrConflict):
						refused++
					default:
						t.Errorf("change %d: %v, %v", i, applied, err)
					}
					return
				}
				_, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusShipped, "race")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					shipped++
				case errors.Is(err, catalog.ErrConflict) || errors.Is(err, catalog.ErrInvalidTransition):
				default:
					t.Errorf("ship %d: %v", i, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil {
			t.Fatal(err)
		}
		a := lineOf(got, "A").Quantity
		t.Logf("changed %d, refused %d, shipped %d; A %d", changed, refused, shipped, a)
		if shipped != 1 || got.Status != catalog.StatusShipped || changed+refused != n/2 {
			t.Fatalf("shipped %d (%s), changed %d refused %d", shipped, got.Status, changed, refused)
		}
		if stockOf(t, db, "A") != 100-a || got.Total != int64(a)*1000+500 || (changed == 0) != (a == 3) {
			t.Errorf("stock A %d with %d ordered, total %d, %d changes", stockOf(t, db, "A"), a, got.Total, changed)
		}
	})
}

// delivered places and delivers an order of 3 A and 1 B.
func delivered(t *testing.T, db *bun.DB, user string) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	o := placed(t, db, user)
	for _, s := range []catalog.OrderStatus{catalog.StatusShipped, catalog.StatusDelivered} {
		var err error
		if o, err = catalog.SetOrderStatus(ctx, db, o.Number, s, ""); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// TestReturnLifecycle: a return within the window holds its units, goes
// requested → approved → received → refunded (the units back in stock,
// the amount owed); one past the window, of an undelivered order or of
// more than is left is refused.
func TestReturnLifecycle(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10))
		o := delivered(t, db, "1")
		now := time.Now()
		req := func(key string, lines map[string]int, at time.Time) (*catalog.OrderReturn, bool, error) {
			return catalog.RequestReturn(ctx, db, catalog.ReturnRequest{Number: o.Number, Key: key, Kind: catalog.ReturnMoneyBack,
				Reason: "too small", Lines: lines, Now: at, Window: 30 * 24 * time.Hour})
		}
		if _, _, err := req("k0", map[string]int{"A": 1}, now.Add(31*24*time.Hour)); !errors.Is(err, catalog.ErrReturnClosed) {
			t.Errorf("past the window: %v", err)
		}
		for name, lines := range map[string]map[string]int{"more than bought": {"A": 4}, "not in it": {"Z": 1}, "zero": {"A": 0}} {
			if _, _, err := req("bad", lines, now); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v", name, err)
			}
		}
		r, applied, err := req("k1", map[string]int{"A": 2}, now)
		if err != nil || !applied || r.Status != catalog.ReturnRequested || len(r.Lines) != 1 || r.Lines[0].Qty != 2 {
			t.Fatalf("request = %+v, %v, %v", r, applied, err)
		}
		if again, applied, err := req("k1", map[string]int{"A": 2}, now); err != nil || applied || again.ID != r.ID {
			t.Errorf("same key again = %v, %v", applied, err)
		}
		if _, _, err := req("k2", map[string]int{"A": 2}, now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("units held by the open return asked again: %v", err)
		}
		// The merchant cannot refund the held units outside the return.
		if _, _, err := catalog.RefundOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: "r", Lines: map[int64]int{lineOf(o, "A").ID: 3}}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("refund of held units: %v", err)
		}
		if _, _, err := catalog.SetReturnStatus(ctx, db, catalog.ReturnChange{ID: r.ID, Next: catalog.ReturnRefunded, Seen: catalog.ReturnRequested}); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("requested → refunded: %v", err)
		}
		for _, next := range []catalog.ReturnStatus{catalog.ReturnApproved, catalog.ReturnReceived, catalog.ReturnRefunded} {
			cur, _ := catalog.GetReturn(ctx, db, r.ID)
			if _, applied, err := catalog.SetReturnStatus(ctx, db, catalog.ReturnChange{ID: r.ID, Next: next, Seen: cur.Status, Staff: "admin"}); err != nil || !applied {
				t.Fatalf("→ %s: %v, %v", next, applied, err)
			}
		}
		got, _ := catalog.GetOrder(ctx, db, o.Number)
		if got.RefundedTotal != 2000 || lineOf(got, "A").RefundedQty != 2 || stockOf(t, db, "A") != 9 {
			t.Errorf("after the refund: refunded %d, qty %d, stock %d", got.RefundedTotal, lineOf(got, "A").RefundedQty, stockOf(t, db, "A"))
		}
		list, err := catalog.ListReturns(ctx, db, catalog.ReturnRefunded, 10)
		if err != nil || len(list) != 1 || list[0].Order == nil || list[0].Order.Number != o.Number {
			t.Errorf("list = %+v, %v", list, err)
		}
		pending := placed(t, db, "2")
		if _, _, err := catalog.RequestReturn(ctx, db, catalog.ReturnRequest{Number: pending.Number, Key: "k", Kind: catalog.ReturnExchange, Reason: "size"}); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("undelivered: %v", err)
		}
	})
}

// TestReturnRefundRace: on SQLite and Postgres, 25 shoppers' returns of
// line A (each its own request) race 25 merchant refunds of line A:
// exactly one wins — one return holds the units and every refund fails,
// or one refund took them and every return is refused.
func TestReturnRefundRace(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10))
		o := delivered(t, db, "1")
		a := lineOf(o, "A").ID
		const n = 50
		var wg sync.WaitGroup
		var mu sync.Mutex
		returned, refunded := 0, 0
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var err error
				ok := false
				if i%2 == 0 {
					_, ok, err = catalog.RequestReturn(ctx, db, catalog.ReturnRequest{Number: o.Number, Key: fmt.Sprintf("turn-%d", i),
						Kind: catalog.ReturnMoneyBack, Reason: "broken", Lines: map[string]int{"A": 3}, Now: time.Now()})
				} else {
					_, ok, err = catalog.RefundOrder(ctx, db, catalog.OrderChange{Number: o.Number, FormKey: fmt.Sprintf("form-%d", i),
						Staff: "admin", Lines: map[int64]int{a: 3}})
				}
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && ok && i%2 == 0:
					returned++
				case err == nil && ok:
					refunded++
				case errors.Is(err, catalog.ErrInvalid) || errors.Is(err, catalog.ErrConflict):
				default:
					t.Errorf("%d: %v, %v", i, ok, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		got, _ := catalog.GetOrder(ctx, db, o.Number)
		rs, _ := catalog.OrderReturns(ctx, db, o.ID)
		t.Logf("returned %d, refunded %d", returned, refunded)
		if returned+refunded != 1 || len(rs) != returned || (refunded == 1) != (got.RefundedTotal == 3000) {
			t.Fatalf("returned %d refunded %d; %d return rows, refunded total %d", returned, refunded, len(rs), got.RefundedTotal)
		}
		if want := 7 + 3*refunded; stockOf(t, db, "A") != want {
			t.Errorf("stock A %d, want %d", stockOf(t, db, "A"), want)
		}
	})
}

// TestAddressShipRace: on SQLite and Postgres, 25 address changes (each a
// different address) race 25 ships of one order: one ship passes; every
// change either applied before it (the order keeps one of theirs) or was
// refused, and none applies once shipped.
func TestAddressShipRace(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("A", 1000, 10), product("B", 500, 10))
		o := placed(t, db, "1")
		const n = 50
		var wg sync.WaitGroup
		var mu sync.Mutex
		applied := map[string]bool{}
		shipped := 0
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if i%2 == 0 {
					addr := fmt.Sprintf("%d Race Street, Springfield", i)
					_, ok, err := catalog.ChangeOrderAddress(ctx, db, o.Number, addr)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil && ok:
						applied[addr] = true
					case errors.Is(err, catalog.ErrInvalidTransition) || errors.Is(err, catalog.ErrConflict):
					default:
						t.Errorf("change %d: %v, %v", i, ok, err)
					}
					return
				}
				_, err := catalog.SetOrderStatus(ctx, db, o.Number, catalog.StatusShipped, "race")
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					shipped++
				} else if !errors.Is(err, catalog.ErrConflict) && !errors.Is(err, catalog.ErrInvalidTransition) {
					t.Errorf("ship %d: %v", i, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d changes applied, %d shipped, address %q", len(applied), shipped, got.ShippingAddress)
		if shipped != 1 || got.Status != catalog.StatusShipped {
			t.Fatalf("shipped %d, status %s", shipped, got.Status)
		}
		if len(applied) == 0 && got.ShippingAddress != o.ShippingAddress || len(applied) > 0 && !applied[got.ShippingAddress] {
			t.Errorf("address %q, applied %v", got.ShippingAddress, applied)
		}
		// Once shipped, no change can apply.
		if _, _, err := catalog.ChangeOrderAddress(ctx, db, o.Number, "1 Late Street, Springfield"); !errors.Is(err, catalog.ErrInvalidTransition) {
			t.Errorf("after shipping: %v", err)
		}
	})
}
