package importer_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// snapshot is every product row, category and tombstone as text.
func snapshot(t *testing.T, db *bun.DB) string {
	t.Helper()
	ctx := context.Background()
	var ps []catalog.Product
	if err := db.NewSelect().Model(&ps).Order("sku").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range ps {
		cat := int64(0)
		if p.CategoryID != nil {
			cat = *p.CategoryID
		}
		fmt.Fprintf(&b, "%s|%s|%q|%s|%v|%d|%s|%d|%t|%v|%v|%v|%v|%d|%d|%d|%s\n", p.SKU, p.Title, p.Description, p.Brand, cat,
			p.Price, p.Currency, p.Stock, p.Active, p.ImageURLs, p.Attributes, p.Options, p.OptionNames, p.VariantCount, p.PriceMax,
			p.ID, p.UpdatedAt.UTC())
	}
	for _, table := range []any{(*catalog.Category)(nil), (*catalog.Tombstone)(nil)} {
		n, err := db.NewSelect().Model(table).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%T %d\n", table, n)
	}
	return b.String()
}

func TestDryRunChangesNothing(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		// On an empty catalog: everything is new, nothing is written.
		before := snapshot(t, db)
		sum := importWith(t, db, "testdata/shopify.csv", importer.Options{DryRun: true})
		if !sum.DryRun || sum.Imported != 13 || sum.Updated != 0 || sum.Failed != 0 || !strings.HasPrefix(sum.String(), "dry run: 13 new") {
			t.Fatalf("dry run on empty = %v %+v", sum, sum.Errors)
		}
		if after := snapshot(t, db); after != before {
			t.Fatalf("dry run wrote:\n%s", after)
		}

		// After an import, a changed file: the changes are listed, nothing moves.
		importWith(t, db, "testdata/shopify.csv", importer.Options{})
		body, err := os.ReadFile("testdata/shopify.csv")
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(body), "TEE-S-NAVY,180,shopify,12,deny,manual,19.99", "TEE-S-NAVY,180,shopify,9,deny,manual,17.99", 1)
		changed = strings.Replace(changed, "Stoneware Mug,", "Stoneware Mug 11oz,", 1)
		if changed == string(body) {
			t.Fatal("the fixture edit did not apply")
		}
		changed += "new-thing,New Thing,,,,,,TRUE,Title,Default Title,,,,,,,,NEW-1,,,1,,,5.00" + strings.Repeat(",", 25) + "\n"
		changed += "broken,Broken,,,,,,TRUE,Title,Default Title,,,,,,,,BROKEN-1,,,1,,,free" + strings.Repeat(",", 25) + "\n"
		before = snapshot(t, db)
		sum, err = importer.Import(ctx, db, strings.NewReader(changed), "changed.csv", importer.Options{DryRun: true, BatchSize: 3})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Imported != 1 || sum.Updated != 2 || sum.Unchanged != 11 || sum.Failed != 1 {
			t.Errorf("dry run = %v %+v", sum, sum.Errors)
		}
		want := []importer.Change{
			{SKU: "TEE-S-NAVY", Field: "price", Old: "19.99 USD", New: "17.99 USD"},
			{SKU: "TEE-S-NAVY", Field: "stock", Old: "12", New: "9"},
			{SKU: "MUG-11", Field: "title", Old: "Stoneware Mug", New: "Stoneware Mug 11oz"},
		}
		for _, c := range want {
			if !slices.Contains(sum.Changes, c) {
				t.Errorf("changes %+v lack %+v", sum.Changes, c)
			}
		}
		if after := snapshot(t, db); after != before {
			t.Errorf("dry run wrote: before\n%s\nafter\n%s", before, after)
		}
	})
}
