package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestCategoryTree(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		trail, err := catalog.EnsureCategoryPath(ctx, db, []string{"Shoes", "Running", "Trail"})
		if err != nil {
			t.Fatal(err)
		}
		again, err := catalog.EnsureCategoryPath(ctx, db, catalog.SplitCategoryPath(" Shoes >Running> Trail "))
		if err != nil || again.ID != trail.ID {
			t.Fatalf("ensure twice: got %v, %v; want id %d", again, err, trail.ID)
		}
		if _, err := catalog.EnsureCategoryPath(ctx, db, []string{"Shoes", "Boots"}); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.EnsureCategoryPath(ctx, db, []string{"Home"}); err != nil {
			t.Fatal(err)
		}
		all, err := catalog.ListCategories(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 5 {
			t.Fatalf("got %d categories, want 5: %+v", len(all), all)
		}
		shoes := categoryByPath(t, all, "Shoes")
		if got := len(catalog.Subtree(all, shoes.ID)); got != 4 {
			t.Errorf("Shoes subtree has %d nodes, want 4", got)
		}
		if roots := catalog.Children(all, nil); len(roots) != 2 {
			t.Errorf("got %d roots, want 2", len(roots))
		}
		if kids := catalog.Children(all, &shoes.ID); len(kids) != 2 {
			t.Errorf("Shoes has %d children, want 2", len(kids))
		}
		if trail.Path != "Shoes > Running > Trail" || trail.ParentID == nil {
			t.Errorf("trail = %+v", trail)
		}
	})
}

func TestUpsertProducts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		a, b := product("A-1", 8999, 5), product("B-1", 1500, 0, "Home", "Decor")
		b.Attributes = map[string]string{"material": "oak", "color": "natural"}
		seed(t, db, a, b)

		got, err := catalog.GetProduct(ctx, db, "B-1")
		if err != nil {
			t.Fatal(err)
		}
		if got.Price != 1500 || got.Currency != "USD" || got.Attributes["material"] != "oak" ||
			got.Category == nil || got.Category.Path != "Home > Decor" || !got.Active || got.InStock() {
			t.Errorf("B-1 = %+v", got)
		}
		if len(got.ImageURLs) != 1 {
			t.Errorf("images = %v", got.ImageURLs)
		}

		a.Price, a.Title = 7999, "Renamed"
		c := product("C-1", 100, 1)
		for _, in := range []*catalog.ProductInput{&a, &c} {
			if err := in.Validate(); err != nil {
				t.Fatal(err)
			}
		}
		res, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{a, c})
		if err != nil {
			t.Fatal(err)
		}
		if res.Inserted != 1 || res.Updated != 1 {
			t.Errorf("upsert result = %+v, want 1 inserted, 1 updated", res)
		}
		if p, _ := catalog.GetProduct(ctx, db, "A-1"); p.Price != 7999 || p.Title != "Renamed" {
			t.Errorf("A-1 after update = %+v", p)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 3 {
			t.Errorf("count = %d, want 3", n)
		}
		if cs, err := catalog.ChangedSince(ctx, db, time.Unix(0, 0), 0, 100); err != nil || len(cs) != 3 {
			t.Errorf("change feed has %d products (%v), want 3", len(cs), err)
		}
		if _, err := catalog.GetProduct(ctx, db, "missing"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing product: err = %v", err)
		}
	})
}

func TestProductValidation(t *testing.T) {
	for name, mutate := range map[string]func(*catalog.ProductInput){
		"missing sku":      func(p *catalog.ProductInput) { p.SKU = " " },
		"sku with space":   func(p *catalog.ProductInput) { p.SKU = "A B" },
		"missing title":    func(p *catalog.ProductInput) { p.Title = "" },
		"negative price":   func(p *catalog.ProductInput) { p.Price = -1 },
		"negative stock":   func(p *catalog.ProductInput) { p.Stock = -1 },
		"unknown currency": func(p *catalog.ProductInput) { p.Currency = "XYZ" },
	} {
		in := product("OK-1", 100, 1)
		mutate(&in)
		if err := in.Validate(); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	in := product("OK-1", 100, 1)
	in.Currency = "eur"
	if err := in.Validate(); err != nil || in.Currency != "EUR" {
		t.Errorf("lower-case currency: %v, %q", err, in.Currency)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
