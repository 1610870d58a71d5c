package embedded_test

import (
	"bytes"
	"context"
	"flag"
	"runtime"
	"shopbot/catalog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/importer"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// benchQueries is a mix of what shoppers and the model send: plain words,
// several words, misspellings, synonyms, Russian, filters, sorts and
// filter-only listings (the costliest: every product is a candidate).
var benchQueries = []search.Query{
	{Text: "waterproof rain jacket"},
	{Text: "running shoes", InStockOnly: true},
	{Text: "wireless earbuds", MaxPrice: 10000},
	{Text: "cast iron skillet"},
	{Text: "organic coffee", Sort: search.SortPriceAsc},
	{Text: "runing shoes"},
	{Text: "wireles headphones"},
	{Text: "couch"},
	{Text: "trainers", Category: "Shoes"},
	{Text: "кроссовки"},
	{Text: "black leather boots", Sort: search.SortRating},
	{Text: "size 42", Attributes: map[string]string{"size": "42"}},
	{Text: "dog bed", Category: "Pets"},
	{Text: "yoga mat", InStockOnly: true, MaxPrice: 5000},
	{Category: "Shoes > Running", Sort: search.SortPriceAsc},
	{Category: "Home", InStockOnly: true},
	{Text: "jacket", Sort: search.SortPopular, Limit: 20},
	{Text: "gift for a 5 year old"},
	{},
	{Text: "board game", Offset: 20},
	// vocabulary gaps the retail lexicon bridges
	{Text: "софа"},
	{Text: "корм для щенков"},
	{Text: "pots and pans"},
	{Text: "trousers", InStockOnly: true},
	{Text: "зимние сапоги"},
}

// BenchmarkSearchDemo measures a query against the 324-product demo
// catalog.
func BenchmarkSearchDemo(b *testing.B) {
	_, x := demoSQLite(b)
	benchSearch(b, x)
}

// BenchmarkSearchDemoHybrid is BenchmarkSearchDemo with the Local
// embedder.
func BenchmarkSearchDemoHybrid(b *testing.B) {
	db := catalogtest.SQLiteDemo(b)
	benchSearch(b, demoIndex(b, db, embedded.Options{Embedder: vectorizer.NewLocal(0)}))
}

// BenchmarkSearch100k measures query latency over 100,000 synthetic
// products. Targets: p50 ≤ 5 ms, p99 ≤ 25 ms on 2 cores. Run it by name:
// go test -run '^$' -bench 100k -benchtime 100x ./catalog/search/embedded/
func BenchmarkSearch100k(b *testing.B) {
	benchSearch100k(b, embedded.Options{})
}

// BenchmarkSearch100kHybrid is BenchmarkSearch100k with the Local
// embedder. It also reports how many of each text query's 10 most similar
// products the coarse vector scan finds (vector_recall@10), and the
// highest similarity of any product to a nonsense query, which must stay
// under DefaultMinSimilarity.
func BenchmarkSearch100kHybrid(b *testing.B) {
	x := benchSearch100k(b, embedded.Options{Embedder: vectorizer.NewLocal(0)})
	var texts []string
	for _, q := range benchQueries {
		if q.Text != "" {
			texts = append(texts, q.Text)
		}
	}
	ctx := context.Background()
	b.ReportMetric(x.VectorRecall(ctx, texts), "vector_recall@10")
	var worst float32
	for _, text := range nonsenseQueries {
		worst = max(worst, x.TopSimilarity(ctx, text))
	}
	b.ReportMetric(float64(worst), "nonsense_max_sim")
}

func benchSearch100k(b *testing.B, opts embedded.Options) *embedded.Index {
	db := synthetic100k(b)
	opts.Logger = testLogger(b)
	x := embedded.New(opts)
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	benchSearch(b, x)
	reportHeap(b, x)
	return x
}

// BenchmarkRebuild100k measures a full build from 100,000 products in
// SQLite. Targets: ≤ 30 s, heap ≤ 600 MB.
func BenchmarkRebuild100k(b *testing.B) {
	benchRebuild100k(b, embedded.Options{})
}

// BenchmarkRebuild100kHybrid is BenchmarkRebuild100k with the Local
// embedder: fitting it and embedding every product are part of the build.
func BenchmarkRebuild100kHybrid(b *testing.B) {
	benchRebuild100k(b, embedded.Options{Embedder: vectorizer.NewLocal(0)})
}

func benchRebuild100k(b *testing.B, opts embedded.Options) {
	db := synthetic100k(b)
	opts.Logger = testLogger(b)
	x := embedded.New(opts)
	for b.Loop() {
		if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/rebuild")
	if x.Len() != 100_000 {
		b.Fatalf("indexed %d products", x.Len())
	}
	reportHeap(b, x)
}

// benchSearch runs the query mix round-robin and reports latency
// percentiles besides the mean.
func benchSearch(b *testing.B, x *embedded.Index) {
	ctx := context.Background()
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := x.Search(ctx, benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
}

// reportHeap reports the heap after a collection, while x lives: in use
// (spans holding live objects) and allocated (the live objects).
func reportHeap(b *testing.B, x *embedded.Index) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap_inuse_MB")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap_alloc_MB")
	runtime.KeepAlive(x)
}

// synthetic100k imports `shopbot demo-catalog --size 100000` into a fresh
// SQLite database. It skips unless -bench names the 100k benchmarks, so
// -bench . stays quick.
func synthetic100k(b *testing.B) *bun.DB {
	if pat := flag.Lookup("test.bench").Value.String(); !strings.Contains(pat, "100k") {
		b.Skip("run by name: -bench 100k")
	}
	var file bytes.Buffer
	if err := demo.WriteSynthetic(&file, 100_000, 1); err != nil {
		b.Fatal(err)
	}
	db := catalogtest.SQLite(b)
	start := time.Now()
	sum, err := importer.Import(context.Background(), db, &file, "bench.jsonl", importer.Options{})
	if err != nil || sum.Imported != 100_000 {
		b.Fatalf("%+v: %v", sum, err)
	}
	b.Logf("imported 100,000 products in %s", time.Since(start).Round(time.Millisecond))
	return db
}
