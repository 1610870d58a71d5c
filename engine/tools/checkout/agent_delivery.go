package checkout

import (
	"context"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// An agent's checkout summary lists every delivery method that reaches
// the address, with its price for this cart in minor units (Amount), so
// the agent can offer the buyer another before complete_checkout; the
// summary's total already includes the chosen one (TotalAmount).

// agentSummary adds the delivery options and the amounts to a confirm
// summary of create_checkout; other results pass unchanged.
func agentSummary(ctx context.Context, d *Deps, s *session.Session, res toolkit.Result) (toolkit.Result, error) {
	data, ok := res.Data.(checkoutData)
	if !ok || data.Status != "confirm" || data.Summary == nil {
		return res, nil
	}
	cart, err := d.Carts().Cart(ctx, s.Scope)
	if err != nil {
		return toolkit.Result{}, err
	}
	subtotal, _ := cart.Total()
	methods, err := d.Deliveries().DeliveryMethods(ctx)
	if err != nil {
		return toolkit.Result{}, err
	}
	country, ok := catalog.CountryIn(data.Summary.Contact.Address)
	if !ok {
		if country, err = d.Deliveries().DefaultCountry(ctx); err != nil {
			return toolkit.Result{}, err
		}
	}
	sum := &agentAmounts{Currency: s.Currency, Total: view.CartViewOf(cart, s.Currency).Total}
	for i, m := range catalog.FittingDeliveries(methods, country) {
		o := deliveryOptionOf(i+1, &m, m.PriceFor(subtotal), s.Currency)
		o.Amount = new(m.PriceFor(subtotal))
		if s.State.Checkout != nil && m.Name == s.State.Checkout.Delivery {
			o.Chosen = true
			sum.Delivery = *o.Amount
			sum.Total += *o.Amount
		}
		data.Delivery = append(data.Delivery, o)
	}
	if len(data.Delivery) > 0 {
		data.Country = catalog.CountryName(country, s.Lang())
	}
	res.Data = agentCheckoutData{checkoutData: data, Amounts: sum}
	return res, nil
}

// agentAmounts are a summary's figures in minor units: Total is the
// cart's total (after its promo) plus the chosen delivery.
type agentAmounts struct {
	Currency string `json:"currency"`
	Delivery int64  `json:"delivery"`
	Total    int64  `json:"total"`
}
