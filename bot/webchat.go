package main

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"shopbot/adapters/web"
	"shopbot/catalog"
)

// buttonPrefix marks a recorded button press (engine/recorder.go).
const buttonPrefix = "[button] "

// webHistory reads a web session's transcript for GET /api/chat/history.
type webHistory struct{ db bun.IDB }

var _ web.HistorySource = webHistory{}

func (h webHistory) History(ctx context.Context, session string, limit int) ([]web.HistoryEntry, error) {
	ms, err := catalog.ShopperTranscript(ctx, h.db, catalog.ConversationKey{Channel: "web", ChatID: session}, limit)
	if err != nil {
		return nil, err
	}
	out := make([]web.HistoryEntry, 0, len(ms))
	for _, m := range ms {
		if m.Role == catalog.RoleUser && strings.HasPrefix(m.Content, buttonPrefix) {
			continue // a button press: its answer says what it did
		}
		out = append(out, web.HistoryEntry{Role: string(m.Role), Text: m.Content, At: m.CreatedAt})
	}
	return out, nil
}

// webChatRoutes mounts the web chat API and the widget: every chat
// endpoint behind the origin allowlist (preflights answered, CORS headers
// only for allowed origins) and the readiness gate; /widget.js for any
// page.
func webChatRoutes(mux *http.ServeMux, chat *web.Chat, origins *web.Origins, shopper func(http.Handler) http.Handler) {
	if origins == nil {
		origins, _ = web.ParseOrigins("", "")
	}
	guard := func(h http.Handler) http.Handler { return origins.Wrap(shopper(h)) }
	mux.Handle("POST /api/chat", guard(chat))
	mux.Handle("GET /api/chat/notices", guard(http.HandlerFunc(chat.Notices)))
	mux.Handle("GET /api/chat/history", guard(http.HandlerFunc(chat.History)))
	mux.Handle("GET /api/chat/events", guard(http.HandlerFunc(chat.Events)))
	for _, p := range []string{"/api/chat", "/api/chat/notices", "/api/chat/history", "/api/chat/events"} {
		mux.Handle("OPTIONS "+p, origins.Wrap(http.NotFoundHandler()))
	}
	mux.HandleFunc("GET /widget.js", web.Widget)
}
