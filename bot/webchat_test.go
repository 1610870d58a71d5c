package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"shopbot/adapters/web"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
)

// doneEngine answers every turn with one done event.
type doneEngine struct{}

func (doneEngine) Handle(ctx context.Context, _ engine.Turn, s engine.Sink) error {
	return s.Send(ctx, engine.Event{Kind: engine.EventDone, Text: "ok"})
}

// TestWebChatRoutes: the web chat mounts its API behind the origin
// allowlist and the readiness gate, answers preflights of allowed
// origins on every endpoint, and serves /widget.js to any page even
// before the shop is ready.
func TestWebChatRoutes(t *testing.T) {
	var ready atomic.Bool
	origins, err := web.ParseOrigins("https://www.example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	mux := routes(httpHandlers{admin: fakePanel{}, webChat: web.New(doneEngine{}, slog.New(slog.DiscardHandler)), origins: origins, ready: &ready})
	do := func(method, path, origin, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w
	}
	const s = "0123456789abcdef0123"
	if w := do("POST", "/api/chat", "https://www.example.com", `{"session":"`+s+`","message":"hi"}`); w.Code != http.StatusServiceUnavailable {
		t.Errorf("before ready: %d", w.Code)
	}
	if w := do("GET", "/widget.js", "", ""); w.Code != 200 || !strings.Contains(w.Body.String(), "shopbot") {
		t.Errorf("/widget.js = %d", w.Code)
	}
	ready.Store(true)
	for _, p := range []string{"/api/chat", "/api/chat/history", "/api/chat/events", "/api/chat/notices"} {
		if w := do("OPTIONS", p, "https://www.example.com", ""); w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != "https://www.example.com" {
			t.Errorf("preflight %s = %d %v", p, w.Code, w.Header())
		}
		if w := do("OPTIONS", p, "https://evil.example", ""); w.Code != http.StatusForbidden {
			t.Errorf("refused preflight %s = %d", p, w.Code)
		}
	}
	if w := do("POST", "/api/chat", "https://www.example.com", `{"session":"`+s+`","message":"hi"}`); w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != "https://www.example.com" {
		t.Errorf("allowed POST = %d %v", w.Code, w.Header())
	}
	if w := do("GET", "/api/chat/history?session="+s, "https://evil.example", ""); w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "WEB_CHAT_ORIGINS") {
		t.Errorf("refused history = %d %s", w.Code, w.Body)
	}
}

// TestWebEventsInDatabase: the web chat's event log on the database
// keeps a turn's events in order with their data, and the notices after
// a cursor.
func TestWebEventsInDatabase(t *testing.T) {
	db := catalogtest.SQLite(t)
	ctx := context.Background()
	l := webEvents{log: catalog.ChatEvents{DB: db}}
	got, err := l.Append(ctx, "0123456789abcdef0123", []web.LoggedEvent{
		{Event: "user", Data: json.RawMessage(`{"text":"boots"}`)}, {Event: "notice", Data: json.RawMessage(`{"id":"n1"}`)}})
	if err != nil || len(got) != 2 {
		t.Fatalf("append: %+v %v", got, err)
	}
	h, err := l.Latest(ctx, "0123456789abcdef0123", 10)
	if err != nil || len(h) != 2 || h[0].Event != "user" || string(h[0].Data) != `{"text":"boots"}` || h[1].ID != got[1].ID {
		t.Errorf("latest = %+v %v", h, err)
	}
	n, err := l.After(ctx, "0123456789abcdef0123", got[0].ID, "notice", 10)
	if err != nil || len(n) != 1 || string(n[0].Data) != `{"id":"n1"}` {
		t.Errorf("after = %+v %v", n, err)
	}
}
