package catalogtest

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// SeedVariants adds three products with variants to a test shop: a tee
// in colours and sizes (Navy/L out of stock, Green no longer sold), a
// trail shoe in sizes (41 out of stock) and a cap sold out in every size.
func SeedVariants(t testing.TB, db bun.IDB) {
	t.Helper()
	parent := func(sku, title string, names ...string) catalog.ProductInput {
		return catalog.ProductInput{
			SKU: sku, Title: title, Description: "Test " + title, Brand: "Acme", CategoryPath: []string{"Apparel", "Test"},
			Currency: "USD", ImageURLs: []string{"https://img.test/" + sku + ".jpg"}, OptionNames: names,
		}
	}
	v := func(sku, of string, price int64, stock int, opts ...string) catalog.ProductInput {
		o := map[string]string{}
		for i := 0; i+1 < len(opts); i += 2 {
			o[opts[i]] = opts[i+1]
		}
		return catalog.ProductInput{SKU: sku, VariantOf: of, Price: price, Currency: "USD", Stock: stock, Options: o}
	}
	green := v("TEE-GREEN-M", "TEE", 2500, 4, "colour", "Green", "size", "M")
	green.Inactive = true
	ins := []catalog.ProductInput{
		parent("TEE", "Quokka Tee", "colour", "size"),
		v("TEE-NAVY-M", "TEE", 2500, 3, "colour", "Navy", "size", "M"),
		v("TEE-NAVY-L", "TEE", 2700, 0, "colour", "Navy", "size", "L"),
		v("TEE-RED-M", "TEE", 2400, 5, "colour", "Red", "size", "M"),
		green,
		parent("TRAIL", "Trail Runner", "size"),
		v("TRAIL-41", "TRAIL", 9000, 0, "size", "41"),
		v("TRAIL-42", "TRAIL", 9000, 2, "size", "42"),
		v("TRAIL-43", "TRAIL", 9500, 1, "size", "43"),
		parent("CAP", "Quokka Cap", "size"),
		v("CAP-S", "CAP", 1500, 0, "size", "S"),
		v("CAP-M", "CAP", 1500, 0, "size", "M"),
	}
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			t.Fatalf("fixture %s: %v", ins[i].SKU, err)
		}
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatalf("seed variants: %v", err)
	}
}
