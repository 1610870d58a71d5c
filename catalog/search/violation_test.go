package search_test

import (
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

func TestQueryViolation(t *testing.T) {
	p := catalog.Product{
		Active: true, Price: 8999, Stock: 3,
		Category:   &catalog.Category{Path: "Shoes > Running > Trail"},
		Attributes: map[string]string{"Color": "Red", "size": "40, 41, 42"},
	}
	for _, tc := range []struct {
		q    search.Query
		want string
	}{
		{search.Query{}, ""},
		{search.Query{MinPrice: 5000, MaxPrice: 8999, InStockOnly: true}, ""},
		{search.Query{Category: "Shoes > Running"}, ""},
		{search.Query{Category: "running"}, ""},
		{search.Query{Category: "Running > Trail"}, ""},
		{search.Query{Attributes: map[string]string{"color": "red", "Size": " 41 "}}, ""},
		{search.Query{MinPrice: 9000}, "price below minimum"},
		{search.Query{MaxPrice: 8998}, "price above maximum"},
		{search.Query{Category: "Shoes > Trail"}, "outside category Shoes > Trail"},
		{search.Query{Category: "Run"}, "outside category Run"},
		{search.Query{Attributes: map[string]string{"size": "4"}}, "attribute size is not 4"},
		{search.Query{Attributes: map[string]string{"material": "leather"}}, "attribute material is not leather"},
	} {
		if got := tc.q.Violation(p); got != tc.want {
			t.Errorf("%+v: Violation = %q, want %q", tc.q, got, tc.want)
		}
	}
	out := p
	out.Stock = 0
	if got := (search.Query{InStockOnly: true}).Violation(out); got != "out of stock" {
		t.Errorf("out of stock: %q", got)
	}
	inactive := p
	inactive.Active = false
	if got := (search.Query{}).Violation(inactive); got != "inactive" {
		t.Errorf("inactive: %q", got)
	}
	if got := (search.Query{Category: "Shoes"}).Violation(catalog.Product{Active: true}); got == "" {
		t.Error("a product without a category is in every category")
	}
}
