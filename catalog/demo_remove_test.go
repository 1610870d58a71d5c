package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

// TestRemoveDemo: removal deletes what the demo created, archives the demo
// listings orders refer to (the order still reads whole), leaves the
// merchant's own products, page and delivery method alone, records the
// removal so a seed does not load the demo again, and changes nothing the
// second time.
func TestRemoveDemo(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		loaded, err := demo.Seed(ctx, db)
		if err != nil || loaded < 300 {
			t.Fatalf("seed: %d, %v", loaded, err)
		}
		if st, _ := catalog.GetDemoState(ctx, db); st != catalog.DemoLoaded {
			t.Fatalf("state after seed = %q", st)
		}
		plain, variant, parent, other := demoSKUs(t)

		// The merchant's own rows beside the demo, and an edit of a demo
		// listing (it stays the demo's).
		seed(t, db, product("OWN-1", 500, 3))
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "own", Title: "Our story", Body: "We sell things."}); err != nil {
			t.Fatal(err)
		}
		own := catalog.DeliveryMethod{Name: "Own courier", Price: 300, Countries: catalog.AnyCountry, Active: true}
		if err := catalog.SaveDeliveryMethod(ctx, db, &own, time.Now()); err != nil {
			t.Fatal(err)
		}
		promo := catalog.PromoCode{Code: "OWN10", Kind: catalog.PromoPercent, Value: 10, Currency: "USD", Active: true}
		if err := catalog.CreatePromo(ctx, db, &promo, time.Now()); err != nil {
			t.Fatal(err)
		}
		in := product(other, 9900, 4)
		in.Title = "Our own rain jacket now"
		seed(t, db, in)

		// An order refers to a plain demo listing, a demo variant and the
		// merchant's product.
		ann := customer(t, db, "telegram", "1")
		for _, sku := range []string{plain, variant, "OWN-1"} {
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(ann.ID), sku, 1, ann.ID))
		}
		o, err := order(t, db, ann, "telegram:update:1")
		if err != nil {
			t.Fatal(err)
		}
		ownBefore, _ := catalog.GetProduct(ctx, db, "OWN-1")

		preview, err := catalog.PreviewDemoRemoval(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		r, err := catalog.RemoveDemo(ctx, db, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if r.Listings != loaded-2 || r.Archived != 2 || r.Pages != 6 || r.Deliveries != 5 || r.Reviews < 300 || r != preview {
			t.Errorf("removal = %+v, preview %+v; want %d listings deleted, 2 archived, 6 pages, 5 delivery methods", r, preview, loaded-2)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 3 {
			t.Errorf("%d listings left, want the merchant's and the 2 on the order", n)
		}
		for _, sku := range []string{plain, variant, parent} {
			p, err := catalog.GetProduct(ctx, db, sku)
			if err != nil || p.Active {
				t.Errorf("%s on an order: %+v, %v; want it kept, archived", sku, p, err)
			}
		}
		if _, err := catalog.GetProduct(ctx, db, other); err == nil {
			t.Error("the edited demo listing is still there")
		}
		ownAfter, err := catalog.GetProduct(ctx, db, "OWN-1")
		if err != nil || !ownAfter.Active || !ownAfter.UpdatedAt.Equal(ownBefore.UpdatedAt) || ownAfter.Title != ownBefore.Title {
			t.Errorf("the merchant's product changed: %+v, %v", ownAfter, err)
		}
		got, err := catalog.GetOrder(ctx, db, o.Number)
		if err != nil || len(got.Items) != 3 || got.Total != o.Total {
			t.Fatalf("order after removal: %+v, %v", got, err)
		}
		for _, it := range got.Items {
			if it.ProductID == nil {
				t.Errorf("order line %s lost its product", it.SKU)
			}
		}
		pages, _ := catalog.ListPages(ctx, db)
		if len(pages) != 1 || pages[0].Slug != "own" {
			t.Errorf("pages after removal: %+v", pages)
		}
		methods, _ := catalog.ListDeliveryMethods(ctx, db)
		if len(methods) != 1 || methods[0].Name != "Own courier" {
			t.Errorf("delivery methods after removal: %+v", methods)
		}
		if p, err := catalog.GetPromo(ctx, db, "OWN10"); err != nil || !p.Active {
			t.Errorf("the merchant's promo code: %+v, %v", p, err)
		}
		if st, _ := catalog.GetDemoState(ctx, db); st != catalog.DemoRemoved {
			t.Errorf("state after removal = %q", st)
		}

		before := snapshot(t, db)
		again, err := catalog.RemoveDemo(ctx, db, time.Now().Add(time.Hour))
		if err != nil || again.Changed() {
			t.Errorf("second removal = %+v, %v; want nothing", again, err)
		}
		if after := snapshot(t, db); after != before {
			t.Errorf("second removal changed the shop:\n%+v\n%+v", before, after)
		}
		if n, err := demo.Seed(ctx, db); err != nil || n != 0 {
			t.Errorf("seed after removal loaded %d (%v)", n, err)
		}
	})
}

// TestSeedAfterRemovalIntoEmptyShop: a shop emptied by the removal stays
// empty at the next start.
func TestSeedAfterRemovalIntoEmptyShop(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := demo.Seed(ctx, db); err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.RemoveDemo(ctx, db, time.Now()); err != nil {
			t.Fatal(err)
		}
		if n, err := demo.Seed(ctx, db); err != nil || n != 0 {
			t.Errorf("seed after removal loaded %d (%v)", n, err)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 0 {
			t.Errorf("%d products after removal and a restart", n)
		}
		if pages, _ := catalog.ListPages(ctx, db); len(pages) != 0 {
			t.Errorf("%d pages after removal and a restart", len(pages))
		}
	})
}

// TestAdoptDemo: a demo loaded before provenance was recorded (Load does
// not mark) is recognised by its SKUs, so it can be removed.
func TestAdoptDemo(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := demo.Load(ctx, db); err != nil {
			t.Fatal(err)
		}
		if err := demo.Adopt(ctx, db); err != nil {
			t.Fatal(err)
		}
		if st, _ := catalog.GetDemoState(ctx, db); st != catalog.DemoLoaded {
			t.Fatalf("state = %q, want loaded", st)
		}
		if _, err := catalog.RemoveDemo(ctx, db, time.Now()); err != nil {
			t.Fatal(err)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 0 {
			t.Errorf("%d products left", n)
		}
	})
}

// TestAdoptOwnShop: a shop of the merchant's own is marked absent and
// keeps everything. (A test of its own: catalogtest's SQLite path cannot
// hold the '#' of a second subtest of the same name.)
func TestAdoptOwnShop(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seed(t, db, product("OWN-1", 500, 3))
		if err := demo.Adopt(ctx, db); err != nil {
			t.Fatal(err)
		}
		if st, _ := catalog.GetDemoState(ctx, db); st != catalog.DemoAbsent {
			t.Fatalf("state = %q, want absent", st)
		}
		if r, err := catalog.RemoveDemo(ctx, db, time.Now()); err != nil || r.Changed() {
			t.Errorf("removal in a shop without the demo = %+v, %v", r, err)
		}
		if n, _ := catalog.CountProducts(ctx, db); n != 1 {
			t.Errorf("%d products, want the merchant's 1", n)
		}
	})
}

// demoSKUs picks a demo listing without variants, a variant and its
// listing, and another listing without variants.
func demoSKUs(t *testing.T) (plain, variant, parent, other string) {
	t.Helper()
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		switch {
		case len(p.Variants) == 0 && plain == "" && p.Input.Stock > 0:
			plain = p.Input.SKU
		case len(p.Variants) == 0 && other == "":
			other = p.Input.SKU
		case len(p.Variants) > 0 && variant == "":
			for _, v := range p.Variants {
				if v.Stock > 0 {
					variant, parent = v.SKU, p.Input.SKU
					break
				}
			}
		}
	}
	if plain == "" || variant == "" || other == "" {
		t.Fatal("no plain listings or variant in stock in the demo")
	}
	return plain, variant, parent, other
}

// shopSnapshot is what a removal could change.
type shopSnapshot struct {
	products, active, reviews, pages, methods, promos, tombstones int
	newest                                                        time.Time
}

func snapshot(t *testing.T, db bun.IDB) shopSnapshot {
	t.Helper()
	ctx := context.Background()
	count := func(model any, where string) int {
		q := db.NewSelect().Model(model)
		if where != "" {
			q = q.Where(where)
		}
		n, err := q.Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	s := shopSnapshot{
		products: count((*catalog.Product)(nil), ""), active: count((*catalog.Product)(nil), "active"),
		reviews: count((*catalog.Review)(nil), ""), pages: count((*catalog.Page)(nil), ""),
		methods: count((*catalog.DeliveryMethod)(nil), ""), promos: count((*catalog.PromoCode)(nil), ""),
		tombstones: count((*catalog.Tombstone)(nil), ""),
	}
	if err := db.NewSelect().Model((*catalog.Product)(nil)).ColumnExpr("MAX(updated_at)").Scan(ctx, &s.newest); err != nil {
		t.Fatal(err)
	}
	return s
}
