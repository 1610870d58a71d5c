package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func skus(ps []catalog.Product) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.SKU)
	}
	return out
}

// allPages walks l page by page (limit 2) and returns every SKU seen.
func allPages(t *testing.T, db bun.IDB, l catalog.ProductList) []string {
	t.Helper()
	l.Limit = 2
	var out []string
	for range 20 {
		ps, next, err := catalog.ListProductPage(context.Background(), db, l)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, skus(ps)...)
		if next == "" {
			return out
		}
		if l.After, err = catalog.ParseCursor(next); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("more than 20 pages")
	return nil
}

// TestListProductPage: the admin product list's filters (category subtree,
// stock, text), sorts with keyset pages that neither skip nor repeat a
// product (ties on the sort key included), and counts.
func TestListProductPage(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		low := product("T-1", 9000, 2, "Shoes", "Running", "Trail")
		low.Title, low.Brand = "Trail 100%", "Peak_Co"
		seed(t, db,
			product("R-1", 5000, 30, "Shoes", "Running"),
			product("R-2", 12000, 0, "Shoes", "Running"),
			low,
			product("H-1", 3000, 9, "Home"),
			product("H-2", 3000, 9, "Home"),
		)
		if err := catalog.SetProductActive(ctx, db, "H-2", false); err != nil {
			t.Fatal(err)
		}
		all, _ := catalog.ListCategories(ctx, db)
		running := categoryByPath(t, all, "Shoes > Running")
		for _, tc := range []struct {
			name string
			l    catalog.ProductList
			want []string
		}{
			{"newest first", catalog.ProductList{}, []string{"H-2", "H-1", "T-1", "R-2", "R-1"}},
			{"subtree by price", catalog.ProductList{CategoryIDs: catalog.Subtree(all, running.ID), Sort: catalog.SortPriceAsc}, []string{"R-1", "T-1", "R-2"}},
			{"price down, ties by id", catalog.ProductList{Sort: catalog.SortPriceDesc}, []string{"R-2", "T-1", "R-1", "H-2", "H-1"}},
			{"price up, ties by id", catalog.ProductList{Sort: catalog.SortPriceAsc}, []string{"H-1", "H-2", "R-1", "T-1", "R-2"}},
			{"stock up", catalog.ProductList{Sort: catalog.SortStockAsc}, []string{"R-2", "T-1", "H-1", "H-2", "R-1"}},
			{"title", catalog.ProductList{Sort: catalog.SortTitle}, []string{"H-1", "H-2", "R-1", "R-2", "T-1"}},
			{"in stock", catalog.ProductList{Stock: catalog.StockIn, Sort: catalog.SortTitle}, []string{"H-1", "R-1", "T-1"}},
			{"low", catalog.ProductList{Stock: catalog.StockLow}, []string{"T-1"}},
			{"out", catalog.ProductList{Stock: catalog.StockOut}, []string{"R-2"}},
			{"archived", catalog.ProductList{Stock: catalog.StockArchived}, []string{"H-2"}},
			{"exact sku", catalog.ProductList{Text: "R-1"}, []string{"R-1"}},
			{"title, any case", catalog.ProductList{Text: "product h", Sort: catalog.SortTitle}, []string{"H-1", "H-2"}},
			{"wildcards are literal", catalog.ProductList{Text: "100%"}, []string{"T-1"}},
			{"brand", catalog.ProductList{Text: "k_c"}, []string{"T-1"}},
			{"underscore is literal", catalog.ProductList{Text: "R_1"}, nil},
			{"unknown category", catalog.ProductList{CategoryIDs: []int64{-1}}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := allPages(t, db, tc.l); !equal(got, tc.want) {
					t.Errorf("pages of 2: got %v, want %v", got, tc.want)
				}
				ps, next, err := catalog.ListProductPage(ctx, db, tc.l)
				if err != nil || next != "" || !equal(skus(ps), tc.want) {
					t.Errorf("one page: %v, next %q, %v; want %v and no next", skus(ps), next, err, tc.want)
				}
				if n, err := catalog.CountProductList(ctx, db, tc.l); err != nil || n != len(tc.want) {
					t.Errorf("count = %d, %v; want %d", n, err, len(tc.want))
				}
			})
		}
		ps, _, err := catalog.ListProductPage(ctx, db, catalog.ProductList{Text: "T-1"})
		if err != nil || len(ps) != 1 || ps[0].Category == nil || ps[0].Category.Path != "Shoes > Running > Trail" {
			t.Errorf("listed products carry their category: %+v, %v", ps, err)
		}
	})
}

func TestParseCursor(t *testing.T) {
	if c, err := catalog.ParseCursor(""); c != nil || err != nil {
		t.Errorf(`ParseCursor("") = %v, %v; want nil, nil`, c, err)
	}
	for _, bad := range []string{"%%%", "bm90IGpzb24"} {
		if _, err := catalog.ParseCursor(bad); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("ParseCursor(%q) = %v; want ErrInvalid", bad, err)
		}
	}
	want := catalog.Cursor{Num: 42, Str: "a b", ID: 7}
	if c, err := catalog.ParseCursor(want.String()); err != nil || *c != want {
		t.Errorf("round trip: %+v, %v; want %+v", c, err, want)
	}
}
