package admin_test

import (
	"bytes"
	"context"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/prometheus/client_golang/prometheus"

	"shopbot/adapters"
	"shopbot/adapters/web"
	"shopbot/admin"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/engine"
	"shopbot/engine/view"
)

// browser starts Debian's chromium headless with a fresh profile. A
// missing chromium fails the test: CI installs it (.ci/run).
func browser(t *testing.T) context.Context {
	t.Helper()
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not found: install it (apt-get install chromium) — the admin end-to-end tests need a real browser")
	}
	// A fresh profile, removed after the browser has gone (chromium's
	// helpers may still write to it while t.TempDir would clean up).
	profile, err := os.MkdirTemp("", "shopbot-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900),
		chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		for i := 0; i < 20 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(50 * time.Millisecond)
		}
	})
	// Any alert() means some text was rendered as script: fail.
	chromedp.ListenTarget(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			t.Errorf("a JavaScript dialog opened: %q (escaping failed)", d.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(true))
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// shopperChannel is the fake Telegram adapter: what the hub routes to
// shoppers on telegram lands here.
type shopperChannel struct{ fakeNotifier }

// TestEndToEnd drives the panel in a real browser: sign in, create a
// product and find it in the playground, import a CSV with a bad row,
// read a transcript, take the conversation over and reply (delivered
// through the fake channel), ship an order (shopper notified), and
// screenshot the dashboard.
func TestEndToEnd(t *testing.T) {
	ctx := browser(t)
	db := catalogtest.SQLite(t)
	newPanel(t, db) // loads the demo catalog and creates the admin user
	f := seed(t, db)

	hub := adapters.NewHub()
	telegram := &shopperChannel{}
	hub.Shoppers("telegram", telegram)
	reg := prometheus.NewRegistry()
	eng, err := engine.New(engine.Config{DB: db, Search: search.NewDatabase(db), Registry: reg, Notifier: hub})
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
		if err := chromedp.Run(ctx, actions...); err != nil {
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
	run("import a CSV with a bad row",
		chromedp.Navigate(base+"/admin/import"),
		chromedp.SetUploadFiles(`input[type=file]`, []string{csvPath}, chromedp.ByQuery),
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
		chromedp.WaitVisible(`//p[@class="flash" and contains(., "shopper was notified in telegram")]`),
	)
	if s := text(`#order-status`); s != "shipped" {
		t.Errorf("status badge %q", s)
	}
	n := telegram.all()
	if len(n) != 2 || n[1].Kind != view.NoticeOrderStatus || n[1].Order.Status != "shipped" || n[1].Order.Tracking != "UPS 1Z999" {
		t.Fatalf("telegram received %+v", n)
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
