package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"shopbot/adapters/web"
	"shopbot/engine"
	"shopbot/engine/view"
)

// fakeEngine records turns and replays scripted events.
type fakeEngine struct {
	turns  []engine.Turn
	events []engine.Event
	err    error
}

func (f *fakeEngine) Handle(ctx context.Context, t engine.Turn, sink engine.Sink) error {
	f.turns = append(f.turns, t)
	for _, ev := range f.events {
		if err := sink.Send(ctx, ev); err != nil {
			return err
		}
	}
	return f.err
}

const session = "3f1c2a9e-5b7d-4c1e-9a0b-7d6e5f4c3b2a"

func post(h http.Handler, body string, accept string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/api/chat", strings.NewReader(body))
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func newChat(f *fakeEngine) *web.Chat {
	return web.New(f, slog.New(slog.DiscardHandler))
}

func TestChatJSON(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{
		{Kind: engine.EventText, Text: "Here "},
		{Kind: engine.EventCards, Cards: []view.Card{{SKU: "A-1", Title: "<b>&Co</b>", PriceText: "$1.00"}}},
		{Kind: engine.EventButtons, Buttons: []view.Button{view.NewButton("Add", view.Action{Kind: view.ActAdd, SKU: "A-1", Qty: 1})}},
		{Kind: engine.EventDone, Text: "Here you go."},
	}}
	w := post(newChat(f), `{"session":"`+session+`","message":"  red sneakers  ","locale":"en"}`, "")
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var resp struct {
		Reply   string
		Cards   []view.Card
		Buttons []view.Button
	}
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Reply != "Here you go." || len(resp.Cards) != 1 || resp.Buttons[0].Data != "add|A-1|1" {
		t.Errorf("response = %s", w.Body)
	}
	if strings.Contains(w.Body.String(), "<b>") {
		t.Error("HTML not escaped in JSON")
	}
	tr := f.turns[0]
	if tr.Channel != "web" || tr.UserID != session || tr.ChatID != session || tr.Text != "red sneakers" || tr.DedupKey == "" {
		t.Errorf("turn = %+v", tr)
	}
}

func TestChatAction(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{{Kind: engine.EventDone, Text: "Added."}}}
	if w := post(newChat(f), `{"session":"`+session+`","action":"add|SHO-RUN-001|2"}`, ""); w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if a := f.turns[0].Action; a == nil || a.SKU != "SHO-RUN-001" || a.Qty != 2 {
		t.Errorf("action = %+v", a)
	}
}

func TestChatBadRequests(t *testing.T) {
	for name, body := range map[string]string{
		"not json":        `hello`,
		"empty message":   `{"session":"` + session + `","message":"   "}`,
		"short session":   `{"session":"abc","message":"hi"}`,
		"session symbols": `{"session":"../../etc/passwd/../../x","message":"hi"}`,
		"unknown field":   `{"session":"` + session + `","message":"hi","customer_id":1}`,
		"two objects":     `{"session":"` + session + `","message":"hi"}{}`,
		"forged action":   `{"session":"` + session + `","action":"drop|x"}`,
	} {
		f := &fakeEngine{}
		w := post(newChat(f), body, "")
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
		if len(f.turns) != 0 {
			t.Errorf("%s: reached the engine", name)
		}
	}
}

func TestChatRateLimited(t *testing.T) {
	f := &fakeEngine{err: engine.ErrRateLimited}
	w := post(newChat(f), `{"session":"`+session+`","message":"hi"}`, "")
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "wait a minute") {
		t.Errorf("%d %s", w.Code, w.Body)
	}
	w = post(newChat(f), `{"session":"`+session+`","message":"hi"}`, "text/event-stream")
	if w.Code != http.StatusTooManyRequests {
		t.Errorf("stream: %d %s", w.Code, w.Body)
	}
}

// TestChatReplayed: a request whose Idempotency-Key the engine has seen
// (a client's retry) gets 409 and a JSON error, in both modes.
func TestChatReplayed(t *testing.T) {
	f := &fakeEngine{err: fmt.Errorf("wrapped: %w", engine.ErrReplayed)}
	for _, accept := range []string{"", "text/event-stream"} {
		w := post(newChat(f), `{"session":"`+session+`","message":"hi"}`, accept)
		if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("accept %q: %d %s", accept, w.Code, w.Body)
		}
	}
}

func TestChatStream(t *testing.T) {
	f := &fakeEngine{events: []engine.Event{
		{Kind: engine.EventText, Text: "Hel"},
		{Kind: engine.EventText, Text: "lo"},
		{Kind: engine.EventCart, Cart: &view.CartView{Units: 1, TotalText: "$1.00"}},
		{Kind: engine.EventDone, Text: "Hello"},
	}}
	srv := httptest.NewServer(newChat(f))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"session":"`+session+`","message":"hi"}`))
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var kinds []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			kinds = append(kinds, k)
		}
	}
	if strings.Join(kinds, ",") != "text,text,cart,done" {
		t.Errorf("events = %v", kinds)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
}
