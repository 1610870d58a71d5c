package embedded_test

import (
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// TestQueryLanguageFirst: in the demo shop, which sells listings with
// English and with Russian titles, an English query lists the English
// matches before the Russian listing of the same kind (still found), and a
// Russian query the Russian one first; keywords only and hybrid.
func TestQueryLanguageFirst(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	for name, opts := range map[string]embedded.Options{"keywords": {}, "hybrid": {Embedder: vectorizer.NewLocal(0)}} {
		t.Run(name, func(t *testing.T) {
			x := demoIndex(t, db, opts)
			for _, tc := range []struct {
				q     string
				first int // how many results must be English
			}{
				{"rain jacket", 3}, {"jeans", 4}, {"coffee beans", 3}, {"frying pan", 3}, {"lipstick", 2},
			} {
				res := mustSearch(t, x, search.Query{Text: tc.q, Limit: 10})
				foundRussian := false
				for i, p := range res.Products {
					s := analysis.ScriptOf(p.Title)
					if i < tc.first && s != analysis.ScriptLatin {
						t.Errorf("%q: result %d is %q; want English titles first: %q", tc.q, i+1, p.Title, titles(res))
					}
					foundRussian = foundRussian || s == analysis.ScriptCyrillic
				}
				if !foundRussian {
					t.Errorf("%q: the Russian listing is gone from the first 10: %q", tc.q, titles(res))
				}
			}
			for _, q := range []string{"куртка", "ноутбук", "кофе"} {
				res := mustSearch(t, x, search.Query{Text: q, Limit: 5})
				if len(res.Products) == 0 || analysis.ScriptOf(res.Products[0].Title) != analysis.ScriptCyrillic {
					t.Errorf("%q: want a Russian title first: %q", q, titles(res))
				}
			}
		})
	}
}

func titles(res search.Results) []string {
	out := make([]string, len(res.Products))
	for i, p := range res.Products {
		out[i] = p.Title
	}
	return out
}
