package planner

import (
	"context"
	"fmt"
	"shopbot/engine/toolkit"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine/planner/intent"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// pagingChat is one shopper of the table shop (embedded index) paging
// through lists by text and by the More button.
type pagingChat struct {
	sh *tableShop
	p  *Planner
	s  *session.Session
	n  int
}

func newPagingChat(t *testing.T, sh *tableShop, locale string) *pagingChat {
	s := sh.session(t)
	s.Locale = locale
	return &pagingChat{sh: sh, p: New(sh.tools), s: s}
}

func (c *pagingChat) turn() {
	c.n++
	c.s.DedupKey = fmt.Sprintf("turn-%d", c.n)
}

func (c *pagingChat) say(t *testing.T, text string) Plan {
	t.Helper()
	c.turn()
	c.s.Text, c.s.Action = text, nil
	p, err := c.p.Answer(context.Background(), c.s, text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return p
}

func (c *pagingChat) press(t *testing.T, arg string) Plan {
	t.Helper()
	c.turn()
	c.s.Text, c.s.Action = "", &view.Action{Kind: view.ActMore, Arg: arg}
	p, err := c.p.More(context.Background(), c.s, arg)
	if err != nil {
		t.Fatalf("More %q: %v", arg, err)
	}
	return p
}

// moreArg is the Arg of the plan's More button, "" without one.
func moreArg(p Plan) string {
	for _, b := range p.Buttons {
		if b.Action.Kind == view.ActMore {
			return b.Action.Arg
		}
	}
	return ""
}

// itemsOf is what a page lists: its cards, or the orders of its data.
func itemsOf(p Plan) []string {
	if cards := listed(p); len(cards) > 0 {
		return skusOf(cards)
	}
	var out []string
	for _, r := range p.Results {
		for _, o := range dataAs[struct {
			Orders []struct {
				Number string `json:"number"`
			} `json:"orders"`
		}](r).Orders {
			out = append(out, o.Number)
		}
	}
	return out
}

// pageOn follows a list from its first page with next (a phrase, or the
// More button), until a page has no More button. It fails on an item
// listed twice and on a More button that leads to nothing new; it returns
// every item listed.
func (c *pagingChat) pageOn(t *testing.T, first Plan, next func(prev Plan) Plan) []string {
	t.Helper()
	seen := map[string]bool{}
	var all []string
	p := first
	for pages := 1; ; pages++ {
		items := itemsOf(p)
		if len(items) == 0 {
			t.Fatalf("page %d lists nothing: %q", pages, p.Text)
		}
		for _, it := range items {
			if seen[it] {
				t.Fatalf("page %d lists %s again: %q", pages, it, p.Text)
			}
			seen[it] = true
			all = append(all, it)
		}
		if moreArg(p) == "" {
			t.Logf("%d pages, %d items", pages, len(all))
			return all
		}
		if pages > 30 {
			t.Fatal("more than 30 pages")
		}
		p = next(p)
	}
}

func TestPagingEveryListKind(t *testing.T) {
	sh := newTableShop(t)
	ctx := context.Background()
	byText := func(c *pagingChat, phrase string) func(Plan) Plan {
		return func(Plan) Plan { return c.say(t, phrase) }
	}
	byButton := func(c *pagingChat) func(Plan) Plan {
		return func(prev Plan) Plan { return c.press(t, moreArg(prev)) }
	}
	t.Run("search by text", func(t *testing.T) {
		c := newPagingChat(t, sh, "")
		first := c.say(t, "shoes")
		got := c.pageOn(t, first, byText(c, "show more"))
		if total := c.s.State.Listing.Total; len(got) != total || total <= listLimit {
			t.Fatalf("paged %d of %d", len(got), total)
		}
		end := c.say(t, "next page")
		if len(itemsOf(end)) != 0 || !strings.Contains(end.Text, "no more products") || moreArg(end) != "" {
			t.Errorf("past the end: %q %v", end.Text, itemsOf(end))
		}
	})
	t.Run("category by button", func(t *testing.T) {
		c := newPagingChat(t, sh, "")
		// As the category button does: the tool, then the More button.
		res, err := sh.tools.Call(ctx, c.s, "search_products", `{"category":"Books","limit":5}`)
		if err != nil || len(res.Buttons) != 1 {
			t.Fatalf("category: %v %+v", err, res.Buttons)
		}
		first := Plan{Results: []toolkit.Result{res}, Buttons: res.Buttons}
		got := c.pageOn(t, first, byButton(c))
		if c.s.State.Listing.ListKind() != session.ListCategory || len(got) != c.s.State.Listing.Total {
			t.Fatalf("paged %d, listing %+v", len(got), c.s.State.Listing)
		}
	})
	t.Run("similar by button", func(t *testing.T) {
		c := newPagingChat(t, sh, "en")
		res, err := sh.tools.Call(ctx, c.s, "get_similar_products", `{"sku":"SHO-RUN-001"}`)
		if err != nil {
			t.Fatal(err)
		}
		got := c.pageOn(t, Plan{Results: []toolkit.Result{res}, Buttons: res.Buttons}, byButton(c))
		all, err := sh.tools.Call(ctx, c.s, "get_similar_products", `{"sku":"SHO-RUN-001","offset":0}`)
		if err != nil || len(got) <= listLimit || strings.Contains(strings.Join(got, " "), "SHO-RUN-001") || len(all.Cards) == 0 {
			t.Fatalf("similar paged %v (%v)", got, err)
		}
	})
	t.Run("popular by text, ru", func(t *testing.T) {
		c := newPagingChat(t, sh, "ru")
		first := c.say(t, "что у вас сейчас популярно")
		got := c.pageOn(t, first, byText(c, "дальше"))
		if len(got) <= listLimit || c.s.State.Listing.ListKind() != session.ListTop {
			t.Fatalf("popular paged %d", len(got))
		}
		end := c.say(t, "ещё")
		if len(itemsOf(end)) != 0 || !strings.Contains(end.Text, "Это весь список") {
			t.Errorf("past the end: %q", end.Text)
		}
	})
	t.Run("orders by text and button", func(t *testing.T) {
		c := newPagingChat(t, sh, "")
		var want []string
		for i := range 7 {
			want = append([]string{placeOrder(t, sh, c.s, i)}, want...)
		}
		first := c.say(t, "my orders")
		n := 0
		got := c.pageOn(t, first, func(prev Plan) Plan {
			if n++; n%2 == 1 {
				return c.press(t, moreArg(prev))
			}
			return c.say(t, "more")
		})
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("orders paged %v, want %v", got, want)
		}
		if end := c.say(t, "more"); !strings.Contains(end.Text, "whole list") {
			t.Errorf("past the end: %q", end.Text)
		}
	})
}

// placeOrder places an order of one book for the session's shopper.
func placeOrder(t *testing.T, sh *tableShop, s *session.Session, i int) string {
	t.Helper()
	ctx := context.Background()
	if _, err := catalog.AddToCart(ctx, sh.db, s.Scope, "BOO-FIC-001", 1, s.Customer.ID); err != nil {
		t.Fatal(err)
	}
	o, err := catalog.PlaceOrder(ctx, sh.db, catalog.OrderRequest{
		IdempotencyKey: fmt.Sprintf("paging-%d", i), Scope: s.Scope, CustomerID: s.Customer.ID, Channel: s.Channel, ChatID: s.ChatID,
		Contact: catalog.Contact{Name: "Ann Lee", Phone: "+1 555 0100", Address: "1 Main St"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return o.Number
}

// TestPagingStaleAndForgedButtons: a More button continues only the
// session's current list, from where it stands; a button of an older list
// or an Arg a client made up shows nothing of any list and calls no tool.
func TestPagingStaleAndForgedButtons(t *testing.T) {
	sh := newTableShop(t)
	c := newPagingChat(t, sh, "")
	shoes := moreArg(c.say(t, "shoes"))
	books := c.say(t, "books")
	booksArg := moreArg(books)
	if shoes == "" || booksArg == "" || shoes == booksArg {
		t.Fatalf("More args %q %q", shoes, booksArg)
	}
	stale := c.press(t, shoes)
	if len(stale.Calls) != 0 || len(itemsOf(stale)) != 0 || !strings.Contains(stale.Text, "list has changed") {
		t.Errorf("stale button: %q %s", stale.Text, planCallNames(stale))
	}
	// The same button pressed twice: the second press shows the page after.
	seen := map[string]bool{}
	for _, sku := range itemsOf(books) {
		seen[sku] = true
	}
	for range 2 {
		p := c.press(t, booksArg)
		if len(itemsOf(p)) == 0 {
			t.Fatalf("press lists nothing: %q", p.Text)
		}
		for _, sku := range itemsOf(p) {
			if seen[sku] {
				t.Fatalf("press lists %s again", sku)
			}
			seen[sku] = true
		}
	}
	for _, arg := range []string{"", ".", "search", "search.", "orders.00000000", "search.zzzzzzzz", "../../etc",
		strings.Repeat("search.", 50), "search.\x00", booksArg + "|1", strings.ToUpper(booksArg)} {
		p := c.press(t, arg)
		if len(p.Calls) != 0 || len(itemsOf(p)) != 0 || p.Text == "" {
			t.Errorf("forged %q: %q %s", arg, p.Text, planCallNames(p))
		}
	}
	// A new shopper with nothing to continue.
	fresh := newPagingChat(t, sh, "ru")
	if p := fresh.press(t, booksArg); !strings.Contains(p.Text, "список уже сменился") || len(p.Buttons) == 0 {
		t.Errorf("fresh press: %q", p.Text)
	}
	if p := fresh.say(t, "ещё"); len(p.Calls) != 0 || !strings.Contains(p.Text, "нечего продолжать") {
		t.Errorf("fresh more: %q", p.Text)
	}
}

// TestPagingMoreButtonOnlyWhenMoreRemain: a list that fits one page has
// no More button; a longer one has it, labelled in the shopper's language.
func TestPagingMoreButtonOnlyWhenMoreRemain(t *testing.T) {
	sh := newTableShop(t)
	c := newPagingChat(t, sh, "")
	if p := c.say(t, "blenders"); moreArg(p) != "" || c.s.State.Listing.HasMore() {
		t.Errorf("blenders (%d listed) offer more", len(itemsOf(p)))
	}
	ru := newPagingChat(t, sh, "ru")
	p := ru.say(t, "книги")
	var label string
	for _, b := range p.Buttons {
		if b.Action.Kind == view.ActMore {
			label = b.Label
		}
	}
	if label != "Ещё" {
		t.Errorf("ru More label %q (%+v)", label, p.Buttons)
	}
	// A list that is not pageable (details) forgets the last one.
	c.say(t, "shoes")
	c.say(t, "tell me about the first one")
	if c.s.State.Listing != nil {
		t.Errorf("details kept listing %+v", c.s.State.Listing)
	}
}

// TestMorePhrases: only clear paging phrases continue a list.
func TestMorePhrases(t *testing.T) {
	st := &session.State{Shown: []string{"A", "B"}, Focus: "A"}
	for _, text := range []string{"more", "show more", "next", "next page", "ещё", "еще", "покажи ещё",
		"следующая страница", "дальше", "more please", "any others?", "show me more options"} {
		if in := intent.Parse(text, "", st); in.Kind != intent.IntentMore {
			t.Errorf("%q = %s, want more", text, in.Kind)
		}
	}
	for _, text := range []string{"one more", "ещё одну", "more like this", "tell me more about the first", "more than 20 dollars shoes"} {
		if in := intent.Parse(text, "", st); in.Kind == intent.IntentMore {
			t.Errorf("%q continues the list", text)
		}
	}
}
