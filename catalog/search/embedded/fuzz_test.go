package embedded_test

import (
	"context"
	"shopbot/catalog"
	"testing"
	"time"

	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// FuzzSearch feeds odd text to the tokenizer, typo lookup and synonym
// matcher, and to the Local embedder and hybrid ranking, through Search:
// no panic, no error, no filter violated.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{
		"", "runing shoes", "\xff\xfe\xfd", "ё-ё-ё", "a-b-c-d-e", "t-shirt", "wi‑fi 16gb", "👍🏽 кроссовки",
		"\u0301\u0301e\u0301", "İstanbul ǅ ß", "100%", "x" + string(rune(0)) + "y", "ﬁ ligature", "42-",
		"кроссовки для бега", "   --   ", "日本語のテキスト", "a\u200bb", "ＦＵＬＬＷＩＤＴＨ",
	} {
		f.Add(seed, int64(0))
	}
	db, x := demoSQLite(f)
	hybrid := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Logger: testLogger(f)})
	ctx := context.Background()
	if err := hybrid.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, maxPrice int64) {
		q := search.Query{Text: text, MaxPrice: maxPrice % 100000, InStockOnly: len(text)%2 == 0, Limit: 20}
		for _, x := range []*embedded.Index{x, hybrid} {
			start := time.Now()
			res, err := x.Search(ctx, q)
			// A pathological input shows as seconds; a busy machine running
			// the suite under -race can stall a search for a tenth of one.
			if d := time.Since(start); d > time.Second {
				t.Fatalf("%q took %s", text, d)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Products) > 20 || res.Total < len(res.Products) {
				t.Fatalf("%d results of %d", len(res.Products), res.Total)
			}
			for _, p := range res.Products {
				if v := q.Violation(p); v != "" {
					t.Fatalf("%s: %s", p.SKU, v)
				}
			}
		}
	})
}
