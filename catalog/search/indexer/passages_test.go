package indexer_test

import (
	"context"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/indexer"
)

// passageIndex records passage upserts.
type passageIndex struct{ keys []string }

func (p *passageIndex) UpsertPassages(_ context.Context, _ bun.IDB, keys ...string) error {
	p.keys = append(p.keys, keys...)
	return nil
}

// TestPassageEventsRouted: a page change reaches UpsertPassages by its
// source key, never Upsert as a SKU; an index without passages
// acknowledges it unread.
func TestPassageEventsRouted(t *testing.T) {
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
	if _, err := indexer.New(db, idx, indexer.Config{Passages: pidx}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(idx.got, []string{"A"}) || !slices.Equal(pidx.keys, []string{"page:returns"}) {
		t.Errorf("products %v, passages %v", idx.got, pidx.keys)
	}
	if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "about", Title: "About", Body: "Us."}); err != nil {
		t.Fatal(err)
	}
	plain := &fakeIndex{}
	if _, err := indexer.New(db, plain, indexer.Config{}).Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if left, _ := catalog.CountOutbox(ctx, db); left != 0 || len(plain.got) != 0 {
		t.Errorf("without passages: %d left, upserted %v", left, plain.got)
	}
}
