package weaviate_test

import (
	"context"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/searchtest"
)

// TestVariantObjects: products with variants written after the rebuild
// reach the collection through the change feed as one object per parent;
// the variants' own changes (a stock change) create no objects, and a
// rebuild stores no variants either.
func TestVariantObjects(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLite(t)
	if _, err := demo.Load(ctx, db); err != nil {
		t.Fatal(err)
	}
	st := newStack(t, db, indexer.Config{})
	if _, err := catalog.UpsertProducts(ctx, db, searchtest.VariantInputs()); err != nil {
		t.Fatal(err)
	}
	size42 := search.Query{Text: "trail runner", Options: map[string]string{"size": "42"}}
	if err := catalog.SetStock(ctx, db, "ZZ-VAR-SHOE-42", 3); err != nil {
		t.Fatal(err)
	}
	searchtest.Eventually(t, "size 42 through the change feed", func() bool { return searchtest.Finds(t, st.backend, size42, "ZZ-VAR-SHOE") })
	// One object per active product that is not a variant.
	want, err := db.NewSelect().Model((*catalog.Product)(nil)).Where("active = ?", true).Where("parent_id IS NULL").Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	searchtest.Eventually(t, "one object per listing", func() bool {
		got, err := st.backend.Count(ctx)
		return err == nil && int64(got) == want
	})
	if err := st.backend.Rebuild(ctx, catalog.NewSearchSource(db), nil); err != nil {
		t.Fatal(err)
	}
	if got, err := st.backend.Count(ctx); err != nil || int64(got) != want {
		t.Fatalf("after a rebuild %d objects (%v), want %d", got, err, want)
	}
	if !searchtest.Finds(t, st.backend, size42, "ZZ-VAR-SHOE") {
		t.Error("size 42 lost in the rebuild")
	}
}
