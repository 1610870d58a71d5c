package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"

	"shopbot/engine/session"
	"shopbot/engine/view"
)

// similarLimit is how many alternatives get_similar_products offers per page.
const similarLimit = 5

// similarWindow is how many alternatives get_similar_products ranks, for
// every page (backends may return fewer: at most 100).
const similarWindow = maxListOffset + similarLimit + 1

type getSimilarArgs struct {
	SKU    string `json:"sku"`
	Offset int    `json:"offset"`
}

func getSimilarProductsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_similar_products",
		Description: "Alternatives to a product: same category, close in price.",
		Schema:      object(map[string]any{"sku": sku(), "offset": offsetSchema()}, "sku"),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a getSimilarArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			off := pageOffset(a.Offset)
			// Every page asks for the same window, so every page cuts the
			// same ranking: a backend that re-ranks a window it sizes by
			// the limit (Weaviate puts the product's own category first
			// among 3×limit hits) would otherwise list a product on two
			// pages. The window reaches one past the last page, to tell
			// whether more remain.
			ps, err := d.Search.Similar(ctx, a.SKU, similarWindow)
			if err != nil {
				return toolkit.Result{}, err
			}
			cards := view.CardsOf(pageOf(ps, off, similarLimit))
			s.State.Remember(cards)
			data := listed(s, session.Listing{Kind: session.ListSimilar, SKU: a.SKU},
				page{offset: off, shown: len(cards), total: knownTotal(len(ps), off, similarLimit)})
			data["similar_to"], data["products"] = a.SKU, briefs(cards)
			return toolkit.Result{Data: data, Cards: cards, Buttons: moreButtons(s)}, nil
		},
	}
}
