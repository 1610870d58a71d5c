package admin_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSimpleProductsShowNoVariantCount: a product without variants shows
// its stock alone in the list (it read "0 variants").
func TestSimpleProductsShowNoVariantCount(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	_, body := p.get("/admin/products?sort=title")
	if strings.Contains(body, ">0 variants<") {
		t.Errorf("a simple product reads 0 variants:\n%.3000s", body)
	}
	if !strings.Contains(body, " variants</div>") {
		t.Errorf("no product with variants shows its count:\n%.3000s", body)
	}
}

// TestDeliveryTableHeadings: the methods are a table under column
// headings, each row's inputs posting with its own form.
func TestDeliveryTableHeadings(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	p.signIn()
	if code, _, body := p.post("/admin/settings/delivery", url.Values{"name": {"Courier"}, "price": {"5"}, "countries": {"any"}, "days_min": {"1"}, "days_max": {"3"}, "active": {"1"}}); code != 303 {
		t.Fatalf("add = %d:\n%.1500s", code, body)
	}
	ms, err := catalog.ListDeliveryMethods(context.Background(), p.db)
	if err != nil || len(ms) == 0 {
		t.Fatalf("methods: %v", err)
	}
	id := itoa(ms[len(ms)-1].ID)
	_, body := p.get("/admin/settings/delivery")
	for _, want := range []string{
		"<th>Name</th><th>Price (USD)</th><th>Free from</th><th>Countries</th><th>Days</th><th>Pickup</th><th>Active</th><th>Position</th>",
		`<input form="delivery-` + id + `" name="name" value="Courier"`,
		`<form id="delivery-` + id + `" method="post" action="/admin/settings/delivery/` + id + `">`,
		`<input form="new-delivery" name="name" value=""`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("delivery page lacks %s", want)
		}
	}
}

// TestDashboardCountsInWords: one order reads "1 order", not "1 orders".
func TestDashboardCountsInWords(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	seed(t, p.db) // one order
	p.signIn()
	_, body := p.get("/admin/")
	if !strings.Contains(body, ">1 order<") || strings.Contains(body, "1 orders") {
		t.Errorf("dashboard:\n%.4000s", body)
	}
}
