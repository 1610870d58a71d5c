package searchtest

import (
	"context"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// Products with variants that Variants adds to the catalog.
const (
	variantTee    = "ZZ-VAR-TEE"  // Harbourline Organic Cotton Tee: Navy/M, Navy/L (none left), Red/L
	variantShoe   = "ZZ-VAR-SHOE" // Ridgeway Trail Runner: sizes 41, 42 (none left), 43
	variantShoe42 = "ZZ-VAR-SHOE-42"
)

// VariantInputs is the catalog Variants adds: two parents and their
// variants, some out of stock.
func VariantInputs() []catalog.ProductInput {
	tee := catalog.ProductInput{SKU: variantTee, Title: "Harbourline Organic Cotton Tee", Brand: "Harbourline",
		Description: "A soft everyday tee.", CategoryPath: []string{"Apparel", "T-Shirts"}, Price: 2400, Currency: "USD",
		OptionNames: []string{"Colour", "Size"}}
	shoe := catalog.ProductInput{SKU: variantShoe, Title: "Ridgeway Trail Runner", Brand: "Ridgeway",
		Description: "A grippy shoe for muddy trails.", CategoryPath: []string{"Shoes", "Running"}, Price: 9000, Currency: "USD",
		OptionNames: []string{"Size"}}
	v := func(parent catalog.ProductInput, sku string, price int64, stock int, opts map[string]string) catalog.ProductInput {
		return catalog.ProductInput{SKU: sku, VariantOf: parent.SKU, Price: price, Currency: "USD", Stock: stock, Options: opts}
	}
	return []catalog.ProductInput{tee, shoe,
		v(tee, variantTee+"-NM", 2400, 3, map[string]string{"Colour": "Navy", "Size": "M"}),
		v(tee, variantTee+"-NL", 2500, 0, map[string]string{"Colour": "Navy", "Size": "L"}),
		v(tee, variantTee+"-RL", 2700, 2, map[string]string{"Colour": "Red", "Size": "L"}),
		v(shoe, variantShoe+"-41", 9000, 2, map[string]string{"Size": "41"}),
		v(shoe, variantShoe42, 9000, 0, map[string]string{"Size": "42"}),
		v(shoe, variantShoe+"-43", 9500, 1, map[string]string{"Size": "43"}),
	}
}

// Variants checks products with variants on s, a backend kept current
// with db: it adds VariantInputs to db's catalog. A product is listed
// once, as its parent; option values are found by text; option filters
// need one active variant in stock with all the values asked for; a
// parent's price is its range; Similar lists no variants. Run runs it;
// backends outside Run (Database) call it directly.
func Variants(t *testing.T, db *bun.DB, s search.Searcher) {
	ctx := context.Background()
	ins := VariantInputs()
	if _, err := catalog.UpsertProducts(ctx, db, ins); err != nil {
		t.Fatal(err)
	}
	isVariant := map[string]bool{}
	for _, in := range ins {
		if in.VariantOf != "" {
			isVariant[in.SKU] = true
		}
	}
	noVariants := func(what string, ps []catalog.Product) {
		t.Helper()
		for _, p := range ps {
			if isVariant[p.SKU] || p.IsVariant() {
				t.Errorf("%s: variant %s listed", what, p.SKU)
			}
		}
	}
	// Rolled up: a backend may see a parent before its variants'
	// transaction (or the rollup) and catch up on a later poll.
	rolledUp := func(text, sku string) bool {
		res := mustSearch(t, s, search.Query{Text: text, Limit: 100})
		i := position(res.Products, sku)
		return i >= 0 && res.Products[i].VariantCount == 3
	}
	Eventually(t, "the new products with variants", func() bool {
		return rolledUp("harbourline tee", variantTee) && rolledUp("ridgeway", variantShoe) &&
			Finds(t, s, search.Query{Text: "ridgeway", Options: map[string]string{"size": "43"}}, variantShoe)
	})

	t.Run("ListedOnce", func(t *testing.T) {
		res := Check(t, s, search.Query{Text: "harbourline", Limit: 100})
		if got := SKUs(res.Products); !slices.Equal(got, []string{variantTee}) {
			t.Errorf("harbourline: %v, want the parent only", got)
		}
		for _, q := range []search.Query{{Category: "Apparel", Limit: 100}, {Category: "Shoes", Limit: 100}, {Text: "tee", Limit: 100}, {Text: "navy", Limit: 100}} {
			noVariants(q.Text+q.Category, Check(t, s, q).Products)
		}
		res = Check(t, s, search.Query{Text: "ridgeway trail runner"})
		if len(res.Products) == 0 || res.Products[0].SKU != variantShoe {
			t.Fatalf("ridgeway trail runner: %v", SKUs(res.Products))
		}
		if p := res.Products[0]; p.VariantCount != 3 || p.Price != 9000 || p.PriceMax != 9500 || p.Stock != 3 {
			t.Errorf("parent as listed: %d variants, %d–%d, stock %d; want 3, 9000–9500, 3", p.VariantCount, p.Price, p.PriceMax, p.Stock)
		}
	})

	t.Run("OptionText", func(t *testing.T) {
		for _, tc := range []struct{ text, want string }{
			{"navy tee", variantTee}, {"harbourline red", variantTee}, {"ridgeway 43", variantShoe}, {"trail runner 42", variantShoe},
		} {
			if !Finds(t, s, search.Query{Text: tc.text}, tc.want) {
				t.Errorf("%q does not find %s", tc.text, tc.want)
			}
		}
		res := Check(t, s, search.Query{Text: "harbourline navy"})
		if len(res.Products) == 0 || res.Products[0].SKU != variantTee {
			t.Errorf("harbourline navy: %v, want the tee first", SKUs(res.Products))
		}
		if Finds(t, s, search.Query{Text: "harbourline", Options: map[string]string{"colour": "green"}}, variantTee) {
			t.Error("a colour no variant has matches")
		}
	})

	t.Run("OptionFilters", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			q    search.Query
			sku  string
			want bool
		}{
			{"size 43 in stock", search.Query{Options: map[string]string{"size": "43"}}, variantShoe, true},
			{"size 42 out of stock", search.Query{Options: map[string]string{"size": "42"}}, variantShoe, false},
			{"size 42 with text", search.Query{Text: "trail runner", Options: map[string]string{"Size": "42"}}, variantShoe, false},
			{"name and value case", search.Query{Text: "tee", Options: map[string]string{"COLOUR": "nAvY", "size": "m"}}, variantTee, true},
			{"navy and L are two variants", search.Query{Options: map[string]string{"colour": "navy", "size": "L"}}, variantTee, false},
			{"red L", search.Query{Options: map[string]string{"colour": "red", "size": "l"}}, variantTee, true},
			{"another spelling of the name", search.Query{Options: map[string]string{"Color": "red", "Размер": "L"}}, variantTee, true},
			{"unknown option name", search.Query{Options: map[string]string{"material": "cotton"}}, variantTee, false},
			{"empty value", search.Query{Options: map[string]string{"size": ""}}, variantTee, false},
			{"option and category", search.Query{Category: "T-Shirts", Options: map[string]string{"size": "M"}}, variantTee, true},
			{"option and other category", search.Query{Category: "Shoes", Options: map[string]string{"size": "M"}}, variantTee, false},
			{"matching variant's price", search.Query{Options: map[string]string{"colour": "red"}, MaxPrice: 2700}, variantTee, true},
			{"only a cheaper variant under the price", search.Query{Options: map[string]string{"colour": "red"}, MaxPrice: 2500}, variantTee, false},
			{"price range: from 24 is under 25", search.Query{Text: "harbourline", MaxPrice: 2500}, variantTee, true},
			{"price range: up to 27 is over 26", search.Query{Text: "harbourline", MinPrice: 2600}, variantTee, true},
			{"price range: not over 28", search.Query{Text: "harbourline", MinPrice: 2800}, variantTee, false},
		} {
			tc.q.Limit = 100
			res := Check(t, s, tc.q)
			noVariants(tc.name, res.Products)
			if got := contains(res.Products, tc.sku); got != tc.want {
				t.Errorf("%s: %s listed %v, want %v (%v)", tc.name, tc.sku, got, tc.want, SKUs(res.Products))
			}
			for _, p := range res.Products {
				if len(tc.q.Options) > 0 && !p.HasVariants() {
					t.Errorf("%s: %s has no variants", tc.name, p.SKU)
				}
			}
		}
	})

	t.Run("Similar", func(t *testing.T) {
		ps, err := s.Similar(ctx, variantTee, 20)
		if err != nil {
			t.Fatal(err)
		}
		noVariants("similar", ps)
		if contains(ps, variantTee) || len(ps) == 0 {
			t.Errorf("similar to the tee: %v", SKUs(ps))
		}
		viaVariant, err := s.Similar(ctx, variantTee+"-RL", 20)
		if err != nil {
			t.Fatalf("similar to a variant: %v", err)
		}
		noVariants("similar to a variant", viaVariant)
		if contains(viaVariant, variantTee) {
			t.Error("similar to a variant lists its parent")
		}
		if len(viaVariant) != len(ps) {
			t.Errorf("similar to a variant: %d products, to its parent %d", len(viaVariant), len(ps))
		}
		for _, other := range []string{"SHO-RUN-001", variantShoe} {
			got, err := s.Similar(ctx, other, 100)
			if err != nil {
				t.Fatal(err)
			}
			noVariants("similar to "+other, got)
		}
	})

	// Last: stock arriving for size 42 makes the shoe match it.
	t.Run("StockArrives", func(t *testing.T) {
		size42 := search.Query{Text: "trail runner", Options: map[string]string{"size": "42"}}
		if Finds(t, s, size42, variantShoe) {
			t.Fatal("size 42 found before it is in stock")
		}
		if err := catalog.SetStock(ctx, db, variantShoe42, 4); err != nil {
			t.Fatal(err)
		}
		Eventually(t, "size 42 in stock", func() bool { return Finds(t, s, size42, variantShoe) })
		if err := catalog.SetStock(ctx, db, variantShoe42, 0); err != nil {
			t.Fatal(err)
		}
		Eventually(t, "size 42 sold out again", func() bool { return !Finds(t, s, size42, variantShoe) })
		if !Finds(t, s, search.Query{Options: map[string]string{"size": "41"}}, variantShoe) {
			t.Error("size 41 no longer found")
		}
	})
}
