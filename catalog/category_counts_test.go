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
