package tools

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestApplyPromoCode(t *testing.T) {
	promoFlow(t, newTestEnv(t))
}

func TestApplyPromoCodePostgres(t *testing.T) {
	db, _ := catalogtest.PostgresDemo(t)
	promoFlow(t, newTestEnvOnDemo(t, db))
}

func createTestPromo(t *testing.T, e *testEnv, p *catalog.PromoCode) {
	t.Helper()
	p.Currency, p.Active = "USD", true
	if err := catalog.CreatePromo(context.Background(), e.db, p, fixedNow); err != nil {
		t.Fatal(err)
	}
}

// promoFlow: hostile and inapplicable codes change nothing; a code waiting
// for its minimum is kept with a note; a valid one shows its discount in
// the cart; removing takes it off.
func promoFlow(t *testing.T, e *testEnv) {
	ctx := context.Background()
	createTestPromo(t, e, &catalog.PromoCode{Code: "SPRING10", Kind: catalog.PromoPercent, Value: 10})
	createTestPromo(t, e, &catalog.PromoCode{Code: "BIG", Kind: catalog.PromoFixed, Value: 2000, MinSubtotal: 100000})
	past := fixedNow.Add(-time.Hour)
	createTestPromo(t, e, &catalog.PromoCode{Code: "OLD", Kind: catalog.PromoFixed, Value: 100, EndsAt: &past})
	e.call(t, "add_to_cart", `{"sku":"SHO-RUN-001-42","quantity":2}`) // $179.98

	for args, want := range map[string]string{
		`{"code":"` + strings.Repeat("A", 10<<10) + `"}`: "",
		`{"code":"x' OR '1'='1"}`:                        "Latin letters",
		`{"code":"промокод"}`:                            "Latin letters",
		`{"code":"SPRİNG10"}`:                            "Latin letters",
		`{"code":"NOPE"}`:                                "no promo code NOPE",
		`{"code":"old"}`:                                 "expired",
		`{"code":"SPRING10","user_id":7}`:                "",
		`{}`:                                             "characters",
	} {
		_, err := e.tools.Call(ctx, e.session, "apply_promo_code", args)
		var te *toolkit.ToolError
		if !errors.As(err, &te) || !strings.Contains(te.Msg, want) {
			t.Errorf("%.60s: err = %v, want a tool error with %q", args, err, want)
		}
		if c, _ := catalog.GetCart(ctx, e.db, e.session.Scope); c.PromoCode != "" {
			t.Fatalf("%.60s left code %q on the cart", args, c.PromoCode)
		}
	}

	res := e.call(t, "apply_promo_code", `{"code":"big"}`)
	if res.Cart == nil || res.Cart.PromoCode != "BIG" || res.Cart.Discount != 0 || !strings.Contains(res.Cart.PromoNote, "add $820.02 more") {
		t.Fatalf("code under its minimum: %+v", res.Cart)
	}

	res = e.call(t, "apply_promo_code", `{"code":" spring10 "}`)
	cv := res.Cart
	if cv.PromoCode != "SPRING10" || cv.Subtotal != 17998 || cv.Discount != 1799 || cv.Total != 16199 || cv.TotalText != "$161.99" {
		t.Fatalf("cart with SPRING10: %+v", cv)
	}
	if got := cv.PromoLine(); got != "Promo SPRING10: −$17.99 (subtotal $179.98)" {
		t.Errorf("promo line = %q", got)
	}
	if d := res.Data.(map[string]any)["cart"].(toolkit.CartData); d.Promo == nil || d.Promo.Discount != "−$17.99" || d.Total != "$161.99" {
		t.Errorf("model's cart: %+v", d)
	}
	// The cart carries the code to every view of it.
	if v := e.call(t, "view_cart", `{}`); v.Cart.Discount != 1799 {
		t.Errorf("view_cart lost the discount: %+v", v.Cart)
	}

	res = e.call(t, "apply_promo_code", `{"remove":true}`)
	if res.Cart.PromoCode != "" || res.Cart.Total != 17998 {
		t.Errorf("after remove: %+v", res.Cart)
	}
}

// TestApplyPromoCodeReplay: the same turn run again applies the code once
// (fake store: the journal skips the write).
func TestApplyPromoCodeReplay(t *testing.T) {
	n := 0
	w := &fakeWrites{applyPromo: func(_ context.Context, scope catalog.CartScope, customerID int64, code string) (*catalog.PromoQuote, error) {
		n++
		if scope.Key() != "customer:7" || customerID != 7 || code != "SPRING10" {
			t.Errorf("apply %s %d %s", scope.Key(), customerID, code)
		}
		return &catalog.PromoQuote{Code: code, Discount: 100}, nil
	}}
	inCart := 1
	fs := newFakeShop(t, w, &inCart, nil)
	for range 2 {
		if _, err := fs.call("apply_promo_code", `{"code":"spring10"}`); err != nil {
			t.Fatal(err)
		}
		fs.rerun()
	}
	if n != 1 || len(w.log()) != 1 {
		t.Errorf("applied %d times, log %v", n, w.log())
	}
}
