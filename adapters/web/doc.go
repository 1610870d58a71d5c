// Package web is the web chat adapter: the JSON API behind the admin
// playground and embeddable chat widgets.
//
//	POST /api/chat  {"session": "<client id>", "message": "…"}  or  {"session": "…", "action": "add|SKU|1"}
//
// answers {"reply", "cards", "buttons", "cart", "order", "picker",
// "notices"}; with Accept: text/event-stream it streams typed events
// instead (text, cards, buttons, picker, cart, order, typing, done, error,
// and notice first) as server-sent events. A picker ({"type": "picker"},
// picker.go) asks which variant to add: its buttons' data are posted back
// as the action. Cart and order lines carry "variant" ("42 / Navy").
//
// Notices for a web shopper (back in stock with an add button, order
// status, a merchant's reply) wait for the session in a NoticeStore
// (Notify, notice.go, notices.go) — the database, wired by bot/, so the
// replica the shopper reaches delivers what another made; in memory only
// for a Chat given none — and come with its next answer, or from
// GET /api/chat/notices?session=… (Chat.Notices) for a polling client.
//
// The session id is the shopper's identity on the web channel, so clients
// must generate unguessable ids (16–64 characters, e.g. a UUID). Malformed
// JSON, unknown fields, empty messages, bad session ids and an
// Idempotency-Key over 64 characters (or not printable ASCII) get a 400
// with a JSON error and reach no further; a body over 8 KB gets a 413
// (read to its end first, so the client sees it); a rate-limited shopper
// gets a 429 with Retry-After (the seconds left in the window); a key
// the session used before gets a 409 and nothing runs — within the
// conversation's recent turns the engine knows it, and beyond them the
// keys remembered for a day in the database (Keys, idempotency.go; the
// window is bot's idempotencyTTL); a turn that failed because the database is unreachable gets
// a 503 with Retry-After: 5, in the streaming mode too (an error event
// before anything else is held back for it). The name, locale and message
// go to the engine as sent: engine.Handle cleans every turn field once. A
// stream extends its write deadline as events flow, beyond the server's
// WriteTimeout.
//
// The embeddable widget (widget.go, widget/widget.js and widget.css: plain
// JavaScript, embedded, no build step) is served at GET /widget.js with
// the widget.* words of the text catalogue filled in. It reads the
// session's past from GET /api/chat/history (History, a HistorySource
// wired by bot/) and keeps GET /api/chat/events open (Events, events.go):
// a live stream of the session's notices, woken by Notify on this replica
// and polling the NoticeStore for the others'. DeliverStaffMessage sends a
// person's message (a takeover reply) that way. Origins (cors.go, the
// WEB_CHAT_ORIGINS allowlist) guards every chat endpoint for browsers on
// other origins. docs/web-chat.md documents the protocol.
package web
