package aftersale

import (
	"context"
	"encoding/json"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

// addressChanger is the write change_order_address makes (toolkit's
// effect transaction has it).
type addressChanger interface {
	ChangeOwnOrderAddress(ctx context.Context, number, address string) (applied bool, err error)
}

type changeAddressArgs struct {
	OrderNumber string `json:"order_number"`
	Address     string `json:"address"`
	Confirm     bool   `json:"confirm"`
}

// ChangeAddressTool is change_order_address: the delivery address of an
// order that has not shipped. Statuses: "confirm" (asks, nothing
// written), "changed", "cannot_change" (shipped, delivered or cancelled,
// also when the merchant shipped it meanwhile).
func ChangeAddressTool(d Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "change_order_address",
		Description: "Change an unshipped order's address; confirm after the shopper's yes.",
		Schema: toolkit.Object(map[string]any{
			"order_number": plainStr(20),
			"address":      plainStr(catalog.MaxAddressLen),
			"confirm":      map[string]any{"type": "boolean"},
		}, "order_number", "address"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a changeAddressArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			o, err := d.ownOrder(ctx, s, a.OrderNumber)
			if err != nil {
				return toolkit.Result{}, err
			}
			if err := catalog.ValidAddress(a.Address); err != nil {
				return toolkit.Result{}, err
			}
			switch {
			case !o.CanChangeAddress():
				return answer("cannot_change", o, nil), nil
			case !a.Confirm:
				return answer("confirm", o, map[string]any{"new_address": a.Address}), nil
			}
			_, err = d.Apply(ctx, s, "change_order_address:"+o.Number+":"+a.Address, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				ac, ok := w.(addressChanger)
				if !ok {
					return nil, noWrites()
				}
				_, err := ac.ChangeOwnOrderAddress(ctx, o.Number, a.Address)
				return nil, err
			})
			if o, err = d.reread(ctx, o, err); err != nil {
				return toolkit.Result{}, err
			}
			if o.ShippingAddress != catalog.TrimAddress(a.Address) {
				return answer("cannot_change", o, nil), nil
			}
			return answer("changed", o, nil), nil
		},
	}
}
