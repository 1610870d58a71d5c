package embedded_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// reviewWords seed the synthetic reviews with what shoppers write about.
var reviewWords = strings.Fields(`battery charge charger lasts died hours days comfortable fit size small large tight loose
	quality cheap broke broken zipper seam stitching sound loud quiet noise bright dim warm cold waterproof leaked
	smell taste fresh stale delivery arrived late damaged box price value worth money recommend great terrible love hate
	strap handle wheel button screen app bluetooth connection durable flimsy sturdy heavy light color faded`)

// syntheticReviews writes n reviews of 1–3 sentences over products
// products (RVW-0…), in batches as an import would.
func syntheticReviews(tb testing.TB, db *bun.DB, products, n int) {
	tb.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	ins := make([]catalog.ProductInput, products)
	for i := range ins {
		ins[i] = catalog.ProductInput{SKU: fmt.Sprintf("RVW-%d", i), Title: fmt.Sprintf("Product %d", i), Brand: "Acme",
			CategoryPath: []string{"Bench"}, Price: 1000, Currency: "USD", Stock: 1}
		if err := ins[i].Validate(); err != nil {
			tb.Fatal(err)
		}
	}
	if _, err := catalog.UpsertProducts(ctx, db, ins); err != nil {
		tb.Fatal(err)
	}
	stored, err := catalog.GetProducts(ctx, db, func() []string {
		s := make([]string, len(ins))
		for i := range ins {
			s[i] = ins[i].SKU
		}
		return s
	}())
	if err != nil {
		tb.Fatal(err)
	}
	filler := make([]string, 5000)
	for i := range filler {
		filler[i] = fmt.Sprintf("w%x", r.Uint32()%0xfffff)
	}
	word := func() string {
		if r.IntN(3) == 0 {
			return reviewWords[r.IntN(len(reviewWords))]
		}
		return filler[r.IntN(len(filler))]
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for lo := 0; lo < n; lo += 2000 {
		batch := make([]catalog.Review, min(2000, n-lo))
		for i := range batch {
			var sb strings.Builder
			for range 1 + r.IntN(3) {
				for range 5 + r.IntN(10) {
					sb.WriteString(word() + " ")
				}
				sb.WriteString(". ")
			}
			batch[i] = catalog.Review{ProductID: stored[r.IntN(len(stored))].ID, Author: "A", Rating: 1 + r.IntN(5),
				Title: word() + " " + word(), Body: sb.String(), CreatedAt: at.Add(time.Duration(lo+i) * time.Minute)}
		}
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return catalog.AddReviews(ctx, tx, batch) })
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkReviews100k measures a review search over 100,000 synthetic
// reviews of 1,000 products with the Local embedder (hybrid), half the
// queries narrowed to one product, and the index's heap. Target: p99 ≤
// 10 ms. Run it by name:
// go test -run '^$' -bench Reviews100k -benchtime 2000x ./catalog/search/embedded/
func BenchmarkReviews100k(b *testing.B) {
	db := catalogtest.SQLite(b)
	syntheticReviews(b, db, 1000, 100_000)
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	x := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0), Logger: testLogger(b)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(x.Len()), "passages")
	// The index's heap: what a shop with 100,000 reviews holds in memory
	// for review search.
	b.ReportMetric(float64(int64(heap())-int64(before))/(1<<20), "index_MiB")
	queries := []string{"does the battery last", "battery died", "is the size small or large", "zipper broke",
		"is it waterproof", "sound quality", "arrived damaged", "worth the money", "comfortable fit", "bluetooth connection",
		"screen too dim", "stitching came loose"}
	ctx := context.Background()
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		q := search.PassageQuery{Kind: catalog.PassageReview, Text: queries[i%len(queries)]}
		if i%2 == 1 {
			q.Scope = fmt.Sprintf("RVW-%d", i%1000)
		}
		start := time.Now()
		ps, err := x.SearchPassages(ctx, q)
		took = append(took, time.Since(start))
		if err != nil || q.Scope == "" && len(ps) == 0 {
			b.Fatalf("%+v: %d passages, %v", q, len(ps), err)
		}
	}
	slices.Sort(took)
	pct := func(p float64) float64 { return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50_ms")
	b.ReportMetric(pct(0.99), "p99_ms")
}
