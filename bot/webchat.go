package main

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"shopbot/adapters/web"
	"shopbot/catalog"
)

// webEvents keeps the web chat's event log (history, live streams'
// cursors) in the database.
type webEvents struct{ log catalog.ChatEvents }

var _ web.EventLog = webEvents{}

// webEventsAge is how long a web session's events are kept.
const webEventsAge = 30 * 24 * time.Hour

func (e webEvents) Append(ctx context.Context, session string, evs []web.LoggedEvent) ([]web.LoggedEvent, error) {
	rows := make([]catalog.ChatEvent, len(evs))
	for i, ev := range evs {
		rows[i] = catalog.ChatEvent{Kind: ev.Event, Payload: string(ev.Data)}
	}
	rows, err := e.log.Append(ctx, "web", session, rows)
	return loggedOf(rows), err
}

func (e webEvents) Latest(ctx context.Context, session string, limit int) ([]web.LoggedEvent, error) {
	rows, err := e.log.Latest(ctx, "web", session, limit)
	return loggedOf(rows), err
}

func (e webEvents) After(ctx context.Context, session string, after int64, kind string, limit int) ([]web.LoggedEvent, error) {
	rows, err := e.log.After(ctx, "web", session, after, kind, limit)
	return loggedOf(rows), err
}

func loggedOf(rows []catalog.ChatEvent) []web.LoggedEvent {
	out := make([]web.LoggedEvent, len(rows))
	for i, r := range rows {
		out[i] = web.LoggedEvent{ID: r.ID, Event: r.Kind, Data: json.RawMessage(r.Payload), At: r.CreatedAt}
	}
	return out
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
