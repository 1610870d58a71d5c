package searchtest

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
)

// DemoInput returns the demo catalog's input for sku.
func DemoInput(t testing.TB, sku string) catalog.ProductInput {
	t.Helper()
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Input.SKU == sku {
			return p.Input
		}
	}
	t.Fatalf("no demo product %s", sku)
	return catalog.ProductInput{}
}

// Finds reports whether a search for q lists sku among its first 100.
func Finds(t testing.TB, s search.Searcher, q search.Query, sku string) bool {
	t.Helper()
	q.Limit = 100
	return contains(mustSearch(t, s, q).Products, sku)
}

// testUpdates: catalog writes (through the catalog functions, which
// move updated_at, the change feed) become visible: a new price and title, stock
// running out, an archived product, a restored one, a new product.
func testUpdates(t *testing.T, db *bun.DB, s search.Searcher) {
	ctx := context.Background()
	// Products without variants: a parent's price and stock are rolled
	// up from its variants (testVariants covers those).
	const sofa = "HOM-FUR-003" // Monroe Top-Grain Leather Sectional Couch with Chaise, 1899.00
	cheap := search.Query{Text: "leather sectional outlet", MaxPrice: 50000}
	if Finds(t, s, cheap, sofa) {
		t.Fatal("the sofa is under 500 before its price changed")
	}
	in := DemoInput(t, sofa)
	in.Price, in.Title = 45000, in.Title+" Outlet"
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "the new price and title", func() bool {
		res := mustSearch(t, s, cheap)
		return len(res.Products) > 0 && res.Products[0].SKU == sofa && res.Products[0].Price == 45000
	})

	const stove = "SPO-CMP-008" // Emberlite Compact Backpacking Stove, 53 in stock
	inStock := search.Query{Text: "Emberlite", InStockOnly: true}
	if !Finds(t, s, inStock, stove) {
		t.Fatal("Emberlite not found in stock")
	}
	if err := catalog.SetStock(ctx, db, stove, 0); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "stock running out", func() bool { return !Finds(t, s, inStock, stove) })
	if !Finds(t, s, search.Query{Text: "Emberlite"}, stove) {
		t.Error("out of stock, Emberlite is still listed without the stock filter")
	}

	if err := catalog.SetProductActive(ctx, db, stove, false); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "the archived product gone", func() bool { return !Finds(t, s, search.Query{Text: "Emberlite"}, stove) })
	Eventually(t, "the archived product gone from listings", func() bool {
		return !Finds(t, s, search.Query{Category: "Sports & Outdoors > Camping"}, stove)
	})
	if err := catalog.SetProductActive(ctx, db, stove, true); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "the restored product back", func() bool { return Finds(t, s, search.Query{Text: "Emberlite"}, stove) })

	lantern := catalog.ProductInput{SKU: "ZZ-NEW-001", Title: "Glimmerstone Camping Lantern", Brand: "Quokka",
		Description: "A rechargeable lantern for tents.", CategoryPath: []string{"Sports & Outdoors", "Camping"},
		Price: 2999, Currency: "USD", Stock: 5, Attributes: map[string]string{"color": "green"}}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{lantern}); err != nil {
		t.Fatal(err)
	}
	Eventually(t, "the new product", func() bool {
		return Finds(t, s, search.Query{Text: "glimmerstone", Attributes: map[string]string{"color": "green"}}, "ZZ-NEW-001")
	})
	Eventually(t, "the new product under a misspelling", func() bool {
		return Finds(t, s, search.Query{Text: "glimerstone lantern"}, "ZZ-NEW-001")
	})
}
