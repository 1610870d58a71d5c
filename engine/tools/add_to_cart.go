package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/view"
)

type addToCartArgs struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

func addToCartTool(d *Deps) Tool {
	return Tool{
		Name:        "add_to_cart",
		Description: "Add units of a product to the cart.",
		Schema: object(map[string]any{
			"sku":      sku(),
			"quantity": integer("default 1", 1, catalog.MaxCartQuantity),
		}, "sku"),
		Run: func(ctx context.Context, s *Session, raw json.RawMessage) (Result, error) {
			var a addToCartArgs
			if err := DecodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			a.SKU = strings.TrimSpace(a.SKU)
			if a.Quantity == 0 {
				a.Quantity = 1
			}
			key := s.effects().effectKey("add", a.SKU+"|"+strconv.Itoa(a.Quantity))
			_, err := d.apply(ctx, s, key, func(ctx context.Context, w Writes) (*view.Notice, error) {
				return nil, w.AddToCart(ctx, s.Scope, a.SKU, a.Quantity, s.Customer.ID)
			})
			if err != nil {
				return Result{}, cartChangeError(ctx, d, s, a.SKU, err)
			}
			cart, err := d.carts().Cart(ctx, s.Scope) // after the write, with any concurrent one
			if err != nil {
				return Result{}, err
			}
			_, title := cartQty(cart, a.SKU)
			cv := view.CartViewOf(cart, s.Currency)
			s.State.Focus = a.SKU
			return cartChanged(s, map[string]any{
				"added": map[string]any{"sku": a.SKU, "title": title, "qty": a.Quantity},
				"cart":  cartDataOf(cv),
			}, cv), nil
		},
	}
}
