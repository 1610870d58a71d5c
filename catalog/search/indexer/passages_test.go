package indexer_test

import (
	"context"
	"slices"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/indexer"
)

// passageIndex records passage upserts.
type passageIndex struct{ keys []string }

func (p *passageIndex) UpsertPassages(_ context.Context, _ search.PassageCatalog, keys ...string) error {
	p.keys = append(p.keys, keys...)
	return nil
}

// TestPassageChangesRouted: a page change reaches UpsertPassages by its
// source key, never Upsert as a SKU; a deleted page reaches it through
// its tombstone; an index without passages skips them.
func TestPassageChangesRouted(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{product("A")}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "returns", Title: "Returns", Body: "30 days."}); err != nil {
			t.Fatal(err)
		}
	}
	idx, pidx := &fakeIndex{}, &passageIndex{}
	w := indexer.New(db, idx, indexer.Config{Passages: pidx})
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(idx.got, []string{"A"}) || !slices.Equal(pidx.keys, []string{"page:returns"}) {
		t.Errorf("products %v, passages %v", idx.got, pidx.keys)
	}
	if err := catalog.DeletePage(ctx, db, "returns"); err != nil {
		t.Fatal(err)
	}
	pidx.keys = nil
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pidx.keys, []string{"page:returns"}) {
		t.Errorf("after deleting the page: passages %v", pidx.keys)
	}
	plain := &fakeIndex{}
	if _, err := indexer.New(db, plain, indexer.Config{Cursor: "plain"}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.got, []string{"A"}) {
		t.Errorf("without passages: upserted %v", plain.got)
	}
}
