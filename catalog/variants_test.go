package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// variant returns a variant input of parent with the given options; it
// leaves title, brand, category and images to inheritance.
func variant(sku, parent string, price int64, stock int, opts map[string]string) catalog.ProductInput {
	return catalog.ProductInput{SKU: sku, VariantOf: parent, Price: price, Currency: "USD", Stock: stock, Options: opts}
}

func seedTee(t *testing.T, db bun.IDB) {
	t.Helper()
	parent := product("TEE", 0, 0, "Apparel", "Tops")
	parent.Title = "Cotton Tee"
	parent.OptionNames = []string{"colour", "size"}
	seed(t, db, parent,
		variant("TEE-NAVY-M", "TEE", 2500, 3, map[string]string{"colour": "Navy", "size": "M"}),
		variant("TEE-NAVY-L", "TEE", 2700, 0, map[string]string{"colour": "Navy", "size": "L"}),
		variant("TEE-RED-M", "TEE", 2400, 5, map[string]string{"colour": "Red", "size": "M"}),
	)
}

func TestVariantsRollUpAndInherit(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db)
		p, err := catalog.GetProduct(ctx, db, "TEE")
		if err != nil {
			t.Fatal(err)
		}
		if !p.HasVariants() || p.VariantCount != 3 || p.Stock != 8 || p.Price != 2400 || p.PriceMax != 2700 {
			t.Fatalf("parent = variants %d stock %d price %d–%d; want 3, 8, 2400–2700", p.VariantCount, p.Stock, p.Price, p.PriceMax)
		}
		if strings.Join(p.OptionNames, ",") != "colour,size" {
			t.Errorf("option names = %v", p.OptionNames)
		}
		v, err := catalog.GetProduct(ctx, db, "TEE-NAVY-M")
		if err != nil {
			t.Fatal(err)
		}
		if !v.IsVariant() || *v.ParentID != p.ID || v.Title != "Cotton Tee" || v.Brand != "Acme" || v.Category == nil || v.Category.Path != p.Category.Path || len(v.ImageURLs) != 1 {
			t.Errorf("variant did not inherit: %+v", v)
		}
		if got := catalog.OptionLabel(v.Options, p.OptionNames); got != "Navy / M" {
			t.Errorf("label = %q", got)
		}
		vs, err := catalog.ListVariants(ctx, db, p.ID)
		if err != nil || len(vs) != 3 {
			t.Fatalf("variants = %d, %v", len(vs), err)
		}
		// A stock write on a variant rolls up; a re-import of the parent
		// without option names keeps them.
		if err := catalog.SetStock(ctx, db, "TEE-NAVY-L", 4); err != nil {
			t.Fatal(err)
		}
		again := product("TEE", 0, 0, "Apparel", "Tops")
		again.Title = "Cotton Tee"
		seed(t, db, again)
		if p, _ = catalog.GetProduct(ctx, db, "TEE"); p.Stock != 12 || strings.Join(p.OptionNames, ",") != "colour,size" {
			t.Errorf("after writes: stock %d names %v; want 12 and colour,size", p.Stock, p.OptionNames)
		}
		if err := catalog.SetStock(ctx, db, "TEE", 50); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("set stock of a parent: err = %v, want ErrInvalid", err)
		}
		if err := catalog.SetProductActive(ctx, db, "TEE-RED-M", false); err != nil {
			t.Fatal(err)
		}
		if p, _ = catalog.GetProduct(ctx, db, "TEE"); p.Stock != 7 || p.Price != 2500 {
			t.Errorf("after archiving red: stock %d price %d; want 7 and 2500", p.Stock, p.Price)
		}
	})
}

func TestParentCannotGoInACart(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db)
		c := customer(t, db, "web", "v1")
		_, err := catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "TEE", 1, c.ID)
		if !errors.Is(err, catalog.ErrNeedsVariant) {
			t.Fatalf("add parent: err = %v, want ErrNeedsVariant", err)
		}
		cart := mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "TEE-NAVY-M", 2, c.ID))
		if len(cart.Items) != 1 || cart.Items[0].Product.SKU != "TEE-NAVY-M" {
			t.Fatalf("cart = %+v", cart.Items)
		}
		o, err := order(t, db, c, "variant-order")
		if err != nil {
			t.Fatal(err)
		}
		// Archiving the product stops its variants' sales too, until it is
		// restored: in carts and at checkout.
		bob := customer(t, db, "web", "v2")
		mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(bob.ID), "TEE-RED-M", 1, bob.ID))
		if err := catalog.SetProductActive(ctx, db, "TEE", false); err != nil {
			t.Fatal(err)
		}
		if _, err := order(t, db, bob, "archived-parent"); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Errorf("order a variant of an archived product: err = %v, want ErrOutOfStock", err)
		}
		if _, err := catalog.AddToCart(ctx, db, catalog.PersonalCart(c.ID), "TEE-RED-M", 1, c.ID); !errors.Is(err, catalog.ErrOutOfStock) {
			t.Errorf("add a variant of an archived product: err = %v, want ErrOutOfStock", err)
		}
		if err := catalog.SetProductActive(ctx, db, "TEE", true); err != nil {
			t.Fatal(err)
		}
		if o.Items[0].Options["size"] != "M" || o.Items[0].Options["colour"] != "Navy" {
			t.Errorf("order line options = %v", o.Items[0].Options)
		}
		if got := stockOf(t, db, "TEE-NAVY-M"); got != 1 {
			t.Errorf("variant stock = %d, want 1", got)
		}
		if got := stockOf(t, db, "TEE"); got != 6 {
			t.Errorf("parent stock = %d, want 6", got)
		}
	})
}

func TestCheckVariantsPerRow(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db)
		ins := []catalog.ProductInput{
			variant("X-1", "NOPE", 100, 1, map[string]string{"size": "S"}),
			variant("TEE-DUP", "TEE", 100, 1, map[string]string{"colour": "navy", "size": "m"}),
			variant("TEE-ODD", "TEE", 100, 1, map[string]string{"material": "Wool"}),
			variant("TEE-NAVY-S", "TEE", 100, 1, map[string]string{"colour": "Navy", "size": "S"}),
			variant("TEE-NAVY-S2", "TEE", 100, 1, map[string]string{"colour": "Navy", "size": "S"}),
			variant("SUB", "TEE-RED-M", 100, 1, map[string]string{"size": "S"}),
		}
		for i := range ins {
			if err := ins[i].Validate(); err != nil {
				t.Fatal(err)
			}
		}
		errs, err := catalog.CheckVariants(ctx, db, ins)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"unknown parent", "same options", "differ", "", "same options", "itself a variant"}
		for i, w := range want {
			switch {
			case w == "" && errs[i] != nil:
				t.Errorf("row %d: unexpected %v", i, errs[i])
			case w != "" && (errs[i] == nil || !strings.Contains(errs[i].Error(), w)):
				t.Errorf("row %d: err = %v, want %q", i, errs[i], w)
			}
		}
		if _, err := catalog.UpsertProducts(ctx, db, ins); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("upsert with bad rows: err = %v", err)
		}
		bad := catalog.ProductInput{SKU: "V", VariantOf: "TEE", Price: 1, Currency: "USD"}
		if err := bad.Validate(); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("variant without options: %v", err)
		}
	})
}

// TestVariantOversell: buyers race for the last units of one variant
// while others buy its sibling; each variant sells exactly its stock and
// the parent's rolled-up stock is the sum of what is left.
func TestVariantOversell(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db)
		if err := catalog.SetStock(ctx, db, "TEE-NAVY-M", 40); err != nil {
			t.Fatal(err)
		}
		skus := []string{"TEE-NAVY-M", "TEE-RED-M"}
		buyers := make([]*catalog.Customer, 40)
		for i := range buyers {
			buyers[i] = customer(t, db, "web", fmt.Sprint("vb-", i))
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(buyers[i].ID), skus[i%2], 1, buyers[i].ID))
		}
		if err := catalog.SetStock(ctx, db, "TEE-NAVY-M", 3); err != nil {
			t.Fatal(err)
		}
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			sold = map[string]int{}
		)
		for i, b := range buyers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := order(t, db, b, fmt.Sprint("vrace-", i))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					sold[skus[i%2]]++
				case errors.Is(err, catalog.ErrOutOfStock):
				default:
					t.Errorf("buyer %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if sold["TEE-NAVY-M"] != 3 || sold["TEE-RED-M"] != 5 {
			t.Errorf("sold %v; want 3 navy and 5 red", sold)
		}
		if got := stockOf(t, db, "TEE"); got != 0 {
			t.Errorf("parent stock = %d, want 0 (navy L has 0)", got)
		}
		p, _ := catalog.GetProduct(ctx, db, "TEE")
		if p.SoldCount != 8 {
			t.Errorf("parent sold = %d, want 8", p.SoldCount)
		}
	})
}

// TestOrdersWhileImportingVariants: an import rewriting a parent and its
// variants runs while shoppers order those variants. The import locks the
// parent before the variants, an order the variants before the parent;
// Postgres may abort one of the two as a deadlock, and the order runs
// again instead of failing. Every order succeeds and stock adds up.
func TestOrdersWhileImportingVariants(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		seedTee(t, db)
		buyers := make([]*catalog.Customer, 12)
		for i := range buyers {
			buyers[i] = customer(t, db, "web", fmt.Sprint("imp-", i))
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(buyers[i].ID), "TEE-RED-M", 1, buyers[i].ID))
			mustCart(t)(catalog.AddToCart(ctx, db, catalog.PersonalCart(buyers[i].ID), "TEE-NAVY-M", 1, buyers[i].ID))
		}
		parent := product("TEE", 0, 0, "Apparel", "Tops")
		parent.Title = "Cotton Tee"
		batch := []catalog.ProductInput{parent,
			variant("TEE-NAVY-M", "TEE", 2500, 100, map[string]string{"colour": "Navy", "size": "M"}),
			variant("TEE-RED-M", "TEE", 2400, 100, map[string]string{"colour": "Red", "size": "M"}),
		}
		for i := range batch {
			if err := batch[i].Validate(); err != nil {
				t.Fatal(err)
			}
		}
		// Stock high enough for everyone before the race starts.
		if _, err := catalog.UpsertProducts(ctx, db, batch); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
					_, err := catalog.UpsertProducts(ctx, tx, batch)
					return err
				})
				if err != nil && !strings.Contains(err.Error(), "deadlock") {
					t.Errorf("import: %v", err)
				}
			}()
		}
		for i, b := range buyers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := order(t, db, b, fmt.Sprint("imp-order-", i)); err != nil {
					t.Errorf("buyer %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		p, err := catalog.GetProduct(ctx, db, "TEE")
		if err != nil {
			t.Fatal(err)
		}
		want := stockOf(t, db, "TEE-NAVY-M") + stockOf(t, db, "TEE-RED-M") + stockOf(t, db, "TEE-NAVY-L")
		if p.Stock != want {
			t.Errorf("parent stock %d, variants sum to %d", p.Stock, want)
		}
	})
}
