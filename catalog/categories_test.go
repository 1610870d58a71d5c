package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestCategoryProductCounts(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		empty, err := catalog.CategoryProductCounts(ctx, db)
		if err != nil || len(empty) != 0 {
			t.Fatalf("empty catalog: got %v, %v; want an empty map", empty, err)
		}
		uncategorized := product("NOCAT-1", 100, 1)
		uncategorized.CategoryPath = nil
		archived := product("RUN-3", 100, 5)
		archived.Inactive = true
		seed(t, db,
			product("RUN-1", 100, 5), product("RUN-2", 200, 0), archived,
			product("TRAIL-1", 300, 1, "Shoes", "Running", "Trail"),
			product("HOME-1", 400, 2, "Home"),
			uncategorized,
		)
		if _, err := catalog.EnsureCategoryPath(ctx, db, []string{"Shoes", "Boots"}); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.CategoryProductCounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{
			"Shoes": 0, "Shoes > Boots": 0, // no products of their own
			"Shoes > Running":         2, // the archived one is not counted, out of stock is
			"Shoes > Running > Trail": 1,
			"Home":                    1,
		}
		all, err := catalog.ListCategories(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		for path, n := range want {
			c := categoryByPath(t, all, path)
			if got[c.ID] != n {
				t.Errorf("%s: %d active products, want %d", path, got[c.ID], n)
			}
			if _, ok := got[c.ID]; ok != (n > 0) {
				t.Errorf("%s: present = %v, want %v", path, ok, n > 0)
			}
		}
		if len(got) != 3 {
			t.Errorf("got %d categories with products, want 3: %v", len(got), got)
		}
	})
}

// TestCountsAreListings: a product with variants is one listing in
// CountProducts and CategoryProductCounts, not one per variant row.
func TestCountsAreListings(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db) // a parent with three variants, in Apparel > Tops
		seed(t, db, product("TOP-1", 900, 4, "Apparel", "Tops"))
		if n, err := catalog.CountProducts(ctx, db); err != nil || n != 2 {
			t.Errorf("CountProducts = %d, %v; want 2 listings (the tee and TOP-1)", n, err)
		}
		got, err := catalog.CategoryProductCounts(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		all, err := catalog.ListCategories(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if c := categoryByPath(t, all, "Apparel > Tops"); got[c.ID] != 2 || len(got) != 1 {
			t.Errorf("counts = %v, want Apparel > Tops (%d): 2", got, c.ID)
		}
		// An archived parent leaves the category count, its variants too.
		if err := catalog.SetProductActive(ctx, db, "TEE", false); err != nil {
			t.Fatal(err)
		}
		if got, _ := catalog.CategoryProductCounts(ctx, db); len(got) != 1 || sumCounts(got) != 1 {
			t.Errorf("after archiving the tee: %v, want 1", got)
		}
	})
}

func sumCounts(m map[int64]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
}
