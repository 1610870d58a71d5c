package weaviate_test

import (
	"context"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/searchtest"
)

// FuzzSearch sends odd text through the query path — the shared
// tokenizer, synonyms and typo lookup, the embedder, GraphQL quoting —
// to the real server: no error, no filter violated, bounded time.
func FuzzSearch(f *testing.F) {
	for _, seed := range searchtest.OddTexts {
		f.Add(seed, int64(0), "")
	}
	f.Add("shoes", int64(9000), "Shoes")
	f.Add(`") { x }`, int64(-5), `"}]) {`)
	db := catalogtest.SQLite(f)
	if _, err := demo.Load(context.Background(), db); err != nil {
		f.Fatal(err)
	}
	st := newStack(f, db, indexer.Config{})
	f.Fuzz(func(t *testing.T, text string, maxPrice int64, category string) {
		q := search.Query{Text: text, MaxPrice: max(maxPrice%100000, 0), Category: category, InStockOnly: len(text)%2 == 0,
			Attributes: map[string]string{}, Limit: 20}
		if len(text)%3 == 0 {
			q.Attributes[text] = category // odd attribute names and values too
		}
		if len(text)%5 == 0 {
			q.Sort = search.SortPriceAsc
		}
		start := time.Now()
		searchtest.Check(t, st.backend, q)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%q took %s", text, d)
		}
	})
}
