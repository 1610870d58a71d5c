package admin_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"shopbot/catalog/catalogtest"
)

// TestOrdersCSVExport: the export holds the orders the list's filters
// select (customer included); a cell a spreadsheet would run as a formula
// (= + - @) starts with an apostrophe; bad filters are refused; an agent
// may not export; the packing slip lists what to pack and where.
func TestOrdersCSVExport(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	ctx := context.Background()
	if _, err := p.db.NewUpdate().Table("orders").Set("contact_name = ?", "=HYPERLINK(\"http://evil\")").
		Set("shipping_address = ?", "@SUM(A1)").Set("email = ?", "-2+3").Where("id = ?", f.order.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	p.signIn()
	code, _, body := p.do("GET", "/admin/orders.csv?customer="+itoa(f.customer.ID), nil)
	if code != http.StatusOK {
		t.Fatalf("export = %d\n%s", code, body)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("export rows = %d, %v:\n%s", len(rows), err, body)
	}
	col := map[string]string{}
	for i, h := range rows[0] {
		col[h] = rows[1][i]
	}
	for name, want := range map[string]string{
		"number": f.order.Number, "contact_name": "'=HYPERLINK(\"http://evil\")", "shipping_address": "'@SUM(A1)",
		"email": "'-2+3", "phone": "'+1 555 0100", "units": "2",
	} {
		if col[name] != want {
			t.Errorf("%s = %q, want %q", name, col[name], want)
		}
	}
	for _, cell := range rows[1] {
		if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
			t.Errorf("cell %q can run as a formula", cell)
		}
	}
	if _, _, body := p.do("GET", "/admin/orders.csv?customer=999999", nil); strings.Count(body, "\n") != 1 {
		t.Errorf("another customer's export has rows:\n%s", body)
	}
	if code, _, _ := p.do("GET", "/admin/orders.csv?from=yesterday", nil); code != http.StatusBadRequest {
		t.Errorf("bad date = %d, want 400", code)
	}
	if _, page := p.get("/admin/orders?customer=999999"); strings.Contains(page, f.order.Number) {
		t.Error("the list filtered by another customer shows this order")
	}
	agent := roleClient(t, p, "ann", "agent")
	if code, _ := agent.get("/admin/orders.csv"); code != http.StatusForbidden {
		t.Errorf("agent export = %d, want 403", code)
	}
	code, slip := agent.get("/admin/orders/" + f.order.Number + "/slip")
	if code != http.StatusOK || !strings.Contains(slip, f.sku) || !strings.Contains(slip, "@SUM(A1)") || !strings.Contains(slip, `class="num">2<`) {
		t.Errorf("packing slip = %d:\n%.3000s", code, slip)
	}
}
