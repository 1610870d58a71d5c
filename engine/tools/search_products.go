package tools

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"strings"

	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/engine/session"
	"shopbot/engine/variants"
	"shopbot/engine/view"
)

type searchProductsArgs struct {
	Query    string            `json:"query"`
	Category string            `json:"category"`
	MinPrice *float64          `json:"min_price"`
	MaxPrice *float64          `json:"max_price"`
	InStock  *bool             `json:"in_stock"`
	Sort     string            `json:"sort"`
	Limit    int               `json:"limit"`
	Offset   int               `json:"offset"`
	Options  map[string]string `json:"options"`
}

// pricesFromQuery reads a price limit the model left in the query text
// ("backpack under 100") when it set no price argument, so the stated
// limit filters the results; ranking leaves the phrase out
// (search.Query.RankText).
func (a *searchProductsArgs) pricesFromQuery() {
	if a.MinPrice != nil || a.MaxPrice != nil {
		return
	}
	_, r := analysis.CutPrices(analysis.Tokenize(a.Query))
	if r.Min > 0 {
		a.MinPrice = &r.Min
	}
	if r.Max > 0 {
		a.MaxPrice = &r.Max
	}
}

// maxSearchOffset bounds paging: nobody reads a hundred results in a
// chat, and a deep offset costs the backend.
const maxSearchOffset = session.MaxListOffset

func searchProductsTool(d *Deps) toolkit.Tool {
	return toolkit.Tool{
		Name:        "search_products",
		Description: "Search products. Prices are decimals in the shop currency.",
		Schema: object(map[string]any{
			"query":     str("e.g. 'waterproof jacket'", 200),
			"category":  str("e.g. 'Shoes > Running'", 100),
			"min_price": num("", 0),
			"max_price": num("", 0),
			"in_stock":  map[string]any{"type": "boolean", "description": "default true"},
			"sort":      enum("default relevance", "relevance", "price_asc", "price_desc", "rating", "popular"),
			"limit":     integer("default 5", 1, 10),
			"offset":    integer("", 0, maxSearchOffset),
			"options":   options(""),
		}),
		Run: func(ctx context.Context, s *session.Session, raw json.RawMessage) (toolkit.Result, error) {
			var a searchProductsArgs
			if err := toolkit.DecodeArgs(raw, &a); err != nil {
				return toolkit.Result{}, err
			}
			a.pricesFromQuery()
			q := search.Query{Text: strings.TrimSpace(a.Query), Category: a.Category, InStockOnly: true, Sort: search.Sort(a.Sort), Limit: 5}
			if a.InStock != nil {
				q.InStockOnly = *a.InStock
			}
			if a.Limit > 0 {
				q.Limit = min(a.Limit, 10)
			}
			q.Offset = min(max(a.Offset, 0), maxSearchOffset)
			q.Options = variants.CleanOptions(a.Options)
			var err error
			if a.MinPrice != nil {
				if q.MinPrice, err = toolkit.ToMinor(*a.MinPrice, s.Currency); err != nil {
					return toolkit.Result{}, err
				}
			}
			if a.MaxPrice != nil {
				if q.MaxPrice, err = toolkit.ToMinor(*a.MaxPrice, s.Currency); err != nil {
					return toolkit.Result{}, err
				}
				if q.MaxPrice == 0 {
					return toolkit.Result{}, toolkit.Errorf("max_price must be above 0")
				}
			}
			if q.MaxPrice > 0 && q.MinPrice > q.MaxPrice {
				return toolkit.Result{}, toolkit.Errorf("min_price is above max_price")
			}
			res, err := d.Search.Search(ctx, q)
			if err != nil {
				return toolkit.Result{}, err
			}
			cards := view.CardsOf(res.Products)
			s.State.Remember(cards)
			data := listed(s, searchListing(a, q), page{offset: q.Offset, shown: len(cards), total: res.Total})
			data["total"], data["products"] = res.Total, briefs(cards)
			if res.Total == 0 && q.Offset == 0 {
				if paths, note := suggestCategories(ctx, d, s, q); len(paths) > 0 {
					data["suggested_categories"], data["note"] = paths, note
				}
			}
			return toolkit.Result{Data: data, Cards: cards, Buttons: moreButtons(s)}, nil
		},
	}
}
