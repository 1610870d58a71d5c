package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestAdminReturns: a shopper's return shows in the returns list and on
// its order page; moving it on records an audit entry and tells the
// shopper; the same form again (a stale page) changes nothing; refunded
// puts the units back in stock.
func TestAdminReturns(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	f := seed(t, db)
	p.signIn()
	ctx := context.Background()
	for _, st := range []catalog.OrderStatus{catalog.StatusShipped, catalog.StatusDelivered} {
		if _, err := catalog.SetOrderStatus(ctx, db, f.order.Number, st, ""); err != nil {
			t.Fatal(err)
		}
	}
	ret, _, err := catalog.RequestReturn(ctx, db, catalog.ReturnRequest{Number: f.order.Number, Key: "turn-1",
		Kind: catalog.ReturnMoneyBack, Reason: "arrived scratched", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if _, body := p.get("/admin/returns?status=requested"); !strings.Contains(body, f.order.Number) || !strings.Contains(body, "arrived scratched") {
		t.Fatalf("returns list:\n%.2000s", body)
	}
	if _, body := p.get("/admin/orders/" + f.order.Number); !strings.Contains(body, `id="returns"`) || !strings.Contains(body, "/admin/returns/"+strconv.FormatInt(ret.ID, 10)+"/status") {
		t.Fatalf("order page has no return form:\n%.3000s", body)
	}
	before, _ := catalog.GetProduct(ctx, db, f.sku)
	path := "/admin/returns/" + strconv.FormatInt(ret.ID, 10) + "/status"
	for _, step := range []struct{ next, seen string }{{"approved", "requested"}, {"received", "approved"}, {"refunded", "received"}} {
		if code, _, _ := p.post(path, url.Values{"status": {step.next}, "seen": {step.seen}, "note": {"thanks"}}); code != http.StatusSeeOther {
			t.Fatalf("→ %s = %d", step.next, code)
		}
	}
	if code, _, _ := p.post(path, url.Values{"status": {"approved"}, "seen": {"requested"}}); code == http.StatusSeeOther {
		t.Errorf("a stale form moved a refunded return")
	}
	got, _ := catalog.GetReturn(ctx, db, ret.ID)
	after, _ := catalog.GetProduct(ctx, db, f.sku)
	if got.Status != catalog.ReturnRefunded || after.Stock <= before.Stock {
		t.Errorf("return %s, stock %d → %d", got.Status, before.Stock, after.Stock)
	}
	es, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{Action: "return."})
	if len(es) < 3 {
		t.Errorf("audit entries %+v", es)
	}
	if n := p.notes.all(); len(n) < 3 {
		t.Errorf("shopper told %d times, want 3", len(n))
	}
}
