package demo

import (
	"slices"
	"strings"
	"testing"

	"shopbot/catalog"
)

// TestParseSpec: values from the listing's attribute, price differences
// up and down, and specs the demo must not ship with.
func TestParseSpec(t *testing.T) {
	in := catalog.ProductInput{SKU: "X-1", Currency: "USD", Price: 5000, Stock: 9,
		Attributes: map[string]string{"size": "40, 41 ,42", "color": "red"}}
	opts, err := parseSpec("color=red|forest green;size=@", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) != 2 || !slices.Equal(opts[0].values, []string{"red", "forest green"}) || !slices.Equal(opts[1].values, []string{"40", "41", "42"}) {
		t.Errorf("options %+v", opts)
	}
	opts, err = parseSpec("size=Twin-10.00|Full|King+20.00", in)
	if err != nil || !slices.Equal(opts[0].values, []string{"Twin", "Full", "King"}) || !slices.Equal(opts[0].extra, []int64{-1000, 0, 2000}) {
		t.Errorf("priced options %+v, %v", opts, err)
	}
	for _, bad := range []string{
		"", "size", "size=", "material=@", // no such attribute
		"size=M|L+ten.00", "a=1;b=2;c=3;d=4", "size=M||L",
	} {
		if _, err := parseSpec(bad, in); err == nil {
			t.Errorf("spec %q accepted", bad)
		}
	}
}

// TestExpand: a listing becomes a parent with one variant per
// combination, its stock shared out to the unit, a sold-out listing's
// variants all sold out.
func TestExpand(t *testing.T) {
	p := Product{Input: catalog.ProductInput{SKU: "X-1", Title: "Tee", Currency: "USD", Price: 2000, Stock: 17,
		Attributes: map[string]string{"size": "S, M, L"}}}
	if err := expand(&p, "color=navy|forest green;size=@"); err != nil {
		t.Fatal(err)
	}
	if len(p.Variants) != 6 || p.Input.Stock != 17 || !slices.Equal(p.Input.OptionNames, []string{"color", "size"}) {
		t.Fatalf("%d variants, stock %d, names %v", len(p.Variants), p.Input.Stock, p.Input.OptionNames)
	}
	if v := p.Variants[3]; v.SKU != "X-1-FORESTGREEN-S" || v.Options["color"] != "forest green" || v.Attributes["size"] != "s" || v.VariantOf != "X-1" || v.Title != "" {
		t.Errorf("variant %+v", v)
	}
	none := Product{Input: catalog.ProductInput{SKU: "X-2", Title: "Boot", Currency: "USD", Price: 9000,
		Attributes: map[string]string{"size": "40, 41, 42, 43"}}}
	if err := expand(&none, "size=@"); err != nil {
		t.Fatal(err)
	}
	for _, v := range none.Variants {
		if v.Stock != 0 || !strings.HasPrefix(v.SKU, "X-2-4") {
			t.Errorf("sold-out listing's variant %s has %d", v.SKU, v.Stock)
		}
	}
}
