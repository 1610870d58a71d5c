package checkout

import (
	"context"
	"fmt"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// The delivery step of checkout, between the contact and the summary: the
// methods that fit the address's country (else the shop's own country; a
// pickup fits any) are offered with their price for this cart; one that
// alone fits is taken without asking. A shop without delivery methods
// skips the step.

// deliveryQuote is the delivery a summary shows and the order keeps.
type deliveryQuote struct {
	MethodID int64
	Name     string
	Price    int64
	Country  string
}

// deliveryLine is the delivery as the summary fingerprint sees it.
type deliveryLine struct {
	Name  string `json:"name,omitempty"`
	Price int64  `json:"price,omitempty"`
}

func (q *deliveryQuote) line() deliveryLine {
	if q == nil {
		return deliveryLine{}
	}
	return deliveryLine{q.Name, q.Price}
}

func (q *deliveryQuote) request() *catalog.DeliveryRequest {
	if q == nil {
		return nil
	}
	return &catalog.DeliveryRequest{MethodID: q.MethodID, Country: q.Country}
}

// checkoutDelivery picks the delivery for the checkout: a quote, or a
// result that asks the shopper to choose (or says nothing fits), or
// neither when the shop has no delivery methods.
func checkoutDelivery(ctx context.Context, d *Deps, s *session.Session, cart *catalog.Cart, ct checkoutContact, asked string) (*deliveryQuote, *toolkit.Result, error) {
	methods, err := d.Deliveries().DeliveryMethods(ctx)
	if err != nil || len(methods) == 0 {
		return nil, nil, err
	}
	country, ok := catalog.CountryIn(ct.Address)
	if !ok {
		if country, err = d.Deliveries().DefaultCountry(ctx); err != nil {
			return nil, nil, err
		}
	}
	fits := catalog.FittingDeliveries(methods, country)
	if len(fits) == 0 {
		return nil, noDelivery(s, ct, country), nil
	}
	subtotal, _ := cart.Total()
	choice := analysis.CleanText(asked)
	if choice == "" && s.State.Checkout != nil {
		choice = s.State.Checkout.Delivery
	}
	reason := ""
	if choice != "" {
		for _, m := range fits {
			if strings.EqualFold(m.Name, choice) {
				return &deliveryQuote{m.ID, m.Name, m.PriceFor(subtotal), country}, nil, nil
			}
		}
		if asked != "" {
			reason = fmt.Sprintf("%q is not available for this address", clip.Shorten(choice, catalog.MaxDeliveryName))
		}
	}
	if len(fits) == 1 && reason == "" {
		m := fits[0]
		return &deliveryQuote{m.ID, m.Name, m.PriceFor(subtotal), country}, nil, nil
	}
	res := askDelivery(s, ct, fits, subtotal, country, reason)
	return nil, &res, nil
}

// askDelivery offers the fitting methods, each with a button.
func askDelivery(s *session.Session, ct checkoutContact, fits []catalog.DeliveryMethod, subtotal int64, country, reason string) toolkit.Result {
	st := &session.CheckoutState{Awaiting: "delivery", Name: ct.Name, Phone: ct.Phone, Address: ct.Address}
	data := checkoutData{Status: "choose_delivery", Reason: reason, Country: catalog.CountryName(country, s.Lang()),
		Instruction: "ask the shopper which delivery method they want, then call checkout with delivery set to its name"}
	var buttons []view.Button
	for i, m := range fits {
		o := deliveryOptionOf(i+1, &m, m.PriceFor(subtotal), s.Currency)
		data.Delivery = append(data.Delivery, o)
		st.Options = append(st.Options, session.DeliveryChoice{ID: m.ID, Name: m.Name, Pickup: m.Pickup})
		buttons = append(buttons, view.NewButton(m.Name+" — "+o.Price, view.Action{Kind: view.ActDelivery, Arg: strconv.FormatInt(m.ID, 10)}))
	}
	s.State.Checkout = st
	return toolkit.Result{Data: data, Buttons: buttons}
}

// noDelivery says no method reaches the address; the next message is
// taken as another address.
func noDelivery(s *session.Session, ct checkoutContact, country string) *toolkit.Result {
	s.State.Checkout = &session.CheckoutState{Awaiting: "address", Name: ct.Name, Phone: ct.Phone}
	where := "this address"
	if country != "" {
		where = catalog.CountryName(country, s.Lang())
	}
	return &toolkit.Result{Data: checkoutData{
		Status: "no_delivery", Country: where,
		Reason:      "no delivery method reaches " + where,
		Instruction: "tell the shopper we do not deliver there and ask for another address (or pickup)",
	}}
}

// DeliveryButton resolves a delivery button (its Arg, the method id) to
// the method's name among those the checkout offered; false for a button
// the checkout in progress did not offer (an old message's).
func DeliveryButton(st *session.State, arg string) (string, bool) {
	if st == nil || st.Checkout == nil {
		return "", false
	}
	for _, o := range st.Checkout.Options {
		if strconv.FormatInt(o.ID, 10) == arg {
			return o.Name, true
		}
	}
	return "", false
}

func derefResult(r *toolkit.Result) toolkit.Result {
	if r == nil {
		return toolkit.Result{}
	}
	return *r
}
