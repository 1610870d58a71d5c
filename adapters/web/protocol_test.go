package web_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"shopbot/engine"
	"shopbot/engine/view"
)

// sseEvent is one server-sent event as a client parses it.
type sseEvent struct {
	ID   string // its "id:" line, when it has one
	Name string
	Data map[string]any
}

// readSSE parses a whole event stream (every event must carry JSON).
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data); err != nil {
				t.Fatalf("event %s: data not JSON: %v (%s)", cur.Name, err, line)
			}
		case strings.HasPrefix(line, ":"), strings.HasPrefix(line, "retry: "):
		default:
			t.Fatalf("line %q is not server-sent events", line)
		}
	}
	return out
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestStreamProtocol holds POST /api/chat's event stream to
// docs/web-chat.md: a waiting notice first, then one event per engine
// event, each named by its kind with the documented JSON fields, done
// last with the whole reply and what checkout waits for.
func TestStreamProtocol(t *testing.T) {
	pick := &view.Picker{SKU: "P-1", Title: "Trail", PriceText: "$10.00", Option: "Size", Prompt: "Which size?",
		Values: []view.Button{view.NewButton("42", view.Action{Kind: view.ActAdd, SKU: "P-1-42", Qty: 1})}}
	f := &fakeEngine{events: []engine.Event{
		{Kind: engine.EventTyping},
		{Kind: engine.EventText, Text: "Found "},
		{Kind: engine.EventText, Text: "**two**"},
		{Kind: engine.EventCards, Cards: []view.Card{{SKU: "A-1", Title: "Boot", PriceText: "$5.00", ImageURL: "/media/a.png", InStock: true}}},
		{Kind: engine.EventButtons, Buttons: []view.Button{view.NewButton("More", view.Action{Kind: view.ActMore, Arg: "s1"})}},
		{Kind: engine.EventPicker, Picker: pick},
		{Kind: engine.EventCart, Cart: &view.CartView{Units: 2, TotalText: "$10.00", Lines: []view.CartLine{{SKU: "A-1", Qty: 2, Stock: 5}}}},
		{Kind: engine.EventOrder, Order: &view.OrderView{Number: "SB-1", Status: "new", TotalText: "$10.00"}},
		{Kind: engine.EventDone, Text: "Found **two**", Awaiting: engine.AwaitingPhone},
	}}
	chat := newChat(f)
	if err := chat.DeliverStaffMessage(t.Context(), session, "Hi, Anna from the shop here."); err != nil {
		t.Fatal(err)
	}
	w := post(chat, `{"session":"`+session+`","message":"boots"}`, "text/event-stream")
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "text/event-stream" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("%d %v", w.Code, w.Header())
	}
	evs := readSSE(t, w.Body)
	want := []struct {
		name string
		keys []string
	}{
		{"notice", []string{"id", "kind", "text", "type"}},
		{"typing", nil},
		{"text", []string{"text"}},
		{"text", []string{"text"}},
		{"cards", []string{"cards"}},
		{"buttons", []string{"buttons"}},
		{"picker", []string{"buttons", "chosen", "option", "price_text", "prompt", "sku", "text", "title", "type"}},
		{"cart", []string{"cart"}},
		{"order", []string{"order"}},
		{"done", []string{"awaiting", "reply"}},
	}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(evs), len(want), evs)
	}
	for i, wv := range want {
		if evs[i].Name != wv.name || !reflect.DeepEqual(keysOf(evs[i].Data), wv.keys) {
			t.Errorf("event %d = %s %v, want %s with %v", i, evs[i].Name, keysOf(evs[i].Data), wv.name, wv.keys)
		}
	}
	if n := evs[0].Data; n["kind"] != "merchant_reply" || n["text"] != "Hi, Anna from the shop here." {
		t.Errorf("notice = %v", n)
	}
	card := evs[4].Data["cards"].([]any)[0].(map[string]any)
	if card["sku"] != "A-1" || card["price_text"] != "$5.00" || card["image_url"] != "/media/a.png" || card["in_stock"] != true {
		t.Errorf("card = %v", card)
	}
	if b := evs[5].Data["buttons"].([]any)[0].(map[string]any); b["label"] != "More" || b["data"] != "more||0|s1" {
		t.Errorf("button = %v", b)
	}
	if l := evs[7].Data["cart"].(map[string]any)["lines"].([]any)[0].(map[string]any); l["qty"] != 2.0 || l["stock"] != 5.0 {
		t.Errorf("cart line = %v", l)
	}
	if d := evs[9].Data; d["reply"] != "Found **two**" || d["awaiting"] != "phone" {
		t.Errorf("done = %v", d)
	}
}

// TestStreamErrorEvent: a polite error the engine says mid-turn is an
// "error" event with its text, and the turn still ends with done.
func TestStreamErrorEvent(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{
		{Kind: engine.EventText, Text: "Let me look"},
		{Kind: engine.EventError, Text: "Sorry, something went wrong on our side."},
		{Kind: engine.EventDone},
	}}
	evs := readSSE(t, post(newChat(f), `{"session":"`+session+`","message":"hi"}`, "text/event-stream").Body)
	var names []string
	for _, e := range evs {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "text,error,done" || evs[1].Data["text"] != "Sorry, something went wrong on our side." {
		t.Errorf("events = %+v", evs)
	}
	if _, ok := evs[2].Data["awaiting"]; ok {
		t.Error("done carries awaiting when checkout waits for nothing")
	}
}

// TestStreamStatusErrors: failures before the first event are status
// codes with a JSON error, not a 200 stream — what the widget shows.
func TestStreamStatusErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{engine.ErrRateLimited, http.StatusTooManyRequests},
		{engine.ErrUnavailable, http.StatusServiceUnavailable},
		{engine.ErrReplayed, http.StatusConflict},
	} {
		w := post(newChat(&fakeEngine{err: tc.err}), `{"session":"`+session+`","message":"hi"}`, "text/event-stream")
		var body map[string]string
		if w.Code != tc.code || json.Unmarshal(w.Body.Bytes(), &body) != nil || body["error"] == "" {
			t.Errorf("%v: %d %s", tc.err, w.Code, w.Body)
		}
	}
}

// TestStreamOverHTTP: the events reach a real HTTP client as they are
// made (flushed), one by one.
func TestStreamOverHTTP(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventText, Text: "Hi"}, {Kind: engine.EventDone, Text: "Hi"}}}
	srv := httptest.NewServer(newChat(f))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"session":"`+session+`","message":"hi"}`))
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	evs := readSSE(t, resp.Body)
	if len(evs) != 2 || evs[0].Name != "text" || evs[1].Name != "done" {
		t.Errorf("events = %+v", evs)
	}
}
