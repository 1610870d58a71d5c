package embedded_test

import (
	"context"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// TestShopSynonyms: a group the merchant adds reaches the index on its
// next poll (and a rebuild) and finds what the lexicon cannot; removing it
// takes it back out; the built-in lexicon stays.
func TestShopSynonyms(t *testing.T) {
	ctx := context.Background()
	db, x := demoSQLite(t)
	find := func(q string) []string {
		t.Helper()
		return skus(mustSearch(t, x, search.Query{Text: q, Limit: 5}).Products)
	}
	if got := find("zorblatq"); position(mustSearch(t, x, search.Query{Text: "zorblatq"}).Products, "HOM-FUR-001") >= 0 {
		t.Fatalf("before the group: %v", got)
	}
	g, err := catalog.AddSynonymGroup(ctx, db, "Zorblatq, sofa")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.FollowOnce(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := find("zorblatq"); len(got) == 0 || got[0][:7] != "HOM-FUR" {
		t.Errorf("with the group: %v", got)
	}
	if got := find("софа"); len(got) == 0 || got[0][:7] != "HOM-FUR" {
		t.Errorf("the lexicon is gone: %v", got)
	}
	if err := catalog.DeleteSynonymGroup(ctx, db, g.ID); err != nil {
		t.Fatal(err)
	}
	if err := x.FollowOnce(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := find("zorblatq"); contains(mustSearch(t, x, search.Query{Text: "zorblatq"}).Products, "HOM-FUR-002") {
		t.Errorf("after removing the group: %v", got)
	}
}
