package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/clip"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// pressOn presses a button (as a client sent it: through ParseAction) in a
// fresh chat and returns what the turn sent.
func pressOn(t *testing.T, eng *Engine, chat, locale, data string) *events {
	t.Helper()
	a, err := view.ParseAction(data)
	if err != nil {
		t.Fatalf("ParseAction(%q): %v", clip.Shorten(data, 60), err)
	}
	ev := &events{}
	turn := Turn{Channel: "web", ChatID: chat, UserID: chat, Locale: locale, Action: &a, DedupKey: chat}
	if err := eng.Handle(context.Background(), turn, ev); err != nil {
		t.Fatalf("%q: %v", clip.Shorten(data, 60), err)
	}
	return ev
}

func buttonsOf(ev *events) []string {
	var out []string
	for _, e := range ev.of(EventButtons) {
		for _, b := range e.Buttons {
			out = append(out, b.Data)
		}
	}
	return out
}

// TestEveryActionAnswers: every kind of button, with the arguments a
// forged or stale client can send, gets a non-empty answer and no error.
func TestEveryActionAnswers(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		long := strings.Repeat("x", 5000)
		args := map[string]struct {
			sku, qty, arg string
		}{
			"empty":        {},
			"unknown sku":  {sku: "NO-SUCH-SKU", qty: "1", arg: "No > Such"},
			"qty 0":        {sku: "SHO-RUN-001", qty: "0", arg: "Shoes"},
			"very long":    {sku: long, qty: "99", arg: long},
			"path-like":    {sku: "../../etc/passwd", qty: "0", arg: "../../"},
			"id-like":      {sku: "#1", qty: "1", arg: "#999999999"},
			"markup, nuls": {sku: "<b>\x00</b>", qty: "1", arg: "Shoes > <script>\x00"},
		}
		kinds := []view.ActionKind{view.ActAdd, view.ActSet, view.ActRemove, view.ActDetails, view.ActSimilar, view.ActCart, view.ActCheckout, view.ActOrders, view.ActCategories, view.ActCategory, view.ActConfirm, view.ActDelivery, view.ActMore, view.ActOption}
		for _, kind := range kinds {
			for name, a := range args {
				data := string(kind) + "|" + a.sku + "|" + a.qty + "|" + a.arg
				for _, locale := range []string{"en", "ru"} {
					ev := pressOn(t, eng, string(kind)+"-"+name+"-"+locale, locale, data)
					if strings.TrimSpace(ev.done()) == "" || len(ev.of(EventError)) > 0 {
						t.Errorf("%s %s (%s): done %q, events %+v", kind, name, locale, ev.done(), ev.all)
					}
				}
			}
		}
	})
}

// TestCategoryButtonThatLeadsNowhere: a category that does not exist (or
// is empty) says so and offers the shop's categories.
func TestCategoryButtonThatLeadsNowhere(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ chat, locale, data, want string }{
		{"c1", "en", "cat||0|../../", "That category doesn't exist. Here are our categories:"},
		{"c2", "ru", "cat||0|../../", "Такой категории нет. Вот наши категории:"},
		{"c3", "en", "cat", "That category doesn't exist. Here are our categories:"},
		{"c4", "en", "cats||0|#999999", "That category doesn't exist. Here are our categories:"},
	} {
		ev := pressOn(t, eng, tc.chat, tc.locale, tc.data)
		if ev.done() != tc.want {
			t.Errorf("%q: done %q, want %q", tc.data, ev.done(), tc.want)
		}
		if b := buttonsOf(ev); len(b) < 5 || !strings.Contains(strings.Join(b, " "), "cat||0|Shoes") {
			t.Errorf("%q: buttons %q, want the top-level categories", tc.data, b)
		}
		if len(ev.of(EventCards)) != 0 {
			t.Errorf("%q: cards shown", tc.data)
		}
	}
	// A real category still lists its products.
	if ev := pressOn(t, eng, "c5", "en", "cat||0|Shoes > Running"); len(ev.of(EventCards)) != 1 || ev.done() != "Here is what I found." {
		t.Errorf("real category: done %q, %d card events", ev.done(), len(ev.of(EventCards)))
	}
}

// TestOrdersButtonWithoutOrders: "ord" with no orders says so.
func TestOrdersButtonWithoutOrders(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	for locale, want := range map[string]string{"en": "You have no orders yet.", "ru": "У вас пока нет заказов."} {
		if got := pressOn(t, eng, "o-"+locale, locale, "ord").done(); got != want {
			t.Errorf("%s: done %q, want %q", locale, got, want)
		}
	}
	if got := pressOn(t, eng, "cart-en", "en", "cart").done(); got != "Your cart is empty." {
		t.Errorf("empty cart: done %q", got)
	}
}

// TestProductButtonForUnknownProduct: a product button whose SKU is empty,
// too long or unknown says the product cannot be found, not a schema error.
func TestProductButtonForUnknownProduct(t *testing.T) {
	env := newTestEnv(t)
	eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
	if err != nil {
		t.Fatal(err)
	}
	for i, data := range []string{"det", "det|" + strings.Repeat("x", 65), "sim|NO-SUCH-SKU", "add||1", "det|../../"} {
		if got := pressOn(t, eng, "u"+string(rune('a'+i)), "en", data).done(); got != engineMessage("en", msgNoSuchProduct) {
			t.Errorf("%q: done %q", clip.Shorten(data, 20), got)
		}
	}
}
