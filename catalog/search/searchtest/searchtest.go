package searchtest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
)

// Open builds the backend under test over db, which holds the demo
// catalog, and keeps it current with db the way production does until the
// test ends.
type Open func(t *testing.T, db *bun.DB) search.Searcher

// Run runs the conformance suite on db, a fresh migrated database
// (catalogtest.SQLite, or each dialect through catalogtest.Each).
func Run(t *testing.T, db *bun.DB, open Open) {
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	s := open(t, db)
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, db *bun.DB, s search.Searcher)
	}{
		{"Filters", testFilters},
		{"Relevance", testRelevance},
		{"MoreWordsRankHigher", testMoreWords},
		{"PricePhraseIsNoWord", testPricePhrase},
		{"Sorts", testSorts},
		{"Pagination", testPagination},
		{"EmptyQueryWithFilters", testEmptyQuery},
		{"LongQuery", testLongQuery},
		{"OddInput", testOddInput},
		{"Similar", testSimilar},
		{"Variants", Variants},   // adds products with variants
		{"Updates", testUpdates}, // last: it changes the catalog
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, db, s) })
	}
}

// Check runs one query the way the fuzz tests of the backends do: no
// error, page bounds kept, no filter violated.
func Check(t testing.TB, s search.Searcher, q search.Query) search.Results {
	t.Helper()
	res, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %.60q: %v", q.Text, err)
	}
	limit := q.Limit
	if limit <= 0 || limit > 100 {
		limit = max(min(limit, 100), 10)
	}
	if len(res.Products) > limit || res.Total < len(res.Products) {
		t.Fatalf("%.60q: %d results of %d (limit %d)", q.Text, len(res.Products), res.Total, q.Limit)
	}
	for _, p := range res.Products {
		if v := q.Violation(p); v != "" {
			t.Fatalf("%.60q: result %s: %s", q.Text, p.SKU, v)
		}
	}
	return res
}

func mustSearch(t testing.TB, s search.Searcher, q search.Query) search.Results {
	t.Helper()
	res, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return res
}

// SKUs lists the products' SKUs.
func SKUs(ps []catalog.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.SKU
	}
	return out
}

func contains(ps []catalog.Product, sku string) bool { return slices.Contains(SKUs(ps), sku) }

func position(ps []catalog.Product, sku string) int { return slices.Index(SKUs(ps), sku) }

// Eventually polls cond until it holds or 30 seconds pass.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
