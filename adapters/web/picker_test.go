package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/engine"
	"shopbot/engine/view"
)

func trailPicker() *view.Picker {
	return &view.Picker{
		SKU: "TR-1", Title: "Trail Runner", PriceText: "from $24.00",
		Chosen: []view.OptionValue{{Name: "size", Value: "42"}}, Option: "colour", Prompt: "Which colour?",
		Values: []view.Button{
			view.NewButton("Navy", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-NAVY", Qty: 1}),
			view.NewButton("Red", view.Action{Kind: view.ActAdd, SKU: "TR-1-42-RED", Qty: 1}),
		},
	}
}

type pickerJSON struct {
	Type    string
	SKU     string
	Title   string
	Prompt  string
	Text    string
	Chosen  []view.OptionValue
	Buttons []view.Button
}

// TestPickerJSON: a picker comes as {"type":"picker"} with its values as
// buttons; posting a button's data back is the action the engine gets,
// and a cart line keeps its variant.
func TestPickerJSON(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{
		{Kind: engine.EventPicker, Picker: trailPicker()},
		{Kind: engine.EventCart, Cart: &view.CartView{Lines: []view.CartLine{{SKU: "TR-1-42-NAVY", Title: "Trail Runner", Variant: "42 / Navy", Qty: 1}}}},
		{Kind: engine.EventDone, Text: "Which colour?"},
	}}
	w := post(newChat(f), `{"session":"`+session+`","action":"opt|TR-1|0|1"}`, "")
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var resp struct {
		Picker pickerJSON
		Cart   struct{ Lines []map[string]any }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	p := resp.Picker
	if p.Type != "picker" || p.SKU != "TR-1" || p.Prompt != "Which colour?" || len(p.Buttons) != 2 ||
		p.Buttons[0].Label != "Navy" || p.Buttons[0].Data != "add|TR-1-42-NAVY|1" || len(p.Chosen) != 1 {
		t.Errorf("picker = %s", w.Body)
	}
	if p.Text != "Trail Runner · from $24.00 · size: 42 — Which colour?" {
		t.Errorf("text = %q", p.Text)
	}
	if strings.Contains(w.Body.String(), `"values"`) {
		t.Errorf("values sent twice: %s", w.Body)
	}
	if len(resp.Cart.Lines) != 1 || resp.Cart.Lines[0]["variant"] != "42 / Navy" {
		t.Errorf("cart = %s", w.Body)
	}
	if a := f.turns[0].Action; a == nil || a.Kind != view.ActOption || a.SKU != "TR-1" || a.Arg != "1" {
		t.Errorf("turn = %+v", f.turns[0])
	}
}

// TestPickerStream: streamed, the picker is an "event: picker".
func TestPickerStream(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventPicker, Picker: trailPicker()}, {Kind: engine.EventDone}}}
	w := post(newChat(f), `{"session":"`+session+`","action":"add|TR-1|1"}`, "text/event-stream")
	body := w.Body.String()
	i := strings.Index(body, "event: picker\ndata: ")
	if w.Code != 200 || i < 0 {
		t.Fatalf("status %d:\n%s", w.Code, body)
	}
	line := body[i+len("event: picker\ndata: "):]
	line = line[:strings.IndexByte(line, '\n')]
	var p pickerJSON
	if err := json.Unmarshal([]byte(line), &p); err != nil || p.Type != "picker" || len(p.Buttons) != 2 || p.Buttons[1].Data != "add|TR-1-42-RED|1" {
		t.Errorf("picker event %q: %v", line, err)
	}
}

// TestPickerHostileAction: any well-formed opt action reaches the engine
// as it came (the engine validates SKU and indexes); a malformed one is
// refused with a 400 before it.
func TestPickerHostileAction(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventDone, Text: "That choice is no longer available."}}}
	w := post(newChat(f), `{"session":"`+session+`","action":"opt|<script>|0|99.99.99"}`, "")
	if w.Code != 200 || len(f.turns) != 1 || f.turns[0].Action.SKU != "<script>" || f.turns[0].Action.Arg != "99.99.99" {
		t.Errorf("status %d, turns %+v", w.Code, f.turns)
	}
	w = post(newChat(f), `{"session":"`+session+`","action":"opt|TR-1|-1|0"}`, "")
	if w.Code != 400 || len(f.turns) != 1 {
		t.Errorf("bad quantity: status %d, turns %d", w.Code, len(f.turns))
	}
}

func backInStock(s string) view.Notice {
	return view.Notice{
		Kind: view.NoticeBackInStock, Where: catalog.ConversationKey{Channel: "web", ChatID: s},
		Product: &view.Card{SKU: "LAMP-1", Title: "Desk <Lamp>", PriceText: "$19.99", InStock: true},
	}
}

type noticeJSON struct {
	Type, Kind, Text string
	Card             *view.Card
	Buttons          []view.Button
}

// TestNoticeNextAnswer: a back-in-stock notice for a session comes with
// that session's next answer (and only once), with the product and an
// add button; another session's answer does not carry it.
func TestNoticeNextAnswer(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventDone, Text: "Hi."}}}
	c := newChat(f)
	if err := c.Notify(context.Background(), backInStock(session)); err != nil {
		t.Fatal(err)
	}
	other := strings.Repeat("b", 20)
	if w := post(c, `{"session":"`+other+`","message":"hi"}`, ""); strings.Contains(w.Body.String(), "notice") {
		t.Errorf("another session got it: %s", w.Body)
	}
	w := post(c, `{"session":"`+session+`","message":"hi"}`, "")
	var resp struct{ Notices []noticeJSON }
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Notices) != 1 {
		t.Fatalf("response: %s", w.Body)
	}
	n := resp.Notices[0]
	if n.Type != "notice" || n.Kind != "back_in_stock" || n.Card == nil || n.Card.SKU != "LAMP-1" ||
		len(n.Buttons) != 1 || n.Buttons[0].Data != "add|LAMP-1|1" || n.Text != "Desk <Lamp> is back in stock: $19.99." {
		t.Errorf("notice = %+v", n)
	}
	if w := post(c, `{"session":"`+session+`","message":"hi"}`, ""); strings.Contains(w.Body.String(), "notice") {
		t.Errorf("delivered twice: %s", w.Body)
	}
}

// TestNoticeStreamAndPoll: streamed, a notice is the first event; a
// polling client takes it from GET /api/chat/notices; a turn that failed
// before anything was sent keeps it for the next answer.
func TestNoticeStreamAndPoll(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventText, Text: "Hi"}, {Kind: engine.EventDone, Text: "Hi"}}}
	c := newChat(f)
	_ = c.Notify(context.Background(), backInStock(session))
	w := post(c, `{"session":"`+session+`","message":"hi"}`, "text/event-stream")
	if !strings.HasPrefix(w.Body.String(), "event: notice\ndata: {\"type\":\"notice\",\"id\":\"") || !strings.Contains(w.Body.String(), `"kind":"back_in_stock"`) {
		t.Errorf("stream:\n%s", w.Body)
	}

	_ = c.Notify(context.Background(), backInStock(session))
	down := &fakeEngine{err: engine.ErrUnavailable}
	c2 := newChat(down)
	_ = c2.Notify(context.Background(), backInStock(session))
	if w := post(c2, `{"session":"`+session+`","message":"hi"}`, ""); w.Code != 503 || strings.Contains(w.Body.String(), "notice") {
		t.Errorf("failed turn: %d %s", w.Code, w.Body)
	}
	for _, cc := range []http.HandlerFunc{c.Notices, c2.Notices} {
		rec := httptest.NewRecorder()
		cc(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session="+session, nil))
		var resp struct{ Notices []noticeJSON }
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || rec.Code != 200 || len(resp.Notices) != 1 {
			t.Errorf("poll: %d %s", rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	c.Notices(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session="+session, nil))
	if rec.Body.String() != "{\"notices\":[]}\n" {
		t.Errorf("second poll: %s", rec.Body)
	}
	rec = httptest.NewRecorder()
	c.Notices(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session=short", nil))
	if rec.Code != 400 {
		t.Errorf("bad session: %d", rec.Code)
	}
}

// TestNoticeRefused: notices for another channel, a bad session id or
// without their product are refused; past the per-session bound of
// waiting notices one still reaches the log (live streams, history) and
// the waiting ones stay bounded.
func TestNoticeRefused(t *testing.T) {
	c := newChat(&fakeEngine{})
	bad := map[string]view.Notice{}
	n := backInStock(session)
	n.Where.Channel = "telegram"
	bad["channel"] = n
	bad["session"] = backInStock("../x")
	n = backInStock(session)
	n.Product = nil
	bad["product"] = n
	bad["merchant kind"] = view.Notice{Kind: view.NoticeOrderPlaced, Where: catalog.ConversationKey{Channel: "web", ChatID: session}}
	for name, n := range bad {
		if err := c.Notify(context.Background(), n); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for i := 0; i < 25; i++ {
		if err := c.Notify(context.Background(), backInStock(session)); err != nil {
			t.Fatalf("notice %d: %v", i+1, err)
		}
	}
	rec := httptest.NewRecorder()
	c.Notices(rec, httptest.NewRequest(http.MethodGet, "/api/chat/notices?session="+session, nil))
	if got := strings.Count(rec.Body.String(), `"back_in_stock"`); got != 20 {
		t.Errorf("%d notices waiting, want the bound of 20", got)
	}
	h := httptest.NewRecorder()
	c.History(h, httptest.NewRequest(http.MethodGet, "/api/chat/history?session="+session, nil))
	if got := strings.Count(h.Body.String(), `"back_in_stock"`); got != 25 {
		t.Errorf("%d notices in the history, want 25", got)
	}
}
