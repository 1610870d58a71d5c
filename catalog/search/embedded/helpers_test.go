package embedded_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
)

// demoIndex builds an index of db, which holds the demo catalog (a copy
// from catalogtest.SQLiteDemo or EachDemo, made once per process).
func demoIndex(t testing.TB, db *bun.DB, opts embedded.Options) *embedded.Index {
	t.Helper()
	ctx := context.Background()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	x := embedded.New(opts)
	if err := x.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	return x
}

// demoSQLite is a fresh SQLite database with the demo catalog and its index.
func demoSQLite(t testing.TB) (*bun.DB, *embedded.Index) {
	t.Helper()
	db := catalogtest.SQLiteDemo(t)
	return db, demoIndex(t, db, embedded.Options{})
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func mustSearch(t testing.TB, s search.Searcher, q search.Query) search.Results {
	t.Helper()
	res, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return res
}

func skus(ps []catalog.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.SKU
	}
	return out
}

func contains(ps []catalog.Product, sku string) bool { return slices.Contains(skus(ps), sku) }

// position is the 0-based rank of sku in ps, or -1.
func position(ps []catalog.Product, sku string) int { return slices.Index(skus(ps), sku) }
