package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type updateCartItemArgs struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

func updateCartItemTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "update_cart_item",
		Description: "Set a product's quantity in the cart; 0 removes it.",
		Schema: object(map[string]any{
			"sku":      sku(),
			"quantity": integer("0 removes", 0, catalog.MaxCartQuantity),
		}, "sku", "quantity"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a updateCartItemArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			a.SKU = strings.TrimSpace(a.SKU)
			if a.Quantity == 0 {
				return removeCartItem(ctx, d, s, a.SKU)
			}
			key := s.Effects().EffectKey("set", a.SKU+"|"+strconv.Itoa(a.Quantity))
			_, err := d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
				return nil, w.SetCartQuantity(ctx, s.Scope, a.SKU, a.Quantity, s.Customer.ID)
			})
			if err != nil {
				return toolkit.Result{}, cartChangeError(ctx, d, s, a.SKU, err)
			}
			cart, err := d.carts().Cart(ctx, s.Scope)
			if err != nil {
				return toolkit.Result{}, err
			}
			_, title := cartQty(cart, a.SKU)
			view := view.CartViewOf(cart, s.Currency)
			return cartChanged(s, map[string]any{
				"updated": map[string]any{"sku": a.SKU, "title": title, "qty": a.Quantity},
				"cart":    toolkit.CartDataOf(view),
			}, view), nil
		},
	}
}
