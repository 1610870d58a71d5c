package slack_test

import (
	"slices"
	"strings"
	"testing"

	"shopbot/adapters/slack/slackfake"
)

// buttonValues lists the values of a message's buttons, in order.
func buttonValues(m slackfake.Message) []string {
	var out []string
	for _, b := range m.Blocks {
		var els []any
		if acc, ok := b["accessory"].(map[string]any); ok {
			els = append(els, acc)
		}
		if e, ok := b["elements"].([]any); ok {
			els = append(els, e...)
		}
		for _, el := range els {
			if m, ok := el.(map[string]any); ok && m["type"] == "button" {
				if v, ok := m["value"].(string); ok {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// moreValue is the value of a message's More button, "" without one.
func moreValue(m slackfake.Message) string {
	for _, v := range buttonValues(m) {
		if strings.HasPrefix(v, "more|") {
			return v
		}
	}
	return ""
}

// threadSKUs lists the products of the cards in a thread, in order (their
// Details buttons name them).
func threadSKUs(ms []slackfake.Message) []string {
	var out []string
	for _, m := range ms {
		for _, v := range buttonValues(m) {
			if sku, ok := strings.CutPrefix(v, "det|"); ok {
				out = append(out, sku)
			}
		}
	}
	return out
}

// TestMoreButtonPages: a search answer in a thread carries a More button;
// pressing it (block_actions) posts the next page in the thread, with no
// card of the first page; the More button of a list since replaced lists
// nothing.
func TestMoreButtonPages(t *testing.T) {
	e := newEnv(t, nil)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "shoes"))
	first := e.waitFor("C1", root, "a More button", func(m slackfake.Message) bool { return moreValue(m) != "" })
	if !strings.Contains(text(first), `"text":"More"`) {
		t.Errorf("More button label: %s", text(first))
	}
	e.waitFor("C1", root, "the finished answer", func(m slackfake.Message) bool { return !m.Streamed || m.Stopped })
	page1 := threadSKUs(e.fake.Messages("C1", root))
	if len(page1) == 0 {
		t.Fatal("no cards on the first page")
	}

	e.press("UANN", first, moreValue(first))
	e.waitFor("C1", root, "the next page", hasText("More products"))
	page2 := threadSKUs(e.fake.Messages("C1", root))[len(page1):]
	if len(page2) == 0 {
		t.Fatalf("the next page has no cards:\n%s", dump(e.fake.Messages("C1", root)))
	}
	for _, sku := range page2 {
		if slices.Contains(page1, sku) {
			t.Errorf("%s shown again: %v then %v", sku, page1, page2)
		}
	}

	// Another search replaces the list: the first More button is stale.
	e.postEvent(mention("UANN", "C1", e.nextTS(), root, "books"))
	e.waitFor("C1", root, "the books", hasText("Weeknight Skillet"))
	shown := len(threadSKUs(e.fake.Messages("C1", root)))
	e.press("UANN", first, moreValue(first))
	e.waitFor("C1", root, "the stale answer", hasText("list has changed"))
	if n := len(threadSKUs(e.fake.Messages("C1", root))); n != shown {
		t.Errorf("a stale More button posted %d cards", n-shown)
	}
}
