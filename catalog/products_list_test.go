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

// TestListProductPageHidesVariants: the merchant's list and its count
// hold plain products and parents, never variants, on every page and
// filter; a variant's SKU finds its parent.
func TestListProductPageHidesVariants(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		ins := []catalog.ProductInput{
			{SKU: "PLAIN-1", Title: "Plain Mug", Price: 900, Currency: "USD", Stock: 2},
			{SKU: "TEE", Title: "Tee", Price: 2000, Currency: "USD", OptionNames: []string{"Size"}},
			{SKU: "TEE-S", VariantOf: "TEE", Options: map[string]string{"Size": "S"}, Price: 2000, Currency: "USD", Stock: 1},
			{SKU: "TEE-M", VariantOf: "TEE", Options: map[string]string{"Size": "M"}, Price: 2100, Currency: "USD", Stock: 3},
		}
		for i := range ins {
			if err := ins[i].Validate(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := catalog.UpsertProducts(ctx, db, ins); err != nil {
			t.Fatal(err)
		}
		for _, l := range []catalog.ProductList{{}, {Stock: catalog.StockLow}, {Stock: catalog.StockIn}, {Text: "tee"}, {Sort: catalog.SortStockAsc}} {
			got := allPages(t, db, l)
			for _, s := range got {
				if s == "TEE-S" || s == "TEE-M" {
					t.Errorf("%+v lists variant %s: %v", l, s, got)
				}
			}
			n, err := catalog.CountProductList(ctx, db, l)
			if err != nil || n != len(got) {
				t.Errorf("%+v: count %d (%v), list %v", l, n, err, got)
			}
		}
		// The parent's stock is the variants' sum (4): low (1 to LowStock).
		if got := allPages(t, db, catalog.ProductList{Stock: catalog.StockLow}); len(got) != 2 {
			t.Errorf("low = %v, want PLAIN-1 and TEE", got)
		}
		if got := allPages(t, db, catalog.ProductList{Text: "TEE-M"}); len(got) != 1 || got[0] != "TEE" {
			t.Errorf("a variant's SKU finds %v, want its parent TEE", got)
		}
		if got := allPages(t, db, catalog.ProductList{Text: "TEE-"}); len(got) != 0 {
			t.Errorf("a partial variant SKU finds %v", got)
		}
	})
}
