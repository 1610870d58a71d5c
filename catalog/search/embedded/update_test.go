package embedded_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// demoInput returns the demo catalog's input for sku.
func demoInput(t testing.TB, sku string) catalog.ProductInput {
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

func findSKU(t testing.TB, x *embedded.Index, q search.Query, sku string) (catalog.Product, bool) {
	t.Helper()
	q.Limit = 100
	for _, p := range mustSearch(t, x, q).Products {
		if p.SKU == sku {
			return p, true
		}
	}
	return catalog.Product{}, false
}

func TestUpsert(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		x := demoIndex(t, db, embedded.Options{})
		// A product without variants: a parent's price and stock are
		// rolled up from its variants.
		const sku = "HOM-FUR-003" // Monroe Top-Grain Leather Sectional Couch with Chaise, 1899.00
		cheap := search.Query{Text: "leather sectional", MaxPrice: 50000}

		in := demoInput(t, sku)
		in.Price, in.Title = 45000, in.Title+" Outlet"
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
			t.Fatal(err)
		}
		if _, ok := findSKU(t, x, cheap, sku); ok {
			t.Fatal("the index changed before Upsert")
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), sku); err != nil {
			t.Fatal(err)
		}
		if p, ok := findSKU(t, x, cheap, sku); !ok || p.Price != 45000 {
			t.Fatalf("after a price change: %v %+v", ok, p)
		}
		if _, ok := findSKU(t, x, search.Query{Text: "outlet"}, sku); !ok {
			t.Error("new title word not found")
		}

		if err := catalog.SetStock(ctx, db, sku, 0); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), sku); err != nil {
			t.Fatal(err)
		}
		if _, ok := findSKU(t, x, search.Query{Text: "leather sectional", InStockOnly: true}, sku); ok {
			t.Error("out of stock, yet found by an in-stock search")
		}
		if _, ok := findSKU(t, x, search.Query{Text: "leather sectional"}, sku); !ok {
			t.Error("out of stock products are still listed without the filter")
		}

		if err := catalog.SetProductActive(ctx, db, sku, false); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), sku); err != nil {
			t.Fatal(err)
		}
		if _, ok := findSKU(t, x, search.Query{Text: "monroe leather sectional"}, sku); ok {
			t.Error("inactive product found")
		}
		if _, ok := findSKU(t, x, search.Query{Category: "Furniture"}, sku); ok {
			t.Error("inactive product listed")
		}
		if sim, _ := x.Similar(ctx, "HOM-FUR-002", 100); contains(sim, sku) {
			t.Error("inactive product among similar ones")
		}
		if x.Len() != 324 {
			t.Errorf("Len %d: inactive products stay indexed", x.Len())
		}

		if err := catalog.SetProductActive(ctx, db, sku, true); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), sku, "NO-SUCH-SKU"); err != nil {
			t.Fatal(err)
		}
		if _, ok := findSKU(t, x, search.Query{Text: "monroe"}, sku); !ok {
			t.Error("reactivated product not found")
		}
	})
}

func TestUpsertDeleted(t *testing.T) {
	db, x := demoSQLite(t)
	ctx := context.Background()
	const sku = "TOY-BLD-001"
	p, err := catalog.GetProduct(ctx, db, sku)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewDelete().Model((*catalog.Review)(nil)).Where("product_id = ?", p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewDelete().Model((*catalog.Product)(nil)).Where("id = ?", p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := x.Upsert(ctx, catalog.NewSearchSource(db), sku); err != nil {
		t.Fatal(err)
	}
	if _, ok := findSKU(t, x, search.Query{Text: "fire station"}, sku); ok || x.Len() != 323 {
		t.Errorf("deleted product still indexed (Len %d)", x.Len())
	}
	if _, err := x.Similar(ctx, sku, 3); err == nil {
		t.Error("similar to a deleted product")
	}
}

// eventually polls cond until it holds or a deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

func TestFollow(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if _, err := demo.Load(ctx, db); err != nil {
			t.Fatal(err)
		}
		x := embedded.New(embedded.Options{Poll: 20 * time.Millisecond, Logger: testLogger(t)})
		done := make(chan struct{})
		go func() { x.Follow(ctx, catalog.NewSearchSource(db)); close(done) }()
		eventually(t, "the first build", func() bool { return x.Len() == 324 })

		p, err := catalog.GetProduct(ctx, db, "SHO-RUN-003")
		if err != nil {
			t.Fatal(err)
		}
		if err := catalog.ReserveStock(ctx, db, p.ID, p.Stock); err != nil {
			t.Fatal(err)
		}
		q := search.Query{Category: "Running", InStockOnly: true}
		eventually(t, "the sold-out product to leave in-stock searches", func() bool {
			_, ok := findSKU(t, x, q, "SHO-RUN-003")
			return !ok
		})
		got, _ := findSKU(t, x, search.Query{Category: "Running", Sort: search.SortPopular}, "SHO-RUN-003")
		if got.Stock != 0 || got.SoldCount != p.SoldCount+p.Stock {
			t.Errorf("followed product: stock %d, sold %d", got.Stock, got.SoldCount)
		}

		in := demoInput(t, "BOO-FIC-002")
		in.Title = "Salt Roads: Anniversary Edition"
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the new title", func() bool {
			_, ok := findSKU(t, x, search.Query{Text: "anniversary"}, "BOO-FIC-002")
			return ok
		})
		cancel()
		<-done // Follow returns once ctx ends
	})
}

// TestConcurrentSearches runs searches while products change; run with -race.
func TestConcurrentSearches(t *testing.T) {
	for name, opts := range map[string]embedded.Options{
		"keywords": {},
		"hybrid":   {Embedder: vectorizer.NewLocal(0)}, // Rebuild refits it while queries embed
	} {
		t.Run(name, func(t *testing.T) {
			db := catalogtest.SQLiteDemo(t)
			concurrentSearches(t, db, demoIndex(t, db, opts))
		})
	}
}

func concurrentSearches(t *testing.T, db *bun.DB, x *embedded.Index) {
	ctx := context.Background()
	queries := []search.Query{
		{Text: "waterproof jacket", MaxPrice: 15000}, {Text: "runing shoes", InStockOnly: true},
		{Category: "Home", Sort: search.SortPriceAsc}, {Text: "couch"}, {Text: "кроссовок"},
		{Text: "size 42", Attributes: map[string]string{"size": "42"}}, {Text: "black leather", Sort: search.SortRating},
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				q := queries[(g+i)%len(queries)]
				res, err := x.Search(ctx, q)
				if err != nil {
					t.Error(err)
					return
				}
				for _, p := range res.Products {
					if v := q.Violation(p); v != "" {
						t.Errorf("%+v: %s: %s", q, p.SKU, v)
					}
				}
				if _, err := x.Similar(ctx, "HOM-FUR-001", 5); err != nil {
					t.Error(err)
				}
			}
		})
	}
	in := demoInput(t, "HOM-FUR-003")
	for i := range 40 {
		in.Price, in.Title = int64(100000+i), fmt.Sprintf("Monroe Sectional Couch v%d", i)
		in.Inactive = i%5 == 4
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
			t.Fatal(err)
		}
		// A variant's stock: its parent SHO-RUN-001 takes the new sum.
		if err := catalog.SetStock(ctx, db, "SHO-RUN-001-42", i%3); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "HOM-FUR-003", "SHO-RUN-001"); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
}

// TestUpsertMatchesRebuild edits products in place (titles, attributes,
// activity) and checks the patched index finds what a rebuilt one finds.
func TestUpsertMatchesRebuild(t *testing.T) {
	db, x := demoSQLite(t)
	ctx := context.Background()
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	var ins []catalog.ProductInput
	for i := 0; i+1 < len(ps); i += 13 {
		in := ps[i].Input
		in.Title, in.Description = ps[i+1].Input.Title, "Refreshed: "+in.Description
		in.Attributes = map[string]string{"color": []string{"teal", "red", "black"}[i%3], "size": "41, 42"}
		in.Inactive = i%4 == 0
		ins, changed = append(ins, in), append(changed, in.SKU)
	}
	if _, err := catalog.UpsertProducts(ctx, db, ins); err != nil {
		t.Fatal(err)
	}
	if err := x.Upsert(ctx, catalog.NewSearchSource(db), changed...); err != nil {
		t.Fatal(err)
	}
	fresh := embedded.New(embedded.Options{})
	if err := fresh.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	for _, q := range []search.Query{
		{Text: "refreshed"}, {Text: "teal"}, {Attributes: map[string]string{"color": "teal"}},
		{Attributes: map[string]string{"size": "42"}}, {Text: "running shoes"}, {Text: "sofa"},
		{Text: "jacket", InStockOnly: true}, {Category: "Kitchen"}, {Text: "wireless headphones"},
	} {
		q.Limit = 100
		got, want := mustSearch(t, x, q), mustSearch(t, fresh, q)
		g, w := skus(got.Products), skus(want.Products)
		slices.Sort(g)
		slices.Sort(w)
		if got.Total != want.Total || !slices.Equal(g, w) {
			t.Errorf("%+v: patched index %d %v\nrebuilt %d %v", q, got.Total, g, want.Total, w)
		}
	}
}
