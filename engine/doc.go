// Package engine is Shopbot's conversation engine. Adapters hand it a
// normalized Turn and a Sink; Handle answers by streaming typed events
// (text deltas, product cards, buttons, the cart, an order, done).
//
// A turn flows like this (engine.go): validate the turn — every string
// field cleaned by CleanText/CleanLine (clean.go: NUL, control characters
// and invalid UTF-8 removed, names ≤ 200 runes, locale ≤ 16), identifiers
// holding control characters or over 128 runes refused with ErrBadTurn;
// take the chat's lock so one chat's turns run in order; resolve the
// customer from the platform-verified identity and open the conversation
// and its State (session.go); stay silent if a merchant has taken over;
// apply the per-customer rate limit (limits.go); then answer with
//
//   - a button press: one tool call, no model (actions.go);
//   - the model: the tool-calling loop (loop.go) — system prompt from
//     prompts/system.tmpl (prompt.go), a bounded history window that never
//     separates tool calls from their results (history.go), all tool
//     schemas, tools of one round run concurrently, at most MaxRounds
//     model calls, prices and SKUs in the final text checked against the
//     tool results (factcheck.go);
//   - the offline planner (planner*.go) when no model is configured, the
//     daily token budget is spent, or the model fails after its retries.
//
// Every message — the shopper's, each model reply with its tool calls,
// token counts, model and latency, each tool result — is persisted with the
// conversation state in one transaction at the end of the turn
// (recorder.go); on SQLite, turns finishing together share one
// (groupcommit.go). The state keeps the keys of the conversation's last
// turns, so a turn an adapter delivers again after handling it (its inbox
// resumed after a stop) is not answered twice.
//
// Tools (tool_*.go, one per file, listed in tools.go) validate their
// arguments against strict JSON schemas before running (tool.go); identity
// and cart scope come from the Session, never from arguments; a tool error
// goes back to the model as {"error": ...} through toolMessage, the one
// place outcomes are translated. The model client (openai*.go) speaks any
// OpenAI-compatible server through openai-go with our own retry policy.
//
// Handle's error classifies the failure for the adapter: ErrRateLimited,
// ErrBadTurn, ErrReplayed, and ErrUnavailable when the database could not
// serve (catalog.Unavailable) — HTTP adapters answer that one with 503 and
// Retry-After; the shopper was told once, through the sink.
//
// engine/llmtest is the scripted OpenAI-compatible server for tests;
// engine/loadtest drives `shopbot bench`.
package engine
