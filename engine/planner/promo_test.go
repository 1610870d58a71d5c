package planner

import (
	"context"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
)

// TestPlannerPromoCodes: without a model, a shopper applies a code in
// English or Russian, sees the discount and the new total, hears why a
// bad code does not work, and removes the code.
func TestPlannerPromoCodes(t *testing.T) {
	c := newPlannerChat(t, "en-US")
	p := &catalog.PromoCode{Code: "SPRING10", Kind: catalog.PromoPercent, Value: 10, Currency: "USD", Active: true}
	if err := catalog.CreatePromo(context.Background(), c.e.db, p, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.AddToCart(context.Background(), c.e.db, c.e.session.Scope, "SHO-RUN-001-42", 2, c.e.session.Customer.ID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ msg, want string }{
		{"I have a code SPRING10", "Promo code SPRING10 applied: −$17.99 off. New total: $161.99."},
		{"remove the promo code", "Promo code removed. Total: $179.98."},
		{"промокод spring10", "Промокод SPRING10 применён: скидка −$17.99. Новая сумма: $161.99."},
		{"promo code NOPE1", "Sorry, that code doesn't work: there is no promo code NOPE1."},
		{"промокод ВЕСНА10", "Извините, этот промокод не подходит: a promo code has only Latin letters"},
	} {
		plan := c.say(t, tc.msg)
		if len(plan.Calls) != 1 || plan.Calls[0].Name != "apply_promo_code" || !strings.Contains(plan.Text, tc.want) {
			t.Errorf("%q: calls %s, reply %q; want %q", tc.msg, planCallNames(plan), plan.Text, tc.want)
		}
	}
	// The summary the shopper confirms shows the discount (the refused
	// codes above left SPRING10 on the cart).
	c.say(t, "checkout")
	plan := c.say(t, "Eva Stone, +1 555 0100, 1 Main St, Springfield")
	for _, want := range []string{"Promo SPRING10: −$17.99", "Total: $161.99"} {
		if !strings.Contains(plan.Text, want) {
			t.Errorf("summary %q, want %q in it", plan.Text, want)
		}
	}
}
