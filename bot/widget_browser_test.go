package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"shopbot/adapters/web"
	"shopbot/admin/browsertest"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/view"
)

// widgetBrowser starts chromium (browsertest) and collects the
// console's messages.
func widgetBrowser(t *testing.T) (context.Context, *consoleLog) {
	t.Helper()
	ctx := browsertest.Start(t, browsertest.Options{Timeout: 4 * time.Minute})
	cl := &consoleLog{added: make(chan struct{}, 1)}
	chromedp.ListenTarget(ctx, func(ev any) {
		if c, ok := ev.(*runtime.EventConsoleAPICalled); ok {
			var parts []string
			for _, a := range c.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`))
			}
			cl.add(string(c.Type) + ": " + strings.Join(parts, " "))
		}
	})
	return ctx, cl
}

// consoleLog is what pages wrote to the console.
type consoleLog struct {
	mu    sync.Mutex
	msgs  []string
	added chan struct{} // a message came
}

func (c *consoleLog) add(s string) {
	c.mu.Lock()
	c.msgs = append(c.msgs, s)
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
}

// wait waits for a console message containing want.
func (c *consoleLog) wait(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(45 * time.Second)
	for !strings.Contains(c.String(), want) {
		select {
		case <-c.added:
		case <-timeout:
			t.Fatalf("no console message %q:\n%s", want, c)
		}
	}
}
func (c *consoleLog) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.msgs, "\n")
}

// hostPage is a shop's customer's site on another origin: one script tag
// and a strict Content-Security-Policy, the one docs/web-chat.md asks of
// a host page.
func hostPage(shop *string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", fmt.Sprintf(
			"default-src 'self'; script-src %[1]s; connect-src %[1]s; img-src %[1]s; style-src 'self'", *shop))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="%s"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title></head>
<body><h1>A host site</h1><p><a href="#top">A link of the host page</a></p>
<script src="%s/widget.js" async data-color="#0a6b45"></script></body></html>`, r.URL.Query().Get("lang"), *shop)
	}))
}

// in runs js against the widget's shadow root (R) in the page.
func in(js string) string {
	return `(() => { const R = document.getElementById('shopbot-chat').shadowRoot; ` + js + ` })()`
}

// waitFor polls a condition in the page until it holds (no sleeps: the
// browser re-evaluates it).
func waitFor(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	err := chromedp.Run(ctx, chromedp.Poll(`(() => { try { const R = document.getElementById('shopbot-chat').shadowRoot; return !!(`+cond+`); } catch (e) { return false; } })()`,
		nil, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(45*time.Second)))
	if err != nil {
		var dump string
		_ = chromedp.Run(ctx, chromedp.Evaluate(`(() => { try { return document.getElementById('shopbot-chat').shadowRoot.querySelector('.log').innerText.slice(-1500); } catch (e) { return String(e); } })()`, &dump))
		t.Fatalf("waiting for %s: %v\nchat so far:\n%s", what, err, dump)
	}
}

func act(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func jsv[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	var v T
	act(t, ctx, chromedp.Evaluate(js, &v))
	return v
}

// click presses the widget's button whose data-action is action (the
// last one when several are shown).
func click(t *testing.T, ctx context.Context, action string) {
	t.Helper()
	waitFor(t, ctx, "button "+action+" and no turn running", fmt.Sprintf(`R.querySelector('[data-action=%q]') && !R.querySelector('.send').disabled`, action))
	act(t, ctx, chromedp.Evaluate(in(fmt.Sprintf(`const b = [...R.querySelectorAll('[data-action=%q]')].pop(); b.click(); return true;`, action)), nil))
	waitFor(t, ctx, "the answer to "+action, `!R.querySelector('.send').disabled`)
}

// say types a message into the widget from the keyboard and sends it.
func say(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	waitFor(t, ctx, "the send button free", `!R.querySelector('.send').disabled`)
	act(t, ctx, chromedp.Evaluate(in(`R.querySelector('.input').focus(); return true;`), nil),
		chromedp.KeyEvent(text), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "the answer to "+text, `!R.querySelector('.send').disabled`)
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	var png []byte
	act(t, ctx, chromedp.CaptureScreenshot(&png))
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", p)
}

// TestWidgetInBrowser drives the embeddable widget in chromium on a host
// page of another origin, against a real `shopbot serve` of the demo
// shop on Postgres with the offline planner: open it, search, page, pick
// a size, add, edit the cart, apply a promo code, check out to an order,
// get a merchant's message and an order notice from another replica,
// reload and see the history (and in a second tab), walk every control
// with the keyboard, fit a 360 px phone, be refused on an origin not
// allowed, and find the embed snippet in the panel's Settings. It logs
// the widget's gzipped size, the launcher's first paint after the script
// loaded and the first streamed text after sending.
func TestWidgetInBrowser(t *testing.T) {
	shots := os.Getenv("WIDGET_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	var shopURL string
	allowed, refused := hostPage(&shopURL), hostPage(&shopURL)
	defer allowed.Close()
	defer refused.Close()
	dbURL := catalogtest.NewPostgresDatabase(t)
	const password = "widget-browser-pass-7"
	s := startServer(t, map[string]string{"DATABASE_URL": dbURL, "WEB_CHAT_ORIGINS": allowed.URL, "ADMIN_PASSWORD": password})
	s.waitReady(t)
	shopURL = s.base
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := catalog.CreatePromo(t.Context(), db, &catalog.PromoCode{Code: "WIDGET10", Kind: catalog.PromoPercent, Value: 10, Currency: "USD", Active: true, CategoryIDs: []int64{}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	t.Logf("widget.js: %d bytes gzipped", web.WidgetGzipSize())

	ctx, console := widgetBrowser(t)
	act(t, ctx, chromedp.Navigate(allowed.URL+"/?lang=en"))
	waitFor(t, ctx, "the launcher", `R.querySelector('.launcher') && performance.getEntriesByName('shopbot-widget-paint').length`)
	paint := jsv[float64](t, ctx, `performance.getEntriesByName('shopbot-widget-paint')[0].startTime -
		performance.getEntriesByType('resource').find(e => e.name.endsWith('/widget.js')).responseEnd`)
	t.Logf("launcher first paint: %.1f ms after widget.js loaded", paint)
	parts := jsv[map[string]float64](t, ctx, `(() => { const m = n => performance.getEntriesByName(n)[0].startTime;
		const loaded = performance.getEntriesByType('resource').find(e => e.name.endsWith('/widget.js')).responseEnd;
		return { waited: m('shopbot-widget-start') - loaded, built: m('shopbot-widget-launcher') - m('shopbot-widget-start'), frame: m('shopbot-widget-paint') - m('shopbot-widget-launcher') }; })()`)
	t.Logf("of which: %.1f ms until the script ran (parse, compile, the page's own work), %.1f ms building the launcher, %.1f ms to the next frame",
		parts["waited"], parts["built"], parts["frame"])
	shot(t, ctx, shots, "widget-1-launcher")
	// Styled by its constructed stylesheet under the host's strict CSP
	// (style-src 'self'), in the host's colour.
	if bg := jsv[string](t, ctx, in(`return getComputedStyle(R.querySelector('.launcher')).backgroundColor`)); bg != "rgb(10, 107, 69)" {
		t.Errorf("launcher background %q: the widget's styles did not apply", bg)
	}

	// Keyboard only: Tab from the host page reaches the launcher, Enter
	// opens the panel with the focus in the message box.
	for i := 0; i < 5 && !jsv[bool](t, ctx, `document.activeElement && document.activeElement.id === 'shopbot-chat'`); i++ {
		act(t, ctx, chromedp.KeyEvent(kb.Tab))
	}
	act(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "the open panel", `!R.querySelector('.panel').hidden && R.activeElement === R.querySelector('.input')`)

	// Search, typed; the answer streams in.
	say(t, ctx, "running shoes")
	waitFor(t, ctx, "product cards with photos", `R.querySelectorAll('.cards .card img').length >= 3 && [...R.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth > 0)`)
	firstText := jsv[float64](t, ctx, `performance.getEntriesByName('shopbot-widget-first-text').pop().startTime - performance.getEntriesByName('shopbot-widget-send').pop().startTime`)
	t.Logf("first streamed text: %.1f ms after sending", firstText)
	if got := jsv[string](t, ctx, in(`return R.querySelector('.card .price').textContent`)); !strings.HasPrefix(got, "$") {
		t.Errorf("card price %q", got)
	}
	shot(t, ctx, shots, "widget-2-search")

	// Page: the next results.
	click(t, ctx, jsv[string](t, ctx, in(`return [...R.querySelectorAll('[data-action^="more|"]')].pop().dataset.action`)))
	waitFor(t, ctx, "the second page", `R.querySelectorAll('.cards').length >= 2`)

	// Pick a size (twice), then edit the cart: one more, remove a line.
	click(t, ctx, "add|SHO-TRL-001|1")
	waitFor(t, ctx, "the size picker", `R.querySelector('.picker [data-action="add|SHO-TRL-001-42|1"]')`)
	shot(t, ctx, shots, "widget-3-picker")
	click(t, ctx, "add|SHO-TRL-001-42|1")
	waitFor(t, ctx, "the cart with size 42", `[...R.querySelectorAll('.cart')].pop().textContent.includes('(42)')`)
	click(t, ctx, "add|SHO-TRL-001|1")
	click(t, ctx, "add|SHO-TRL-001-43|1")
	waitFor(t, ctx, "two lines", `[...R.querySelectorAll('.cart')].pop().querySelectorAll('.lines li').length === 2`)
	click(t, ctx, "set|SHO-TRL-001-42|2")
	waitFor(t, ctx, "two of size 42", `[...R.querySelectorAll('.cart')].pop().querySelector('.n').textContent === '2'`)
	click(t, ctx, "rm|SHO-TRL-001-43")
	waitFor(t, ctx, "one line left", `(c => c.querySelectorAll('.lines li').length === 1 && !c.textContent.includes('(43)'))([...R.querySelectorAll('.cart')].pop())`)
	if got := jsv[string](t, ctx, in(`return R.querySelector('.head [data-action="cart"]').textContent`)); got != "Cart (2)" {
		t.Errorf("header cart button %q", got)
	}

	// A promo code from the cart's field.
	act(t, ctx, chromedp.Evaluate(in(`const c = [...R.querySelectorAll('.cart')].pop(); c.querySelector('.promo input').focus(); return true;`), nil),
		chromedp.KeyEvent("widget10"), chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "the discount", `[...R.querySelectorAll('.cart')].pop().textContent.includes('WIDGET10')`)
	shot(t, ctx, shots, "widget-4-cart")

	// Check out: contact, address, delivery, confirmation.
	click(t, ctx, "co")
	waitFor(t, ctx, "the name question", `R.querySelector('.input').autocomplete === 'name'`)
	say(t, ctx, "Anna Petrova")
	waitFor(t, ctx, "the phone question", `R.querySelector('.input').autocomplete === 'tel'`)
	say(t, ctx, "+1 555 010 0199")
	waitFor(t, ctx, "the address question", `R.querySelector('.input').autocomplete === 'street-address'`)
	say(t, ctx, "12 Main Street, Springfield")
	click(t, ctx, "dlv||0|2")
	click(t, ctx, "confirm")
	waitFor(t, ctx, "the order", `R.querySelector('.order h3')`)
	order := jsv[string](t, ctx, in(`return R.querySelector('.order').textContent`))
	for _, want := range []string{"SB-", "Express courier", "−$", "(42)"} {
		if !strings.Contains(order, want) {
			t.Errorf("order lacks %q: %s", want, order)
		}
	}
	shot(t, ctx, shots, "widget-5-order")

	// Contrast (WCAG AA, 4.5:1) of the panel's text on its backgrounds.
	contrast := jsv[map[string]float64](t, ctx, in(`
		const lum = c => { const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (fg, bg) => { const [x, y] = [lum(fg), lum(bg)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
		const pair = (sel, bgSel) => { const e = R.querySelector(sel), b = bgSel ? R.querySelector(bgSel) : e; return ratio(getComputedStyle(e).color, getComputedStyle(b).backgroundColor); };
		return { header: pair('.title', '.head'), bot: pair('.msg.bot'), user: pair('.msg.user'), chip: pair('.chip:not(.primary)'), primary: pair('.chip.primary'),
			muted: pair('.card .muted', '.card'), send: pair('.send'), staff: pair('.order .totals dt', '.order') };`))
	for what, r := range contrast {
		if r < 4.5 {
			t.Errorf("%s text contrast %.2f:1, under 4.5:1", what, r)
		}
	}

	// Keyboard only: Tab walks every control of the open panel and the
	// focus stays in it (the trap wraps around).
	n := jsv[int](t, ctx, in(`window.__seen = new Set(); return [...R.querySelectorAll('.panel button, .panel a[href], .panel textarea, .panel input, .panel [tabindex="0"]')].filter(e => !e.disabled && e.offsetParent !== null).length`))
	for i := 0; i <= n; i++ {
		act(t, ctx, chromedp.KeyEvent(kb.Tab), chromedp.Evaluate(in(`window.__seen.add(R.activeElement); return R.querySelector('.panel').contains(R.activeElement)`), nil))
	}
	if seen := jsv[int](t, ctx, `window.__seen.size`); seen != n {
		t.Errorf("Tab reached %d of %d controls", seen, n)
	}
	if !jsv[bool](t, ctx, in(`return R.querySelector('.panel').contains(R.activeElement)`)) {
		t.Error("focus left the open panel")
	}

	// Another replica (the panel's) tells this shopper something: a
	// merchant's reply and the order's new status arrive live.
	session := jsv[string](t, ctx, `localStorage.getItem('shopbot.session:`+s.base+`')`)
	other := web.New(nil, slog.New(slog.DiscardHandler))
	other.KeepNotices(newWebNotices(db, time.Hour))
	other.KeepEvents(webEvents{log: catalog.ChatEvents{DB: db}})
	if err := other.DeliverStaffMessage(t.Context(), session, "Hi, Maria from the shop: your shoes ship today."); err != nil {
		t.Fatal(err)
	}
	num := jsv[string](t, ctx, in(`return R.querySelector('.order h3').textContent.split(' ').pop()`))
	status := view.Notice{Kind: view.NoticeOrderStatus, Order: &view.OrderView{Number: num, Status: "shipped", TotalText: "$1"}}
	status.Where.Channel, status.Where.ChatID = "web", session
	if err := other.Notify(t.Context(), status); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the merchant's message", `[...R.querySelectorAll('.msg.staff')].some(m => m.textContent.includes('Maria from the shop'))`)
	waitFor(t, ctx, "the order notice", `[...R.querySelectorAll('.notice')].some(m => m.textContent.includes('shipped'))`)
	shot(t, ctx, shots, "widget-6-notices")

	// Reload: the history is back; a second tab shows it too.
	act(t, ctx, chromedp.Reload())
	waitFor(t, ctx, "the history", `[...R.querySelectorAll('.msg.user')].some(m => m.textContent.includes('running shoes')) && R.querySelectorAll('.msg.bot').length >= 5`)
	// Everything is drawn again, not only the words: the cards with their
	// photos and prices, the picker, the cart, the order, the notices (once).
	waitFor(t, ctx, "cards, picker, cart, order and notices after the reload", `R.querySelectorAll('.cards .card img').length >= 3 &&
		R.querySelector('.card .price').textContent.startsWith('$') && R.querySelector('.picker [data-action="add|SHO-TRL-001-42|1"]') &&
		[...R.querySelectorAll('.cart')].pop().textContent.includes('WIDGET10') && R.querySelector('.order h3') &&
		[...R.querySelectorAll('.msg.staff')].filter(m => m.textContent.includes('Maria from the shop')).length === 1 &&
		[...R.querySelectorAll('.notice')].filter(m => m.textContent.includes('shipped')).length === 1`)
	shot(t, ctx, shots, "widget-6b-reloaded")
	tab, cancelTab := chromedp.NewContext(ctx)
	act(t, tab, chromedp.Navigate(allowed.URL+"/"))
	waitFor(t, tab, "the history in a second tab", `[...R.querySelectorAll('.msg.user')].some(m => m.textContent.includes('Anna Petrova')) && R.querySelector('.cart')`)
	// Two tabs, two live streams: a staff message reaches both.
	if err := other.DeliverStaffMessage(t.Context(), session, "Both tabs hear this."); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tab, "the staff message in the second tab", `[...R.querySelectorAll('.msg.staff')].some(m => m.textContent.includes('Both tabs hear this.'))`)
	waitFor(t, ctx, "the staff message in the first tab", `[...R.querySelectorAll('.msg.staff')].some(m => m.textContent.includes('Both tabs hear this.'))`)
	cancelTab()

	// A 360 px phone: the open panel fills the screen, nothing overflows.
	// It also asks for reduced motion: the panel must not animate.
	act(t, ctx, chromedp.EmulateViewport(360, 740),
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}),
		chromedp.Navigate(allowed.URL+"/?lang=ru"))
	waitFor(t, ctx, "the launcher in Russian", `R.querySelector('.launcher').textContent === 'Написать нам'`)
	act(t, ctx, chromedp.Evaluate(in(`R.querySelector('.launcher').click(); return true;`), nil))
	waitFor(t, ctx, "the panel on a phone", `!R.querySelector('.panel').hidden && R.querySelectorAll('.msg').length > 3`)
	if a := jsv[string](t, ctx, in(`return getComputedStyle(R.querySelector('.panel')).animationName`)); a != "none" {
		t.Errorf("the panel animates (%s) although the user prefers reduced motion", a)
	}
	if !jsv[bool](t, ctx, in(`return R.querySelector('.head [data-action="cart"]').textContent === 'Корзина'`)) {
		t.Error("header not in Russian, or the cart still counts the ordered items")
	}
	if w := jsv[float64](t, ctx, in(`return R.querySelector('.panel').getBoundingClientRect().width`)); w > 360 || w < 300 {
		t.Errorf("panel %.0f px wide on a 360 px screen", w)
	}
	if !jsv[bool](t, ctx, in(`const l = R.querySelector('.log'); return l.scrollWidth <= l.clientWidth && document.documentElement.scrollWidth <= 360`)) {
		t.Error("the panel overflows a 360 px screen")
	}
	shot(t, ctx, shots, "widget-7-phone-ru")

	// A page whose origin is not allowed is refused, and the console says why.
	act(t, ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(refused.URL+"/"))
	waitFor(t, ctx, "the launcher on the refused page", `R.querySelector('.launcher')`)
	console.wait(t, "may not use this shop's chat: add it to WEB_CHAT_ORIGINS")
	act(t, ctx, chromedp.Evaluate(in(`R.querySelector('.launcher').click(); return true;`), nil))
	say(t, ctx, "hello")
	waitFor(t, ctx, "an error in the chat", `R.querySelector('.msg.error')`)

	// The shop's own home page carries the widget (go run ./bot, then /).
	act(t, ctx, chromedp.Navigate(s.base+"/"))
	waitFor(t, ctx, "the launcher on the shop's home page", `R.querySelector('.launcher') && !R.querySelector('.launcher').hidden`)
	shot(t, ctx, shots, "widget-9-home")
	act(t, ctx, chromedp.EmulateViewport(360, 740), chromedp.Evaluate(in(`R.querySelector('.launcher').click(); return true;`), nil))
	waitFor(t, ctx, "the panel on the home page, 360 px", `!R.querySelector('.panel').hidden && R.querySelector('.panel').getBoundingClientRect().width <= 360`)
	shot(t, ctx, shots, "widget-9-home-phone")
	act(t, ctx, chromedp.EmulateViewport(1280, 900))

	// The panel: Settings shows the snippet and the allowed origins, and
	// the live preview runs under the panel's strict CSP.
	act(t, ctx, chromedp.Navigate(s.base+"/admin/login"),
		chromedp.WaitVisible(`input[name=username]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name=username]`, "admin", chromedp.ByQuery),
		chromedp.SendKeys(`input[name=password]`, password, chromedp.ByQuery),
		chromedp.Submit(`input[name=password]`, chromedp.ByQuery),
		chromedp.WaitNotPresent(`input[name=password]`, chromedp.ByQuery),
		chromedp.Navigate(s.base+"/admin/settings"),
		chromedp.WaitVisible(`#widget-snippet`, chromedp.ByQuery))
	snippet := jsv[string](t, ctx, `document.querySelector('#widget-snippet').textContent`)
	origins := jsv[string](t, ctx, `document.querySelector('#widget-origins').textContent`)
	if !strings.Contains(snippet, `<script src="`+s.base+`/widget.js" async`) || !strings.Contains(origins, allowed.URL) {
		t.Errorf("snippet %q, origins %q", snippet, origins)
	}
	waitFor(t, ctx, "the preview", `R.querySelector('.launcher') && getComputedStyle(R.querySelector('.launcher')).position !== ''`)
	act(t, ctx, chromedp.Evaluate(`document.querySelector('#web-chat').scrollIntoView(); true`, nil))
	shot(t, ctx, shots, "widget-8-settings")
}
