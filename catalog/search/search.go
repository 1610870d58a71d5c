package search

import (
	"context"

	"shopbot/catalog"
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
