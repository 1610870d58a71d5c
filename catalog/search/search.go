package search

import (
	"context"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// Sort orders search results.
type Sort string

const (
	SortRelevance Sort = "relevance"
	SortPriceAsc  Sort = "price_asc"
	SortPriceDesc Sort = "price_desc"
	SortRating    Sort = "rating"
	SortPopular   Sort = "popular"
)

// Query is one product search. Prices are in minor units; zero means no
// bound. Category is a path ("Shoes > Running") and includes its subtree.
type Query struct {
	Text        string
	Category    string
	MinPrice    int64
	MaxPrice    int64
	InStockOnly bool
	Attributes  map[string]string // exact (case-insensitive) attribute values
	Sort        Sort
	Limit       int
	Offset      int
}

// RankText is the query text without the price phrases that restate its
// price filters ("under 100", "до 5000"): the words its results are ranked
// by. Without a price filter the text is kept whole ("books from 1984"
// names a book).
func (q Query) RankText() string {
	if q.MinPrice <= 0 && q.MaxPrice <= 0 {
		return q.Text
	}
	return analysis.WithoutPrices(q.Text)
}

// Results is one page of matches and how many there are in all.
type Results struct {
	Products []catalog.Product
	Total    int
}

// Searcher is implemented by every search backend.
type Searcher interface {
	Search(ctx context.Context, q Query) (Results, error)
	Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error)
}
