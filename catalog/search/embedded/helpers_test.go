package embedded_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
)

// demoIndex loads the demo catalog into db and builds an index of it.
func demoIndex(t testing.TB, db *bun.DB, opts embedded.Options) *embedded.Index {
	t.Helper()
	ctx := context.Background()
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	x := embedded.New(opts)
	if err := x.Rebuild(ctx, db); err != nil {
		t.Fatal(err)
	}
	return x
}

// demoSQLite is a fresh SQLite database with the demo catalog and its index.
func demoSQLite(t testing.TB) (*bun.DB, *embedded.Index) {
	t.Helper()
	db := catalogtest.SQLite(t)
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

// violation says which filter of q product p breaks, or "".
func violation(q search.Query, p catalog.Product) string {
	switch {
	case !p.Active:
		return "inactive"
	case q.MinPrice > 0 && p.Price < q.MinPrice:
		return "price below minimum"
	case q.MaxPrice > 0 && p.Price > q.MaxPrice:
		return "price above maximum"
	case q.InStockOnly && p.Stock <= 0:
		return "out of stock"
	case q.Category != "" && !inCategory(p, q.Category):
		return "outside category " + q.Category
	}
	for k, v := range q.Attributes {
		if !hasAttr(p, k, v) {
			return "attribute " + k + " is not " + v
		}
	}
	return ""
}

// inCategory: the category's names appear, in order, in the product's path.
func inCategory(p catalog.Product, cat string) bool {
	if p.Category == nil {
		return false
	}
	norm := func(s string) string {
		return " > " + strings.ToLower(strings.Join(catalog.SplitCategoryPath(s), " > ")) + " > "
	}
	return strings.Contains(norm(p.Category.Path), norm(cat))
}

func hasAttr(p catalog.Product, key, want string) bool {
	for k, v := range p.Attributes {
		if !strings.EqualFold(k, key) {
			continue
		}
		for _, part := range append(strings.Split(v, ","), v) {
			if strings.EqualFold(strings.TrimSpace(part), want) {
				return true
			}
		}
	}
	return false
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
