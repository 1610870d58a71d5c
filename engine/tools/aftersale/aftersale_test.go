package aftersale_test

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
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools/toolstest"
)

type reply struct {
	Status   string
	Order    struct{ Status, Address, Total string }
	Returns  []struct{ Status, Kind string }
	NewTotal string `json:"new_total"`
	ReturnBy string `json:"return_by"`
}

func status(t *testing.T, res toolkit.Result) reply {
	t.Helper()
	var r reply
	toolstest.DataOf(t, res, &r)
	return r
}

func stock(t *testing.T, db bun.IDB, sku string) int {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatal(err)
	}
	return p.Stock
}

// TestChangeAddress: nothing changes without confirm; with it once; a
// shipped order, another shopper's and a blank address are refused.
func TestChangeAddress(t *testing.T) {
	e := toolstest.SQLite(t)
	o := e.PlaceOrder(t, e.Session, "a1", 0, map[string]int{"GRO-COF-001": 1})
	args := `{"order_number":"` + o.Number + `","address":"5 Elm Road, Boston"`
	if r := status(t, e.Call(t, "change_order_address", args+`}`)); r.Status != "confirm" || r.Order.Address != "1 Main St" {
		t.Fatalf("ask: %+v", r)
	}
	for range 2 {
		if r := status(t, e.Call(t, "change_order_address", args+`,"confirm":true}`)); r.Status != "changed" || r.Order.Address != "5 Elm Road, Boston" {
			t.Fatalf("confirm: %+v", r)
		}
	}
	e.ToolError(t, "change_order_address", `{"order_number":"`+o.Number+`","address":" ","confirm":true}`)
	other := toolstest.Session(t, e.DB, "web", "stranger")
	theirs := e.PlaceOrder(t, other, "a2", 0, map[string]int{"GRO-COF-001": 1})
	e.ToolError(t, "change_order_address", `{"order_number":"`+theirs.Number+`","address":"5 Elm Road","confirm":true}`)
	if _, err := catalog.SetOrderStatus(context.Background(), e.DB, o.Number, catalog.StatusShipped, ""); err != nil {
		t.Fatal(err)
	}
	if r := status(t, e.Call(t, "change_order_address", `{"order_number":"`+o.Number+`","address":"9 Oak St","confirm":true}`)); r.Status != "cannot_change" {
		t.Errorf("shipped: %+v", r)
	}
}

// TestChangeItems: the quote is shown first and changes nothing; the
// confirmed change moves stock and total once; bad SKUs and quantities are
// tool errors; a paid order cannot change.
func TestChangeItems(t *testing.T) {
	e := toolstest.SQLite(t)
	before := stock(t, e.DB, "GRO-COF-002")
	o := e.PlaceOrder(t, e.Session, "i1", 0, map[string]int{"GRO-COF-001": 2})
	args := `{"order_number":"` + o.Number + `","items":[{"sku":"GRO-COF-001","qty":1},{"sku":"GRO-COF-002","qty":2}]`
	r := status(t, e.Call(t, "change_order_items", args+`}`))
	if r.Status != "confirm" || r.NewTotal == "" || stock(t, e.DB, "GRO-COF-002") != before {
		t.Fatalf("ask: %+v", r)
	}
	for range 2 {
		if got := status(t, e.Call(t, "change_order_items", args+`,"confirm":true}`)); got.Status != "changed" && got.Status != "unchanged" || got.Order.Total != r.NewTotal {
			t.Fatalf("confirm: %+v, quoted %s", got, r.NewTotal)
		}
	}
	if stock(t, e.DB, "GRO-COF-002") != before-2 {
		t.Errorf("stock %d, want %d", stock(t, e.DB, "GRO-COF-002"), before-2)
	}
	for _, bad := range []string{
		`{"order_number":"` + o.Number + `","items":[{"sku":"NOPE-1","qty":1}],"confirm":true}`,
		`{"order_number":"` + o.Number + `","items":[{"sku":"GRO-COF-001","qty":-1}]}`,
		`{"order_number":"` + o.Number + `","items":[]}`,
		`{"order_number":"` + o.Number + `","items":[{"sku":"GRO-COF-001","qty":0},{"sku":"GRO-COF-002","qty":0}],"confirm":true}`,
	} {
		e.ToolError(t, "change_order_items", bad)
	}
	if _, _, err := catalog.MarkOrderPaid(context.Background(), e.DB, o.Number, "manual", "c1"); err != nil {
		t.Fatal(err)
	}
	if got := status(t, e.Call(t, "change_order_items", args+`,"confirm":true}`)); got.Status != "cannot_change" {
		t.Errorf("paid: %+v", got)
	}
}

// TestRequestReturn: a delivered order's return is asked, then recorded
// once with its status shown; past the window or not delivered, refused.
func TestRequestReturn(t *testing.T) {
	e := toolstest.SQLite(t)
	e.Deps.ReturnWindow = 30 * 24 * time.Hour
	ctx := context.Background()
	pending := e.PlaceOrder(t, e.Session, "r0", 0, map[string]int{"GRO-COF-001": 1})
	if r := status(t, e.Call(t, "request_return", `{"order_number":"`+pending.Number+`"}`)); r.Status != "not_delivered" {
		t.Errorf("pending: %+v", r)
	}
	o := e.PlaceOrder(t, e.Session, "r1", 0, map[string]int{"GRO-COF-001": 2})
	for _, s := range []catalog.OrderStatus{catalog.StatusShipped, catalog.StatusDelivered} {
		if _, err := catalog.SetOrderStatus(ctx, e.DB, o.Number, s, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.DB.NewUpdate().Model((*catalog.Order)(nil)).Set("delivered_at = ?", toolstest.Now.AddDate(0, 0, -3)).Where("id = ?", o.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if r := status(t, e.Call(t, "request_return", `{"order_number":"`+o.Number+`"}`)); r.Status != "confirm" || r.ReturnBy != toolstest.Now.AddDate(0, 0, 27).Format("2006-01-02") {
		t.Fatalf("ask: %+v", r)
	}
	e.ToolError(t, "request_return", `{"order_number":"`+o.Number+`","confirm":true}`) // no reason or kind
	args := `{"order_number":"` + o.Number + `","kind":"exchange","reason":"too small","items":[{"sku":"GRO-COF-001","qty":1}],"confirm":true}`
	for range 2 {
		if r := status(t, e.Call(t, "request_return", args)); r.Status != "requested" || len(r.Returns) != 1 || r.Returns[0].Status != "requested" {
			t.Fatalf("confirm: %+v", r)
		}
	}
	e.Session.Now = toolstest.Now.AddDate(0, 0, 40)
	if r := status(t, e.Call(t, "request_return", `{"order_number":"`+o.Number+`"}`)); r.Status != "window_closed" || len(r.Returns) != 1 {
		t.Errorf("late: %+v", r)
	}
}

// TestChangeItemsShipRace: on SQLite and Postgres, 25 shoppers' confirmed
// item changes (each its own turn) race 25 ships of one order: each change
// says changed only if the order holds it, and stock matches its lines.
func TestChangeItemsShipRace(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		e := toolstest.OnDemo(t, db)
		ctx := context.Background()
		before := stock(t, db, "GRO-COF-001")
		o := e.PlaceOrder(t, e.Session, "race", 0, map[string]int{"GRO-COF-001": 1})
		const n = 50
		var wg sync.WaitGroup
		var mu sync.Mutex
		changed, shipped := 0, 0
		start := make(chan struct{})
		for i := range n {
			var s *session.Session
			if i%2 == 0 {
				s = toolstest.Session(t, db, "web", "shopper-1")
				s.DedupKey = fmt.Sprintf("race-%d", i)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if s != nil {
					res, err := e.Tools.Call(ctx, s, "change_order_items", `{"order_number":"`+o.Number+`","items":[{"sku":"GRO-COF-001","qty":2}],"confirm":true}`)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						t.Errorf("change %d: %v", i, err)
						return
					}
					if r := status(t, res); r.Status == "changed" {
						changed++
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
		q := got.Items[0].Quantity
		t.Logf("changed %d, shipped %d, quantity %d", changed, shipped, q)
		if shipped != 1 || got.Status != catalog.StatusShipped || changed > 1 || (changed == 1) != (q == 2) || stock(t, db, "GRO-COF-001") != before-q {
			t.Fatalf("shipped %d changed %d quantity %d stock %d (was %d)", shipped, changed, q, stock(t, db, "GRO-COF-001"), before)
		}
	})
}
