package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"

	"shopbot/catalog"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type productSKUArgs struct {
	SKU string `json:"sku"`
}

// productDetails is one product as the model reads it when the shopper asks
// about it: every figure from the catalog, the description in full.
type productDetails struct {
	SKU         string            `json:"sku"`
	Title       string            `json:"title"`
	Brand       string            `json:"brand,omitempty"`
	Category    string            `json:"category,omitempty"`
	Price       string            `json:"price"`
	Stock       int               `json:"stock"`
	InStock     bool              `json:"in_stock"`
	Rating      float64           `json:"rating"`
	Reviews     int               `json:"reviews"`
	Description string            `json:"description"`
	Attributes  map[string]string `json:"attributes,omitempty"`
	// Variants of a parent (picker.go): add one with add_to_cart options.
	Variants []variantLine `json:"variants,omitempty"`
}

func getProductDetailsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_product_details",
		Description: "Full details of a product.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a productSKUArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			p, err := sellableProduct(ctx, d, a.SKU)
			if err != nil {
				return toolkit.Result{}, err
			}
			card := view.CardOf(p)
			s.State.Remember([]view.Card{card})
			s.State.Focus = p.SKU
			buttons := []view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnMoreLikeThis), view.Action{Kind: view.ActSimilar, SKU: p.SKU})}
			var variants []variantLine
			if p.HasVariants() {
				var choose *view.Button
				if variants, choose, err = variantDetails(ctx, d, s, p); err != nil {
					return toolkit.Result{}, err
				}
				if choose != nil {
					buttons = append([]view.Button{*choose}, buttons...)
				} else {
					buttons = append([]view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: p.SKU})}, buttons...)
				}
			} else if card.InStock {
				buttons = append([]view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnAddToCart), view.Action{Kind: view.ActAdd, SKU: p.SKU, Qty: 1})}, buttons...)
			} else if p.Active {
				buttons = append([]view.Button{view.NewButton(toolkit.Label(s, toolkit.BtnNotifyMe), view.Action{Kind: view.ActNotify, SKU: p.SKU})}, buttons...)
			}
			return toolkit.Result{
				Data: productDetails{
					SKU: p.SKU, Title: p.Title, Brand: p.Brand, Category: card.Category, Price: card.PriceText,
					Stock: card.Stock, InStock: card.InStock, Rating: p.RatingAvg, Reviews: p.RatingCount,
					Description: p.Description, Attributes: p.Attributes, Variants: variants,
				},
				Cards:   []view.Card{card},
				Buttons: buttons,
			}, nil
		},
	}
}

// sellableProduct loads a product the shop still sells: an unknown SKU is
// ErrNotFound, an archived one a ToolError saying it is no longer sold.
func sellableProduct(ctx context.Context, d *Deps, sku string) (*catalog.Product, error) {
	p, err := d.products().Product(ctx, sku)
	if err != nil {
		return nil, err
	}
	if !p.Active {
		return nil, toolkit.Errorf("product %s (%s) is no longer sold; offer similar products instead", p.SKU, p.Title)
	}
	return p, nil
}
