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
	"shopbot/engine/view"
)

// TestOrderStatusNotifiesShopper walks an order through paid, shipped
// (with a tracking note) and delivered; each change reaches the shopper's
// chat through the notifier.
func TestOrderStatusNotifiesShopper(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	ctx := context.Background()
	path := "/admin/orders/" + f.order.Number + "/status"
	steps := []struct{ status, tracking string }{{"paid", ""}, {"shipped", "DHL 0034 5678"}, {"delivered", ""}}
	for i, st := range steps {
		code, loc, _ := p.post(path, url.Values{"status": {st.status}, "tracking": {st.tracking}})
		if code != http.StatusSeeOther || loc != "/admin/orders/"+f.order.Number {
			t.Fatalf("%s = %d → %s", st.status, code, loc)
		}
		notes := p.notes.all()
		if len(notes) != i+1 {
			t.Fatalf("after %s: %d notices", st.status, len(notes))
		}
		n := notes[i]
		if n.Kind != view.NoticeOrderStatus || n.Where != (catalog.ConversationKey{Channel: "telegram", ChatID: "4242"}) ||
			n.Order == nil || n.Order.Number != f.order.Number || n.Order.Status != st.status || n.ConversationID != f.conv.ID {
			t.Errorf("notice %+v", n)
		}
		if st.tracking != "" && n.Order.Tracking != st.tracking {
			t.Errorf("tracking %q, want %q", n.Order.Tracking, st.tracking)
		}
	}
	_, body := p.get("/admin/orders/" + f.order.Number)
	if !strings.Contains(body, "DHL 0034 5678") || !strings.Contains(body, "shopper was notified in Telegram") {
		t.Errorf("order page after delivery:\n%.3000s", body)
	}
	// Delivered is final: the change is refused, nothing is sent.
	code, _, _ := p.post(path, url.Values{"status": {"cancelled"}})
	if code != http.StatusConflict || len(p.notes.all()) != 3 {
		t.Errorf("cancel after delivery = %d, %d notices", code, len(p.notes.all()))
	}
	if code, _, _ := p.post(path, url.Values{"status": {"lost"}}); code != http.StatusConflict {
		t.Errorf("unknown status = %d", code)
	}
	if o, _ := catalog.GetOrder(ctx, p.db, f.order.Number); o.Status != catalog.StatusDelivered {
		t.Errorf("status %s", o.Status)
	}
}

// TestCancelReturnsStock: cancelling puts the items back on the shelf.
func TestCancelReturnsStock(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		p := newPanel(t, db)
		f := seed(t, db)
		p.signIn()
		ctx := context.Background()
		before, _ := catalog.GetProduct(ctx, db, f.sku)
		if code, _, _ := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"cancelled"}}); code != http.StatusSeeOther {
			t.Fatalf("cancel = %d", code)
		}
		after, _ := catalog.GetProduct(ctx, db, f.sku)
		if after.Stock != before.Stock+2 {
			t.Errorf("stock %d → %d, want +2", before.Stock, after.Stock)
		}
		if n := p.notes.all(); len(n) != 1 || n[0].Order.Status != "cancelled" {
			t.Errorf("notices %+v", n)
		}
	})
}

// TestOrderNoticeFailureIsReported: the change stands, and the merchant
// is told the shopper was not reached.
func TestOrderNoticeFailureIsReported(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.notes.err = errors.New("telegram: Bad Request: chat not found")
	p.signIn()
	p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"paid"}})
	_, body := p.get("/admin/orders/" + f.order.Number)
	if !strings.Contains(body, "Telegram did not take the message; they were not notified.") || strings.Contains(body, "chat not found") {
		t.Errorf("no failure message:\n%.2000s", body)
	}
}

func TestOrderFilters(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	for q, want := range map[string]bool{
		"status=new": true, "status=paid": false, "channel=telegram": true, "channel=slack": false,
		"from=2000-01-01": true, "to=2000-01-01": false, "from=2999-01-01": false,
	} {
		_, body := p.get("/admin/orders?" + q)
		if strings.Contains(body, f.order.Number) != want {
			t.Errorf("?%s lists the order: %v, want %v", q, !want, want)
		}
	}
	_, body := p.get("/admin/orders?from=yesterday")
	if !strings.Contains(body, "From must be a date") {
		t.Error("a bad date is not reported")
	}
}

// TestOrderListItems: the list shows each order's units, not 0 (it used
// to count Items, which the list never loaded).
func TestOrderListItems(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db) // one line of 2 units
	p.signIn()
	_, body := p.get("/admin/orders")
	row := body[strings.Index(body, f.order.Number):]
	row = row[:strings.Index(row, "</tr>")]
	if !strings.Contains(row, `<td class="num items" title="1 line">2</td>`) {
		t.Errorf("order row lacks its 2 units:\n%s", row)
	}
}
