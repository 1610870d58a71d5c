package planner

// Planner turns about checkout: start or resume, contact details, confirm, cancel.
import (
	"context"
	"errors"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/tools/checkout"
	"shopbot/engine/view"
)

// checkoutView is the checkout tool's data as the templates read it.
type checkoutView struct {
	Status  string            `json:"status"`
	Missing []string          `json:"missing"`
	Invalid map[string]string `json:"invalid"`
	Reason  string            `json:"reason"`
	Summary *summaryView      `json:"summary"`
	// The delivery step (delivery.go).
	Country  string                    `json:"country"`
	Delivery []checkout.DeliveryOption `json:"delivery_options"`
	Order    *struct {
		Number string `json:"number"`
		Total  string `json:"total"`
	} `json:"order"`
}

// summaryView is the order summary the shopper confirms.
type summaryView struct {
	Changed bool // the cart or prices changed since the last summary
	Lines   []struct {
		Title     string `json:"title"`
		Variant   string `json:"variant"`
		Qty       int    `json:"qty"`
		LineTotal string `json:"line_total"`
	} `json:"lines"`
	Promo *struct {
		Code     string `json:"code"`
		Discount string `json:"discount"`
	} `json:"promo"`
	Subtotal      string `json:"subtotal"`
	Delivery      string `json:"delivery"`
	DeliveryPrice string `json:"delivery_price"`
	Total         string `json:"total"`
	Contact       struct {
		Name    string `json:"name"`
		Phone   string `json:"phone"`
		Address string `json:"address"`
	} `json:"contact"`
}

// contactFields are the details checkout asks for, in its order.
var contactFields = []string{"name", "phone", "address"}

// checkout starts (or resumes) a checkout. It never confirms: an order is
// placed only by a "yes" to a summary shown in an earlier turn.
func (t *plannerTurn) checkout(ctx context.Context, _ intent.Intent) error {
	return t.checkoutStep(ctx, map[string]any{})
}

func (t *plannerTurn) field(ctx context.Context, in intent.Intent) error {
	args := map[string]any{in.Field: in.Value}
	if len(in.Contact) > 0 {
		args = map[string]any{}
		for f, v := range in.Contact {
			args[f] = v
		}
	}
	res, err := t.call(ctx, "checkout", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) { // too long for the schema, typically
		t.say(rInvalidField, struct{ Field, Reason string }{in.Field, ""})
		return nil
	}
	return t.checkoutReply(res, err)
}

func (t *plannerTurn) confirm(ctx context.Context, _ intent.Intent) error {
	return t.checkoutStep(ctx, map[string]any{"confirm": true})
}

func (t *plannerTurn) checkoutStep(ctx context.Context, args map[string]any) error {
	res, err := t.call(ctx, "checkout", args)
	return t.checkoutReply(res, err)
}

// checkoutReply words the checkout's status: ask for a detail, show the
// summary, or announce the order.
func (t *plannerTurn) checkoutReply(res toolkit.Result, err error) error {
	if errors.Is(err, catalog.ErrEmptyCart) {
		t.say(rEmptyCheckout, nil)
		t.button("btn.cats", view.Action{Kind: view.ActCategories})
		return nil
	}
	if err != nil {
		return t.fail(err)
	}
	v := dataAs[checkoutView](res)
	switch {
	case v.Status == "need_details" && len(v.Invalid) > 0:
		for _, f := range contactFields {
			if reason, bad := v.Invalid[f]; bad {
				t.say(rInvalidField, struct{ Field, Reason string }{f, reason})
				break
			}
		}
	case v.Status == "need_details" && len(v.Missing) > 0:
		t.say(rAsk, v.Missing[0])
	case v.Status == "choose_delivery" || v.Status == "no_delivery":
		t.deliveryReply(v)
	case v.Status == "confirm" && v.Summary != nil:
		v.Summary.Changed = v.Reason == checkout.ReasonChanged
		t.say(rSummary, v.Summary)
		t.button("btn.confirm", view.Action{Kind: view.ActConfirm})
		t.button("btn.cart", view.Action{Kind: view.ActCart})
	case v.Status == "placed" && v.Order != nil:
		t.say(rPlaced, v.Order)
		t.button("btn.orders", view.Action{Kind: view.ActOrders})
	default:
		t.say(rCheckoutStatus, nil)
	}
	return nil
}

func (t *plannerTurn) cancel(context.Context, intent.Intent) error {
	if t.s.State.Checkout == nil {
		t.say(rNothingToStop, nil)
		return nil
	}
	t.s.State.Checkout = nil
	t.say(rCancelled, nil)
	t.button("btn.cart", view.Action{Kind: view.ActCart})
	return nil
}
