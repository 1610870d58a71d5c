package embedded_test

import (
	"context"
	"fmt"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// TestPassagesCompaction: many edits leave removed passages behind until
// compaction drops them; searches answer from the newest text throughout,
// with vectors carried over.
func TestPassagesCompaction(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	x := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0), Logger: testLogger(t)})
	for _, slug := range []string{"returns", "shipping"} {
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: slug, Title: slug, Body: "About " + slug + ".\n\n## More\n\nDetails."}); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Sync(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		body := fmt.Sprintf("Refunds take %d days.\n\n## Label\n\nPrint label number %d.", i, i)
		if _, err := catalog.UpsertPage(ctx, db, catalog.PageInput{Slug: "returns", Title: "Returns", Body: body}); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "page:returns"); err != nil {
			t.Fatal(err)
		}
		ps, err := x.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: fmt.Sprintf("refunds %d days", i)})
		if err != nil || len(ps) == 0 || ps[0].Text != fmt.Sprintf("Refunds take %d days.", i) {
			t.Fatalf("edit %d: %+v, %v", i, ps, err)
		}
	}
	if x.Len() != 4 {
		t.Errorf("Len %d, want 4", x.Len())
	}
	ps, err := x.SearchPassages(ctx, search.PassageQuery{Kind: catalog.PassagePage, Text: "about shipping"})
	if err != nil || len(ps) == 0 || ps[0].Ref != "shipping" || ps[0].Score <= 0 {
		t.Errorf("untouched page after compaction: %+v, %v", ps, err)
	}
	if err := catalog.DeletePage(ctx, db, "shipping"); err != nil {
		t.Fatal(err)
	}
	if err := x.Sync(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	if x.Len() != 2 {
		t.Errorf("after a delete: Len %d, want 2", x.Len())
	}
}
