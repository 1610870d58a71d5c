package admin_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestAuditAtLeastOnce injects failures around an audited change: when
// the pending entry cannot be written the change is refused and nothing
// is made; when the process "dies" after the change but before the
// confirmation, the change is kept with its entry, shown as unconfirmed.
func TestAuditAtLeastOnce(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		p := newPanel(t, db)
		f := seed(t, db)
		p.signIn()
		status := func() catalog.OrderStatus {
			o, err := catalog.GetOrder(ctx, db, f.order.Number)
			if err != nil {
				t.Fatal(err)
			}
			return o.Status
		}
		before := status()
		injected := errors.New("injected audit failure")

		// The pending entry cannot be written: 503, no change, no entry.
		p.admin.FailAudit(func(stage string) error {
			if stage == "begin" {
				return injected
			}
			return nil
		})
		if code, _, body := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"paid"}}); code != http.StatusServiceUnavailable || !strings.Contains(body, "not made") {
			t.Fatalf("status with the audit log failing = %d, want 503 with a sentence\n%s", code, body)
		}
		if got := status(); got != before {
			t.Fatalf("order status = %s after a refused change, want %s", got, before)
		}
		if es, _ := catalog.ListAudit(ctx, db, catalog.AuditFilter{}); len(es) != 0 {
			t.Fatalf("entries after a refused change: %+v", es)
		}

		// A crash between the change and its confirmation: the change is
		// made and its entry stays, pending.
		p.admin.FailAudit(func(stage string) error {
			if stage == "end" {
				return injected
			}
			return nil
		})
		if code, _, body := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"paid"}}); code != http.StatusSeeOther {
			t.Fatalf("status = %d\n%s", code, body)
		}
		if got := status(); got != catalog.OrderStatus("paid") {
			t.Fatalf("order status = %s, want paid", got)
		}
		es, err := catalog.ListAudit(ctx, db, catalog.AuditFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 1 || es[0].Action != "order.status" || !es[0].Pending || es[0].Detail != "status=paid" || es[0].Subject != f.order.Number {
			t.Fatalf("entries after a crash before confirmation = %+v, want one pending order.status", es)
		}
		if _, page := p.get("/admin/audit"); !strings.Contains(page, "unconfirmed") {
			t.Errorf("the audit page does not mark the pending entry as unconfirmed")
		}

		// Without failures: a refused change leaves no entry, a made one a
		// confirmed entry.
		p.admin.FailAudit(nil)
		if code, _, _ := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"no-such-status"}}); code < 400 {
			t.Fatalf("bad status = %d, want a refusal", code)
		}
		if code, _, _ := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"shipped"}, "tracking": {"TRK1"}}); code != http.StatusSeeOther {
			t.Fatalf("ship = %d", code)
		}
		es, _ = catalog.ListAudit(ctx, db, catalog.AuditFilter{})
		if len(es) != 2 || es[0].Pending || !strings.Contains(es[0].Detail, "status=shipped") {
			t.Errorf("entries = %+v, want the pending one and a confirmed shipped one", es)
		}
	})
}
