package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/team"
)

// TestCustomerPages: the list finds a customer by phone and channel id;
// the owner exports their data (recorded in the audit log) and erases it,
// orders kept; an agent may look but not export or erase.
func TestCustomerPages(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	ctx := context.Background()
	if err := catalog.SaveContact(ctx, p.db, f.customer.ID, catalog.Contact{Name: "Eve", Phone: "+1 555 0100"}); err != nil {
		t.Fatal(err)
	}
	p.signIn()
	for _, q := range []string{"555%200100", "4242", "eve"} {
		if _, page := p.get("/admin/customers?q=" + q); !strings.Contains(page, "/admin/customers/"+itoa(f.customer.ID)+`"`) {
			t.Errorf("search %q does not find the customer", q)
		}
	}
	if _, page := p.get("/admin/customers?q=nobody-like-this"); strings.Contains(page, "/admin/customers/"+itoa(f.customer.ID)+`"`) {
		t.Error("a search for nobody lists the customer")
	}
	agent := roleClient(t, p, "ann", team.StaffAgent)
	id := itoa(f.customer.ID)
	if code, _ := agent.get("/admin/customers/" + id); code != http.StatusOK {
		t.Errorf("agent opens the customer = %d", code)
	}
	if code, _ := agent.get("/admin/customers/" + id + "/export"); code != http.StatusForbidden {
		t.Errorf("agent export = %d, want 403", code)
	}
	if code, _, _ := agent.post("/admin/customers/"+id+"/forget", nil); code != http.StatusForbidden {
		t.Errorf("agent forget = %d, want 403", code)
	}
	code, body := p.get("/admin/customers/" + id + "/export")
	var x catalog.CustomerExport
	if code != http.StatusOK || json.Unmarshal([]byte(body), &x) != nil || len(x.Orders) != 1 || x.Customer.Phone != "+1 555 0100" {
		t.Fatalf("export = %d:\n%.500s", code, body)
	}
	if code, _, _ := p.post("/admin/customers/"+id+"/forget", nil); code != http.StatusSeeOther {
		t.Fatalf("forget = %d", code)
	}
	o, err := catalog.GetOrder(ctx, p.db, f.order.Number)
	if err != nil || o.ContactName != "" || o.Phone != "" || o.Total != f.order.Total {
		t.Errorf("order after erasure = %+v, %v", o, err)
	}
	es, _ := catalog.ListAudit(ctx, p.db, catalog.AuditFilter{Action: "customer."})
	if len(es) != 2 {
		t.Errorf("customer audit entries = %d, want export and forget", len(es))
	}
}
