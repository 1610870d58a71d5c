package admin_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"shopbot/adapters"
	"shopbot/adapters/web"
	"shopbot/admin"
	"shopbot/admin/browsertest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
	"shopbot/engine/view"
)

// dialogs answers the JavaScript dialogs a test expects: the panel's
// confirmations (static/confirm.js). Any other dialog means some text was
// rendered as script: the test fails.
type dialogs struct {
	mu      sync.Mutex
	answers []bool      // accept or dismiss the next dialogs, in order
	seen    chan string // the messages of the expected dialogs
}

// expect answers the next dialog: accept (OK) or dismiss (Cancel).
func (d *dialogs) expect(accept bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers = append(d.answers, accept)
}

// next pops the answer to a dialog that opened; ok is false when none
// was expected.
func (d *dialogs) next() (accept, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.answers) == 0 {
		return false, false
	}
	accept = d.answers[0]
	d.answers = d.answers[1:]
	return accept, true
}

// wait waits for an expected dialog to have opened and been answered;
// its message must contain want.
func (d *dialogs) wait(t *testing.T, want string) {
	t.Helper()
	select {
	case msg := <-d.seen:
		if !strings.Contains(msg, want) {
			t.Errorf("dialog %q, want it to say %q", msg, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no dialog saying %q", want)
	}
}

// browser starts chromium (browsertest) and fails the test on any
// JavaScript dialog it did not expect.
func browser(t *testing.T) (context.Context, *dialogs) {
	t.Helper()
	ctx := browsertest.Start(t, browsertest.Options{})
	// A dialog the test did not expect means some text was rendered as
	// script: fail.
	dlg := &dialogs{seen: make(chan string, 8)}
	chromedp.ListenTarget(ctx, func(ev any) {
		d, ok := ev.(*page.EventJavascriptDialogOpening)
		if !ok {
			return
		}
		accept, expected := dlg.next()
		if !expected {
			t.Errorf("a JavaScript dialog opened: %q (escaping failed)", d.Message)
		}
		go chromedp.Run(ctx, page.HandleJavaScriptDialog(accept))
		if expected {
			dlg.seen <- d.Message
		}
	})
	return ctx, dlg
}

// shopperChannel is the fake Telegram adapter: what the hub routes to
// shoppers on telegram lands here.
type shopperChannel struct{ fakeNotifier }

// TestEndToEnd drives the panel in a real browser: sign in, create a
// product and find it in the playground, import a CSV with a bad row,
// read a transcript, take the conversation over and reply (delivered
// through the fake channel), ship an order (shopper notified), refund one
// unit of it, create a promo code and a delivery method, edit a product's
// variant table (stock, price, a new row) and find the rolled-up stock in
// the list, and screenshot the dashboard.
func TestEndToEnd(t *testing.T) {
	ctx, dlg := browser(t)
	db := catalogtest.SQLiteDemo(t)
	newPanel(t, db) // loads the demo catalog and creates the admin user
	f := seed(t, db)

	hub := adapters.NewHub()
	telegram := &shopperChannel{}
	hub.Shoppers("telegram", telegram)
	reg := prometheus.NewRegistry()
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db), Registry: reg, Notifier: hub})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(admin.Handler(admin.New(admin.Config{
		Registry: reg, DB: db, Notifier: hub,
		Settings: catalog.NewSettingsStore(db, catalog.Settings{ShopName: "E2E Shop", Currency: "USD", MaxRounds: 5, RateLimit: 20, RateWindow: time.Minute}),
		Ready:    func(context.Context) error { return nil },
		Replayer: &fakeReplayer{turns: replayTurns, release: released()},
	}), web.New(eng, nil)))
	defer srv.Close()
	base := srv.URL
	text := func(sel string) string {
		var s string
		if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
			t.Fatalf("read %s: %v", sel, err)
		}
		return s
	}
	run := func(step string, actions ...chromedp.Action) {
		t.Helper()
		// A step of its own deadline, so a stuck one is reported with
		// the page it is stuck on while the browser is still there.
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Run(sctx, actions...); err != nil {
			var loc, body string
			chromedp.Run(ctx, chromedp.Location(&loc), chromedp.Text("body", &body, chromedp.ByQuery))
			t.Fatalf("%s: %v (at %s)\n%.1500s", step, err, loc, body)
		}
	}

	run("sign in",
		chromedp.Navigate(base+"/admin/"),
		chromedp.WaitVisible(`input[name=username]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=username]`, "admin", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, testPassword, chromedp.ByQuery),
		chromedp.Submit(`input[name=password]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//figcaption[contains(., "Conversations per day")]`),
	)

	run("create a product",
		chromedp.Navigate(base+"/admin/products/new"),
		chromedp.SendKeys(`input[name=sku]`, "E2E-POLE-1", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=title]`, "Glacierline Carbon Trekking Poles", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=brand]`, "Glacierline", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=category]`, "Outdoor > Hiking", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=price]`, "79.90", chromedp.ByQuery),
		chromedp.SetValue(`input[name=stock]`, "5", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Save"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Saved E2E-POLE-1")]`),
	)
	if pr, err := catalog.GetProduct(context.Background(), db, "E2E-POLE-1"); err != nil || pr.Price != 7990 || pr.Stock != 5 {
		t.Fatalf("created product: %+v %v", pr, err)
	}

	run("find it in the playground",
		chromedp.Navigate(base+"/admin/playground"),
		chromedp.WaitVisible(`#pg-input`, chromedp.ByQuery),
		chromedp.SendKeys(`#pg-input`, "glacierline trekking poles", chromedp.ByQuery),
		chromedp.Click(`#pg-form button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.pg-card[data-sku="E2E-POLE-1"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//details[contains(@class, "pg-call")]/summary[contains(., "search_products")]`),
	)
	if s := text(`.pg-card[data-sku="E2E-POLE-1"]`); !strings.Contains(s, "$79.90") {
		t.Errorf("playground card %q lacks the price", s)
	}
	if s := text(`#pg-tools`); !strings.Contains(s, "glacierline trekking poles") {
		t.Errorf("tool panel %q lacks the query", s)
	}

	csvPath := filepath.Join(t.TempDir(), "spring.csv")
	os.WriteFile(csvPath, []byte("sku,title,price,currency,stock\nSPR-1,Spring Fleece,49.00,USD,4\nSPR-2,Broken Row,forty,USD,1\n"), 0o644)
	run("preview a CSV with a bad row",
		chromedp.Navigate(base+"/admin/import"),
		chromedp.SetUploadFiles(`input[type=file]`, []string{csvPath}, chromedp.ByQuery),
		chromedp.Click(`//button[text()="Preview"]`),
		chromedp.WaitVisible(`#import-preview`, chromedp.ByQuery),
	)
	if s := text(`#preview-counts`); !strings.Contains(s, "add 1 new products") || !strings.Contains(s, "refuse 1 rows") {
		t.Errorf("preview counts %q", s)
	}
	run("confirm the import",
		chromedp.Click(`//button[text()="Import"]`),
		// The job page refreshes itself until the import is done.
		chromedp.WaitVisible(`#import-job[data-state="done"] #import-state`, chromedp.ByQuery),
		chromedp.WaitVisible(`#row-errors`, chromedp.ByQuery),
	)
	if s := text(`#import-state`); !strings.Contains(s, "imported 1, updated 0, failed 1") {
		t.Errorf("import state %q", s)
	}
	if s := text(`#row-errors tbody`); !strings.Contains(s, "SPR-2") || !strings.Contains(s, "3") {
		t.Errorf("row errors %q", s)
	}

	convLink := `a[href="/admin/conversations/` + itoa(f.conv.ID) + `"]`
	run("open the transcript",
		chromedp.Navigate(base+"/admin/conversations"),
		chromedp.Click(convLink, chromedp.ByQuery),
		chromedp.WaitVisible(`#transcript`, chromedp.ByQuery),
	)
	if s := text(`#transcript`); !strings.Contains(s, xss) {
		t.Errorf("the shopper's message is not shown as text: %q", s)
	}
	run("replay the conversation with current settings",
		chromedp.Click(`#replay-conversation`, chromedp.ByQuery),
		chromedp.WaitVisible(`#replay-turns`, chromedp.ByQuery),
		chromedp.WaitVisible(`#replay-turns tr.changed .diff`, chromedp.ByQuery),
	)
	// Then (marked) and now (marked) side by side.
	if s := text(`#replay-turns tr.changed`); !strings.Contains(s, "SHO-RUN-001 SHO-RUN-002") || !strings.Contains(s, "SHO-RUN-001 SHO-RUN-003") {
		t.Errorf("changed turn %q", s)
	}
	run("replay the last day in the background",
		chromedp.Navigate(base+"/admin/replay"),
		chromedp.Click(`//button[text()="Replay"]`),
		// The page refreshes itself until the batch is done.
		chromedp.WaitVisible(`#replay-job[data-state="done"] #replay-state`, chromedp.ByQuery),
		chromedp.WaitVisible(`#replay-changed`, chromedp.ByQuery),
	)
	if s := text(`#replay-changed tbody`); !strings.Contains(s, "running shoes") || !strings.Contains(s, "products") {
		t.Errorf("changed turns %q", s)
	}
	run("back to the transcript",
		chromedp.Navigate(base+"/admin/conversations/"+itoa(f.conv.ID)),
		chromedp.WaitVisible(`#transcript`, chromedp.ByQuery),
	)
	run("take over and reply",
		chromedp.Click(`//button[text()="Take over"]`),
		chromedp.WaitVisible(`//button[text()="Hand back to the bot"]`),
		chromedp.SendKeys(`textarea[name=text]`, "Hello Eve, a person here. We will source those boots.", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Send reply"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Reply sent")]`),
	)
	if n := telegram.all(); len(n) != 1 || n[0].Kind != view.NoticeMerchantReply || n[0].Where.ChatID != "4242" || !strings.Contains(n[0].Text, "a person here") {
		t.Fatalf("telegram received %+v", n)
	}

	run("ship the order",
		chromedp.Navigate(base+"/admin/orders"),
		chromedp.Click(`//a[text()="`+f.order.Number+`"]`),
		chromedp.WaitVisible(`input[name=tracking]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=tracking]`, "UPS 1Z999", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Mark shipped"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "shopper was notified in Telegram")]`),
	)
	if s := text(`#order-status`); s != "shipped" {
		t.Errorf("status badge %q", s)
	}
	n := telegram.all()
	if len(n) != 2 || n[1].Kind != view.NoticeOrderStatus || n[1].Order.Status != "shipped" || n[1].Order.Tracking != "UPS 1Z999" {
		t.Fatalf("telegram received %+v", n)
	}

	line := f.order.Items[0]
	// The "Refund everything left" checkbox sits inline before its words
	// (it was a full-width block on a line of its own).
	var box struct{ Width, LabelHeight float64 }
	run("measure the refund checkbox",
		chromedp.Navigate(base+"/admin/orders/"+f.order.Number),
		chromedp.WaitVisible(`#refund-form`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const cb = document.querySelector('#refund-form input[name=all]');
			return {Width: cb.getBoundingClientRect().width, LabelHeight: cb.closest('label').getBoundingClientRect().height}; })()`, &box),
	)
	if box.Width > 30 || box.LabelHeight > 32 {
		t.Errorf("refund checkbox %.0f px wide in a label %.0f px high: not inline with its words", box.Width, box.LabelHeight)
	}
	shot(t, ctx, "order")
	dlg.expect(true) // "Refund the chosen units of order …?"
	run("refund one unit of a line",
		chromedp.Navigate(base+"/admin/orders/"+f.order.Number),
		chromedp.WaitVisible(`#refund-form`, chromedp.ByQuery),
		chromedp.SetValue(`#refund-form input[name=qty_`+itoa(line.ID)+`]`, "1", chromedp.ByQuery),
		chromedp.Click(`#refund-form button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Refunded")]`),
		chromedp.WaitVisible(`#order-refunded`, chromedp.ByQuery),
	)
	dlg.wait(t, "Refund the chosen units of order "+f.order.Number)
	if o, err := catalog.GetOrder(context.Background(), db, f.order.Number); err != nil || o.Items[0].RefundedQty != 1 || o.RefundedTotal != line.UnitPrice {
		t.Errorf("after the refund: %+v %v", o, err)
	}
	if n := telegram.all(); len(n) != 3 || n[2].Kind != view.NoticeOrderStatus || !strings.Contains(n[2].Text, catalog.RefundNote) {
		t.Errorf("telegram received %+v", n)
	}

	run("create a promo code",
		chromedp.Navigate(base+"/admin/promos/new"),
		chromedp.WaitVisible(`input[name=code]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=code]`, "e2e15", chromedp.ByQuery),
		chromedp.SetValue(`select[name=kind]`, "percent", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=value]`, "15", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=min_subtotal]`, "40", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Save"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "E2E15 saved")]`),
		chromedp.WaitVisible(`//a/code[text()="E2E15"]`),
	)
	if pc, err := catalog.GetPromo(context.Background(), db, "E2E15"); err != nil || pc.Kind != catalog.PromoPercent || pc.Value != 15 || pc.MinSubtotal != 4000 || !pc.Active {
		t.Errorf("created promo: %+v %v", pc, err)
	}

	run("create a delivery method",
		chromedp.Navigate(base+"/admin/settings/delivery"),
		chromedp.WaitVisible(`#new-delivery`, chromedp.ByQuery),
		chromedp.SendKeys(`input[form=new-delivery][name=name]`, "E2E Courier", chromedp.ByQuery),
		chromedp.SendKeys(`input[form=new-delivery][name=price]`, "7.50", chromedp.ByQuery),
		chromedp.SetValue(`input[form=new-delivery][name=countries]`, "US, CA", chromedp.ByQuery),
		chromedp.Click(`#new-delivery button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Saved E2E Courier")]`),
		chromedp.WaitVisible(`tr.delivery-method input[value="E2E Courier"]`, chromedp.ByQuery),
	)
	if ms, err := catalog.ListDeliveryMethods(context.Background(), db); err != nil || len(ms) == 0 || ms[len(ms)-1].Name != "E2E Courier" || ms[len(ms)-1].Price != 750 {
		t.Errorf("delivery methods: %+v %v", ms, err)
	}
	confirmDeletes(t, ctx, dlg, db, base, run)

	// A product with variants: edit one's stock and price in the table,
	// add a row, save, and find the rolled-up stock in the list.
	tee := []catalog.ProductInput{
		{SKU: "E2E-TEE", Title: "Harbor E2E Tee", Price: 2000, Currency: "USD", OptionNames: []string{"Size"}},
		{SKU: "E2E-TEE-S", VariantOf: "E2E-TEE", Options: map[string]string{"Size": "S"}, Price: 2000, Currency: "USD", Stock: 3},
		{SKU: "E2E-TEE-M", VariantOf: "E2E-TEE", Options: map[string]string{"Size": "M"}, Price: 2200, Currency: "USD", Stock: 5},
	}
	for i := range tee {
		if err := tee[i].Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := catalog.UpsertProducts(context.Background(), db, tee); err != nil {
		t.Fatal(err)
	}
	parent, err := catalog.GetProduct(context.Background(), db, "E2E-TEE")
	if err != nil {
		t.Fatal(err)
	}
	run("edit the variant table",
		chromedp.Navigate(base+"/admin/products/"+itoa(parent.ID)),
		chromedp.WaitVisible(`#variant-table`, chromedp.ByQuery),
		chromedp.SetValue(`input[name=v0_stock]`, "8", chromedp.ByQuery),
		chromedp.SetValue(`input[name=v0_price]`, "18.50", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Add a variant row"]`),
		// The page comes back with the edits kept and one more row.
		chromedp.WaitVisible(`input[name=v3_sku]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=v3_sku]`, "E2E-TEE-L", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=v3_o0]`, "L", chromedp.ByQuery),
		chromedp.SetValue(`input[name=v3_stock]`, "4", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Save"]`),
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "Saved E2E-TEE and 3 variants")]`),
		chromedp.WaitReady(`input[name=v2_old][value="E2E-TEE-L"]`, chromedp.ByQuery),
	)
	if s, err := catalog.GetProduct(context.Background(), db, "E2E-TEE-S"); err != nil || s.Stock != 8 || s.Price != 1850 {
		t.Errorf("edited variant: %+v %v", s, err)
	}
	run("see the rolled-up stock in the list",
		chromedp.Navigate(base+"/admin/products?q=E2E-TEE"),
		chromedp.WaitVisible(`//tr[td/code[text()="E2E-TEE"]]`),
	)
	var cell string
	run("read the stock cell", chromedp.Text(`//tr[td/code[text()="E2E-TEE"]]/td[contains(@class, "stock")]`, &cell))
	if !strings.Contains(cell, "17") || !strings.Contains(cell, "3 variants") {
		t.Errorf("list stock cell %q, want 17 (8+5+4) and 3 variants", cell)
	}
	if s := text(`table tbody`); strings.Contains(s, "E2E-TEE-S") || strings.Contains(s, "E2E-TEE-L") {
		t.Errorf("the list shows variants: %q", s)
	}

	run("the orders list", chromedp.Navigate(base+"/admin/orders"), chromedp.WaitVisible(`//a[text()="`+f.order.Number+`"]`))
	shot(t, ctx, "orders")
	var units string
	run("read the items cell", chromedp.Text(`//tr[td/a[text()="`+f.order.Number+`"]]/td[contains(@class, "items")]`, &units))
	if units != "2" {
		t.Errorf("orders list items %q, want 2", units)
	}

	var shot []byte
	run("screenshot the dashboard",
		chromedp.Navigate(base+"/admin/"),
		chromedp.WaitVisible(`svg rect`, chromedp.ByQuery),
		chromedp.FullScreenshot(&shot, 100),
	)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil || img.Bounds().Dx() < 1000 {
		t.Fatalf("screenshot: %v", err)
	}
	out := filepath.Join(t.TempDir(), "dashboard.png")
	if dir := os.Getenv("SHOPBOT_SCREENSHOTS"); dir != "" {
		out = filepath.Join(dir, "admin-dashboard.png")
	}
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("dashboard screenshot: %s (%dx%d)", out, img.Bounds().Dx(), img.Bounds().Dy())
}
