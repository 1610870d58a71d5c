package slack_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"shopbot/adapters/slack/slackfake"
	"shopbot/engine"
	"shopbot/engine/view"
)

// pickerReply answers like the engine's variant picker: a message asks
// for the size, a size choice (opt) asks for the colour, a colour choice
// (add of the variant) shows the cart; an unknown parent gets a sorry.
func pickerReply(t engine.Turn) []engine.Event {
	base := view.Picker{SKU: "TR-1", Title: "Trail <Runner> & Co", PriceText: "from $24.00", ImageURL: "https://img.example.com/tr.jpg"}
	switch {
	case t.Action == nil:
		pk := base
		pk.Option, pk.Prompt = "size", "Which size?"
		for i, s := range []string{"39", "40", "41", "42", "43", "44"} {
			pk.Values = append(pk.Values, view.NewButton(s, view.Action{Kind: view.ActOption, SKU: "TR-1", Arg: strconv.Itoa(i)}))
		}
		pk.Values = append(pk.Values, view.NewButton("45", view.Action{Kind: view.ActOption, SKU: strings.Repeat("X", 150), Arg: "6"}))
		return []engine.Event{{Kind: engine.EventPicker, Picker: &pk}, {Kind: engine.EventDone}}
	case t.Action.Kind == view.ActOption && t.Action.SKU == "TR-1":
		pk := base
		pk.Chosen = []view.OptionValue{{Name: "size", Value: "42"}}
		pk.Option, pk.Prompt = "colour", "Which colour?"
		pk.Values = []view.Button{
			view.NewButton("Navy", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}),
			view.NewButton("Red", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-RED", Qty: 1}),
		}
		return []engine.Event{{Kind: engine.EventPicker, Picker: &pk}, {Kind: engine.EventDone}}
	case t.Action.Kind == view.ActAdd:
		cart := &view.CartView{Units: 1, TotalText: "$25.00", Lines: []view.CartLine{
			{SKU: t.Action.SKU, Title: "Trail <Runner> & Co", Variant: "42 / Navy", Qty: 1, PriceText: "$25.00"},
		}}
		return []engine.Event{{Kind: engine.EventCart, Cart: cart}, {Kind: engine.EventDone, Text: "Added."}}
	}
	return []engine.Event{{Kind: engine.EventDone, Text: "That choice is no longer available."}}
}

// choose delivers a block_actions payload for the option with value of
// the static_select in msg (or, when msg offers no such option, a
// hand-made choice of it), as Slack sends it; it returns the status.
func (e *env) choose(user string, msg slackfake.Message, value string, ephemeral bool) int {
	e.t.Helper()
	blockID, actionID, label, placeholder, err := slackfake.FindSelect(msg.Blocks, value)
	if err != nil {
		blockID, actionID, label, placeholder = "picker:actions", "picker", "forged", "?"
	}
	container := map[string]any{"type": "message", "message_ts": msg.TS, "channel_id": msg.Channel, "is_ephemeral": ephemeral}
	if msg.ThreadTS != "" {
		container["thread_ts"] = msg.ThreadTS
	}
	p := map[string]any{
		"type": "block_actions", "user": map[string]any{"id": user, "username": strings.ToLower(user), "team_id": "T1"},
		"api_app_id": "A1", "token": "legacy", "container": container, "trigger_id": "tr-" + e.nextTS(),
		"team": map[string]any{"id": "T1"}, "response_url": e.fake.ResponseURL("r1"),
		"actions": []map[string]any{slackfake.SelectAction(blockID, actionID, value, label, placeholder, e.nextTS())},
	}
	if !ephemeral {
		p["channel"] = map[string]any{"id": msg.Channel, "name": "shopping"}
		p["message"] = map[string]any{"type": "message", "ts": msg.TS, "thread_ts": msg.ThreadTS, "text": msg.Text}
	}
	payload, _ := json.Marshal(p)
	resp := e.send("/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(payload)}}.Encode()))
	readBody(resp)
	return resp.StatusCode
}

func pickers(ms []slackfake.Message) int {
	n := 0
	for _, m := range ms {
		if strings.Contains(text(m), `"static_select"`) {
			n++
		}
	}
	return n
}

// TestPickerSelectRoundTrip: the picker is a section and a static_select
// of the values (actions as option values; one too long for Slack left
// out); choosing a size replaces the same message with the colour
// question (chat.update, no new message); choosing a colour closes it as
// "✓ Trail Runner — 42 / Navy" and the cart names the variant.
func TestPickerSelectRoundTrip(t *testing.T) {
	ce := &countingEngine{reply: pickerReply}
	e := newEnv(t, ce)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "trail runner"))
	msg := e.waitFor("C1", root, "the picker", hasText(`"static_select"`))
	if got := text(msg); !strings.Contains(got, `*Trail &lt;Runner&gt; &amp; Co* · *from $24.00*\nWhich size?`) ||
		!strings.Contains(got, `"block_id":"picker:actions"`) || !strings.Contains(got, `"placeholder":{"emoji":false,"text":"Which size?","type":"plain_text"}`) ||
		!strings.Contains(got, `{"text":{"emoji":false,"text":"42","type":"plain_text"},"value":"opt|TR-1|0|3"}`) || strings.Contains(got, "XXXX") ||
		!strings.Contains(got, `"image_url":"https://img.example.com/tr.jpg"`) {
		t.Errorf("picker blocks: %s", got)
	}

	if code := e.choose("UANN", msg, "opt|TR-1|0|3", false); code != http.StatusOK {
		t.Fatalf("choice answered %d", code)
	}
	msg = e.waitFor("C1", root, "the colour question", func(m slackfake.Message) bool {
		return m.TS == msg.TS && strings.Contains(text(m), "Which colour?")
	})
	if got := text(msg); msg.Updates != 1 || !strings.Contains(got, `size: *42*`) || !strings.Contains(got, `"value":"add|TR-1-42-NAVY|1"`) {
		t.Errorf("colour step (updates %d): %s", msg.Updates, got)
	}
	if n := pickers(e.fake.Messages("C1", root)); n != 1 {
		t.Errorf("%d picker messages:\n%s", n, dump(e.fake.Messages("C1", root)))
	}

	if code := e.choose("UANN", msg, "add|TR-1-42-NAVY|1", false); code != http.StatusOK {
		t.Fatalf("choice answered %d", code)
	}
	e.waitFor("C1", root, "the cart", hasText("Trail &lt;Runner&gt; &amp; Co (42 / Navy) — $25.00"))
	done := e.waitFor("C1", root, "the closed picker", func(m slackfake.Message) bool { return m.TS == msg.TS && m.Updates == 2 })
	if got := text(done); !strings.Contains(got, "✓ *Trail &lt;Runner&gt; &amp; Co* — 42 / Navy") || strings.Contains(got, "static_select") {
		t.Errorf("closed picker: %s", got)
	}
	turns := ce.Turns()
	if len(turns) != 3 || *turns[1].Action != (view.Action{Kind: view.ActOption, SKU: "TR-1", Arg: "3"}) ||
		*turns[2].Action != (view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}) || turns[1].ThreadID != root {
		t.Errorf("turns = %+v", turns)
	}
}

// TestPickerEphemeral: a choice in an ephemeral picker (the slash
// command's results) answers through response_url, replacing the
// original message.
func TestPickerEphemeral(t *testing.T) {
	ce := &countingEngine{reply: pickerReply}
	e := newEnv(t, ce)
	msg := slackfake.Message{Channel: "C1", TS: e.nextTS(), Blocks: nil}
	if code := e.choose("UANN", msg, "opt|TR-1|0|3", true); code != http.StatusOK {
		t.Fatalf("choice answered %d", code)
	}
	if !e.fake.Wait(patience, func() bool { return len(e.fake.Responses()) > 0 }) {
		t.Fatal("no response")
	}
	r := e.fake.Responses()[0]
	b, _ := json.Marshal(r)
	if r["replace_original"] != true || r["response_type"] != "ephemeral" || !strings.Contains(string(b), "Which colour?") {
		t.Errorf("response: %s", b)
	}
}

// TestPickerHostileChoice: a chosen value the adapter never offered goes
// to the engine as parsed (the engine checks it); one that is no action
// at all is refused with a 400 and runs no turn.
func TestPickerHostileChoice(t *testing.T) {
	ce := &countingEngine{reply: pickerReply}
	e := newEnv(t, ce)
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "trail runner"))
	msg := e.waitFor("C1", root, "the picker", hasText(`"static_select"`))
	if code := e.choose("UANN", msg, "opt|<b>x</b>|0|9.9.9", false); code != http.StatusOK {
		t.Fatalf("forged choice answered %d", code)
	}
	e.waitFor("C1", root, "the sorry", hasText("no longer available"))
	if code := e.choose("UANN", msg, "drop|table", false); code != http.StatusBadRequest {
		t.Errorf("bogus choice answered %d", code)
	}
	turns := ce.Turns()
	if len(turns) != 2 || turns[1].Action.SKU != "<b>x</b>" || turns[1].Action.Arg != "9.9.9" {
		t.Errorf("turns = %+v", turns)
	}
	if n := pickers(e.fake.Messages("C1", root)); n != 1 {
		t.Errorf("%d picker messages", n)
	}
}

// TestParentCardAndVariantLines: a parent's card keeps its Add to cart
// button (the engine answers it with the picker), and order lines name
// the variant.
func TestParentCardAndVariantLines(t *testing.T) {
	e := newEnv(t, &countingEngine{reply: func(engine.Turn) []engine.Event {
		return []engine.Event{
			{Kind: engine.EventCards, Cards: []view.Card{{SKU: "TR-1", Title: "Trail Runner", PriceText: "from $24.00", InStock: true, Stock: 9, VariantCount: 4, OptionNames: []string{"size", "colour"}}}},
			{Kind: engine.EventOrder, Order: &view.OrderView{Number: "A-7", Status: "paid", TotalText: "$25.00", Lines: []view.OrderLine{{SKU: "TR-1-42-NAVY", Title: "Trail Runner", Variant: "42 / Navy", Qty: 1}}}},
			{Kind: engine.EventDone, Text: "Here."},
		}
	}})
	root := e.nextTS()
	e.postEvent(mention("UANN", "C1", root, "", "trail"))
	card := e.waitFor("C1", root, "the card", hasText(`"block_id":"card:TR-1"`))
	if !strings.Contains(text(card), `"text":"Add to cart","type":"plain_text"},"type":"button","value":"add|TR-1|1"`) {
		t.Errorf("parent card: %s", text(card))
	}
	e.waitFor("C1", root, "the order", hasText("1 × Trail Runner (42 / Navy)"))
}
