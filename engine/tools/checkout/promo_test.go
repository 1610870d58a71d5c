package checkout_test

import (
	"context"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/tools/toolstest"
)

func createTestPromo(t *testing.T, e *testEnv, p *catalog.PromoCode) {
	t.Helper()
	p.Currency, p.Active = "USD", true
	if err := catalog.CreatePromo(context.Background(), e.db, p, toolstest.Now); err != nil {
		t.Fatal(err)
	}
}

// TestCheckoutWithPromo: the summary and the order carry the discount;
// when the code's last use goes to another order before the confirmation,
// nothing is ordered, the summary comes back without the discount and
// with the reason, and confirming that orders without it.
func TestCheckoutWithPromo(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	s := e.session
	createTestPromo(t, e, &catalog.PromoCode{Code: "FIVE", Kind: catalog.PromoFixed, Value: 500, MaxUses: 2})
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42"}`) // $89.99
	e.call(t, "apply_promo_code", `{"code":"FIVE"}`)
	d := checkoutOf(t, e.call(t, "checkout", `{"name":"Ann Lee","phone":"5550100123","address":"1 Main St"}`))
	if d.Status != "confirm" || d.Summary.Total != "$84.99" || d.Summary.Promo == nil || d.Summary.Promo.Discount != "−$5.00" {
		t.Fatalf("summary: %+v", d.Summary)
	}
	s.DedupKey = "turn-2"
	res := e.call(t, "checkout", `{"confirm":true}`)
	if d := checkoutOf(t, res); d.Status != "placed" || d.Order.Total != "$84.99" || res.Order.PromoLine() != "Promo FIVE: −$5.00" {
		t.Fatalf("order: %+v %+v", d, res.Order)
	}

	// Another shopper's order takes the last use between summary and confirm.
	s.DedupKey = "turn-3"
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42"}`)
	e.call(t, "apply_promo_code", `{"code":"FIVE"}`)
	if d := checkoutOf(t, e.call(t, "checkout", `{}`)); d.Summary.Total != "$84.99" {
		t.Fatalf("second summary: %+v", d.Summary)
	}
	if _, err := e.db.NewUpdate().Model((*catalog.PromoCode)(nil)).Set("uses = max_uses").Where("code = 'FIVE'").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	s.DedupKey = "turn-4"
	d = checkoutOf(t, e.call(t, "checkout", `{"confirm":true}`))
	if d.Status != "confirm" || d.Summary.Total != "$89.99" || !strings.Contains(d.Reason, "used up") {
		t.Fatalf("refused code: %+v", d)
	}
	wantOrderCount(t, e, 1)
	s.DedupKey = "turn-5"
	res = e.call(t, "checkout", `{"confirm":true}`)
	if d := checkoutOf(t, res); d.Status != "placed" || d.Order.Total != "$89.99" || res.Order.Discount != 0 {
		t.Fatalf("order without the code: %+v %+v", d, res.Order)
	}
	if p, _ := catalog.GetPromo(ctx, e.db, "FIVE"); p.Uses != 2 {
		t.Errorf("uses = %d, want 2", p.Uses)
	}

	// A group cart's summary cannot know every chat the shopper used the
	// code in: the order checks the per-customer limit in its
	// transaction, refuses the code, the summary comes back without the
	// discount, and a confirmation orders without it.
	createTestPromo(t, e, &catalog.PromoCode{Code: "ONCE", Kind: catalog.PromoFixed, Value: 500, PerCustomer: 1})
	s.Scope, s.State.Checkout, s.DedupKey = catalog.SharedCart("slack", "C1"), nil, "turn-6"
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42"}`)
	e.call(t, "apply_promo_code", `{"code":"ONCE"}`)
	if d := checkoutOf(t, e.call(t, "checkout", `{}`)); d.Summary.Total != "$84.99" {
		t.Fatalf("group summary: %+v", d.Summary)
	}
	// Meanwhile the shopper uses the code in another chat.
	if _, err := e.db.NewInsert().Model(&catalog.PromoRedemption{PromoCodeID: promoID(t, e, "ONCE"), OrderID: orderID(t, e), CustomerID: s.Customer.ID}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	s.DedupKey = "turn-7"
	d = checkoutOf(t, e.call(t, "checkout", `{"confirm":true}`))
	if d.Status != "confirm" || d.Summary.Total != "$89.99" || !strings.Contains(d.Reason, "per customer") || s.State.Checkout.NoPromo != "ONCE" {
		t.Fatalf("refused per-customer code: %+v", d)
	}
	s.DedupKey = "turn-8"
	if d := checkoutOf(t, e.call(t, "checkout", `{"confirm":true}`)); d.Status != "placed" || d.Order.Total != "$89.99" {
		t.Fatalf("group order without the code: %+v", d)
	}
	wantOrderCount(t, e, 3)
}

func promoID(t *testing.T, e *testEnv, code string) int64 {
	t.Helper()
	p, err := catalog.GetPromo(context.Background(), e.db, code)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func orderID(t *testing.T, e *testEnv) int64 {
	t.Helper()
	var o catalog.Order
	if err := e.db.NewSelect().Model(&o).Limit(1).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return o.ID
}
