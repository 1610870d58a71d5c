package aftersale

import (
	"context"
	"errors"

	"shopbot/engine/planner/intent"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Cancelling an order that has not shipped: the order is shown and
// asked about; only a yes in the next message calls cancel_order with
// confirm.

const (
	rCancelAsk      = "cancel_ask"
	rOrderCancelled = "order_cancelled"
	rCannotCancel   = "cannot_cancel"
)

// Cancel answers IntentCancelOrder: the order named (or the latest) is
// asked about, cancelled on a yes ("confirm") or kept on a no ("keep").
func Cancel(ctx context.Context, t Turn, in intent.Intent) error {
	if in.Value == "keep" {
		t.Say(rKeepOrder, nil)
		return nil
	}
	number := in.Order
	if number == "" { // the latest order
		res, err := t.Call(ctx, "get_order_status", map[string]string{})
		if err != nil {
			return t.Fail(err)
		}
		d := dataAs[struct {
			Orders []order `json:"orders"`
		}](res)
		if len(d.Orders) == 0 {
			t.Say(rNoOrders, nil)
			return nil
		}
		number = d.Orders[0].Number
	}
	args := map[string]any{"order_number": number}
	if in.Value == "confirm" {
		args["confirm"] = true
	}
	res, err := t.Call(ctx, "cancel_order", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) {
		t.Say(rNoSuchOrder, nil)
		return nil
	}
	if err != nil {
		return t.Fail(err)
	}
	d := dataAs[struct {
		Status string `json:"status"`
		Order  order  `json:"order"`
	}](res)
	switch d.Status {
	case "confirm":
		t.Say(rCancelAsk, d.Order)
		t.Ask(intent.PendingCancel + d.Order.Number)
	case "cancelled":
		t.Say(rOrderCancelled, d.Order)
		t.Button("btn.orders", view.Action{Kind: view.ActOrders})
	default:
		t.Say(rCannotCancel, d.Order)
	}
	return nil
}
