// Package ucp serves the Universal Commerce Protocol (UCP, ucp.dev,
// version Version): the business profile at /.well-known/ucp and the
// REST binding of checkout sessions under /ucp/v1 (create, get, update,
// complete, cancel) with the spec's status machine (incomplete →
// ready_for_complete → completed; canceled from any state but
// completed), its Idempotency-Key header and its error shapes.
//
// A checkout session is an agent's conversation (channel "agent", chat
// "ucp-<session id>"): every operation runs the engine's agent tools
// (add_to_cart, update_cart_item, remove_from_cart, create_checkout,
// complete_checkout) through engine.CallTool, with the same bounds,
// rate limit and transcript as the MCP door, so the admin inbox shows
// each call. No card data is taken: completing a session places an
// order that awaits payment, and hands the buyer its payment link as
// continue_url when one is configured. The buyer chooses among the
// shop's delivery methods through the fulfillment extension, and the
// totals count the chosen one before complete (fulfillment.go).
//
// The sessions' own state (status, buyer, order) and the Idempotency-Key
// replies are kept in a Store (store.go) — the database, passed in from
// bot/ — so every replica serves every session and a restart forgets
// none; an update, complete or cancel holds a lease on its session
// across replicas, and a key's first request answers while the same key
// elsewhere waits for its reply. Without a Store they stay in the
// process. Cart and order writes are idempotent in the database as well
// (the engine's keys).
package ucp
