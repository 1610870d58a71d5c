package search

import (
	"strings"
	"testing"

	"shopbot/catalog/search/analysis"
)

// The price phrase of a query with a price filter is no word to rank by;
// without a filter the text is kept whole.
func TestRankText(t *testing.T) {
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{Text: "Backpack under $100", MaxPrice: 10000}, "backpack"},
		{Query{Text: "headphones under 100, wireless", MaxPrice: 10000}, "headphones wireless"},
		{Query{Text: "под 100", MaxPrice: 10000}, "под 100"},
		{Query{Text: "books from 1984"}, "books from 1984"},
		{Query{Text: "under 100", MaxPrice: 10000}, ""},
		{Query{Text: "Arabica 100%", MaxPrice: 2000}, "Arabica 100%"},
	} {
		if got := tc.q.RankText(); got != tc.want {
			t.Errorf("%+v: RankText() = %q, want %q", tc.q, got, tc.want)
		}
	}
}

// RankText never panics, never adds words, and reads no limit out of range.
func FuzzRankText(f *testing.F) {
	for _, s := range []string{"backpack under 100", "от 20 до 50", "20-50", "<100", "$", "до", "between and", "5 000 000 000", "\x00\xff", "1,5к"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Query{Text: text, MaxPrice: 10000}.RankText()
		if len(strings.Fields(got)) > len(strings.Fields(text)) {
			t.Fatalf("RankText(%q) = %q: words added", text, got)
		}
		_, r := analysis.CutPrices(strings.Fields(strings.ToLower(text)))
		if r.Min < 0 || r.Max < 0 || r.Min > analysis.MaxAmount || r.Max > analysis.MaxAmount || (r.Max > 0 && r.Min > r.Max) {
			t.Fatalf("CutPrices(%q) = %+v", text, r)
		}
	})
}
