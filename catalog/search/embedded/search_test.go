package embedded_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
)

// TestSearchQueries runs the table of TestDatabaseSearch, and more, against
// the index: no result may violate a filter.
func TestSearchQueries(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		x := demoIndex(t, db, embedded.Options{})
		for _, tc := range []struct {
			name string
			q    search.Query
			min  int
		}{
			{"waterproof jacket under 150", search.Query{Text: "waterproof jacket", MaxPrice: 15000}, 2},
			{"running shoes in stock, cheapest first", search.Query{Text: "running", Category: "Shoes", InStockOnly: true, Sort: search.SortPriceAsc}, 3},
			{"russian title word", search.Query{Text: "кроссовки"}, 1},
			{"attribute filter", search.Query{Category: "Apparel", Attributes: map[string]string{"color": "RED"}}, 1},
			{"sub-category by last name", search.Query{Category: "Laptops"}, 3},
			{"sub-category by full path", search.Query{Category: "electronics > laptops"}, 6},
			{"percent is literal", search.Query{Text: "100%"}, 0},
			{"price band", search.Query{Text: "coffee", MinPrice: 1000, MaxPrice: 3000}, 1},
			{"size list", search.Query{Text: "size 42", Attributes: map[string]string{"size": "42"}}, 5},
			{"filters only", search.Query{Category: "Shoes", InStockOnly: true, MaxPrice: 10000, Limit: 100}, 5},
			{"unknown category", search.Query{Text: "shoes", Category: "No Such Category"}, 0},
		} {
			res := mustSearch(t, x, tc.q)
			if len(res.Products) < tc.min {
				t.Errorf("%s: %d results, want at least %d", tc.name, len(res.Products), tc.min)
			}
			if res.Total < len(res.Products) {
				t.Errorf("%s: total %d < %d results", tc.name, res.Total, len(res.Products))
			}
			for i, p := range res.Products {
				if v := tc.q.Violation(p); v != "" {
					t.Errorf("%s: result %s: %s", tc.name, p.SKU, v)
				}
				if p.Category == nil || p.Category.Path == "" || p.Category.ID != *p.CategoryID {
					t.Errorf("%s: result %s without its category: %+v", tc.name, p.SKU, p.Category)
				}
				if tc.q.Sort == search.SortPriceAsc && i > 0 && res.Products[i-1].Price > p.Price {
					t.Errorf("%s: not sorted by price", tc.name)
				}
			}
		}
		none := mustSearch(t, x, search.Query{Category: "No Such Category"})
		if len(none.Products) != 0 || none.Total != 0 {
			t.Errorf("unknown category: %d results", len(none.Products))
		}
	})
}

// TestRelevance covers misspellings, synonyms, Russian morphology and
// ranking by the number of words matched.
func TestRelevance(t *testing.T) {
	_, x := demoSQLite(t)
	checkRelevance(t, x)
}

func checkRelevance(t *testing.T, x *embedded.Index) {
	t.Helper()
	for _, tc := range searchtest.RelevanceCases {
		res := mustSearch(t, x, search.Query{Text: tc.Text, Limit: 20})
		for _, sku := range tc.Want {
			if i := position(res.Products, sku); i < 0 || i >= tc.Within {
				t.Errorf("%q: %s at rank %d, want within the first %d; got %v", tc.Text, sku, i, tc.Within, skus(res.Products))
			}
		}
	}
}

func TestMoreWordsRankHigher(t *testing.T) {
	_, x := demoSQLite(t)
	res := mustSearch(t, x, search.Query{Text: "waterproof rain jacket", Limit: 100})
	for _, p := range res.Products[:4] { // four rain jackets in the demo
		if p.Category.Path != "Apparel > Jackets > Rain" {
			t.Errorf("top results: %s in %s", p.SKU, p.Category.Path)
		}
	}
	if res.Total <= 10 {
		t.Errorf("words are optional: want many partial matches, got total %d", res.Total)
	}
}

func TestSizeAttribute(t *testing.T) {
	_, x := demoSQLite(t)
	q := search.Query{Text: "size 42", Attributes: map[string]string{"size": "42"}, Limit: 100}
	res := mustSearch(t, x, q)
	if len(res.Products) == 0 || !strings.HasPrefix(res.Products[0].Category.Path, "Shoes") {
		t.Fatalf("size 42: %v", skus(res.Products))
	}
	for _, p := range res.Products {
		if v := q.Violation(p); v != "" {
			t.Errorf("%s: %s (%q)", p.SKU, v, p.Attributes["size"])
		}
	}
	if !contains(res.Products, "SHO-RUN-001") { // "40, 41, 42, 43, 44, 45, 46"
		t.Errorf("SHO-RUN-001 missing: %v", skus(res.Products))
	}
}

func TestSorts(t *testing.T) {
	_, x := demoSQLite(t)
	for _, tc := range []struct {
		sort  search.Sort
		text  string
		order func(a, b catalog.Product) bool // a may come before b
	}{
		{search.SortPriceAsc, "", func(a, b catalog.Product) bool { return a.Price <= b.Price }},
		{search.SortPriceDesc, "shoes", func(a, b catalog.Product) bool { return a.Price >= b.Price }},
		{search.SortRating, "", func(a, b catalog.Product) bool {
			return a.RatingAvg > b.RatingAvg || a.RatingAvg == b.RatingAvg && a.RatingCount >= b.RatingCount
		}},
		{search.SortPopular, "leather boots", func(a, b catalog.Product) bool {
			return a.SoldCount > b.SoldCount || a.SoldCount == b.SoldCount && a.RatingCount >= b.RatingCount
		}},
		{search.SortRelevance, "", func(a, b catalog.Product) bool { return a.Stock > 0 || b.Stock <= 0 }},
	} {
		res := mustSearch(t, x, search.Query{Text: tc.text, Category: "Shoes", Sort: tc.sort, Limit: 100})
		if len(res.Products) < 5 {
			t.Fatalf("%s: %d results", tc.sort, len(res.Products))
		}
		for i := 1; i < len(res.Products); i++ {
			if a, b := res.Products[i-1], res.Products[i]; !tc.order(a, b) {
				t.Errorf("%s %q: %s before %s", tc.sort, tc.text, a.SKU, b.SKU)
			}
		}
	}
}

func TestPagination(t *testing.T) {
	_, x := demoSQLite(t)
	for _, q := range []search.Query{{Text: "black"}, {Category: "Home"}, {Text: "leather", Sort: search.SortPriceDesc}} {
		q.Limit = 100
		all := mustSearch(t, x, q)
		if all.Total != len(all.Products) || all.Total < 8 {
			t.Fatalf("%+v: total %d, %d results", q, all.Total, len(all.Products))
		}
		var paged []string
		for q.Offset, q.Limit = 0, 3; q.Offset < all.Total+3; q.Offset += 3 {
			page := mustSearch(t, x, q)
			if page.Total != all.Total {
				t.Errorf("%+v: total %d, want %d", q, page.Total, all.Total)
			}
			paged = append(paged, skus(page.Products)...)
		}
		if strings.Join(paged, ",") != strings.Join(skus(all.Products), ",") {
			t.Errorf("%+v: pages %v\nwhole %v", q, paged, skus(all.Products))
		}
	}
	if got := mustSearch(t, x, search.Query{Limit: 1000}); len(got.Products) != 100 {
		t.Errorf("limit is capped at 100, got %d", len(got.Products))
	}
	if got := mustSearch(t, x, search.Query{}); len(got.Products) != 10 || got.Total != 324 {
		t.Errorf("default limit 10 of 324, got %d of %d", len(got.Products), got.Total)
	}
}

func TestSimilar(t *testing.T) {
	_, x := demoSQLite(t)
	ctx := context.Background()
	sim, err := x.Similar(ctx, "SHO-RUN-001", 4)
	if err != nil || len(sim) != 4 {
		t.Fatalf("similar: %v, %v", skus(sim), err)
	}
	for _, p := range sim {
		if p.SKU == "SHO-RUN-001" || !strings.HasPrefix(p.Category.Path, "Shoes") {
			t.Errorf("similar to a running shoe: %s (%s)", p.SKU, p.Category.Path)
		}
	}
	if sim[0].Category.Path != "Shoes > Running" {
		t.Errorf("closest to a running shoe: %s in %s", sim[0].SKU, sim[0].Category.Path)
	}
	if _, err := x.Similar(ctx, "NO-SUCH-SKU", 4); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("unknown sku: %v", err)
	}
}

// TestAgreesWithDatabase: with filters only the index and Database return
// the same products; for a plain word the index finds at least as many.
func TestAgreesWithDatabase(t *testing.T) {
	db, x := demoSQLite(t)
	d := searchtest.NewDatabase(db)
	filters := []search.Query{
		{Category: "Shoes"}, {Category: "Running"}, {MaxPrice: 2000}, {MinPrice: 50000},
		{InStockOnly: true}, {Category: "Apparel", Attributes: map[string]string{"color": "black"}},
		{Category: "Home", MinPrice: 5000, MaxPrice: 20000, InStockOnly: true},
	}
	for _, q := range filters {
		q.Limit, q.Sort = 100, search.SortPriceAsc
		want, got := mustSearch(t, d, q), mustSearch(t, x, q)
		exact := q.Attributes == nil // the index also matches "black" in "black, white"
		if got.Total < want.Total || exact && got.Total != want.Total {
			t.Errorf("%+v: index %d, database %d", q, got.Total, want.Total)
		}
		missing(t, q, want.Products, got.Products)
	}
	// Database matches substrings ("tent" in "content"); these words have
	// no such false friends in the demo catalog.
	for _, w := range []string{"jacket", "coffee", "leather", "wireless", "waterproof", "backpack", "кроссовки", "novel", "sofa", "skillet"} {
		for _, f := range []search.Query{{}, {InStockOnly: true}, {MaxPrice: 5000}, {Category: "Shoes"}} {
			q := f
			q.Text, q.Limit = w, 100
			missing(t, q, mustSearch(t, d, q).Products, mustSearch(t, x, q).Products)
		}
	}
}

func missing(t *testing.T, q search.Query, want, got []catalog.Product) {
	t.Helper()
	for _, p := range want {
		if !contains(got, p.SKU) {
			t.Errorf("%+v: index lacks %s (%s)", q, p.SKU, p.Title)
		}
	}
}

func TestOddInput(t *testing.T) {
	_, x := demoSQLite(t)
	long := strings.Repeat("waterproof jacket ", 600) // 10 KB
	for _, text := range []string{long, "!!!", "  ", "\xff\xfe", "ё-ё", "a-b-c", "👍🏽", "the", "для", strings.Repeat("щ", 5000)} {
		res := mustSearch(t, x, search.Query{Text: text})
		if len(res.Products) > 10 {
			t.Errorf("%.20q: %d results", text, len(res.Products))
		}
	}
	if res := mustSearch(t, x, search.Query{Text: long}); len(res.Products) == 0 {
		t.Error("a 10 KB query is truncated, not rejected")
	}
	if res := mustSearch(t, x, search.Query{Text: "zzzzqqqq"}); res.Total != 0 {
		t.Errorf("nonsense word: %d results", res.Total)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.Search(ctx, search.Query{Text: "shoes"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestNoSynonyms: with an empty synonym list the index matches no
// synonyms (the list itself is tested in package analysis).
func TestNoSynonyms(t *testing.T) {
	db, _ := demoSQLite(t)
	plain := embedded.New(embedded.Options{Synonyms: [][]string{}})
	if err := plain.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	if res := mustSearch(t, plain, search.Query{Text: "couch", Limit: 100}); contains(res.Products, "HOM-FUR-001") {
		t.Errorf("without synonyms, couch found a sofa: %v", skus(res.Products))
	}
}
