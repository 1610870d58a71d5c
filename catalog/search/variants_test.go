package search_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

func variant(price int64, stock int, active bool, opts map[string]string) catalog.Product {
	return catalog.Product{Price: price, Stock: stock, Active: active, Options: opts}
}

func TestOptionCombos(t *testing.T) {
	vs := []catalog.Product{
		variant(100, 1, true, map[string]string{"Colour": "Navy", "Size": "M"}),
		variant(100, 0, true, map[string]string{"Colour": "Navy", "Size": "L"}), // out of stock
		variant(100, 5, false, map[string]string{"Colour": "Red", "Size": "S"}), // inactive
	}
	got := search.OptionCombos(vs)
	want := []string{"color=navy", "color=navy;size=m", "size=m"} // "Colour" folds to "color" (catalog.OptionName)
	if !slices.Equal(got, want) {
		t.Errorf("combos %q, want %q", got, want)
	}
	if k := search.OptionsKey(map[string]string{" SIZE ": "m", "colour": " NAVY"}); k != "color=navy;size=m" {
		t.Errorf("key %q", k)
	}
	if text := search.OptionText(vs); text != "Colour: Navy; Size: L, M; " {
		t.Errorf("text %q", text)
	}
	if search.OptionCombos(nil) != nil || search.OptionText(nil) != "" {
		t.Error("no variants, no keys")
	}
}

// TestOptionPriceFilter checks the decimal prefix cover against brute
// force: a variant matches exactly when its price is in range.
func TestOptionPriceFilter(t *testing.T) {
	opts := map[string]string{"size": "42"}
	r := rand.New(rand.NewPCG(1, 2))
	prices := []int64{0, 1, 9, 10, 99, 100, 2499, 2500, 2501, 9_999_999_999, 12_345_678_901}
	for range 300 {
		prices = append(prices, r.Int64N(1_000_000))
	}
	bounds := [][2]int64{{0, 0}, {2500, 0}, {0, 2500}, {2500, 2500}, {1, 9}, {0, 9_999_999_999}, {5000, 100}}
	for range 200 {
		lo, hi := r.Int64N(1_000_000), r.Int64N(1_000_000)
		bounds = append(bounds, [2]int64{lo, hi})
	}
	for _, b := range bounds {
		f := search.OptionPriceFilter(opts, b[0], b[1])
		if len(f) > 200 {
			t.Fatalf("%v: %d keys", b, len(f))
		}
		for _, p := range prices {
			keys := search.OptionPriceKeys([]catalog.Product{variant(p, 1, true, map[string]string{"Size": "42", "Colour": "Navy"})})
			got := slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(f, k) })
			want := (b[0] <= 0 || p >= b[0]) && (b[1] <= 0 || min(p, 9_999_999_999) <= b[1])
			if got != want {
				t.Fatalf("price %d in %v: matched %v, want %v", p, b, got, want)
			}
		}
	}
	other := search.OptionPriceFilter(map[string]string{"size": "43"}, 0, 5000)
	keys := search.OptionPriceKeys([]catalog.Product{variant(100, 1, true, map[string]string{"Size": "42"})})
	if slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(other, k) }) {
		t.Error("size 43 matches a 42")
	}
}
