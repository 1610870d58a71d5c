package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/payments"
	"shopbot/engine/tools/toolstest"
)

// newShopEngine is a planner engine on the demo shop in db, a database
// that holds it already (catalogtest.SQLiteDemo, EachDemo).
func newShopEngine(t *testing.T, db *bun.DB) *Engine {
	t.Helper()
	toolstest.OnDemo(t, db)
	eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db)})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// placeTestOrder places an order of qty units of sku for a shopper of
// channel, as checkout would.
func placeTestOrder(t *testing.T, db *bun.DB, channel, user, key, sku string, qty int) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: channel, PlatformUserID: user, DisplayName: "Rae"})
	if err != nil {
		t.Fatal(err)
	}
	scope := catalog.PersonalCart(c.ID)
	if _, err := catalog.AddToCart(ctx, db, scope, sku, qty, c.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: key, Scope: scope, CustomerID: c.ID, Channel: channel, ChatID: user,
		Contact: catalog.Contact{Name: "Rae", Phone: "+15550100", Address: "1 Road"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestPreCheckout: a payment goes ahead only for an order awaiting
// payment in its channel, at its total, with every product still sold at
// the price it holds; each refusal says why, and checking changes nothing.
func TestPreCheckout(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		eng := newShopEngine(t, db)
		ok := placeTestOrder(t, db, "telegram", "p1", "k1", "SHO-RUN-001-42", 2)
		cancelled := placeTestOrder(t, db, "telegram", "p1", "k2", "SHO-RUN-001-42", 1)
		if _, err := catalog.SetOrderStatus(ctx, db, cancelled.Number, catalog.StatusCancelled, ""); err != nil {
			t.Fatal(err)
		}
		web := placeTestOrder(t, db, "web", "p2", "k3", "SHO-RUN-001-42", 1)
		pay := func(o *catalog.Order) payments.Payment {
			return payments.Payment{Channel: "telegram", OrderNumber: o.Number, Amount: o.Total, Currency: o.Currency}
		}
		for _, tc := range []struct {
			name string
			p    payments.Payment
			want payments.RefusalReason // "": go ahead
		}{
			{"valid", pay(ok), ""},
			{"currency in lower case", payments.Payment{Channel: "telegram", OrderNumber: ok.Number, Amount: ok.Total, Currency: "usd"}, ""},
			{"unknown order", payments.Payment{Channel: "telegram", OrderNumber: "SB-NOPE", Amount: 100, Currency: "USD"}, payments.RefuseNotPayable},
			{"order number with a NUL", payments.Payment{Channel: "telegram", OrderNumber: "SB-\x00", Amount: 100, Currency: "USD"}, payments.RefuseNotPayable},
			{"cancelled", pay(cancelled), payments.RefuseNotPayable},
			{"another channel's order", pay(web), payments.RefuseNotPayable},
			{"amount differs", payments.Payment{Channel: "telegram", OrderNumber: ok.Number, Amount: ok.Total - 1, Currency: "USD"}, payments.RefuseTotalChanged},
			{"currency differs", payments.Payment{Channel: "telegram", OrderNumber: ok.Number, Amount: ok.Total, Currency: "EUR"}, payments.RefuseTotalChanged},
		} {
			err := eng.PreCheckout(ctx, tc.p)
			var no *payments.Refusal
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %v, want go ahead", tc.name, err)
			case tc.want != "" && (!errors.As(err, &no) || no.Reason != tc.want):
				t.Errorf("%s: %v, want refusal %s", tc.name, err, tc.want)
			}
		}
		// A price change after the order: refused, naming the product.
		if _, err := db.NewUpdate().Model((*catalog.Product)(nil)).Set("price = price + 1").Where("sku = ?", "SHO-RUN-001-42").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		var no *payments.Refusal
		if err := eng.PreCheckout(ctx, pay(ok)); !errors.As(err, &no) || no.Reason != payments.RefusePriceChanged || no.Title != ok.Items[0].Title {
			t.Errorf("price changed: %v", err)
		}
		// The product withdrawn from sale: refused as gone.
		if err := catalog.SetProductActive(ctx, db, "SHO-RUN-001-42", false); err != nil {
			t.Fatal(err)
		}
		if err := eng.PreCheckout(ctx, pay(ok)); !errors.As(err, &no) || no.Reason != payments.RefuseProductGone || no.Title != ok.Items[0].Title {
			t.Errorf("product withdrawn: %v", err)
		}
		if o, err := catalog.GetOrder(ctx, db, ok.Number); err != nil || o.Status != catalog.StatusNew || o.PaymentChargeID != nil {
			t.Errorf("pre-checkout changed the order: %+v, %v", o, err)
		}
	})
}

// TestConfirmPayment: a charge marks the order paid once; the same charge
// again changes nothing and is not "first"; another charge for the paid
// order is a conflict; a bad charge id changes nothing.
func TestConfirmPayment(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		eng := newShopEngine(t, db)
		o := placeTestOrder(t, db, "telegram", "p1", "k1", "SHO-RUN-001-42", 1)
		p := payments.Payment{Channel: "telegram", OrderNumber: o.Number, Amount: o.Total, Currency: o.Currency, ChargeID: "charge-1"}
		if _, _, err := eng.ConfirmPayment(ctx, payments.Payment{Channel: "telegram", OrderNumber: o.Number, ChargeID: "bad\x00id"}); !errors.Is(err, ErrBadTurn) {
			t.Errorf("charge id with a NUL: %v", err)
		}
		if _, _, err := eng.ConfirmPayment(ctx, payments.Payment{Channel: "telegram", OrderNumber: o.Number}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no charge id: %v", err)
		}
		ov, first, err := eng.ConfirmPayment(ctx, p)
		if err != nil || !first || ov.Status != string(catalog.StatusPaid) || ov.Number != o.Number || ov.TotalText == "" {
			t.Fatalf("first confirmation: %+v, %v, %v", ov, first, err)
		}
		ov, first, err = eng.ConfirmPayment(ctx, p)
		if err != nil || first || ov.Status != string(catalog.StatusPaid) {
			t.Errorf("same charge again: %+v, %v, %v", ov, first, err)
		}
		other := p
		other.ChargeID = "charge-2"
		if _, _, err := eng.ConfirmPayment(ctx, other); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("another charge: %v", err)
		}
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil || got.PaymentChargeID == nil || *got.PaymentChargeID != "charge-1" || got.PaymentProvider != "telegram" {
			t.Errorf("order after payments: %+v, %v", got, err)
		}
		var no *payments.Refusal
		if err := eng.PreCheckout(ctx, p); !errors.As(err, &no) || no.Reason != payments.RefuseNotPayable {
			t.Errorf("pre-checkout of a paid order: %v", err)
		}
	})
}

// TestConfirmPaymentConcurrently: two confirmations of one charge at once
// (a redelivered update reaching two replicas) record it once: exactly
// one of them is first.
func TestConfirmPaymentConcurrently(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		if _, err := demo.Load(ctx, dbs[0]); err != nil {
			t.Fatal(err)
		}
		first := newShopEngine(t, dbs[0])
		second, err := New(Config{DB: dbs[1], Search: searchtest.NewDatabase(dbs[1])})
		if err != nil {
			t.Fatal(err)
		}
		engines := []*Engine{first, second}
		for i := range 10 {
			o := placeTestOrder(t, dbs[0], "telegram", "p1", fmt.Sprint("k", i), "SHO-RUN-001-42", 1)
			p := payments.Payment{Channel: "telegram", OrderNumber: o.Number, Amount: o.Total, Currency: o.Currency, ChargeID: fmt.Sprint("charge-", i)}
			var wg sync.WaitGroup
			firsts := make([]bool, len(engines))
			errs := make([]error, len(engines))
			start := make(chan struct{})
			for j, eng := range engines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, firsts[j], errs[j] = eng.ConfirmPayment(ctx, p)
				}()
			}
			close(start)
			wg.Wait()
			if errs[0] != nil || errs[1] != nil || firsts[0] == firsts[1] {
				t.Fatalf("order %d: first %v, errors %v", i, firsts, errs)
			}
		}
	})
}
