package tools

import (
	"context"
	"encoding/json"

	"shopbot/engine/view"
)

// similarLimit is how many alternatives get_similar_products offers per page.
const similarLimit = 5

type getSimilarArgs struct {
	SKU    string `json:"sku"`
	Offset int    `json:"offset"`
}

func getSimilarProductsTool(d *Deps) Tool {
	return Tool{
		Name:        "get_similar_products",
		Description: "Alternatives to a product: same category, close in price.",
		Schema:      object(map[string]any{"sku": sku(), "offset": offsetSchema()}, "sku"),
		Run: func(ctx context.Context, s *Session, raw json.RawMessage) (Result, error) {
			var a getSimilarArgs
			if err := DecodeArgs(raw, &a); err != nil {
				return Result{}, err
			}
			off := pageOffset(a.Offset)
			// The backend ranks from the first; one past the page tells
			// whether more remain.
			ps, err := d.Search.Similar(ctx, a.SKU, off+similarLimit+1)
			if err != nil {
				return Result{}, err
			}
			cards := view.CardsOf(pageOf(ps, off, similarLimit))
			s.State.Remember(cards)
			data := s.listed(Listing{Kind: ListSimilar, SKU: a.SKU},
				page{offset: off, shown: len(cards), total: knownTotal(len(ps), off, similarLimit)})
			data["similar_to"], data["products"] = a.SKU, briefs(cards)
			return Result{Data: data, Cards: cards, Buttons: s.moreButtons()}, nil
		},
	}
}
