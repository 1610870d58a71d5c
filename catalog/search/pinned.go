package search

import (
	"context"
	"strings"

	"shopbot/catalog"
)

// PinSource gives the active products the merchant pinned for a query
// (catalog.PinnedProducts), in pin order; none when nothing is pinned.
type PinSource interface {
	PinnedProducts(ctx context.Context, query string) ([]catalog.Product, error)
}

// Pinned puts the products pinned for a query first, in front of what the
// wrapped backend found: the one place pins are applied, so the embedded
// index, Weaviate and the fallback between them honour them alike.
//
// Pins apply to a search whose text, normalized (catalog.NormalizeSearchQuery),
// is exactly a pinned query. A pinned product is listed only when it
// meets the search's filters: category (its subtree), price bounds (a
// parent's price range overlapping them), in stock, and attribute values;
// a search by variant options (size, colour) gets no pins, as a parent
// cannot show which variant matched. Pins fill the first page (Offset 0),
// and every page leaves them out of the backend's results, so no product
// is listed twice; the total counts the pins the backend did not find.
// Similar is the backend's. A failing pin lookup searches without pins.
type Pinned struct {
	Searcher
	Pins PinSource
}

// Search implements Searcher.
func (p Pinned) Search(ctx context.Context, q Query) (Results, error) {
	var pins []catalog.Product
	if p.Pins != nil && len(q.Options) == 0 {
		if got, err := p.Pins.PinnedProducts(ctx, q.Text); err == nil {
			for _, pr := range got {
				if pinMatches(pr, q) {
					pins = append(pins, pr)
				}
			}
		}
	}
	if len(pins) == 0 {
		return p.Searcher.Search(ctx, q)
	}
	res, err := p.Searcher.Search(ctx, q)
	if err != nil {
		return res, err
	}
	pinned := make(map[int64]bool, len(pins))
	for _, pr := range pins {
		pinned[pr.ID] = true
	}
	rest := make([]catalog.Product, 0, len(res.Products))
	for _, pr := range res.Products {
		if !pinned[pr.ID] {
			rest = append(rest, pr)
		}
	}
	// Pins the backend did not find add to the total; found ones are
	// counted already.
	extra := len(pins) - (len(res.Products) - len(rest))
	res.Total += max(extra, 0)
	if q.Offset > 0 {
		res.Products = rest
		return res, nil
	}
	out := append(pins, rest...)
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	res.Products = out
	return res, nil
}

// pinMatches reports whether a pinned product meets the query's filters.
func pinMatches(p catalog.Product, q Query) bool {
	if q.InStockOnly && p.Stock <= 0 {
		return false
	}
	hi := max(p.PriceMax, p.Price)
	if (q.MinPrice > 0 && hi < q.MinPrice) || (q.MaxPrice > 0 && p.Price > q.MaxPrice) {
		return false
	}
	if q.Category != "" {
		if p.Category == nil {
			return false
		}
		path, want := strings.ToLower(p.Category.Path), strings.ToLower(q.Category)
		if path != want && !strings.HasPrefix(path, want+" > ") {
			return false
		}
	}
	for k, v := range q.Attributes {
		if !attrEqual(p.Attributes, k, v) {
			return false
		}
	}
	return true
}

func attrEqual(attrs map[string]string, key, want string) bool {
	for k, v := range attrs {
		if strings.EqualFold(k, key) && strings.EqualFold(v, want) {
			return true
		}
	}
	return false
}
