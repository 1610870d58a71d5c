package slack_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"shopbot/adapters"
	slackad "shopbot/adapters/slack"
	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/view"
)

// TestNotices: handoffs and orders from any channel reach the orders
// channel with a transcript link; a merchant's reply reaches the Slack
// thread; notices Slack cannot deliver are errors.
func TestNotices(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	ctx := context.Background()
	err := e.hub.Notify(ctx, view.Notice{Kind: view.NoticeHandoff, Customer: "Olga <admin>",
		Where: catalog.ConversationKey{Channel: "telegram", ChatID: "42"}, ConversationID: 7, Text: "wants a refund"})
	if err != nil {
		t.Fatal(err)
	}
	m := e.waitFor("CORDERS", "", "handoff", hasText("Olga &lt;admin&gt; on telegram needs a person"))
	for _, want := range []string{"wants a refund", "https://shop.example.com/admin/conversations/7"} {
		if !hasText(want)(m) {
			t.Errorf("handoff lacks %q: %s", want, m.Content())
		}
	}
	err = e.hub.Notify(ctx, view.Notice{Kind: view.NoticeOrderPlaced, Customer: "Web shopper", Where: catalog.ConversationKey{Channel: "web", ChatID: "s1"},
		Order: &view.OrderView{Number: "SB-1", Status: "new", TotalText: "$5.00", Lines: []view.OrderLine{{Title: "Socks", Qty: 2}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.waitFor("CORDERS", "", "order", hasText("New order #SB-1"))

	err = e.hub.Notify(ctx, view.Notice{Kind: view.NoticeMerchantReply, Text: "We'll ship <today> & call you",
		Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "100.1"}})
	if err != nil {
		t.Fatal(err)
	}
	e.waitFor("C1", "100.1", "merchant reply", hasText("We'll ship &lt;today&gt; &amp; call you"))

	e.fake.Fail("chat.postMessage", "channel_not_found")
	err = e.hub.Notify(ctx, view.Notice{Kind: view.NoticeMerchantReply, Text: "hi", Where: catalog.ConversationKey{Channel: "slack", ChatID: "CGONE"}})
	if err == nil {
		t.Error("an undelivered notice reported no error")
	}
	if err := e.ad.Shoppers().Notify(ctx, view.Notice{Kind: view.NoticeOrderStatus, Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1"}}); err == nil {
		t.Error("status notice without an order accepted")
	}
	if err := e.hub.Notify(ctx, view.Notice{Kind: view.NoticeMerchantReply, Where: catalog.ConversationKey{Channel: "telegram", ChatID: "1"}}); !errors.Is(err, adapters.ErrNoRoute) {
		t.Errorf("telegram notice: %v", err)
	}
}

// TestNoOrdersChannel: without SLACK_ORDERS_CHANNEL there is no merchant
// notifier.
func TestNoOrdersChannel(t *testing.T) {
	e := newEnv(t, &countingEngine{}, func(_ *engine.Config, ac *slackad.Config) { ac.OrdersChannel = "" })
	if e.ad.Merchants() != nil {
		t.Error("merchant notifier without an orders channel")
	}
}

// TestForgedInteractions: signed but malformed or forged payloads get 400
// and change nothing.
func TestForgedInteractions(t *testing.T) {
	ce := &countingEngine{}
	e := newEnv(t, ce)
	for name, payload := range map[string]string{
		"not json":       `{"type":`,
		"unknown action": `{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"t1","channel":{"id":"C1"},"actions":[{"type":"button","action_id":"x","value":"drop|tables"}]}`,
		"bad quantity":   `{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"t1","channel":{"id":"C1"},"actions":[{"type":"button","action_id":"x","value":"add|SKU|1000"}]}`,
		"no user":        `{"type":"block_actions","trigger_id":"t1","channel":{"id":"C1"},"actions":[{"type":"button","action_id":"x","value":"cart"}]}`,
		"no actions":     `{"type":"block_actions","user":{"id":"UANN"},"trigger_id":"t1","channel":{"id":"C1"},"actions":[]}`,
	} {
		resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {payload}}.Encode()))
		if b := readBody(resp); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.StatusCode, b)
		}
	}
	resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte("nopayload=1"))
	if readBody(resp); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("no payload: %d", resp.StatusCode)
	}
	e.ad.Wait()
	if len(ce.Turns()) != 0 || e.count("inbox") != 0 {
		t.Errorf("forged payloads reached the engine: %+v", ce.Turns())
	}
}

// TestNoticeBackInStock: a back-in-stock notice reaches the thread the
// shopper asked from, with an Add to cart button.
func TestNoticeBackInStock(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	ctx := context.Background()
	n := view.Notice{Kind: view.NoticeBackInStock, Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "100.1"},
		Product: &view.Card{SKU: "LAMP-1", Title: "Desk <Lamp>", PriceText: "$19.99", InStock: true}}
	if err := e.hub.Notify(ctx, n); err != nil {
		t.Fatal(err)
	}
	m := e.waitFor("C1", "100.1", "back in stock", hasText("Desk &lt;Lamp&gt;"))
	if !hasText("add|LAMP-1|1")(m) {
		t.Errorf("no add button: %s", m.Content())
	}
	n.Product = nil
	if err := e.hub.Notify(ctx, n); err == nil {
		t.Error("notice without a product accepted")
	}
}

// TestNoticeCSAT: the rating prompt reaches the shopper's thread in their
// language with five buttons whose values are the rate actions.
func TestNoticeCSAT(t *testing.T) {
	e := newEnv(t, &countingEngine{})
	n := view.Notice{Kind: view.NoticeCSAT, Where: catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "100.2"}, Locale: "ru"}
	if err := e.hub.Notify(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	m := e.waitFor("C1", "100.2", "rating prompt", hasText("Оцените нашу помощь"))
	for _, data := range []string{"rate||1", "rate||3", "rate||5"} {
		if !hasText(data)(m) {
			t.Errorf("no %s button: %s", data, m.Content())
		}
	}
}
