package tools

import (
	"context"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/session"
)

func cancelStatus(t *testing.T, res toolkit.Result) (status, orderStatus string) {
	t.Helper()
	var v struct {
		Status string
		Order  orderBrief
	}
	toolData(t, res, &v)
	return v.Status, v.Order.Status
}

// TestCancelOrder: nothing is cancelled without confirm; with it the
// order is cancelled once and its stock comes back; again changes
// nothing; a shipped order, another shopper's order and bad arguments
// are refused without a change.
func TestCancelOrder(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	stock := func() int {
		p, err := catalog.GetProduct(ctx, e.db, "BOO-FIC-001")
		if err != nil {
			t.Fatal(err)
		}
		return p.Stock
	}
	before := stock()
	o := placeTestOrder(t, e, e.session, "c1", 0, map[string]int{"BOO-FIC-001": 2})
	args := `{"order_number":"` + o.Number + `"}`
	if st, os := cancelStatus(t, e.call(t, "cancel_order", args)); st != "confirm" || os != "new" {
		t.Fatalf("without confirm: %s, order %s", st, os)
	}
	if stock() != before-2 {
		t.Fatalf("asking changed the stock")
	}
	confirmed := `{"order_number":"` + o.Number + `","confirm":true}`
	for i := range 2 { // the same request twice: applied once
		if st, os := cancelStatus(t, e.call(t, "cancel_order", confirmed)); st != "cancelled" || os != "cancelled" {
			t.Fatalf("confirm %d: %s, order %s", i, st, os)
		}
	}
	if stock() != before {
		t.Errorf("stock %d after the cancel, want %d", stock(), before)
	}
	refunds, err := catalog.ListOrderRefunds(ctx, e.db, o.ID)
	if err != nil || len(refunds) != 1 || refunds[0].Staff != ShopperStaff {
		t.Errorf("refund rows %+v, %v", refunds, err)
	}

	shipped := placeTestOrder(t, e, e.session, "c2", 0, map[string]int{"BOO-FIC-001": 1})
	if _, err := catalog.SetOrderStatus(ctx, e.db, shipped.Number, catalog.StatusShipped, ""); err != nil {
		t.Fatal(err)
	}
	if st, os := cancelStatus(t, e.call(t, "cancel_order", `{"order_number":"`+shipped.Number+`","confirm":true}`)); st != "cannot_cancel" || os != "shipped" {
		t.Errorf("shipped order: %s, %s", st, os)
	}

	other := newTestSession(t, e.db, "telegram", "stranger")
	theirs := placeTestOrder(t, e, other, "c3", 0, map[string]int{"BOO-FIC-001": 1})
	for _, bad := range []string{
		`{"order_number":"` + theirs.Number + `","confirm":true}`,  // someone else's
		`{"order_number":"SB-NOSUCH22","confirm":true}`,            // missing
		`{"order_number":""}`,                                      // empty
		`{"confirm":true}`,                                         // no number
		`{"order_number":"` + theirs.Number + `","confirm":"yes"}`, // wrong type
	} {
		if _, err := e.tools.Call(ctx, e.session, "cancel_order", bad); !toolkit.IsUserError(err) {
			t.Errorf("%s: %v, want a user error", bad, err)
		}
	}
	if o, _ := catalog.GetOrder(ctx, e.db, theirs.Number); o.Status != catalog.StatusNew {
		t.Errorf("another shopper's order is %s", o.Status)
	}
}

// TestCancelShipRace: on SQLite and Postgres, 25 shoppers' cancels and 25
// merchant ships of one order race; exactly one outcome holds: either the
// order is cancelled (every ship failed, one refund row, the stock back)
// or shipped (exactly one ship passed, every cancel says it cannot, no
// refund row, the stock still out).
func TestCancelShipRace(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		e := newTestEnvOnDemo(t, db)
		ctx := context.Background()
		p0, err := catalog.GetProduct(ctx, db, "BOO-FIC-002")
		if err != nil {
			t.Fatal(err)
		}
		o := placeTestOrder(t, e, e.session, "race", 0, map[string]int{"BOO-FIC-002": 3})
		const n = 50
		ss := make([]*session.Session, n)
		for i := range n / 2 {
			s := newTestSession(t, db, "web", "shopper-1")
			s.DedupKey = fmt.Sprintf("race-%d", i)
			ss[i] = s
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		cancelled, cannot, shipped, shipFailed := 0, 0, 0, 0
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if i < n/2 {
					res, err := e.tools.Call(ctx, ss[i], "cancel_order", `{"order_number":"`+o.Number+`","confirm":true}`)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						t.Errorf("cancel %d: %v", i, err)
						return
					}
					switch st, _ := cancelStatus(t, res); st {
					case "cancelled":
						cancelled++
					case "cannot_cancel":
						cannot++
					default:
						t.Errorf("cancel %d: status %s", i, st)
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
					shipFailed++
				default:
					t.Errorf("ship %d: %v", i, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		final, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil {
			t.Fatal(err)
		}
		refunds, err := catalog.ListOrderRefunds(ctx, db, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := catalog.GetProduct(ctx, db, "BOO-FIC-002")
		if err != nil {
			t.Fatal(err)
		}
		switch final.Status {
		case catalog.StatusCancelled:
			if shipped != 0 || cancelled != n/2 || len(refunds) != 1 || p.Stock != p0.Stock {
				t.Errorf("cancelled: %d ships passed, %d cancels said cancelled, %d refund rows, stock %d (was %d)",
					shipped, cancelled, len(refunds), p.Stock, p0.Stock)
			}
		case catalog.StatusShipped:
			if shipped != 1 || cannot != n/2 || len(refunds) != 0 || p.Stock != p0.Stock-3 {
				t.Errorf("shipped: %d ships passed, %d cancels refused, %d refund rows, stock %d (was %d)",
					shipped, cannot, len(refunds), p.Stock, p0.Stock)
			}
		default:
			t.Errorf("final status %s", final.Status)
		}
		t.Logf("outcome %s: cancels %d cancelled / %d refused, ships %d passed / %d failed", final.Status, cancelled, cannot, shipped, shipFailed)
	})
}
