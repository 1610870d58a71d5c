package searchtest_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/searchtest"
)

func TestDatabaseSearch(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := searchtest.NewDatabase(db)
		for _, tc := range []struct {
			name  string
			q     search.Query
			check func(p catalog.Product) bool
			min   int
		}{
			{"waterproof jacket under 150", search.Query{Text: "waterproof jacket", MaxPrice: 15000},
				func(p catalog.Product) bool { return p.Price <= 15000 }, 2},
			{"running shoes in stock, cheapest first", search.Query{Text: "running", Category: "Shoes", InStockOnly: true, Sort: search.SortPriceAsc},
				func(p catalog.Product) bool {
					return p.Stock > 0 && p.Category != nil && p.Category.Path[:5] == "Shoes"
				}, 3},
			{"russian title word", search.Query{Text: "кроссовки"},
				func(p catalog.Product) bool { return true }, 1},
			{"attribute filter", search.Query{Category: "Apparel", Attributes: map[string]string{"color": "RED"}},
				func(p catalog.Product) bool { return p.Attributes["color"] == "red" }, 1},
			{"sub-category by last name", search.Query{Category: "Laptops"},
				func(p catalog.Product) bool { return p.Category.Path == "Electronics > Laptops" }, 3},
			{"percent is literal", search.Query{Text: "100%"}, func(p catalog.Product) bool { return true }, 0},
		} {
			res, err := s.Search(ctx, tc.q)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if len(res.Products) < tc.min {
				t.Errorf("%s: %d results, want at least %d", tc.name, len(res.Products), tc.min)
			}
			for i, p := range res.Products {
				if !tc.check(p) {
					t.Errorf("%s: result %s violates the query: %+v", tc.name, p.SKU, p)
				}
				if tc.q.Sort == search.SortPriceAsc && i > 0 && res.Products[i-1].Price > p.Price {
					t.Errorf("%s: not sorted by price", tc.name)
				}
			}
		}
		none, err := s.Search(ctx, search.Query{Category: "No Such Category"})
		if err != nil || len(none.Products) != 0 {
			t.Errorf("unknown category: %d results, %v", len(none.Products), err)
		}
		sim, err := s.Similar(ctx, "SHO-RUN-001", 4)
		if err != nil || len(sim) == 0 {
			t.Fatalf("similar: %v, %v", sim, err)
		}
		for _, p := range sim {
			if p.SKU == "SHO-RUN-001" {
				t.Error("similar includes the product itself")
			}
		}
	})
}

func TestDatabaseVariants(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		searchtest.Variants(t, db, searchtest.NewDatabase(db))
	})
}
