package embedded_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/vectorizer/vectorizertest"
)

// TestHybridFollowsUpdates: products added, changed, deactivated and
// deleted get, change and lose their vectors.
func TestHybridFollowsUpdates(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		x := localIndex(t, db, embedded.Options{})
		airfryers := func() []string {
			var out []string
			for _, p := range mustSearch(t, x, search.Query{Text: "airfryer", Limit: 100}).Products {
				out = append(out, p.SKU)
			}
			return out
		}
		if got := airfryers(); !slices.Equal(got, []string{"KIT-APL-007"}) {
			t.Fatalf("before: %v", got)
		}

		in := demoInput(t, "KIT-APL-007")
		in.SKU, in.Title = "KIT-APL-900", "Vortexa Compact Air Fryer, 3 Qt"
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "KIT-APL-900"); err != nil {
			t.Fatal(err)
		}
		if got := airfryers(); !slices.Contains(got, "KIT-APL-900") {
			t.Errorf("a new air fryer: %v", got)
		}

		in.Title = "Vortexa Compact Rice Cooker, 3 Qt"
		in.Description = "Cooks rice."
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{in}); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "KIT-APL-900"); err != nil {
			t.Fatal(err)
		}
		if got := airfryers(); slices.Contains(got, "KIT-APL-900") {
			t.Errorf("no longer an air fryer, still found: %v", got)
		}

		old := demoInput(t, "KIT-APL-007")
		old.Inactive = true
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{old}); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "KIT-APL-007"); err != nil {
			t.Fatal(err)
		}
		if got := airfryers(); len(got) != 0 {
			t.Errorf("inactive: %v", got)
		}
		old.Inactive = false
		if _, err := catalog.UpsertProducts(ctx, db, []catalog.ProductInput{old}); err != nil {
			t.Fatal(err)
		}
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "KIT-APL-007"); err != nil {
			t.Fatal(err)
		}
		if got := airfryers(); !slices.Equal(got, []string{"KIT-APL-007"}) {
			t.Errorf("active again: %v", got)
		}
		deleteProduct(t, db, "KIT-APL-007")
		if err := x.Upsert(ctx, catalog.NewSearchSource(db), "KIT-APL-007"); err != nil {
			t.Fatal(err)
		}
		if got := airfryers(); len(got) != 0 {
			t.Errorf("deleted: %v", got)
		}
	})
}

// TestHybridUnchangedProductsAreNotReembedded: a stock or price change
// re-reads a product but does not embed it again.
func TestHybridUnchangedProductsAreNotReembedded(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLiteDemo(t)
	x, srv := semanticIndex(t, db, embedded.Options{})
	before := len(srv.Requests())
	if err := catalog.SetStock(ctx, db, "ELE-LAP-001", 3); err != nil {
		t.Fatal(err)
	}
	if err := x.Upsert(ctx, catalog.NewSearchSource(db), "ELE-LAP-001", "ELE-LAP-002"); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != before {
		t.Errorf("%d embedding requests for unchanged texts", n-before)
	}
}

// TestHybridEmbedderOutage: while the embeddings server fails, products
// and queries rank by keywords and searches never fail; Follow embeds
// the products it missed once the server is back.
func TestHybridEmbedderOutage(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLiteDemo(t)
	srv := vectorizertest.NewServer(t, conceptVector)
	e := vectorizer.NewOpenAI(vectorizer.OpenAIConfig{BaseURL: srv.URL, Model: "concepts", MaxRetries: -1})
	srv.Fail(500, 500) // the two batches of the rebuild
	// Without synonyms: the lexicon finds laptops for "notebook computer"
	// by keywords, and this test is about similarity.
	x := demoIndex(t, db, embedded.Options{Embedder: e, Synonyms: [][]string{}})

	srv.Fail(500, 500, 500)
	for _, text := range []string{"laptop", "notebook computer", "sofa"} {
		if res := mustSearch(t, x, search.Query{Text: text}); text != "notebook computer" && res.Total == 0 {
			t.Errorf("%q while the embedder fails: nothing", text)
		}
	}
	laptopFound := func(x *embedded.Index) bool {
		res := mustSearch(t, x, search.Query{Text: "notebook computer", Limit: 20})
		return contains(res.Products, "ELE-LAP-001")
	}
	if laptopFound(x) {
		t.Fatal("products without vectors found by similarity")
	}

	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	x2 := embedded.New(embedded.Options{Embedder: e, Synonyms: [][]string{}, Poll: 10 * time.Millisecond, Logger: testLogger(t)})
	srv.Fail(500, 500)
	if err := x2.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { x2.Follow(fctx, catalog.NewSearchSource(db)); close(done) }()
	eventually(t, "Follow embeds the products missed during the outage", func() bool { return laptopFound(x2) })
	cancel()
	<-done
}

func deleteProduct(t *testing.T, db bun.IDB, sku string) {
	t.Helper()
	ctx := context.Background()
	p, err := catalog.GetProduct(ctx, db, sku)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewDelete().Model((*catalog.Review)(nil)).Where("product_id = ?", p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewDelete().Model((*catalog.Product)(nil)).Where("id = ?", p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
}
