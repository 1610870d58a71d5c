package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// cancel_order (issue 30, after-sale self-service): the shopper cancels
// their own order before it ships. Without confirm it only says what
// would be cancelled (status "confirm"); with confirm, given only after
// the shopper said yes to that, it cancels through catalog.CancelOrder,
// the merchant's own path: the status moves with a conditional update,
// stock comes back, and a refund row records it under the form key
// ShopperCancelKey, so the same request again changes nothing and a
// merchant shipping the order meanwhile wins or loses the race as a
// whole (status "cannot_cancel" then names the status it has).

// ShopperCancelKey and ShopperStaff: how a shopper's own cancellation is
// keyed and recorded (toolkit's effect transaction writes it).
const (
	ShopperCancelKey = toolkit.ShopperCancelKey
	ShopperStaff     = toolkit.ShopperStaff
)

// orderCanceller is the write cancel_order makes; the database's effect
// transaction has it (toolkit), a store without it cannot cancel.
type orderCanceller interface {
	CancelOwnOrder(ctx context.Context, number string) (applied bool, err error)
}

type cancelOrderArgs struct {
	OrderNumber string `json:"order_number"`
	Confirm     bool   `json:"confirm"`
}

func cancelOrderTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "cancel_order",
		Description: "Cancel an unshipped order; confirm only after the shopper's yes.",
		Schema: object(map[string]any{
			"order_number": str("", 20),
			"confirm":      map[string]any{"type": "boolean"},
		}, "order_number"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a cancelOrderArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			o, err := ownOrder(ctx, d, s, a.OrderNumber)
			if err != nil {
				return toolkit.Result{}, err
			}
			switch {
			case o.Status == catalog.StatusCancelled:
				return orderAnswer("cancelled", o), nil
			case !o.CanCancel():
				return orderAnswer("cannot_cancel", o), nil
			case !a.Confirm:
				return orderAnswer("confirm", o), nil
			}
			_, err = d.apply(ctx, s, "cancel_order:"+o.Number, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				oc, ok := w.(orderCanceller)
				if !ok {
					return nil, toolkit.Errorf("this shop cannot cancel orders from the chat")
				}
				_, err := oc.CancelOwnOrder(ctx, o.Number)
				return nil, err
			})
			// Lost to the merchant's change (shipped meanwhile, or
			// cancelled by them): the order as it is now says which.
			if err != nil && !errors.Is(err, catalog.ErrInvalidTransition) && !errors.Is(err, catalog.ErrConflict) {
				return toolkit.Result{}, err
			}
			if o, err = d.orders().Order(ctx, o.Number); err != nil {
				return toolkit.Result{}, err
			}
			if o.Status != catalog.StatusCancelled {
				return orderAnswer("cannot_cancel", o), nil
			}
			return orderAnswer("cancelled", o), nil
		},
	}
}

// ownOrder is the shopper's order of that number; any other is reported
// as missing, as get_order_status does.
func ownOrder(ctx context.Context, d *Deps, s *session.Session, number string) (*catalog.Order, error) {
	number = strings.ToUpper(strings.TrimSpace(number))
	if number == "" {
		return nil, toolkit.Errorf("order_number is required")
	}
	o, err := d.orders().Order(ctx, number)
	if errors.Is(err, catalog.ErrNotFound) {
		return nil, toolkit.Errorf("no order with that number")
	}
	if err != nil {
		return nil, fmt.Errorf("engine: cancel_order: %w", err)
	}
	if o.CustomerID != s.Customer.ID && o.CartScope != s.Scope.Key() {
		return nil, toolkit.Errorf("no order with that number")
	}
	return o, nil
}

// orderAnswer is an after-sale tool's result: a status and the order.
func orderAnswer(status string, o *catalog.Order) toolkit.Result {
	return toolkit.Result{Data: map[string]any{"status": status, "order": orderBriefOf(o)}, Order: view.OrderViewOf(o)}
}
