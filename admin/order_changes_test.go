package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

var formKeyRE = regexp.MustCompile(`name="key" value="([^"]+)"`)

func orderFormKey(t *testing.T, p *panel, number string) (string, string) {
	t.Helper()
	_, body := p.get("/admin/orders/" + number)
	m := formKeyRE.FindStringSubmatch(body)
	if m == nil {
		return "", body
	}
	return m[1], body
}

// The Cancel button shows on a new order; pressed several times at once
// with the page's form it cancels once and returns the stock once. A
// form without the CSRF token changes nothing.
func TestAdminCancelOrderOnce(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, db)
		p.signIn()
		ctx := context.Background()
		key, body := orderFormKey(t, p, f.order.Number)
		if !strings.Contains(body, `id="cancel-form"`) || strings.Contains(body, `id="refund-form"`) {
			t.Fatalf("new order page: cancel form missing or refund form shown:\n%.2000s", body)
		}
		path := "/admin/orders/" + f.order.Number + "/cancel"
		if code, _, _ := p.post(path, url.Values{"key": {key}, "csrf": {"forged"}}); code != http.StatusForbidden {
			t.Errorf("forged CSRF = %d", code)
		}
		before, _ := catalog.GetProduct(ctx, db, f.sku)
		var wg sync.WaitGroup
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if code, _, _ := p.post(path, url.Values{"key": {key}}); code != http.StatusSeeOther {
					t.Errorf("cancel = %d", code)
				}
			}()
		}
		wg.Wait()
		after, _ := catalog.GetProduct(ctx, db, f.sku)
		if after.Stock != before.Stock+2 {
			t.Errorf("stock %d → %d, want +2", before.Stock, after.Stock)
		}
		if n := p.notes.all(); len(n) != 1 || n[0].Kind != view.NoticeOrderStatus || n[0].Order.Status != "cancelled" {
			t.Errorf("notices %+v", n)
		}
		_, body = p.get("/admin/orders/" + f.order.Number)
		if strings.Contains(body, `id="cancel-form"`) || strings.Contains(body, `id="refund-form"`) {
			t.Errorf("a cancelled order still offers changes")
		}
	})
}

// A paid order is refunded by line; hostile quantities are refused and
// change nothing; the shopper hears of the refund; a shipped order can be
// refunded but not cancelled.
func TestAdminRefundOrder(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	p := newPanel(t, db)
	f := seed(t, db)
	p.signIn()
	ctx := context.Background()
	if _, err := catalog.SetOrderStatus(ctx, db, f.order.Number, catalog.StatusShipped, ""); err != nil {
		t.Fatal(err)
	}
	key, body := orderFormKey(t, p, f.order.Number)
	if strings.Contains(body, `id="cancel-form"`) || !strings.Contains(body, `id="refund-form"`) {
		t.Fatalf("shipped order page: cancel shown or refund missing:\n%.2000s", body)
	}
	line := "qty_" + itoa(f.order.Items[0].ID)
	path := "/admin/orders/" + f.order.Number + "/refund"
	for name, form := range map[string]url.Values{
		"more than bought": {"key": {key}, "seen": {"0"}, line: {"3"}},
		"negative":         {"key": {key}, "seen": {"0"}, line: {"-1"}},
		"not a number":     {"key": {key}, "seen": {"0"}, line: {"two"}},
		"other order line": {"key": {key}, "seen": {"0"}, "qty_999999": {"1"}},
		"nothing":          {"key": {key}, "seen": {"0"}},
		"no seen":          {"key": {key}, line: {"1"}},
	} {
		if code, _, _ := p.post(path, form); code != http.StatusBadRequest {
			t.Errorf("%s = %d, want 400", name, code)
		}
	}
	if got, _ := catalog.GetProduct(ctx, db, f.sku); got.Stock != f.stock-2 {
		t.Fatalf("stock after refused refunds = %d", got.Stock)
	}
	for range 2 { // the same form twice
		if code, _, _ := p.post(path, url.Values{"key": {key}, "seen": {"0"}, line: {"1"}}); code != http.StatusSeeOther {
			t.Fatalf("refund = %d", code)
		}
	}
	o, _ := catalog.GetOrder(ctx, db, f.order.Number)
	if got, _ := catalog.GetProduct(ctx, db, f.sku); got.Stock != f.stock-1 || o.Items[0].RefundedQty != 1 || o.RefundedTotal != o.Items[0].UnitPrice {
		t.Errorf("after refund: stock %d, order %+v", got.Stock, o)
	}
	n := p.notes.all()
	if len(n) != 1 || !strings.Contains(n[0].Text, catalog.RefundNote) {
		t.Errorf("notices %+v", n)
	}
	_, body = p.get("/admin/orders/" + f.order.Number)
	if !strings.Contains(body, `id="order-refunded"`) || !strings.Contains(body, "admin") {
		t.Errorf("order page misses the refund")
	}
}
