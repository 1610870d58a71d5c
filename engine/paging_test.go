package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/view"
)

// pressIn presses a button in chat as turn n of it.
func pressIn(t *testing.T, eng *Engine, chat string, n int, data string) *events {
	t.Helper()
	a, err := view.ParseAction(data)
	if err != nil {
		t.Fatalf("ParseAction(%q): %v", data, err)
	}
	ev := &events{}
	turn := Turn{Channel: "web", ChatID: chat, UserID: chat, Locale: "en", Action: &a, DedupKey: fmt.Sprintf("%s-%d", chat, n)}
	if err := eng.Handle(context.Background(), turn, ev); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	return ev
}

// moreOf is the callback data of the turn's More button, "" without one.
func moreOf(ev *events) string {
	for _, d := range buttonsOf(ev) {
		if strings.HasPrefix(d, "more|") {
			return d
		}
	}
	return ""
}

func cardSKUs(ev *events) []string {
	var out []string
	for _, e := range ev.of(EventCards) {
		for _, c := range e.Cards {
			out = append(out, c.SKU)
		}
	}
	return out
}

// TestMoreButtonThroughTheEngine: a category pressed, then its More
// button until none is left, lists every product of the category once;
// the buttons of the list, pressed again after it ended or forged, list
// nothing and still answer.
func TestMoreButtonThroughTheEngine(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		newTestEnvOnDemo(t, db)
		eng, err := New(Config{DB: db, Search: searchtest.NewDatabase(db), RateLimit: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		ev := pressIn(t, eng, "pager", n, "cat||0|Books")
		seen := map[string]bool{}
		var first string
		for pages := 1; ; pages++ {
			skus := cardSKUs(ev)
			if len(skus) == 0 {
				t.Fatalf("page %d: no cards; %q", pages, ev.done())
			}
			for _, sku := range skus {
				if seen[sku] {
					t.Fatalf("page %d lists %s again", pages, sku)
				}
				seen[sku] = true
			}
			more := moreOf(ev)
			if more == "" {
				break
			}
			if first == "" {
				first = more
			}
			if pages > 20 {
				t.Fatal("more than 20 pages")
			}
			n++
			ev = pressIn(t, eng, "pager", n, more)
		}
		if len(seen) <= 5 {
			t.Fatalf("Books paged %d products", len(seen))
		}
		// The first page's button after the list ended: nothing more.
		n++
		if ev := pressIn(t, eng, "pager", n, first); len(cardSKUs(ev)) != 0 || !strings.Contains(ev.done(), "no more") {
			t.Errorf("after the end: %q %v", ev.done(), cardSKUs(ev))
		}
		for _, forged := range []string{"more", "more||0|", "more||0|category.00000000", "more|SKU|99|orders.x",
			"more||0|" + strings.Repeat("é", 300)} {
			n++
			ev := pressIn(t, eng, "pager", n, forged)
			if len(cardSKUs(ev)) != 0 || !strings.Contains(ev.done(), "list has changed") {
				t.Errorf("%q: %q %v", forged, ev.done(), cardSKUs(ev))
			}
		}
	})
}
