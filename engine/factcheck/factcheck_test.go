package factcheck_test

import (
	"reflect"
	"strings"
	"testing"

	"shopbot/engine/factcheck"
	"shopbot/engine/toolkit"
	"shopbot/engine/view"
)

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		text          string
		prices, skus  []string
		nothingToFind bool
	}{
		{text: "The Trail Runner (SHO-RUN-001) is $89.99, the Road one 120 USD.",
			prices: []string{"$89.99", "120 USD"}, skus: []string{"SHO-RUN-001"}},
		{text: "Куртка JAC-RAIN-02 стоит 1290 ₽, а шапка 450 руб.",
			prices: []string{"1290 ₽", "450 руб"}, skus: []string{"JAC-RAIN-02"}},
		{text: "€1,299.5 or £12", prices: []string{"€1,299.5", "£12"}},
		// Lower-case words with dashes and bare numbers are neither.
		{text: "a well-made t-shirt, 3 colours", nothingToFind: true},
	} {
		prices, skus := factcheck.Mentions(tc.text)
		if tc.nothingToFind {
			if len(prices)+len(skus) > 0 {
				t.Errorf("%q: found prices %q and SKUs %q in text with none", tc.text, prices, skus)
			}
			continue
		}
		if !reflect.DeepEqual(prices, tc.prices) || !reflect.DeepEqual(skus, tc.skus) {
			t.Errorf("%q: prices %q, SKUs %q; want %q, %q", tc.text, prices, skus, tc.prices, tc.skus)
		}
	}
}

func TestAmountsAndMinor(t *testing.T) {
	if got := factcheck.Amounts("waterproof jacket under 150, or 1,299.5 at most"); !reflect.DeepEqual(got, []int64{15000, 129950}) {
		t.Errorf("Amounts = %v, want [15000 129950]", got)
	}
	for mention, want := range map[string]int64{"$89.99": 8999, "120 USD": 12000, "€1,299.5": 129950, "1290 ₽": 129000} {
		if got, ok := factcheck.Minor(mention); !ok || got != want {
			t.Errorf("Minor(%q) = %d, %v; want %d", mention, got, ok, want)
		}
	}
	if _, ok := factcheck.Minor("no digits"); ok {
		t.Error("Minor read an amount from text without digits")
	}
}

func TestKnownCollectsEveryFigureTheToolsShowed(t *testing.T) {
	card := view.Card{SKU: "SHO-RUN-001", Title: "Trail Runner", Price: 8999, PriceText: "$89.99"}
	results := []toolkit.Result{
		{Cards: []view.Card{card}},
		{Cart: &view.CartView{Subtotal: 17998, Discount: 1000, Total: 16998,
			Lines: []view.CartLine{{SKU: "SHO-RUN-001", UnitPrice: 8999, LineTotal: 17998}}}},
		{Order: &view.OrderView{Total: 4000, Discount: 500,
			Lines: []view.OrderLine{{SKU: "HAT-WOOL-01", UnitPrice: 1500, Qty: 3}}}},
	}
	prices, skus, cards := factcheck.Known(results)
	for _, p := range []int64{8999, 17998, 1000, 16998, 4000, 4500, 500, 1500} {
		if !prices[p] {
			t.Errorf("price %d shown by a tool is not known", p)
		}
	}
	if prices[1234] {
		t.Error("a price no tool showed is known")
	}
	if !skus["SHO-RUN-001"] || !skus["HAT-WOOL-01"] || skus["NOPE-1"] {
		t.Errorf("SKUs known: %v", skus)
	}
	if len(cards) != 1 || cards[0].SKU != card.SKU {
		t.Errorf("cards = %+v, want the one listed", cards)
	}
}

func TestNote(t *testing.T) {
	if got := factcheck.Note("Catalog:", "Unchecked: %s", nil, nil, false); got != "" {
		t.Errorf("nothing to say gave %q", got)
	}
	line := factcheck.Line(view.Card{SKU: "SHO-RUN-001", Title: "Trail Runner", PriceText: "$89.99"})
	got := factcheck.Note("Catalog:", "Unchecked: %s", []string{line, line}, []string{"$5", "$5", "$7"}, false)
	want := "\n\nCatalog:\n• Trail Runner (SHO-RUN-001) — $89.99\n\nUnchecked: $5, $7"
	if got != want {
		t.Errorf("Note = %q, want %q", got, want)
	}
	// With products listed, the fix is enough: no warning about prices.
	if got := factcheck.Note("Catalog:", "Unchecked: %s", nil, []string{"$5"}, true); strings.Contains(got, "Unchecked") {
		t.Errorf("warned with products listed: %q", got)
	}
}
