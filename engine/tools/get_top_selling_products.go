package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog/search"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

type getTopSellingArgs struct {
	Category string `json:"category"`
	Limit    int    `json:"limit"`
	Offset   int    `json:"offset"`
}

func getTopSellingProductsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "get_top_selling_products",
		Description: "Best sellers in stock, in the shop or a category.",
		Schema: object(map[string]any{
			"category": str("empty for the whole shop", 100),
			"limit":    integer("default 5", 1, 10),
			"offset":   offsetSchema(),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a getTopSellingArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			q := search.Query{Category: strings.TrimSpace(a.Category), InStockOnly: true, Sort: search.SortPopular, Limit: 5,
				Offset: pageOffset(a.Offset)}
			if a.Limit > 0 {
				q.Limit = min(a.Limit, 10)
			}
			res, err := d.Search.Search(ctx, q)
			if err != nil {
				return toolkit.Result{}, err
			}
			cards := view.CardsOf(res.Products)
			s.State.Remember(cards)
			data := listed(s, session.Listing{Kind: session.ListTop, Category: q.Category},
				page{offset: q.Offset, shown: len(cards), total: res.Total})
			data["products"], data["total"] = briefs(cards), res.Total
			if q.Category != "" {
				data["category"] = q.Category
			}
			if len(cards) == 0 && q.Offset == 0 {
				data["note"] = "nothing in stock matches; check the category name with get_categories"
			}
			return toolkit.Result{Data: data, Cards: cards, Buttons: moreButtons(s)}, nil
		},
	}
}
