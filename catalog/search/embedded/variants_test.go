package embedded_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
)

// variantCatalog loads searchtest.VariantInputs and a plain product into
// a fresh database and builds an index over it.
func variantCatalog(t *testing.T) (*bun.DB, *embedded.Index) {
	t.Helper()
	db := catalogtest.SQLite(t)
	ins := append(searchtest.VariantInputs(), catalog.ProductInput{SKU: "ZZ-PLAIN", Title: "Harbourline Canvas Tote",
		Brand: "Harbourline", CategoryPath: []string{"Apparel", "Bags"}, Price: 1500, Currency: "USD", Stock: 4})
	if _, err := catalog.UpsertProducts(context.Background(), db, ins); err != nil {
		t.Fatal(err)
	}
	x := embedded.New(embedded.Options{Logger: testLogger(t)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	return db, x
}

// TestVariantsAreNoDocuments: a rebuild indexes the parents and plain
// products only, and Upsert of a variant's SKU (as the feed worker or Follow
// sends it) reloads its parent instead of adding a document.
func TestVariantsAreNoDocuments(t *testing.T) {
	ctx := context.Background()
	db, x := variantCatalog(t)
	if x.Len() != 3 {
		t.Fatalf("indexed %d products, want 2 parents and 1 plain product", x.Len())
	}
	size42 := search.Query{Options: map[string]string{"size": "42"}}
	if res := mustSearch(t, x, size42); res.Total != 0 {
		t.Fatalf("size 42 is sold out, found %v", skus(res.Products))
	}
	if err := catalog.SetStock(ctx, db, "ZZ-VAR-SHOE-42", 2); err != nil {
		t.Fatal(err)
	}
	if err := x.Upsert(ctx, catalog.NewSearchSource(db), "ZZ-VAR-SHOE-42"); err != nil {
		t.Fatal(err)
	}
	if x.Len() != 3 {
		t.Errorf("after a variant's upsert %d products, want 3", x.Len())
	}
	res := mustSearch(t, x, size42)
	if got := skus(res.Products); !slices.Equal(got, []string{"ZZ-VAR-SHOE"}) {
		t.Errorf("size 42 in stock: %v, want the parent", got)
	}
	if p := res.Products[0]; p.Stock != 5 {
		t.Errorf("parent stock %d after the rollup, want 5", p.Stock)
	}
	if _, err := x.Similar(ctx, "ZZ-VAR-SHOE-42", 5); err != nil {
		t.Errorf("similar to a variant: %v", err)
	}
	if _, err := x.Similar(ctx, "ZZ-NO-SUCH", 5); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("similar to an unknown SKU: %v", err)
	}
}

// TestVariantsPlainBecomesVariant: a product turned into a variant of
// another leaves the index, and its values join the parent's.
func TestVariantsPlainBecomesVariant(t *testing.T) {
	ctx := context.Background()
	db, x := variantCatalog(t)
	in := catalog.ProductInput{SKU: "ZZ-PLAIN", VariantOf: "ZZ-VAR-TEE", Price: 2600, Currency: "USD", Stock: 1,
		Options: map[string]string{"Colour": "Ochre", "Size": "S"}}
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
		t.Fatal(err)
	}
	if err := x.Upsert(ctx, catalog.NewSearchSource(db), "ZZ-PLAIN"); err != nil {
		t.Fatal(err)
	}
	if x.Len() != 2 {
		t.Errorf("%d products, want the 2 parents", x.Len())
	}
	for _, q := range []search.Query{{Text: "ochre"}, {Options: map[string]string{"colour": "ochre", "size": "s"}}} {
		if got := skus(mustSearch(t, x, q).Products); !slices.Equal(got, []string{"ZZ-VAR-TEE"}) {
			t.Errorf("%+v: %v, want the tee", q, got)
		}
	}
}

// TestVariantsOddOptions: option filters that cannot match return
// nothing, without error.
func TestVariantsOddOptions(t *testing.T) {
	_, x := variantCatalog(t)
	for _, opts := range []map[string]string{
		{"size": ""}, {"": "42"}, {"size": "42\x00"}, {"colour": "navy", "size": "L", "fit": "slim"},
		{"size": "41", "colour": "navy"}, {"size": "43 "}, // trimmed: matches
	} {
		res := mustSearch(t, x, search.Query{Options: opts, Limit: 100})
		want := 0
		if opts["size"] == "43 " {
			want = 1
		}
		if res.Total != want {
			t.Errorf("%q: %v, want %d", opts, skus(res.Products), want)
		}
	}
	if res := mustSearch(t, x, search.Query{Options: map[string]string{"size": "41"}, MinPrice: 9500, MaxPrice: 9000}); res.Total != 0 {
		t.Errorf("minimum above maximum: %v", skus(res.Products))
	}
}
