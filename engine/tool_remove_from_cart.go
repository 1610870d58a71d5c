package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"shopbot/catalog"
)

type removeFromCartArgs struct {
	SKU string `json:"sku"`
}

func removeFromCartTool(d *Deps) Tool {
	return Tool{
		Name:        "remove_from_cart",
		Description: "Remove a product from the cart.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *Session, raw json.RawMessage) (Result, error) {
			var a removeFromCartArgs
			if err := decodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			return removeCartItem(ctx, d, s, strings.TrimSpace(a.SKU))
		},
	}
}

// removeCartItem removes sku from the session's cart; a product that is not
// in the cart is a ToolError.
func removeCartItem(ctx context.Context, d *Deps, s *Session, sku string) (Result, error) {
	before, err := catalog.GetCart(ctx, d.DB, s.Scope)
	if err != nil {
		return Result{}, err
	}
	_, title := cartQty(before, sku)
	if title == "" {
		return Result{}, toolErrorf("%s is not in the cart", sku)
	}
	cart, err := catalog.RemoveFromCart(ctx, d.DB, s.Scope, sku)
	if errors.Is(err, catalog.ErrNotFound) {
		return Result{}, toolErrorf("%s is not in the cart", sku) // removed meanwhile
	}
	if err != nil {
		return Result{}, err
	}
	view := cartViewOf(cart, s.Currency)
	return cartChanged(s, map[string]any{
		"removed": map[string]any{"sku": sku, "title": title},
		"cart":    cartDataOf(view),
	}, view), nil
}
