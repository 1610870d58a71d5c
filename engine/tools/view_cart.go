package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

func viewCartTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "view_cart",
		Description: "Show the cart (shared in group chats).",
		Schema:      object(map[string]any{}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a struct{}
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			cart, err := d.carts().Cart(ctx, s.Scope)
			if err != nil {
				return toolkit.Result{}, err
			}
			cv := view.CartViewOf(cart, s.Currency)
			if len(cv.Lines) == 0 {
				return toolkit.Result{Data: map[string]any{"empty": true}, Cart: cv}, nil
			}
			return toolkit.Result{
				Data:    toolkit.CartDataOf(cv),
				Cart:    cv,
				Buttons: []view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnCheckout), view.Action{Kind: view.ActCheckout})},
			}, nil
		},
	}
}

// cartChanged is the result of a tool that changed the cart.
func cartChanged(s *session.Session, data any, cv *view.CartView) toolkit.Result {
	res := toolkit.Result{Data: data, Cart: cv}
	if len(cv.Lines) > 0 {
		res.Buttons = []view.Button{
			view.NewButton(toolkit.Label(s, toolkit.BtnViewCart), view.Action{Kind: view.ActCart}),
			view.NewButton(toolkit.Label(s, toolkit.BtnCheckout), view.Action{Kind: view.ActCheckout}),
		}
	}
	return res
}

// cartQty returns how many units of sku the cart holds and the product's
// title.
func cartQty(c *catalog.Cart, sku string) (qty int, title string) {
	for _, it := range c.Items {
		if it.Product != nil && it.Product.SKU == sku {
			return it.Quantity, it.Product.Title
		}
	}
	return 0, ""
}

// cartChangeError explains a failed cart change in words the model can
// act on: an unknown SKU, or how many units are available.
func cartChangeError(ctx context.Context, d *Deps, s *session.Session, sku string, err error) error {
	switch {
	case errors.Is(err, catalog.ErrNotFound):
		return toolkit.Errorf("no product with sku %q; find it with search_products first", sku)
	case !errors.Is(err, catalog.ErrOutOfStock):
		return err
	}
	p, perr := d.products().Product(ctx, sku)
	if perr != nil {
		return err
	}
	if !p.Active {
		return toolkit.Errorf("%s (%s) is no longer sold", p.Title, sku)
	}
	msg := fmt.Sprintf("not enough stock of %s (%s): %d available", p.Title, sku, p.Stock)
	if cart, cerr := d.carts().Cart(ctx, s.Scope); cerr == nil {
		if have, _ := cartQty(cart, sku); have > 0 {
			msg += fmt.Sprintf(", %d already in the cart", have)
		}
	}
	return &toolkit.ToolError{Msg: msg}
}

// ModelCart is a cart as the model reads it in a tool result's "cart".
func ModelCart(v *view.CartView) any { return toolkit.CartDataOf(v) }
