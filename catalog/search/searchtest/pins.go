package searchtest

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// dbPins reads pins from the database, as bot wires search.Pinned.
type dbPins struct{ db bun.IDB }

func (d dbPins) PinnedProducts(ctx context.Context, q string) ([]catalog.Product, error) {
	return catalog.PinnedProducts(ctx, d.db, q)
}

// Pins checks search.Pinned over the backend s, which searches db (the
// demo catalog): products pinned for a query come first in pin order for
// that query however it is cased or spaced, once each; a pin outside the
// search's category or price bounds is left out; later pages hold no pin;
// other queries are the backend's own.
func Pins(t *testing.T, db *bun.DB, s search.Searcher) {
	ctx := context.Background()
	var two []catalog.Product
	err := db.NewSelect().Model(&two).Relation("Category").Where("product.active").Where("product.parent_id IS NULL").
		Where("product.variant_count = 0").Where("product.stock > 0").Where("product.category_id IS NOT NULL").
		Order("product.price DESC").Limit(200).Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two products of different top categories.
	a := two[0]
	var b catalog.Product
	for _, p := range two[1:] {
		if top(p.Category.Path) != top(a.Category.Path) && p.Price < a.Price {
			b = p
			break
		}
	}
	if b.ID == 0 {
		t.Fatal("the demo catalog has no two products of different categories")
	}
	const query = "running shoes"
	for _, sku := range []string{b.SKU, a.SKU} {
		if _, err := catalog.AddSearchPin(ctx, db, query, sku); err != nil {
			t.Fatal(err)
		}
	}
	p := search.Pinned{Searcher: s, Pins: dbPins{db}}
	plain := mustSearch(t, s, search.Query{Text: query, Limit: 5})
	res := mustSearch(t, p, search.Query{Text: "  Running   SHOES ", Limit: 5})
	if len(res.Products) != 5 || res.Products[0].SKU != b.SKU || res.Products[1].SKU != a.SKU {
		t.Fatalf("pinned search = %v; want %s, %s first", skus(res.Products), b.SKU, a.SKU)
	}
	seen := map[string]bool{}
	for _, pr := range res.Products {
		if seen[pr.SKU] {
			t.Fatalf("pinned search lists %s twice: %v", pr.SKU, skus(res.Products))
		}
		seen[pr.SKU] = true
	}
	if res.Total < plain.Total {
		t.Errorf("pinned total %d < the backend's %d", res.Total, plain.Total)
	}
	// A category filter keeps only the pin inside it.
	res = mustSearch(t, p, search.Query{Text: query, Category: a.Category.Path, Limit: 5})
	if len(res.Products) == 0 || res.Products[0].SKU != a.SKU || seen2(res.Products, b.SKU) {
		t.Errorf("in %q = %v; want %s first and no %s", a.Category.Path, skus(res.Products), a.SKU, b.SKU)
	}
	// A price bound below a's price leaves a out.
	res = mustSearch(t, p, search.Query{Text: query, MaxPrice: a.Price - 1, Limit: 5})
	if seen2(res.Products, a.SKU) || len(res.Products) == 0 || res.Products[0].SKU != b.SKU {
		t.Errorf("under %d = %v; want %s first and no %s", a.Price, skus(res.Products), b.SKU, a.SKU)
	}
	// Later pages hold no pin.
	res = mustSearch(t, p, search.Query{Text: query, Limit: 5, Offset: 5})
	if seen2(res.Products, a.SKU) || seen2(res.Products, b.SKU) {
		t.Errorf("page 2 = %v; holds a pin", skus(res.Products))
	}
	// Another query is the backend's own.
	got, want := mustSearch(t, p, search.Query{Text: "running", Limit: 5}), mustSearch(t, s, search.Query{Text: "running", Limit: 5})
	if g, w := skus(got.Products), skus(want.Products); len(g) != len(w) || (len(g) > 0 && g[0] != w[0]) {
		t.Errorf("unpinned query = %v, backend = %v", g, w)
	}
}

func top(path string) string { first, _, _ := strings.Cut(path, " > "); return first }

func skus(ps []catalog.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.SKU
	}
	return out
}

func seen2(ps []catalog.Product, sku string) bool {
	for _, p := range ps {
		if p.SKU == sku {
			return true
		}
	}
	return false
}
