package analysis

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
