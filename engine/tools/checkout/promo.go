package checkout

import (
	"context"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/engine/session"
)

// A promo code at checkout. The summary shows the cart's code as it
// applies now, and the order redeems exactly what the shopper confirmed:
// the discount is part of the summary's fingerprint (as a line of its
// own), and catalog.PlaceOrder redeems the code in the order's
// transaction. When the code fails there (its last use taken by another
// order, or its end date passed since the summary), nothing is ordered:
// the shopper sees the summary again, without the discount and with the
// reason, and a confirmation orders without it. A shop owner wants that
// rather than either silently charging more than the summary said, or
// refusing the sale; the shopper also may remove the code or the order.

// orderPromo is the cart's code when it gives a discount now, else "".
func orderPromo(c *catalog.Cart) string {
	if c.Promo == nil || c.Promo.Problem != nil || c.Promo.Discount <= 0 {
		return ""
	}
	return c.Promo.Code
}

// promoFingerprintLine is the discount as a line of the summary's
// fingerprint, so the shopper confirms it with the products.
func promoFingerprintLine(code string, discount int64, currency string) fingerprintLine {
	return fingerprintLine{SKU: "promo:" + code, Qty: 1, UnitPrice: -discount, Currency: currency}
}

// withPromoNote adds why the cart's code gives no discount to the reason
// a summary is shown again: the likely change is that the code ran out.
func withPromoNote(reason string, c *catalog.Cart) string {
	if reason != ReasonChanged || c.Promo == nil || c.Promo.Problem == nil {
		return reason
	}
	return reason + ": " + c.Promo.Problem.Msg
}

// declinedPromo shows the cart without the code the order could not
// redeem, once the shopper was told why.
func declinedPromo(s *session.Session, c *catalog.Cart) {
	st := s.State.Checkout
	if st == nil || st.NoPromo == "" || c.Promo == nil || c.Promo.Code != st.NoPromo || c.Promo.Problem != nil {
		return
	}
	c.Promo = &catalog.PromoQuote{Code: c.Promo.Code, Currency: c.Promo.Currency, Problem: &catalog.PromoError{
		Code: c.Promo.Code, Reason: catalog.PromoExhausted, Msg: st.NoPromoReason,
	}}
}

// promoRefused answers an order that failed on its code: the summary
// again, without the discount, saying why.
func promoRefused(ctx context.Context, d *Deps, s *session.Session, ct checkoutContact, pe *catalog.PromoError) (toolkit.Result, error) {
	if s.State.Checkout == nil {
		s.State.Checkout = &session.CheckoutState{}
	}
	s.State.Checkout.NoPromo, s.State.Checkout.NoPromoReason = pe.Code, pe.Msg
	return refreshSummary(ctx, d, s, ct, "no order was placed: "+pe.Msg+
		"; this summary is without the discount, and confirming it orders without the code")
}
