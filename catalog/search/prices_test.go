package search

import (
	"strings"
	"testing"
)

func TestParseAmount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"100", 100, true}, {"$150", 150, true}, {"150$", 150, true}, {"19.99", 19.99, true}, {"19,99", 19.99, true},
		{"1,000", 1000, true}, {"5k", 5000, true}, {"5к", 5000, true}, {"5000₽", 5000, true}, {"300р", 300, true},
		{"abc", 0, false}, {"1.2.3", 0, false}, {"", 0, false}, {"$", 0, false}, {"1e9", 0, false}, {"999999999999", 0, false},
	} {
		got, ok := ParseAmount(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseAmount(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCutPrices(t *testing.T) {
	for _, tc := range []struct {
		in   string
		rest string
		want PriceRange
	}{
		{"backpack under 100", "backpack", PriceRange{Max: 100}},
		{"running shoes between 80 and 120", "running shoes", PriceRange{Min: 80, Max: 120}},
		{"кроссовки от 3000 до 5 000 руб", "кроссовки", PriceRange{Min: 3000, Max: 5000}},
		{"boots over $150", "boots", PriceRange{Min: 150}},
		{"mugs 20-50", "mugs", PriceRange{Min: 20, Max: 50}},
		{"tent <150", "tent", PriceRange{Max: 150}},
		{"from 50 to 20 lamp", "lamp", PriceRange{Min: 20, Max: 50}}, // swapped
		{"100 tea bags", "100 tea bags", PriceRange{}},
		{"under the sea", "under the sea", PriceRange{}},
	} {
		rest, got := CutPrices(strings.Fields(tc.in))
		if strings.Join(rest, " ") != tc.rest || got != tc.want {
			t.Errorf("CutPrices(%q) = %q, %+v; want %q, %+v", tc.in, strings.Join(rest, " "), got, tc.rest, tc.want)
		}
	}
}

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
		_, r := CutPrices(strings.Fields(strings.ToLower(text)))
		if r.Min < 0 || r.Max < 0 || r.Min > MaxAmount || r.Max > MaxAmount || (r.Max > 0 && r.Min > r.Max) {
			t.Fatalf("CutPrices(%q) = %+v", text, r)
		}
	})
}
