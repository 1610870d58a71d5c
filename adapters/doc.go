// Package adapters groups the channel adapters, one subpackage per
// platform: telegram (Bot API, long polling or webhook), slack (Events API
// or Socket Mode), web (the JSON/SSE chat API) and console (the terminal,
// `shopbot chat`), and inbox, the update lifecycle the chat adapters
// share (record before the ack, dedupe, per-chat queue, resume, prune,
// the remembered cart message). Each adapter verifies and
// de-duplicates incoming platform input, turns it into an engine.Turn
// carrying the platform-verified identity, and renders the engine's events
// natively. Adapters hold no business logic; each has one place where a
// failure becomes a polite reply (engine.PoliteMessage) and a log line.
// Adapters talk only to the engine: what they need outside a turn (a
// payment's checks and record, a toast's stock, an App Home, whether a
// thread is the assistant's, a database outage's 503) comes from engine
// calls, and none imports the catalog (imports_test.go fails if one does).
//
// Every HTTP edge reads its body with ReadBody (body.go): over the edge's
// limit, the rest is drained (up to 8 MB) so the client reads a 413
// instead of a connection reset. Turn fields are cleaned in one
// place, engine.Handle (invalid UTF-8, NUL and control characters,
// bounds), before anything of the turn reaches the database; the inbox
// stores raw payloads as valid UTF-8 JSON text.
//
// This package holds the Hub, which routes view.Notices (new orders and
// handoffs to the merchant, order status changes and merchant replies to
// the shopper) to the adapter that can deliver them.
package adapters
