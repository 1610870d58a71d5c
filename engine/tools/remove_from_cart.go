package tools

import (
	"context"
	"encoding/json"
	"errors"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type removeFromCartArgs struct {
	SKU string `json:"sku"`
}

func removeFromCartTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "remove_from_cart",
		Description: "Remove a product from the cart.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a removeFromCartArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			return removeCartItem(ctx, d, s, strings.TrimSpace(a.SKU))
		},
	}
}

// removeCartItem removes sku from the session's cart; a product that is not
// in the cart is a ToolError.
func removeCartItem(ctx context.Context, d *Deps, s *session.Session, sku string) (toolkit.Result, error) {
	key := s.Effects().EffectKey("remove", sku)
	_, err := d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		return nil, w.RemoveFromCart(ctx, s.Scope, sku)
	})
	if errors.Is(err, catalog.ErrNotFound) {
		return toolkit.Result{}, toolkit.Errorf("%s is not in the cart", sku)
	}
	if err != nil {
		return toolkit.Result{}, err
	}
	cart, err := d.carts().Cart(ctx, s.Scope)
	if err != nil {
		return toolkit.Result{}, err
	}
	title := sku
	if p, err := d.products().Product(ctx, sku); err == nil {
		title = p.Title
	}
	view := view.CartViewOf(cart, s.Currency)
	return cartChanged(s, map[string]any{
		"removed": map[string]any{"sku": sku, "title": title},
		"cart":    toolkit.CartDataOf(view),
	}, view), nil
}
