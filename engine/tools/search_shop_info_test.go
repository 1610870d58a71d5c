package tools

import (
	"context"
	"shopbot/catalog"
	"shopbot/engine/toolkit"
	"strings"
	"testing"
	"unicode/utf8"

	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/vectorizer"
)

// withPages gives the env's tools the demo shop's pages, as bot wires them.
func withPages(t *testing.T, e *testEnv) {
	t.Helper()
	x := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
	if err := x.Rebuild(context.Background(), catalog.NewSearchSource(e.db)); err != nil {
		t.Fatal(err)
	}
	e.deps.Passages = x
}

func TestSearchShopInfo(t *testing.T) {
	e := newTestEnv(t)
	withPages(t, e)
	for _, tc := range []struct{ query, page, text string }{
		{"what is your return policy?", "Returns and refunds", "30 days"},
		{"do you ship to Canada?", "Shipping and delivery", "Canada"},
		{"which cards do you accept", "Payment", "Visa"},
		{"как вернуть товар", "Returns and refunds", "30"},
		{"сколько стоит доставка", "Shipping and delivery", "$5"},
		{"warranty on a kettle", "Warranty", "2-year"},
	} {
		var info ShopInfo
		toolData(t, e.call(t, "search_shop_info", `{"query":"`+tc.query+`"}`), &info)
		if len(info.Passages) == 0 || len(info.Passages) > shopInfoPassages {
			t.Errorf("%q: %d passages", tc.query, len(info.Passages))
			continue
		}
		// The best passage is from the right page, and the passages the
		// model reads hold the fact asked about.
		top, all := info.Passages[0], ""
		for _, p := range info.Passages {
			all += p.Text + "\n"
		}
		if top.Page != tc.page || !strings.Contains(all, tc.text) || !strings.Contains(info.Note, "only from these passages") {
			t.Errorf("%q: top %+v (note %q), want page %q; passages %q, want %q", tc.query, top, info.Note, tc.page, all, tc.text)
		}
		for _, p := range info.Passages {
			if utf8.RuneCountInString(p.Text) > shopInfoTextMax || strings.Contains(p.Text, "\n\n") {
				t.Errorf("%q: passage text not bounded: %q", tc.query, p.Text)
			}
		}
	}
	var none ShopInfo
	toolData(t, e.call(t, "search_shop_info", `{"query":"zqxv blorft"}`), &none)
	if len(none.Passages) != 0 || !strings.Contains(none.Note, "do not know") {
		t.Errorf("no match: %+v", none)
	}
}

func TestSearchShopInfoHostileArgs(t *testing.T) {
	e := newTestEnv(t)
	withPages(t, e)
	ctx := context.Background()
	for _, tc := range []struct{ args, want string }{
		{`{}`, "query"},
		{`{"query":5}`, "string"},
		{`{"query":"  x "}`, "say what to look up"},
		{`{"query":"` + strings.Repeat("a", 201) + `"}`, "maxLength"},
		{`{"query":"returns","customer_id":7}`, "additional"},
		{`not json`, "JSON"},
	} {
		_, err := e.tools.Call(ctx, e.session, "search_shop_info", tc.args)
		if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) {
			t.Errorf("search_shop_info(%.40s): %s, want %q", tc.args, msg, tc.want)
		}
	}
	e.deps.Passages = nil
	_, err := e.tools.Call(ctx, e.session, "search_shop_info", `{"query":"returns"}`)
	if msg, isErr := toolkit.ModelMessage(toolkit.Result{}, err); !isErr || !strings.Contains(msg, "cannot be searched") {
		t.Errorf("without pages: %s", msg)
	}
}
