package embedded_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/vectorizer/vectorizertest"
)

// nonsenseQueries share no word with any product, and no more than a
// letter pattern here and there.
var nonsenseQueries = []string{"zzzzqqqq", "qwxv jjkq", "lorem ipsum", "asdfgh", "blorp", "xkcd zorg"}

// localIndex is the demo catalog indexed with the Local embedder.
func localIndex(t testing.TB, db *bun.DB, opts embedded.Options) *embedded.Index {
	t.Helper()
	opts.Embedder = vectorizer.NewLocal(0)
	return demoIndex(t, db, opts)
}

// concepts is a toy semantic model for the fake embeddings server: one
// coordinate per concept, and a text points along the concepts its
// phrases name, longest phrase first ("notebook computer" is a laptop,
// not paper). What OpenAI's models do, in miniature.
var concepts = [][]string{
	{"laptop", "notebook computer", "ноутбук", "ultrabook"},
	{"notebook", "journal", "блокнот", "sketchbook", "planner"},
	{"running shoe", "trainers", "sneakers", "кроссовки"},
	{"headphones", "earbuds", "наушники", "earphones"},
	{"sofa", "couch", "settee", "диван"},
}

func conceptVector(text string) []float32 {
	type phrase struct {
		concept int
		text    string
	}
	var phrases []phrase
	for c, ps := range concepts {
		for _, p := range ps {
			phrases = append(phrases, phrase{c, p})
		}
	}
	slices.SortStableFunc(phrases, func(a, b phrase) int { return len(b.text) - len(a.text) })
	t := strings.ToLower(text)
	v := make([]float32, len(concepts)+1)
	v[len(concepts)] = 0.05 // a little alike, and never the zero vector
	for _, p := range phrases {
		if n := strings.Count(t, p.text); n > 0 {
			v[p.concept] += float32(n)
			t = strings.ReplaceAll(t, p.text, " ")
		}
	}
	return v
}

// semanticIndex is the demo catalog indexed with the OpenAI embedder
// talking to a fake server that embeds by concepts.
func semanticIndex(t testing.TB, db *bun.DB, opts embedded.Options) (*embedded.Index, *vectorizertest.Server) {
	t.Helper()
	srv := vectorizertest.NewServer(t, conceptVector)
	opts.Embedder = vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, Model: "concepts"})
	return demoIndex(t, db, opts), srv
}

func TestHybridFindsLaptopsForNotebookComputer(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	laptopsIn := func(ps []catalog.Product) int {
		n := 0
		for _, p := range ps {
			if p.Category.Path == "Electronics > Laptops" {
				n++
			}
		}
		return n
	}
	// By default a keyword match of one word of two (paper notebooks)
	// ranks with a product only similar; the six laptops follow them (the
	// one with a Russian title last, after a phone: the query is English).
	x, _ := semanticIndex(t, db, embedded.Options{})
	res := mustSearch(t, x, search.Query{Text: "notebook computer", Limit: 13})
	if n := laptopsIn(res.Products); n != 6 {
		t.Errorf("%d of the 6 laptops in the first 13: %v", n, skus(res.Products))
	}
	// Weighing similarity more puts them first (with a daypack "with a
	// padded laptop-sized sleeve", as close to laptops as the toy model
	// can tell).
	x, _ = semanticIndex(t, catalogtest.SQLiteDemo(t), embedded.Options{Alpha: new(0.75)})
	res = mustSearch(t, x, search.Query{Text: "notebook computer", Limit: 8})
	if n := laptopsIn(res.Products); n != 6 {
		t.Errorf("alpha 0.75: %d of the 6 laptops in the first 8: %v", n, skus(res.Products))
	}
	// Keywords alone, without the lexicon (which knows "notebook
	// computer"), find paper notebooks only.
	plain := embedded.New(embedded.Options{Synonyms: [][]string{}, Logger: testLogger(t)})
	if err := plain.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	for _, p := range mustSearch(t, plain, search.Query{Text: "notebook computer", Limit: 100}).Products {
		if p.Category.Path == "Electronics > Laptops" {
			t.Errorf("keywords alone found laptop %s: the test proves nothing", p.SKU)
		}
	}
}

// TestHybridFindsWhatKeywordsMiss: words run together are a misspelling
// the keyword side cannot correct (no vocabulary word is within two
// edits), but they keep most letter n-grams of the words meant.
func TestHybridFindsWhatKeywordsMiss(t *testing.T) {
	db, plain := demoSQLite(t)
	x := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Logger: testLogger(t)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want string
	}{
		{"airfryer", "KIT-APL-007"},
		{"wirelessearbuds", "ELE-HPH-003"},
		{"coffeemaker", "KIT-APL-002"},
		{"sleepingbag", "SPO-CMP-004"},
	} {
		if res := mustSearch(t, plain, search.Query{Text: tc.text}); position(res.Products, tc.want) >= 0 {
			t.Errorf("%q: keywords alone find %s: the test proves nothing", tc.text, tc.want)
		}
		res := mustSearch(t, x, search.Query{Text: tc.text})
		if i := position(res.Products, tc.want); i < 0 || i > 2 {
			t.Errorf("%q: %s at rank %d, want within the first 3; got %v", tc.text, tc.want, i, skus(res.Products))
		}
	}
	// Keywords find the digital products, vectors the air fryer among them.
	q := search.Query{Text: "digital airfryer", Limit: 20}
	kw, hy := mustSearch(t, plain, q), mustSearch(t, x, q)
	if i := position(hy.Products, "KIT-APL-007"); i != 0 {
		t.Errorf("%q: the air fryer at rank %d (keywords alone: %d); got %v", q.Text, i,
			position(kw.Products, "KIT-APL-007"), skus(hy.Products))
	}
}

func TestHybridKeepsKeywordRelevance(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	checkRelevance(t, localIndex(t, db, embedded.Options{}))
}

func TestHybridNonsenseFindsNothing(t *testing.T) {
	db, plain := demoSQLite(t)
	for _, text := range nonsenseQueries {
		if res := mustSearch(t, plain, search.Query{Text: text}); res.Total != 0 {
			t.Fatalf("%q: keywords alone find %v: not nonsense", text, skus(res.Products))
		}
	}
	for name, x := range map[string]*embedded.Index{
		"local":       embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0)}),
		"vector only": embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Alpha: new(1.0)}),
	} {
		if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
			t.Fatal(err)
		}
		for _, text := range nonsenseQueries {
			for _, q := range []search.Query{{Text: text}, {Text: text, InStockOnly: true}, {Text: text, Category: "Shoes"}} {
				if res := mustSearch(t, x, q); res.Total != 0 || len(res.Products) != 0 {
					t.Errorf("%s: %+v: %d results: %v", name, q, res.Total, skus(res.Products))
				}
			}
		}
	}
}

// TestAlphaZeroIsKeywordOnly: with alpha 0 an index with an embedder
// answers exactly as one without.
func TestAlphaZeroIsKeywordOnly(t *testing.T) {
	db, plain := demoSQLite(t)
	x := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Alpha: new(0.0), Logger: testLogger(t)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	var queries []search.Query
	for _, tc := range searchtest.RelevanceCases {
		queries = append(queries, search.Query{Text: tc.Text, Limit: 50})
	}
	queries = append(queries,
		search.Query{Text: "airfryer"},
		search.Query{Text: "waterproof jacket", MaxPrice: 15000, Limit: 5, Offset: 2},
		search.Query{Text: "leather", Sort: search.SortPriceDesc, Limit: 100},
		search.Query{Text: "black", Category: "Apparel", InStockOnly: true},
	)
	for _, q := range queries {
		want, got := mustSearch(t, plain, q), mustSearch(t, x, q)
		if got.Total != want.Total || !slices.Equal(skus(got.Products), skus(want.Products)) {
			t.Errorf("%+v: alpha 0 gives %d %v, keywords %d %v", q, got.Total, skus(got.Products), want.Total, skus(want.Products))
		}
	}
	ctx := context.Background()
	for _, sku := range []string{"SHO-RUN-001", "ELE-LAP-006", "KIT-APL-007"} {
		want, _ := plain.Similar(ctx, sku, 8)
		got, err := x.Similar(ctx, sku, 8)
		if err != nil || !slices.Equal(skus(got), skus(want)) {
			t.Errorf("similar to %s: alpha 0 gives %v, keywords %v (%v)", sku, skus(got), skus(want), err)
		}
	}
}

// TestHybridNeverViolatesFilters runs the filtered queries of
// TestSearchQueries, and vector-only matches under filters that exclude
// them, with vectors weighted from a little to entirely.
func TestHybridNeverViolatesFilters(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		queries := []search.Query{
			{Text: "waterproof jacket", MaxPrice: 15000},
			{Text: "running", Category: "Shoes", InStockOnly: true},
			{Text: "кроссовки", MinPrice: 10000},
			{Text: "airfryer", MaxPrice: 5000},          // the air fryer costs more
			{Text: "airfryer", Category: "Electronics"}, // and is a kitchen appliance
			{Text: "powerbank", InStockOnly: true, MinPrice: 100},
			{Text: "notebook computer", MaxPrice: 70000},
			{Text: "size 42", Attributes: map[string]string{"size": "42"}},
			{Text: "red", Category: "Apparel", Attributes: map[string]string{"color": "red"}},
			{Text: "coffee", MinPrice: 1000, MaxPrice: 3000},
			{Text: "shoes", Category: "No Such Category"},
		}
		if _, err := demo.Load(context.Background(), db); err != nil {
			t.Fatal(err)
		}
		for _, alpha := range []float64{0.1, search.DefaultAlpha, 0.8, 1} {
			x := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Alpha: new(alpha), Logger: testLogger(t)})
			if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
				t.Fatal(err)
			}
			for _, q := range queries {
				q.Limit = 100
				res := mustSearch(t, x, q)
				if res.Total < len(res.Products) {
					t.Errorf("alpha %v, %+v: total %d < %d results", alpha, q, res.Total, len(res.Products))
				}
				for _, p := range res.Products {
					if v := q.Violation(p); v != "" {
						t.Errorf("alpha %v, %+v: result %s: %s", alpha, q, p.SKU, v)
					}
				}
			}
		}
	})
}

// TestHybridPages: fused results page like keyword ones.
func TestHybridPages(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	x := localIndex(t, db, embedded.Options{})
	for _, q := range []search.Query{{Text: "black leather"}, {Text: "airfryer"}, {Text: "runing shoes", InStockOnly: true}} {
		q.Limit = 100
		all := mustSearch(t, x, q)
		var paged []string
		for q.Offset, q.Limit = 0, 4; q.Offset < all.Total+4; q.Offset += 4 {
			page := mustSearch(t, x, q)
			if page.Total != all.Total {
				t.Errorf("%+v: total %d, want %d", q, page.Total, all.Total)
			}
			paged = append(paged, skus(page.Products)...)
		}
		if !slices.Equal(paged, skus(all.Products)) {
			t.Errorf("%q: pages %v\nwhole %v", q.Text, paged, skus(all.Products))
		}
	}
}

func TestHybridSimilar(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	x := localIndex(t, db, embedded.Options{})
	sim, err := x.Similar(context.Background(), "SHO-RUN-001", 4)
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
}
