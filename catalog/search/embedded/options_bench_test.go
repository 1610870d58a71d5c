package embedded_test

import (
	"context"
	"fmt"
	"runtime"
	"shopbot/catalog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// optionQueries is a query mix with option filters over the synthetic
// catalog with variants (withVariants): one option, two options on one
// variant, with words, prices, categories, sorts, and filter-only
// listings (every product with the option is a candidate).
var optionQueries = []search.Query{
	{Text: "t-shirt", Options: map[string]string{"size": "M"}},
	{Text: "hoodie navy", Options: map[string]string{"colour": "navy"}},
	{Text: "running shoes", Options: map[string]string{"size": "XL"}, MaxPrice: 10000},
	{Text: "jacket", Options: map[string]string{"colour": "black", "size": "M"}, InStockOnly: true},
	{Text: "wireless earbuds", Options: map[string]string{"size": "S"}},
	{Text: "waterproof rain jacket", Options: map[string]string{"Colour": "Red", "Size": "L"}},
	{Text: "cotton", Options: map[string]string{"size": "L"}, Sort: search.SortPriceAsc},
	{Category: "Apparel", Options: map[string]string{"size": "S"}, Sort: search.SortPriceAsc},
	{Options: map[string]string{"size": "L", "colour": "red"}},
	{Options: map[string]string{"size": "M"}, MinPrice: 2000, MaxPrice: 6000},
	{Options: map[string]string{"size": "M"}, Sort: search.SortPopular, Limit: 20},
	{Text: "navy", Options: map[string]string{"colour": "navy"}, Offset: 20},
}

// BenchmarkOptions100k measures queries with option filters over 100,000
// synthetic products with 4 variants each (500,000 rows). Target: p99 ≤
// 25 ms on 2 cores. Run it by name:
// go test -run '^$' -bench Options100k -benchtime 200x ./catalog/search/embedded/
func BenchmarkOptions100k(b *testing.B) {
	benchOptions100k(b, embedded.Options{})
}

// BenchmarkOptions100kHybrid is BenchmarkOptions100k with the Local
// embedder.
func BenchmarkOptions100kHybrid(b *testing.B) {
	benchOptions100k(b, embedded.Options{Embedder: vectorizer.NewLocal(0)})
}

func benchOptions100k(b *testing.B, opts embedded.Options) {
	db := synthetic100k(b)
	withVariants(b, db)
	opts.Logger = testLogger(b)
	x := embedded.New(opts)
	start := time.Now()
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	if x.Len() != 100_000 {
		b.Fatalf("indexed %d products, want the 100,000 parents", x.Len())
	}
	ctx := context.Background()
	for _, q := range optionQueries { // every query finds something, and no variant
		res, err := x.Search(ctx, q)
		if err != nil || res.Total == 0 {
			b.Fatalf("%+v: %d results, %v", q, res.Total, err)
		}
		for _, p := range res.Products {
			if p.IsVariant() || !p.HasVariants() {
				b.Fatalf("%+v: %s is not a parent", q, p.SKU)
			}
		}
	}
	runtime.GC() // the build's garbage is not the queries' cost
	var took []time.Duration
	byQuery := make([][]time.Duration, len(optionQueries))
	for i := 0; b.Loop(); i++ {
		t := time.Now()
		if _, err := x.Search(ctx, optionQueries[i%len(optionQueries)]); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t)
		took = append(took, d)
		byQuery[i%len(optionQueries)] = append(byQuery[i%len(optionQueries)], d)
	}
	var per []string // one line: benchmarks keep ten lines of log
	for i := range optionQueries {
		if ds := byQuery[i]; len(ds) > 0 {
			slices.Sort(ds)
			per = append(per, fmt.Sprintf("#%d %s/%s", i, ds[len(ds)/2].Round(10*time.Microsecond), ds[len(ds)-1].Round(10*time.Microsecond)))
		}
	}
	b.Logf("median/slowest by query: %s", strings.Join(per, ", "))
	slices.Sort(took)
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
	b.ReportMetric(build.Seconds(), "build_s")
	reportHeap(b, x)
}

// withVariants gives every product of the synthetic catalog four
// variants, sizes S to XL in one of five colours, some out of stock, each
// 1.00 dearer than the last, and rolls the parents up as
// catalog.RollupParents would (one statement: 100,000 parents).
func withVariants(b *testing.B, db *bun.DB) {
	ctx := context.Background()
	start := time.Now()
	_, err := db.ExecContext(ctx, `INSERT INTO products (sku, title, description, brand, category_id, attributes, price, currency,
	stock, active, image_urls, parent_id, options, created_at, updated_at)
SELECT p.sku || '-' || n.k, p.title, '', p.brand, p.category_id, '{}', p.price + n.k * 100, p.currency,
	(p.id * 7 + n.k) % 5, 1, '[]', p.id,
	json_object('Size', CASE n.k WHEN 0 THEN 'S' WHEN 1 THEN 'M' WHEN 2 THEN 'L' ELSE 'XL' END,
		'Colour', CASE (p.id + n.k / 2) % 5 WHEN 0 THEN 'Navy' WHEN 1 THEN 'Black' WHEN 2 THEN 'Red' WHEN 3 THEN 'Green' ELSE 'Grey' END),
	p.created_at, p.updated_at
FROM products AS p, (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) AS n
WHERE p.parent_id IS NULL`)
	if err != nil {
		b.Fatal(err)
	}
	_, err = db.ExecContext(ctx, `UPDATE products SET option_names = '["Size","Colour"]', variant_count = 4,
	stock = (SELECT SUM(v.stock) FROM products AS v WHERE v.parent_id = products.id),
	price_max = price + 300
WHERE parent_id IS NULL`)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("added 400,000 variants in %s", time.Since(start).Round(time.Millisecond))
}
