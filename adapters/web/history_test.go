package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"shopbot/adapters/web"
	"shopbot/engine"
	"shopbot/engine/view"
)

// turnEvents is a turn that shows everything a reload must draw again.
func turnEvents() []engine.Event {
	return []engine.Event{
		{Kind: engine.EventTyping},
		{Kind: engine.EventText, Text: "Here are "},
		{Kind: engine.EventText, Text: "two lamps."},
		{Kind: engine.EventCards, Cards: []view.Card{{SKU: "LAMP-1", Title: "Desk lamp", PriceText: "$20.00", ImageURL: "/media/lamp.jpg"}}},
		{Kind: engine.EventButtons, Buttons: []view.Button{view.NewButton("Add", view.Action{Kind: view.ActAdd, SKU: "LAMP-1", Qty: 1})}},
		{Kind: engine.EventCart, Cart: &view.CartView{Units: 1, TotalText: "$20.00", Lines: []view.CartLine{{SKU: "LAMP-1", Title: "Desk lamp", Qty: 1, PriceText: "$20.00"}}}},
		{Kind: engine.EventOrder, Order: &view.OrderView{Number: "SB-9", Status: "new", TotalText: "$20.00"}},
		{Kind: engine.EventDone, Text: "Here are two lamps."},
	}
}

type historyJSON struct {
	Events []struct {
		ID    int64           `json:"id"`
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	} `json:"events"`
}

func history(t *testing.T, c *web.Chat, q string) (historyJSON, *httptest.ResponseRecorder) {
	t.Helper()
	w := httptest.NewRecorder()
	c.History(w, httptest.NewRequest("GET", "/api/chat/history?"+q, nil))
	var h historyJSON
	if w.Code == 200 {
		if err := json.Unmarshal(w.Body.Bytes(), &h); err != nil {
			t.Fatalf("history body %s: %v", w.Body, err)
		}
	}
	return h, w
}

// TestHistoryRedrawsEvents: after a streamed turn and a notice, the
// history holds the shopper's message and every event the stream sent
// — cards with photo and price, buttons, the cart, the order, the notice
// — with the very data the stream carried (the text deltas joined), in
// order, so the widget draws a reload through its live code.
func TestHistoryRedrawsEvents(t *testing.T) {
	c := newChat(&fakeEngine{events: turnEvents()})
	w := post(c, `{"session":"`+session+`","message":"lamps"}`, "text/event-stream")
	streamed := map[string]string{}
	for _, ev := range readSSE(t, w.Body) {
		b, _ := json.Marshal(ev.Data)
		streamed[ev.Name] = string(b)
	}
	if err := c.Notify(t.Context(), backInStock(session)); err != nil {
		t.Fatal(err)
	}
	h, rec := history(t, c, "session="+session)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	var names []string
	for i, ev := range h.Events {
		names = append(names, ev.Event)
		if i > 0 && ev.ID <= h.Events[i-1].ID {
			t.Errorf("ids not growing: %d after %d", ev.ID, h.Events[i-1].ID)
		}
		var got, want any
		_ = json.Unmarshal(ev.Data, &got)
		if s, ok := streamed[ev.Event]; ok && ev.Event != "text" {
			_ = json.Unmarshal([]byte(s), &want)
			g, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if string(g) != string(wb) {
				t.Errorf("%s in history %s, streamed %s", ev.Event, g, wb)
			}
		}
	}
	if got := strings.Join(names, " "); got != "user text cards buttons cart order notice" {
		t.Fatalf("history events %q", got)
	}
	if string(h.Events[0].Data) != `{"text":"lamps"}` || string(h.Events[1].Data) != `{"text":"Here are two lamps."}` {
		t.Errorf("user %s, text %s", h.Events[0].Data, h.Events[1].Data)
	}
	for _, want := range []string{`"image_url":"/media/lamp.jpg"`, `"price_text":"$20.00"`} {
		if !strings.Contains(string(h.Events[2].Data), want) {
			t.Errorf("card lacks %s: %s", want, h.Events[2].Data)
		}
	}
	if n := h.Events[6].Data; !strings.Contains(string(n), `"kind":"back_in_stock"`) || !strings.Contains(string(n), `"id":"`) {
		t.Errorf("notice %s", n)
	}
	// The JSON mode records the same way; a limit keeps the latest.
	post(c, `{"session":"`+session+`","action":"add|LAMP-1|1"}`, "")
	h, _ = history(t, c, "session="+session+"&limit=5")
	if len(h.Events) != 5 || h.Events[0].Event != "text" || h.Events[4].Event != "order" {
		t.Errorf("latest 3 after an action (no user event for a button): %+v", h.Events)
	}
}

// TestHistoryBadInput: bad sessions and limits are 400s that read
// nothing; a failed turn records nothing; a failing log is a 503 with
// Retry-After.
func TestHistoryBadInput(t *testing.T) {
	f := &fakeEngine{err: engine.ErrBadTurn}
	c := newChat(f)
	if h, w := history(t, c, "session="+session); w.Code != 200 || strings.TrimSpace(w.Body.String()) != `{"events":[]}` || len(h.Events) != 0 {
		t.Errorf("empty: %d %s", w.Code, w.Body)
	}
	post(c, `{"session":"`+session+`","message":"hi"}`, "text/event-stream")
	if h, _ := history(t, c, "session="+session); len(h.Events) != 0 {
		t.Errorf("a refused turn was recorded: %+v", h.Events)
	}
	for _, q := range []string{"session=x", "session=" + session + "&limit=0", "session=" + session + "&limit=501", "session=" + session + "&limit=ten"} {
		if _, w := history(t, c, q); w.Code != 400 || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("%s: %d %s", q, w.Code, w.Body)
		}
	}
	c.KeepEvents(failingLog{})
	if _, w := history(t, c, "session="+session); w.Code != 503 || w.Header().Get("Retry-After") == "" {
		t.Errorf("log down: %d %v", w.Code, w.Header())
	}
	// A notice still waits for the next request with the log down.
	if err := c.Notify(t.Context(), backInStock(session)); err != nil {
		t.Errorf("notify with the log down (the store keeps it): %v", err)
	}
}

type failingLog struct{}

func (failingLog) Append(context.Context, string, []web.LoggedEvent) ([]web.LoggedEvent, error) {
	return nil, errors.New("log down")
}
func (failingLog) Latest(context.Context, string, int) ([]web.LoggedEvent, error) {
	return nil, errors.New("log down")
}
func (failingLog) After(context.Context, string, int64, string, int) ([]web.LoggedEvent, error) {
	return nil, errors.New("log down")
}

// TestLiveEventsEveryTab: two tabs of one session hold two streams; a
// notice and a staff reply, made here or on another replica, reach both;
// a tab that reconnects with Last-Event-ID gets what it missed, once,
// and a bad cursor is a 400.
func TestLiveEventsEveryTab(t *testing.T) {
	log := &web.MemoryEvents{}
	a, b := newChat(&fakeEngine{}), newChat(&fakeEngine{})
	a.KeepEvents(log)
	b.KeepEvents(log)
	a.PollNotices(20 * time.Millisecond)
	tab1, _ := liveStream(t, a.Events, session)
	tab2, _ := liveStream(t, a.Events, session)
	for _, tab := range []<-chan sseEvent{tab1, tab2} {
		if ev := next(t, tab); ev.Name != "ready" {
			t.Fatalf("first event %s", ev.Name)
		}
	}
	waitStreams(t, a, 2)
	if err := a.DeliverStaffMessage(t.Context(), session, "Maria here."); err != nil {
		t.Fatal(err)
	}
	o := view.Notice{Kind: view.NoticeOrderStatus, Order: &view.OrderView{Number: "SB-7", Status: "shipped"}}
	o.Where.Channel, o.Where.ChatID = "web", session
	if err := b.Notify(t.Context(), o); err != nil { // another replica
		t.Fatal(err)
	}
	var firstID string
	for i, tab := range []<-chan sseEvent{tab1, tab2} {
		staff, status := next(t, tab), next(t, tab)
		if staff.Data["text"] != "Maria here." || staff.ID == "" || status.Data["kind"] != "order_status" {
			t.Errorf("tab %d got %+v then %+v", i+1, staff, status)
		}
		firstID = staff.ID
	}
	// Tab 2 was away after the staff message: it reconnects and gets the
	// order notice again (missed), not the staff message.
	tab3, _ := liveStreamFrom(t, a.Events, session, firstID)
	if ev := next(t, tab3); ev.Name != "ready" {
		t.Fatalf("first event %s", ev.Name)
	}
	if ev := next(t, tab3); ev.Data["kind"] != "order_status" {
		t.Errorf("resumed stream got %+v", ev)
	}
	w := httptest.NewRecorder()
	a.Events(w, httptest.NewRequest("GET", "/api/chat/events?session="+session+"&after=-4", nil))
	if w.Code != 400 {
		t.Errorf("bad cursor: %d %s", w.Code, w.Body)
	}
}

// waitStreams waits until c holds n live streams (they are counted
// before the first event is written, so this returns at once).
func waitStreams(t *testing.T, c *web.Chat, n int) {
	t.Helper()
	if got := c.Streams(); got != n {
		t.Fatalf("%d streams open, want %d", got, n)
	}
}
