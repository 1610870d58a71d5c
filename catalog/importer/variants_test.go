package importer_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// family is what a parent looks like after an import.
type family struct {
	price, priceMax int64
	stock, count    int
	names           []string
}

func checkParent(t *testing.T, db *bun.DB, sku string, want family) *catalog.Product {
	t.Helper()
	p, err := catalog.GetProduct(context.Background(), db, sku)
	if err != nil {
		t.Fatalf("%s: %v", sku, err)
	}
	got := family{p.Price, p.PriceMax, p.Stock, p.VariantCount, p.OptionNames}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %+v, want %+v", sku, got, want)
	}
	return p
}

// checkRows checks that there are rows product rows (parents, variants
// and plain products) and listings of them (CountProducts leaves
// variants out).
func checkRows(t *testing.T, db *bun.DB, rows int64, listings int) {
	t.Helper()
	ctx := context.Background()
	n, err := db.NewSelect().Model((*catalog.Product)(nil)).Count(ctx)
	if err != nil || n != rows {
		t.Errorf("%d product rows (%v), want %d", n, err, rows)
	}
	if n, err := catalog.CountProducts(ctx, db); err != nil || n != listings {
		t.Errorf("%d listings (%v), want %d", n, err, listings)
	}
}

func checkReasons(t *testing.T, sum importer.Summary, want map[int]string) {
	t.Helper()
	got := reasons(sum)
	for line, frag := range want {
		if !strings.Contains(got[line], frag) {
			t.Errorf("line %d: reason %q, want it to mention %q", line, got[line], frag)
		}
	}
	if len(got) != len(want) {
		t.Errorf("errors on lines %v, want %d", sum.Errors, len(want))
	}
}

func TestImportVariantsCSV(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		sum := importFile(t, db, "testdata/variants.csv")
		if sum.Imported != 7 || sum.Updated != 0 || sum.Failed != 10 {
			t.Fatalf("summary = %v %+v", sum, sum.Errors)
		}
		checkReasons(t, sum, map[int]string{
			6:  "same options as sibling",
			7:  "differ from sibling",
			10: "differ from the option_names",
			11: `unknown parent "NOPE"`,
			12: "itself a variant",
			13: "options: not valid JSON",
			14: "more than 3 options",
			15: "must not be empty",
			16: "missing price",
			18: "must not be empty",
		})
		// The price-less parent takes its variants' lowest price; its
		// option names follow the first variant's keys.
		tee := checkParent(t, db, "TEE", family{1850, 2200, 8, 3, []string{"colour", "size"}})
		checkParent(t, db, "SHOE", family{9500, 9500, 2, 1, []string{"size", "width"}})
		v, err := catalog.GetProduct(ctx, db, "TEE-N-M")
		if err != nil {
			t.Fatal(err)
		}
		if v.ParentID == nil || *v.ParentID != tee.ID || v.Title != "Cotton Tee" || v.Brand != "Loom" ||
			v.Category == nil || v.Category.Path != "Apparel > Tees" || !slices.Equal(v.ImageURLs, []string{"https://img.test/tee.jpg"}) ||
			v.Options["colour"] != "Navy" || v.Options["size"] != "M" || v.Stock != 3 || v.Price != 2000 {
			t.Errorf("TEE-N-M = %+v", v)
		}
		if r, _ := catalog.GetProduct(ctx, db, "TEE-R-M"); r.Title != "Red Tee Special" || r.ImageURLs[0] != "https://img.test/tee-red.jpg" {
			t.Errorf("TEE-R-M did not keep its own title and image: %+v", r)
		}
		for _, sku := range []string{"TEE-DUP", "TEE-DIFF", "SHOE-43", "GHOST-1", "SUB-1", "BADJSON", "FOUR", "EMPTY", "LONELY", "EMPTYNAME"} {
			if _, err := catalog.GetProduct(ctx, db, sku); !errors.Is(err, catalog.ErrNotFound) {
				t.Errorf("bad row %s was written (err = %v)", sku, err)
			}
		}
		// Re-import: same counts, nothing duplicated, the same rollup.
		again := importFile(t, db, "testdata/variants.csv")
		if again.Imported != 0 || again.Updated != 7 || again.Failed != 10 {
			t.Errorf("re-import = %v %+v", again, again.Errors)
		}
		checkRows(t, db, 7, 3)
		checkParent(t, db, "TEE", family{1850, 2200, 8, 3, []string{"colour", "size"}})
	})
}

func TestImportVariantsJSONL(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		sum := importFile(t, db, "testdata/variants.jsonl")
		if sum.Imported != 6 || sum.Failed != 6 {
			t.Fatalf("summary = %v %+v", sum, sum.Errors)
		}
		checkReasons(t, sum, map[int]string{
			5:  "options must be a JSON object",
			6:  "nested object",
			7:  "same options as sibling",
			10: "missing price",
			11: "no variant_of",
			12: "option_names must be a JSON array",
		})
		checkParent(t, db, "MUG", family{900, 1100, 3, 2, []string{"size"}})
		checkParent(t, db, "HAT", family{1500, 1500, 0, 1, []string{"colour"}})
		if v, _ := catalog.GetProduct(ctx, db, "MUG-S"); v == nil || v.Options["size"] != "8" || v.Brand != "Camp" {
			t.Errorf("MUG-S = %+v", v)
		}
		// A variant of a parent that is only in the catalog.
		more := "sku,title,price,stock,variant_of,options\nMUG-XL,,13.00,6,MUG,\"{\"\"size\"\": \"\"16\"\"}\"\n"
		sum, err := importer.Import(ctx, db, strings.NewReader(more), "more.csv", importer.Options{})
		if err != nil || sum.Imported != 1 || sum.Failed != 0 {
			t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
		}
		checkParent(t, db, "MUG", family{900, 1300, 9, 3, []string{"size"}})
		// Re-import: the same counts, nothing duplicated.
		if again := importFile(t, db, "testdata/variants.jsonl"); again.Imported != 0 || again.Updated != 6 || again.Failed != 6 {
			t.Errorf("re-import = %v %+v", again, again.Errors)
		}
		checkRows(t, db, 7, 3)
		checkParent(t, db, "MUG", family{900, 1300, 9, 3, []string{"size"}})
	})
}

// TestImportPricelessParentNeverAlone: a parent without a price is never
// committed without a variant (checked after every batch), even when its
// first variant row is refused.
func TestImportPricelessParentNeverAlone(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		alone := func(skus ...string) func(importer.Progress) {
			return func(importer.Progress) {
				for _, sku := range skus {
					if p, err := catalog.GetProduct(ctx, db, sku); err == nil && p.VariantCount == 0 {
						t.Errorf("%s committed without a variant (price %d)", sku, p.Price)
					}
				}
			}
		}
		body := "sku,title,price,variant_of,options\n" +
			"BAG,Tote Bag,,,\n" +
			"BAG-1,,4.00,BAG,\"{\"\"colour\"\": \"\"\"\"}\"\n" + // refused: empty value
			"BAG-2,,6.00,BAG,\"{\"\"colour\"\": \"\"Blue\"\"}\"\n"
		sum, err := importer.Import(ctx, db, strings.NewReader(body), "bags.csv", importer.Options{BatchSize: 1, Progress: alone("BAG")})
		if err != nil || sum.Imported != 2 || sum.Failed != 1 {
			t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
		}
		checkParent(t, db, "BAG", family{600, 600, 0, 1, []string{"colour"}})

		box := "sku,title,price,variant_of,options\nBOX,Box,,,\nBOX-1,,2.00,BOX,\"{\"\"size\"\": \"\"S\"\"}\"\nBOX-2,,2.00,BOX,\"{\"\"size\"\": \"\"s\"\"}\"\n"
		if _, err := importer.Import(ctx, db, strings.NewReader(box), "box.csv", importer.Options{BatchSize: 1, Progress: alone("BOX")}); err != nil {
			t.Fatal(err)
		}
		checkParent(t, db, "BOX", family{200, 200, 0, 1, []string{"size"}})

		// Its only variant refused: the parent is not written either.
		lone := "sku,title,price,variant_of,options,option_names\nCRATE,Crate,,,,\"[\"\"size\"\"]\"\n" +
			"CRATE-1,,2.00,CRATE,\"{\"\"colour\"\": \"\"Red\"\"}\",\n"
		sum, err = importer.Import(ctx, db, strings.NewReader(lone), "crate.csv", importer.Options{Progress: alone("CRATE")})
		if err != nil || sum.Imported != 0 || sum.Failed != 2 || !strings.Contains(reasons(sum)[2], "none of its variants") {
			t.Fatalf("summary = %v %+v, %v", sum, sum.Errors, err)
		}
	})
}

// TestImportManyParentsAfterVariants: variants listed before their parents
// (spilled) and more price-less parents than are held in memory.
func TestImportManyParentsAfterVariants(t *testing.T) {
	db := catalogtest.SQLite(t)
	const n = 10_050 // more than the importer holds in memory
	var b strings.Builder
	b.WriteString("sku,title,price,stock,variant_of,options\n")
	for i := range n {
		fmt.Fprintf(&b, "P%d,Parent %d,,,,\n", i, i)
	}
	for i := range n {
		fmt.Fprintf(&b, "P%d-A,,%d.00,1,P%d,\"{\"\"size\"\": \"\"A\"\"}\"\n", i, 1+i%7, i)
		if i%2 == 0 { // every other parent gets a second, dearer variant
			fmt.Fprintf(&b, "P%d-B,,9.00,2,P%d,\"{\"\"size\"\": \"\"B\"\"}\"\n", i, i)
		}
	}
	b.WriteString("Q-A,,3.00,1,Q,\"{\"\"size\"\": \"\"A\"\"}\"\nQ,Late Parent,,,,\nR,Never Named,,,,\n")
	sum, err := importer.Import(context.Background(), db, strings.NewReader(b.String()), "many.csv", importer.Options{})
	want := n + n + n/2 + 2
	if err != nil || sum.Imported != want || sum.Failed != 1 || sum.Errors[0].SKU != "R" {
		t.Fatalf("summary = %v (want %d imported) %+v, %v", sum, want, sum.Errors, err)
	}
	checkParent(t, db, "P0", family{100, 900, 3, 2, []string{"size"}})
	checkParent(t, db, "P10049", family{500, 500, 1, 1, []string{"size"}})
	checkParent(t, db, "Q", family{300, 300, 1, 1, []string{"size"}})
}
