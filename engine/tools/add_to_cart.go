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

type addToCartArgs struct {
	SKU      string            `json:"sku"`
	Quantity int               `json:"quantity"`
	Options  map[string]string `json:"options"`
}

func addToCartTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "add_to_cart",
		Description: "Add units of a product to the cart.",
		Schema: object(map[string]any{
			"sku":      sku(),
			"quantity": integer("default 1", 1, catalog.MaxCartQuantity),
			"options":  options(`e.g. {"size":"42"}`),
		}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a addToCartArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			a.SKU = strings.TrimSpace(a.SKU)
			if a.Quantity == 0 {
				a.Quantity = 1
			}
			if len(a.Options) > 0 {
				return d.addOptions(ctx, s, a)
			}
			res, err := d.addSKU(ctx, s, a.SKU, a.Quantity)
			if isNeedsVariant(err) {
				if s.Action != nil && s.Action.Kind == view.ActAdd {
					// The Add button of a card in a list filtered by
					// options ("running shoes in size 42"): the filter
					// chose the size.
					a.Options = s.State.ListedOptions(a.SKU)
				}
				return d.addOptions(ctx, s, a)
			}
			return res, err
		},
	}
}

// addSKU adds qty units of a product (or variant) to the cart.
func (d *Deps) addSKU(ctx context.Context, s *session.Session, sku string, qty int) (toolkit.Result, error) {
	key := s.Effects().EffectKey("add", sku+"|"+strconv.Itoa(qty))
	_, err := d.apply(ctx, s, key, func(ctx context.Context, w toolkit.Writes) (*view.Notice, error) {
		return nil, w.AddToCart(ctx, s.Scope, sku, qty, s.Customer.ID)
	})
	if isNeedsVariant(err) {
		return toolkit.Result{}, err
	}
	if err != nil {
		return toolkit.Result{}, cartChangeError(ctx, d, s, sku, err)
	}
	cart, err := d.carts().Cart(ctx, s.Scope) // after the write, with any concurrent one
	if err != nil {
		return toolkit.Result{}, err
	}
	cv := view.CartViewOf(cart, s.Currency)
	added := map[string]any{"sku": sku, "qty": qty}
	for _, l := range cv.Lines {
		if l.SKU == sku {
			added["title"] = l.Title
			if l.Variant != "" {
				added["variant"] = l.Variant
			}
		}
	}
	s.State.Focus = sku
	return cartChanged(s, map[string]any{"added": added, "cart": toolkit.CartDataOf(cv)}, cv), nil
}
