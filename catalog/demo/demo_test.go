package demo_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
)

func TestDemoCatalogContent(t *testing.T) {
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 300 {
		t.Errorf("demo has %d products, want at least 300", len(ps))
	}
	tops, outOfStock, russian, reviewed := map[string]int{}, 0, 0, 0
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Input.SKU] {
			t.Errorf("duplicate sku %s", p.Input.SKU)
		}
		seen[p.Input.SKU] = true
		if len(p.Input.CategoryPath) < 2 {
			t.Errorf("%s: category %v has no subcategory", p.Input.SKU, p.Input.CategoryPath)
		}
		tops[p.Input.CategoryPath[0]]++
		if p.Input.Stock == 0 {
			outOfStock++
		}
		if strings.IndexFunc(p.Input.Title, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0 {
			russian++
		}
		if len(p.Reviews) > 0 {
			reviewed++
		}
		if p.RatingCount > 0 && (p.Rating < 1 || p.Rating > 5) || p.RatingCount == 0 && len(p.Reviews) > 0 {
			t.Errorf("%s: rating %.1f from %d with %d reviews", p.Input.SKU, p.Rating, p.RatingCount, len(p.Reviews))
		}
		if len(p.Input.Attributes) == 0 || p.Input.Description == "" || p.Input.Brand == "" {
			t.Errorf("%s: missing attributes, description or brand", p.Input.SKU)
		}
	}
	if len(tops) < 12 {
		t.Errorf("demo has %d top-level categories, want at least 12: %v", len(tops), tops)
	}
	if outOfStock == 0 || russian < 12 || reviewed < len(ps)*3/4 {
		t.Errorf("out of stock %d, russian %d, reviewed %d of %d", outOfStock, russian, reviewed, len(ps))
	}
}

func TestLoad(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		n, err := demo.Load(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if count, _ := catalog.CountProducts(ctx, db); count != n {
			t.Errorf("count = %d, loaded %d", count, n)
		}
		p, err := catalog.GetProduct(ctx, db, "SHO-RUN-001")
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := catalog.ListReviews(ctx, db, p.ID, 5)
		if p.RatingCount == 0 || len(rs) == 0 || p.Category == nil {
			t.Errorf("SHO-RUN-001 = %+v with %d reviews", p, len(rs))
		}
	})
}

// cancelAfter cancels a context after n queries, to interrupt a load midway.
type cancelAfter struct {
	n      atomic.Int32
	after  int32
	cancel context.CancelFunc
}

func (h *cancelAfter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (h *cancelAfter) AfterQuery(_ context.Context, _ *bun.QueryEvent) {
	if h.n.Add(1) == h.after {
		h.cancel()
	}
}

// TestInterruptedLoadLeavesNothing: a shutdown during the first-start load
// rolls it back whole, so the next start loads it again from scratch.
func TestInterruptedLoadLeavesNothing(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		hooked := db.WithQueryHook(&cancelAfter{after: 20, cancel: cancel})
		if _, err := demo.Load(ctx, hooked); err == nil {
			t.Fatal("load succeeded despite cancellation")
		}
		bg := context.Background()
		if n, _ := catalog.CountProducts(bg, db); n != 0 {
			t.Errorf("%d products left by an interrupted load", n)
		}
		if cs, _ := catalog.ListCategories(bg, db); len(cs) != 0 {
			t.Errorf("%d categories left by an interrupted load", len(cs))
		}
		if n, _ := demo.Load(bg, db); n < 300 {
			t.Errorf("reload loaded %d", n)
		}
	})
}

// TestSeed: the demo catalog goes into a shop without products once; a
// second start, or a shop with products of its own, gets nothing.
func TestSeed(t *testing.T) {
	t.Run("empty shop", func(t *testing.T) { catalogtest.Each(t, seedTwice) })
	t.Run("own products", func(t *testing.T) { catalogtest.Each(t, seedOwnProducts) })
}

func seedTwice(t *testing.T, db *bun.DB) {
	ctx := context.Background()
	reviews := func() int64 {
		n, err := db.NewSelect().Table("reviews").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	n, err := demo.Seed(ctx, db)
	if err != nil || n < 300 {
		t.Fatalf("first seed: %d, %v", n, err)
	}
	before := reviews()
	if again, err := demo.Seed(ctx, db); err != nil || again != 0 {
		t.Errorf("second seed loaded %d (%v), want 0", again, err)
	}
	if count, _ := catalog.CountProducts(ctx, db); count != n || reviews() != before || before == 0 {
		t.Errorf("after a second seed: %d products, %d reviews; want %d, %d", count, reviews(), n, before)
	}
}

func seedOwnProducts(t *testing.T, db *bun.DB) {
	ctx := context.Background()
	own := catalog.ProductInput{SKU: "OWN-1", Title: "The merchant's own", Price: 500, Currency: "USD", Stock: 3}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{own}); err != nil {
		t.Fatal(err)
	}
	if n, err := demo.Seed(ctx, db); err != nil || n != 0 {
		t.Errorf("seed into a shop with products loaded %d (%v)", n, err)
	}
	if count, _ := catalog.CountProducts(ctx, db); count != 1 {
		t.Errorf("%d products, want the merchant's 1", count)
	}
}

// TestDemoVariants: shoes come in sizes, apparel in sizes (some in
// colours too), some furniture and bedding in colours, materials or bed
// sizes; variants are consistent with their listing.
func TestDemoVariants(t *testing.T) {
	ps, err := demo.Products()
	if err != nil {
		t.Fatal(err)
	}
	skus := map[string]bool{}
	for _, p := range ps {
		skus[p.Input.SKU] = true
	}
	parents, variants, soldOut, priced := map[string]int{}, 0, 0, 0
	for _, p := range ps {
		if len(p.Variants) == 0 {
			if len(p.Input.OptionNames) > 0 {
				t.Errorf("%s: option names %v without variants", p.Input.SKU, p.Input.OptionNames)
			}
			continue
		}
		parents[p.Input.CategoryPath[0]]++
		names := p.Input.OptionNames
		if len(names) == 0 || len(names) > catalog.MaxOptions {
			t.Errorf("%s: option names %v", p.Input.SKU, names)
		}
		seen, stock, low := map[string]bool{}, 0, int64(-1)
		for _, v := range p.Variants {
			variants++
			if v.VariantOf != p.Input.SKU || skus[v.SKU] || !strings.HasPrefix(v.SKU, p.Input.SKU+"-") {
				t.Errorf("%s: variant of %q, sku reused or not under its listing's", v.SKU, v.VariantOf)
			}
			skus[v.SKU] = true
			if len(v.Options) != len(names) {
				t.Errorf("%s: options %v, listing names %v", v.SKU, v.Options, names)
			}
			for _, n := range names {
				if v.Options[n] == "" || v.Attributes[n] != strings.ToLower(v.Options[n]) {
					t.Errorf("%s: option %s = %q, attribute %q", v.SKU, n, v.Options[n], v.Attributes[n])
				}
			}
			if key := catalog.OptionKey(v.Options); seen[key] {
				t.Errorf("%s: options %v repeat a sibling's", v.SKU, v.Options)
			} else {
				seen[key] = true
			}
			if v.Stock == 0 {
				soldOut++
			}
			if v.Price != p.Input.Price {
				priced++
			}
			if err := v.Validate(); err != nil {
				t.Errorf("%s: %v", v.SKU, err)
			}
			stock += v.Stock
			if low < 0 || v.Price < low {
				low = v.Price
			}
		}
		if stock != p.Input.Stock || low != p.Input.Price {
			t.Errorf("%s: listing stock %d, price %d; variants sum to %d, lowest %d", p.Input.SKU, p.Input.Stock, p.Input.Price, stock, low)
		}
		if top := p.Input.CategoryPath[0]; top == "Shoes" && (len(names) != 1 || names[0] != "size") {
			t.Errorf("%s: shoes in %v, want sizes", p.Input.SKU, names)
		}
	}
	if parents["Shoes"] < 20 || parents["Apparel"] < 20 || parents["Home"] < 3 || variants < 300 {
		t.Errorf("listings with variants by category %v, %d variants", parents, variants)
	}
	if soldOut == 0 || soldOut > variants/3 || priced == 0 {
		t.Errorf("%d of %d variants sold out, %d priced apart from their listing", soldOut, variants, priced)
	}
}

// TestLoadVariants: the loaded demo's parents are rolled up from their
// variants, which the shop counts as part of their listing.
func TestLoadVariants(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := demo.Load(ctx, db); err != nil {
			t.Fatal(err)
		}
		ps, err := demo.Products()
		if err != nil {
			t.Fatal(err)
		}
		rows, err := db.NewSelect().Model((*catalog.Product)(nil)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var variants int
		for _, p := range ps {
			variants += len(p.Variants)
		}
		if int(rows) != len(ps)+variants {
			t.Errorf("%d product rows, want %d listings + %d variants", rows, len(ps), variants)
		}
		for _, sku := range []string{"SHO-RUN-001", "APP-JKT-001", "HOM-FUR-004", "SHO-SNK-006"} {
			p, err := catalog.GetProduct(ctx, db, sku)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := catalog.ListVariants(ctx, db, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			stock, low, high := 0, vs[0].Price, vs[0].Price
			for _, v := range vs {
				stock += v.Stock
				low, high = min(low, v.Price), max(high, v.Price)
				if v.Title != p.Title || v.CategoryID == nil || *v.CategoryID != *p.CategoryID || len(v.ImageURLs) != len(p.ImageURLs) {
					t.Errorf("%s: did not inherit title, category, images from %s", v.SKU, sku)
				}
			}
			if !p.HasVariants() || p.VariantCount != len(vs) || p.Stock != stock || p.Price != low || p.PriceMax != high {
				t.Errorf("%s: %d variants, stock %d, price %d–%d; variants: %d, %d, %d–%d",
					sku, p.VariantCount, p.Stock, p.Price, p.PriceMax, len(vs), stock, low, high)
			}
		}
	})
}
