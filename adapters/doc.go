// Package adapters groups the channel adapters, one subpackage per
// platform: telegram (Bot API, long polling or webhook), slack (Events API
// or Socket Mode), web (the JSON/SSE chat API) and console (the terminal,
// `shopbot chat`). Each adapter verifies and
// de-duplicates incoming platform input, turns it into an engine.Turn
// carrying the platform-verified identity, and renders the engine's events
// natively. Adapters hold no business logic; each has one place where a
// failure becomes a polite reply (engine.PoliteMessage) and a log line.
//
// This package holds the Hub, which routes tools.Notices (new orders and
// handoffs to the merchant, order status changes and merchant replies to
// the shopper) to the adapter that can deliver them.
package adapters
