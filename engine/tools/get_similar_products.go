package tools

import (
	"context"
	"encoding/json"

	"shopbot/engine/view"
)

// similarLimit is how many alternatives get_similar_products offers.
const similarLimit = 5

func getSimilarProductsTool(d *Deps) Tool {
	return Tool{
		Name:        "get_similar_products",
		Description: "Alternatives to a product: same category, close in price.",
		Schema:      object(map[string]any{"sku": sku()}, "sku"),
		Run: func(ctx context.Context, s *Session, raw json.RawMessage) (Result, error) {
			var a productSKUArgs
			if err := DecodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			ps, err := d.Search.Similar(ctx, a.SKU, similarLimit)
			if err != nil {
				return Result{}, err
			}
			cards := view.CardsOf(ps[:min(len(ps), similarLimit)])
			s.State.Remember(cards)
			return Result{
				Data:  map[string]any{"similar_to": a.SKU, "products": briefs(cards)},
				Cards: cards,
			}, nil
		},
	}
}
