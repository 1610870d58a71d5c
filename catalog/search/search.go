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

// Hybrid ranking defaults, shared by both backends so they fuse keyword
// and vector scores alike.
const (
	// DefaultAlpha is the weight of vector similarity in the fused score
	// (0 keywords only, 1 vectors only).
	DefaultAlpha = 0.35
	// DefaultMinSimilarity keeps products that merely share a few letter
	// n-grams with a query out of its results. With the Local embedder,
	// nonsense stays under 0.11 against every product of the demo catalog
	// and under 0.1 in the 100,000-product synthetic one (nonsense_max_sim
	// in the embedded index's BenchmarkSearch100kHybrid), while words run
	// together that the keyword side cannot split ("airfryer",
	// "powerbank") score 0.2–0.25 against the product meant. (A single
	// misspelt word often scores less, but keyword typo tolerance finds
	// those.) It is untested with OpenAI's models, whose similarities run
	// higher: tune it there.
	DefaultMinSimilarity = 0.2
)

// Query is one product search. Prices are in minor units; zero means no
// bound. Category is a path ("Shoes > Running") and includes its subtree.
//
// Products with variants are listed once, as the parent; variants are
// never results. A parent's price is the range of its active variants
// (Price to PriceMax): without Options it matches a price filter when the
// range overlaps it (one "from 24" up to 27 is "under 25"); with Options,
// when the price of a variant matching them is within the bounds.
type Query struct {
	Text        string
	Category    string
	MinPrice    int64
	MaxPrice    int64
	InStockOnly bool
	Attributes  map[string]string // exact (case-insensitive) attribute values
	// Options keeps products with variants that have an active variant in
	// stock with these option values (name → value, case-insensitive):
	// "size 42", "colour navy". All must hold for one variant: size 42 and
	// navy needs a navy 42. Products are listed once, as the parent.
	Options map[string]string
	Sort    Sort
	Limit   int
	Offset  int
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
