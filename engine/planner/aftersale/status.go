package aftersale

import (
	"context"
	"errors"

	"shopbot/engine/planner/intent"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// Where an order stands: one order by its number, or the shopper's
// orders a page at a time.

const (
	rOrders     = "orders"
	rOrder      = "order"
	rMoreOrders = "more_orders"
)

// Status answers IntentOrders: the order named, or the latest orders
// with a More button when there are more.
func Status(ctx context.Context, t Turn, in intent.Intent) error {
	args := map[string]string{}
	if in.Order != "" {
		args["order_number"] = in.Order
	}
	res, err := t.Call(ctx, "get_order_status", args)
	var te *toolkit.ToolError
	if errors.As(err, &te) && in.Order != "" {
		t.Say(rNoSuchOrder, nil)
		return nil
	}
	if err != nil {
		return t.Fail(err)
	}
	d := dataAs[struct {
		Order  *order  `json:"order"`
		Orders []order `json:"orders"`
	}](res)
	switch {
	case d.Order != nil:
		t.Say(rOrder, d.Order)
	case len(d.Orders) > 0:
		t.Say(rOrders, d.Orders)
		t.More()
	default:
		t.Say(rNoOrders, nil)
		t.Button("btn.cats", view.Action{Kind: view.ActCategories})
	}
	return nil
}

// MoreOrders shows the page of the shopper's orders from offset on; none
// is true, and nothing said, when there are no more (the planner says
// the list has ended).
func MoreOrders(ctx context.Context, t Turn, offset int) (none bool, err error) {
	res, err := t.Call(ctx, "get_order_status", map[string]any{"offset": offset})
	if err != nil {
		return false, t.Fail(err)
	}
	orders := dataAs[struct {
		Orders []order `json:"orders"`
	}](res).Orders
	if len(orders) == 0 {
		return true, nil
	}
	t.Say(rMoreOrders, orders)
	t.More()
	return false, nil
}
