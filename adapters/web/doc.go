// Package web is the web chat adapter: the JSON API behind the admin
// playground and embeddable chat widgets.
//
//	POST /api/chat  {"session": "<client id>", "message": "…"}  or  {"session": "…", "action": "add|SKU|1"}
//
// answers {"reply", "cards", "buttons", "cart", "order"}; with
// Accept: text/event-stream it streams typed events instead (text, cards,
// buttons, cart, order, typing, done, error) as server-sent events.
//
// The session id is the shopper's identity on the web channel, so clients
// must generate unguessable ids (16–64 characters, e.g. a UUID). Bodies over
// 8 KB, malformed JSON, unknown fields, empty messages and bad session ids
// get a 400 with a JSON error and reach no further; a rate-limited shopper
// gets a 429.
package web
