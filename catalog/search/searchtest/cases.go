package searchtest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

func testFilters(t *testing.T, _ *bun.DB, s search.Searcher) {
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
		{"top category", search.Query{Text: "black", Category: "Apparel", Limit: 100}, 3},
		{"percent is literal", search.Query{Text: "100%"}, 0},
		{"price band", search.Query{Text: "coffee", MinPrice: 1000, MaxPrice: 3000}, 1},
		{"minimum price", search.Query{Text: "sofa", MinPrice: 50000}, 1},
		{"in stock", search.Query{Text: "jacket", InStockOnly: true, Limit: 100}, 3},
		{"size list", search.Query{Text: "size 42", Attributes: map[string]string{"size": "42"}}, 5},
		{"two attributes", search.Query{Attributes: map[string]string{"color": "black", "size": "M"}, Limit: 100}, 1},
		{"filters only", search.Query{Category: "Shoes", InStockOnly: true, MaxPrice: 10000, Limit: 100}, 5},
		{"everything", search.Query{Text: "shoes", Category: "Shoes", MinPrice: 5000, MaxPrice: 20000, InStockOnly: true, Limit: 100}, 2},
		{"unknown category", search.Query{Text: "shoes", Category: "No Such Category"}, 0},
		{"unknown attribute value", search.Query{Text: "shoes", Attributes: map[string]string{"color": "ultraviolet"}}, 0},
	} {
		res := Check(t, s, tc.q)
		if len(res.Products) < tc.min {
			t.Errorf("%s: %d results, want at least %d", tc.name, len(res.Products), tc.min)
		}
		for _, p := range res.Products {
			if p.Category == nil || p.Category.Path == "" || p.CategoryID == nil || p.Category.ID != *p.CategoryID {
				t.Errorf("%s: result %s without its category: %+v", tc.name, p.SKU, p.Category)
			}
		}
	}
	for _, q := range []search.Query{{Category: "No Such Category"}, {Text: "shoes", Attributes: map[string]string{"color": "ultraviolet"}}} {
		if res := mustSearch(t, s, q); len(res.Products) != 0 || res.Total != 0 {
			t.Errorf("%+v: %d results of %d, want none", q, len(res.Products), res.Total)
		}
	}
}

// RelevanceCase is a query whose wanted SKUs must all be within the
// first Within results.
type RelevanceCase struct {
	Text   string
	Want   []string
	Within int
}

// RelevanceCases are misspellings, synonyms, Russian morphology and
// brands, shared by the conformance suite and the embedded index's own
// tests.
var RelevanceCases = []RelevanceCase{
	{"runing shoes", []string{"SHO-RUN-001", "SHO-RUN-002"}, 5},
	{"wateproof jaket", []string{"APP-JKT-001", "APP-JKT-003"}, 5},
	{"headphnes", []string{"ELE-HPH-001", "ELE-HPH-002"}, 5},
	{"wirless headphones", []string{"ELE-HPH-001"}, 5},
	{"couch", []string{"HOM-FUR-003", "HOM-FUR-001", "HOM-FUR-002"}, 5},
	{"sofa", []string{"HOM-FUR-003"}, 5},
	{"trainers", []string{"SHO-SNK-001", "SHO-SNK-003"}, 10},
	{"sneakers", []string{"SHO-SNK-003", "SHO-SNK-005"}, 10},
	{"ноутбук", []string{"ELE-LAP-006", "ELE-LAP-001"}, 10},
	{"laptop", []string{"ELE-LAP-006"}, 10},
	{"кроссовки", []string{"SHO-RUN-005", "SHO-TRL-003"}, 5},
	{"кроссовок", []string{"SHO-RUN-005", "SHO-TRL-003"}, 5},
	{"куртка", []string{"APP-JKT-006"}, 1},
	{"куртки", []string{"APP-JKT-006"}, 1},
	{"Ноутбуки", []string{"ELE-LAP-006"}, 1},
	{"t-shirt", []string{"APP-TSH-001"}, 10},
	// A word only in the category path ("Apparel > T-Shirts"): a tee and
	// a футболка.
	{"shirt", []string{"APP-TSH-004", "APP-TSH-005"}, 10},
	{"AeroStride", []string{"SHO-RUN-001"}, 5},
	// Two edits in a seven-letter word.
	{"dumbels", []string{"SPO-FIT-001", "SPO-FIT-002", "SPO-FIT-003"}, 5},
	// A corrected word brings its synonyms: skillet → frying pan, сковорода.
	{"skilet", []string{"KIT-CKW-003", "KIT-CKW-007"}, 10},
}

func testRelevance(t *testing.T, _ *bun.DB, s search.Searcher) {
	for _, tc := range RelevanceCases {
		res := Check(t, s, search.Query{Text: tc.Text, Limit: 20})
		for _, sku := range tc.Want {
			if i := position(res.Products, sku); i < 0 || i >= tc.Within {
				t.Errorf("%q: %s at rank %d, want within the first %d; got %v", tc.Text, sku, i, tc.Within, SKUs(res.Products))
			}
		}
	}
}

func testMoreWords(t *testing.T, _ *bun.DB, s search.Searcher) {
	res := Check(t, s, search.Query{Text: "waterproof rain jacket", Limit: 100})
	if len(res.Products) < 4 {
		t.Fatalf("%d results", len(res.Products))
	}
	for _, p := range res.Products[:4] { // four rain jackets in the demo
		if p.Category.Path != "Apparel > Jackets > Rain" {
			t.Errorf("top results: %s in %s", p.SKU, p.Category.Path)
		}
	}
	if res.Total <= 10 {
		t.Errorf("words are optional: want many partial matches, got total %d", res.Total)
	}
}

// A price phrase restating the query's price filter is not ranked as
// words ("100" would match "100 Tea Bags" and "Arabica 100%"): the
// results are those of the query without it.
func testPricePhrase(t *testing.T, _ *bun.DB, s search.Searcher) {
	for _, tc := range []struct{ text, without string }{
		{"backpack under 100", "backpack"},
		{"рюкзак до 100 долларов", "рюкзак"},
		{"coffee between $10 and $30", "coffee"},
	} {
		q := search.Query{Text: tc.text, MinPrice: 1000, MaxPrice: 10000}
		got := SKUs(Check(t, s, q).Products)
		q.Text = tc.without
		want := SKUs(Check(t, s, q).Products)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v as for %q", tc.text, got, want, tc.without)
		}
	}
}

func testSorts(t *testing.T, _ *bun.DB, s search.Searcher) {
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
		q := search.Query{Text: tc.text, Category: "Shoes", Sort: tc.sort, Limit: 100}
		res := Check(t, s, q)
		if len(res.Products) < 5 {
			t.Fatalf("%s: %d results", tc.sort, len(res.Products))
		}
		for i := 1; i < len(res.Products); i++ {
			if a, b := res.Products[i-1], res.Products[i]; !tc.order(a, b) {
				t.Errorf("%s %q: %s before %s", tc.sort, tc.text, a.SKU, b.SKU)
			}
		}
	}
	// Sorted by price, a two-word query lists products with both words
	// (or their synonyms), not the cheapest product sharing one of them.
	res := Check(t, s, search.Query{Text: "waterproof jacket", Sort: search.SortPriceAsc, Limit: 100})
	if len(res.Products) < 3 {
		t.Errorf("waterproof jacket by price: %v", SKUs(res.Products))
	}
	for _, p := range res.Products {
		if !strings.Contains(p.Category.Path, "Jackets") {
			t.Errorf("waterproof jacket by price: %s %q in %s", p.SKU, p.Title, p.Category.Path)
		}
	}
}

func testPagination(t *testing.T, _ *bun.DB, s search.Searcher) {
	for _, q := range []search.Query{{Text: "black"}, {Category: "Home"}, {Text: "leather", Sort: search.SortPriceDesc}} {
		q.Limit = 100
		all := Check(t, s, q)
		if all.Total != len(all.Products) || all.Total < 8 {
			t.Fatalf("%+v: total %d, %d results", q, all.Total, len(all.Products))
		}
		var paged []string
		for q.Offset, q.Limit = 0, 3; q.Offset < all.Total+3; q.Offset += 3 {
			page := Check(t, s, q)
			if len(page.Products) > 0 && page.Total < len(page.Products)+q.Offset || page.Total > all.Total {
				t.Errorf("%+v: total %d, want up to %d", q, page.Total, all.Total)
			}
			paged = append(paged, SKUs(page.Products)...)
		}
		if strings.Join(paged, ",") != strings.Join(SKUs(all.Products), ",") {
			t.Errorf("%+v: pages %v\nwhole %v", q, paged, SKUs(all.Products))
		}
	}
	if got := Check(t, s, search.Query{Limit: 1000}); len(got.Products) != 100 {
		t.Errorf("limit is capped at 100, got %d", len(got.Products))
	}
	if got := Check(t, s, search.Query{}); len(got.Products) != 10 || got.Total != 324 {
		t.Errorf("default limit 10 of 324, got %d of %d", len(got.Products), got.Total)
	}
}

// testEmptyQuery: no words (none at all, or only punctuation) with
// filters lists the filtered products.
func testEmptyQuery(t *testing.T, _ *bun.DB, s search.Searcher) {
	for _, text := range []string{"", "   ", "!!!"} {
		q := search.Query{Text: text, Category: "Shoes", MaxPrice: 10000, InStockOnly: true, Limit: 100}
		res := Check(t, s, q)
		if len(res.Products) < 5 || res.Total != len(res.Products) {
			t.Errorf("%q with filters: %d results of %d", text, len(res.Products), res.Total)
		}
	}
}

// testLongQuery: a 10 KB query is cut, not rejected.
func testLongQuery(t *testing.T, _ *bun.DB, s search.Searcher) {
	long := strings.Repeat("waterproof jacket ", 600)
	res := Check(t, s, search.Query{Text: long})
	if len(res.Products) == 0 || !strings.Contains(strings.ToLower(res.Products[0].Title), "jacket") {
		t.Errorf("10 KB query: %v", SKUs(res.Products))
	}
	res = Check(t, s, search.Query{Text: strings.Repeat("щ", 5000) + " jacket"})
	_ = res // must not fail; the word after 10 KB may be cut off
}

func testOddInput(t *testing.T, _ *bun.DB, s search.Searcher) {
	for _, text := range OddTexts {
		Check(t, s, search.Query{Text: text, MaxPrice: 20000, InStockOnly: true})
	}
	if res := Check(t, s, search.Query{Text: "zzzzqqqq"}); res.Total != 0 {
		t.Errorf("nonsense word: %d results: %v", res.Total, SKUs(res.Products))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, search.Query{Text: "shoes"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// OddTexts are the seeds of the backends' fuzz tests.
var OddTexts = []string{
	"", "runing shoes", "\xff\xfe\xfd", "ё-ё-ё", "a-b-c-d-e", "t-shirt", "wi‑fi 16gb", "👍🏽 кроссовки",
	"\u0301\u0301e\u0301", "İstanbul ǅ ß", "100%", "x\x00y", "ﬁ ligature", "42-", `"quoted" \back\slash`,
	"кроссовки для бега", "   --   ", "日本語のテキスト", "a\u200bb", "ＦＵＬＬＷＩＤＴＨ", "\U000E0041\U0010FFFF",
	"{Get{x}} } ) ] \\\"", "\t\n\r\v\f", "the", "для", "-1e9 NaN Inf",
}

func testSimilar(t *testing.T, _ *bun.DB, s search.Searcher) {
	ctx := context.Background()
	sim, err := s.Similar(ctx, "SHO-RUN-001", 4)
	if err != nil || len(sim) != 4 {
		t.Fatalf("similar: %v, %v", SKUs(sim), err)
	}
	for _, p := range sim {
		if p.SKU == "SHO-RUN-001" || !strings.HasPrefix(p.Category.Path, "Shoes") {
			t.Errorf("similar to a running shoe: %s (%s)", p.SKU, p.Category.Path)
		}
	}
	if sim[0].Category.Path != "Shoes > Running" {
		t.Errorf("closest to a running shoe: %s in %s", sim[0].SKU, sim[0].Category.Path)
	}
	if _, err := s.Similar(ctx, "NO-SUCH-SKU", 4); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("unknown sku: %v", err)
	}
}
