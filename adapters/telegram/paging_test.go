package telegram

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-telegram/bot/models"

	"shopbot/adapters/telegram/telegramtest"
	"shopbot/catalog/catalogtest"
)

// moreData is the callback data of a call's More button, "" without one.
func moreData(c telegramtest.Call) string {
	for _, data := range c.Buttons() {
		if strings.HasPrefix(data, "more|") {
			return data
		}
	}
	return ""
}

// cardSKUs lists the products of the cards sent to chat, in order (their
// Details buttons name them).
func cardSKUs(calls []telegramtest.Call) []string {
	var out []string
	for _, c := range calls {
		for _, data := range c.Buttons() {
			if sku, ok := strings.CutPrefix(data, "det|"); ok {
				out = append(out, sku)
			}
		}
	}
	return out
}

// TestMoreButtonPages: a category page ends with a More button; pressing
// it sends the next page, none of whose cards were shown before; a forged
// More button is answered without any card.
func TestMoreButtonPages(t *testing.T) {
	r := newRig(t, catalogtest.SQLiteDemo(t), nil)
	ann := telegramtest.User(601, "Ann")
	chat := "601"
	private := models.Chat{ID: 601, Type: models.ChatTypePrivate}

	r.srv.Push(telegramtest.Callback(private, ann, 1, "cat||0|Books"))
	first := r.waitSent(chat, "a More button", func(c telegramtest.Call) bool { return moreData(c) != "" })
	if first.Buttons()["More"] != moreData(first) || len(moreData(first)) > 64 {
		t.Fatalf("More button %v", first.Buttons())
	}
	page1 := cardSKUs(r.sent(chat))
	if len(page1) != 5 {
		t.Fatalf("first page %v", page1)
	}

	r.srv.Push(telegramtest.Callback(private, ann, first.MessageID, moreData(first)))
	second := r.waitText(chat, "More products")
	page2 := cardSKUs(r.sent(chat))[len(page1):]
	if len(page2) == 0 {
		t.Fatal("the second page sent no cards")
	}
	for _, sku := range page2 {
		if slices.Contains(page1, sku) {
			t.Errorf("%s shown again: %v then %v", sku, page1, page2)
		}
	}
	if moreData(second) == "" {
		t.Errorf("Books has more than two pages, but no More button under the second: %v", second.Buttons())
	}

	// A forged or stale More button lists nothing.
	shown := len(cardSKUs(r.sent(chat)))
	r.srv.Push(telegramtest.Callback(private, ann, first.MessageID, "more||0|search.deadbeef"))
	r.waitText(chat, "list has changed")
	if n := len(cardSKUs(r.sent(chat))); n != shown {
		t.Errorf("a forged More button sent %d cards", n-shown)
	}
}
