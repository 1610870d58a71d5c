package admin_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/adapters"
	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// syncBuffer is a log the test reads while the panel writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// placeOrder places an order of one unit for a shopper on channel.
func placeOrder(t *testing.T, db *bun.DB, channel, user string) *catalog.Order {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: channel, PlatformUserID: user, DisplayName: user})
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := catalog.ListProductPage(ctx, db, catalog.ProductList{Stock: catalog.StockIn, Limit: 100, Sort: catalog.SortTitle})
	for len(ps) > 0 && ps[0].HasVariants() {
		ps = ps[1:]
	}
	if err != nil || len(ps) == 0 {
		t.Fatalf("no product to order: %v", err)
	}
	scope := catalog.PersonalCart(c.ID)
	if _, err := catalog.AddToCart(ctx, db, scope, ps[0].SKU, 1, c.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, db, catalog.OrderRequest{
		IdempotencyKey: channel + ":" + user, Scope: scope, CustomerID: c.ID, Channel: channel, ChatID: user,
		Contact: catalog.Contact{Name: user, Phone: "+1 555 0100", Address: "1 Main St"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestNoticeFailuresInSentences: a shopper on the terminal cannot be
// told of an order's new status; the merchant reads a sentence saying so
// (it read "adapters: no adapter delivers this notice: order_status to
// console"), and the Go error goes to the log. Other failures read as
// sentences too, a merchant's reply included.
func TestNoticeFailuresInSentences(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	var log syncBuffer
	p := newPanelConfig(t, db, func(c *admin.Config) {
		c.Notifier = adapters.NewHub() // no adapter runs: no channel is reached
		c.Logger = slog.New(slog.NewTextHandler(&log, nil))
	})
	f := seed(t, db)
	p.signIn()
	ctx := context.Background()
	console := placeOrder(t, db, "console", "terminal")

	p.post("/admin/orders/"+console.Number+"/status", url.Values{"status": {"paid"}})
	_, body := p.get("/admin/orders/" + console.Number)
	want := "The shopper chats on the terminal, which cannot receive notices; they were not notified."
	if !strings.Contains(body, want) || strings.Contains(body, "adapters:") || strings.Contains(body, "order_status") {
		t.Errorf("order page lacks %q or shows the Go error:\n%s", want, flashOf(body))
	}
	if !strings.Contains(log.String(), "no adapter delivers this notice: order_status to console") {
		t.Errorf("the Go error is not logged:\n%s", log.String())
	}

	p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"paid"}})
	_, body = p.get("/admin/orders/" + f.order.Number)
	if want := "The shopper chats on Telegram, which is not connected to this shop right now; they were not notified."; !strings.Contains(body, want) {
		t.Errorf("telegram order: want %q, flash %q", want, flashOf(body))
	}

	p.post(fmt.Sprintf("/admin/conversations/%d/reply", f.conv.ID), url.Values{"text": {"Hello from the shop"}})
	_, body = p.get(fmt.Sprintf("/admin/conversations/%d", f.conv.ID))
	if want := "Reply saved, but not delivered: The shopper chats on Telegram, which is not connected to this shop right now; they did not get your reply."; !strings.Contains(body, want) {
		t.Errorf("reply: want %q, flash %q", want, flashOf(body))
	}
	if o, _ := catalog.GetOrder(ctx, db, console.Number); o.Status != catalog.StatusPaid {
		t.Errorf("the change did not stand: %s", o.Status)
	}
}

// TestNoticeFailureKinds: a blocked bot, a channel that does not answer
// and one that refuses the message each read as a sentence.
func TestNoticeFailureKinds(t *testing.T) {
	p := newPanel(t, catalogtest.SQLiteDemo(t))
	f := seed(t, p.db)
	p.signIn()
	for _, tc := range []struct {
		status string
		err    error
		want   string
	}{
		{"paid", fmt.Errorf("%w: %w", view.ErrUnreachable, errors.New("telegram: chat unreachable")),
			"The shopper can no longer be reached on Telegram (they blocked the bot or left the chat); they were not notified."},
		{"shipped", fmt.Errorf("telegram: send: %w", context.DeadlineExceeded), "Telegram did not answer in time; they were not notified, as far as we know."},
		{"delivered", errors.New("telegram: Bad Request: message is too long"), "Telegram did not take the message; they were not notified. The details are in the log."},
	} {
		p.notes.err = tc.err
		p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {tc.status}})
		_, body := p.get("/admin/orders/" + f.order.Number)
		if !strings.Contains(body, "Order "+f.order.Number+" is now "+tc.status+". "+tc.want) || strings.Contains(body, "telegram:") {
			t.Errorf("%v: want %q, flash %q", tc.err, tc.want, flashOf(body))
		}
	}
	// A refused change reads as a sentence, without the package prefix.
	code, _, body := p.post("/admin/orders/"+f.order.Number+"/status", url.Values{"status": {"cancelled"}})
	want := "Order " + f.order.Number + ": invalid order status change: a delivered order cannot be cancelled."
	if code != 409 || !strings.Contains(body, want) || strings.Contains(body, "catalog:") {
		t.Errorf("cancel after delivery = %d, want %q:\n%.3000s", code, want, body)
	}
}

// flashOf is the flash message of a page, for error messages.
func flashOf(body string) string {
	_, rest, ok := strings.Cut(body, `<p class="flash" role="status">`)
	if !ok {
		return "(no flash)"
	}
	flash, _, _ := strings.Cut(rest, "</p>")
	return flash
}
