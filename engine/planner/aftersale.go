package planner

import (
	"context"
	"errors"
	"shopbot/engine/toolkit"

	"shopbot/engine/planner/intent"
	"shopbot/engine/view"
)

// After-sale self-service (issue 30): cancelling an order that has not
// shipped. The planner shows the order and asks; only a yes in the next
// message (State.Pending) calls cancel_order with confirm.

const (
	rCancelAsk      replyKey = "cancel_ask"
	rOrderCancelled replyKey = "order_cancelled"
	rCannotCancel   replyKey = "cannot_cancel"
	rKeepOrder      replyKey = "keep_order"
)

func (t *plannerTurn) cancelOrder(ctx context.Context, in intent.Intent) error {
	if in.Value == "keep" {
		t.say(rKeepOrder, nil)
		return nil
	}
	number := in.Order
	if number == "" { // the latest order
		res, err := t.call(ctx, "get_order_status", map[string]string{})
		if err != nil {
			return t.fail(err)
		}
		d := dataAs[struct {
			Orders []orderView `json:"orders"`
		}](res)
		if len(d.Orders) == 0 {
			t.say(rNoOrders, nil)
			return nil
		}
		number = d.Orders[0].Number
	}
	args := map[string]any{"order_number": number}
	if in.Value == "confirm" {
		args["confirm"] = true
	}
	res, err := t.call(ctx, "cancel_order", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) {
		t.say(rNoSuchOrder, nil)
		return nil
	}
	if err != nil {
		return t.fail(err)
	}
	d := dataAs[struct {
		Status string    `json:"status"`
		Order  orderView `json:"order"`
	}](res)
	switch d.Status {
	case "confirm":
		t.say(rCancelAsk, d.Order)
		t.s.State.Pending = intent.PendingCancel + d.Order.Number
	case "cancelled":
		t.say(rOrderCancelled, d.Order)
		t.button("btn.orders", view.Action{Kind: view.ActOrders})
	default:
		t.say(rCannotCancel, d.Order)
	}
	return nil
}
