package storefront_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// BenchmarkFeed100k streams the OpenAI JSON feed of 100,000 products
// with 4 variants each (400,000 rows) over HTTP, on SQLite and Postgres,
// and reports rows per second and the process's peak RSS while it
// streams (sampled). Run it alone:
//
//	go test -run '^$' -bench 'Feed100k' -benchtime 1x ./catalog/storefront/
//
// SHOPBOT_FEED_BENCH_PRODUCTS changes the product count.
func BenchmarkFeed100k(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("SHOPBOT_FEED_BENCH_PRODUCTS")); err == nil && v > 0 {
		n = v
	}
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			var db *bun.DB
			if backend == "sqlite" {
				db = catalogtest.SQLite(b)
			} else {
				db, _ = catalogtest.Postgres(b)
			}
			seedBulk(b, db, n, 4)
			srv := server(db)
			defer srv.Close()
			runtime.GC()
			base := rssKB()
			var peak atomic.Int64
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() { // sample the RSS while the feed streams
				defer close(done)
				t := time.NewTicker(5 * time.Millisecond)
				defer t.Stop()
				for {
					if r := rssKB(); r > peak.Load() {
						peak.Store(r)
					}
					select {
					case <-stop:
						return
					case <-t.C:
					}
				}
			}()
			b.ResetTimer()
			var bytes int64
			for range b.N {
				res, err := http.Get(srv.URL + "/feeds/products.json")
				if err != nil {
					b.Fatal(err)
				}
				bytes, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != 200 {
					b.Fatalf("feed: %d %v", res.StatusCode, err)
				}
			}
			b.StopTimer()
			close(stop)
			<-done
			rows := float64(n * 4)
			b.ReportMetric(rows*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/feed")
			b.ReportMetric(float64(bytes)/1e6, "MB/feed")
			b.ReportMetric(float64(peak.Load())/1024, "peak_rss_MB")
			b.ReportMetric(float64(peak.Load()-base)/1024, "rss_growth_MB")
		})
	}
}

// seedBulk writes n products with v size variants each straight into the
// tables (the importer's checks would take minutes at this size).
func seedBulk(b testing.TB, db *bun.DB, n, v int) {
	b.Helper()
	ctx := context.Background()
	cat, err := catalog.EnsureCategoryPath(ctx, db, []string{"Bench", "Things"})
	if err != nil {
		b.Fatal(err)
	}
	sizes := []string{"S", "M", "L", "XL"}
	desc := strings.Repeat("A sturdy, useful thing for every day. ", 6)
	const chunk = 1000
	for lo := 0; lo < n; lo += chunk {
		parents := make([]catalog.Product, 0, chunk)
		for i := lo; i < min(lo+chunk, n); i++ {
			parents = append(parents, catalog.Product{
				SKU: fmt.Sprintf("P%06d", i), Title: fmt.Sprintf("Thing number %d", i), Description: desc, Brand: "Acme",
				CategoryID: &cat.ID, Attributes: map[string]string{}, Price: 1000, PriceMax: 1300, Currency: "USD",
				Stock: 40, Active: true, ImageURLs: []string{fmt.Sprintf("https://img.test/p%06d.jpg", i)},
				Options: map[string]string{}, OptionNames: []string{"size"}, VariantCount: v, Version: 1,
			})
		}
		if _, err := db.NewInsert().Model(&parents).Returning("id").Exec(ctx); err != nil {
			b.Fatal(err)
		}
		variants := make([]catalog.Product, 0, len(parents)*v)
		for _, p := range parents {
			for j := range v {
				id := p.ID
				variants = append(variants, catalog.Product{
					SKU: p.SKU + "-" + sizes[j%len(sizes)], Title: p.Title, Attributes: map[string]string{},
					Price: 1000 + int64(j)*100, Currency: "USD", Stock: j * 5, Active: true, ImageURLs: []string{},
					ParentID: &id, Options: map[string]string{"size": sizes[j%len(sizes)]}, OptionNames: []string{}, Version: 1,
				})
			}
		}
		if _, err := db.NewInsert().Model(&variants).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	// Planner statistics, as a live database has them (autovacuum on
	// Postgres) and a bulk load right before the run would not.
	if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
}

// rssKB is this process's resident set size in KiB (Linux).
func rssKB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
