// Package engine is Shopbot's conversation engine. Adapters hand it a
// normalized Turn and a Sink; Handle answers by streaming typed events
// (text deltas, product cards, buttons, the cart, an order, done).
//
// A turn flows like this (engine.go): validate the turn — every string
// field cleaned by CleanText/CleanLine (clean.go: NUL, control characters
// and invalid UTF-8 removed, names ≤ 200 runes, locale ≤ 16), identifiers
// holding control characters or over 128 runes refused with ErrBadTurn;
// take the chat's lock so one chat's turns run in order; resolve the customer from the
// platform-verified identity and open the conversation and its State
// (session.go); count the turn against the per-customer rate limit
// (limits.go: RateLimit turns per fixed RateWindow, counted in the
// database so every replica shares it and a restart keeps it; a refused
// turn stores nothing but the counter and is not marked done, so it may be
// sent again); stay silent if a merchant has taken over (the message is
// stored); then answer with
//
//   - a button press: one tool call, no model (actions.go), always ending
//     in a non-empty answer, also for a forged or stale button: an unknown
//     product or category says so and a category offers the shop's
//     categories (action_replies.go);
//   - the model: the tool-calling loop (loop.go) — system prompt from
//     prompts/system.tmpl (prompt.go), a bounded history window that never
//     separates tool calls from their results (history.go), all tool
//     schemas, tools of one round run concurrently (8 at a time), at most
//     MaxToolCalls (16) of one reply run and the rest are answered as
//     skipped, so a request holds at most maxRequestMessages (toolcap.go),
//     at most MaxRounds model calls, prices and SKUs in the final text
//     checked against the tool results, and a price that no listed product
//     can correct disowned in a note (factcheck.go);
//   - the offline planner (engine/planner) when no model is configured, the
//     daily token budget is spent (checked before the model is called,
//     counted on the customer row, so it holds across replicas; turns of
//     one customer running at once may overshoot it by their own tokens),
//     or the model fails after its retries.
//
// Every message — the shopper's, each model reply with its tool calls,
// token counts, model and latency, each tool result — is persisted with the
// conversation state in one transaction at the end of the turn
// (recorder.go); on SQLite, turns finishing together share one
// (catalog/groupcommit.Tx). The state keeps the keys of the conversation's last
// turns, so a turn an adapter delivers again after handling it (its inbox
// resumed after a stop) is not answered twice.
//
// A turn's side effects are idempotent end to end. Each one — a cart
// change, the order, the saved contact, a handoff — commits in its own
// short transaction together with a row of the effects journal, made by
// the tool (engine/toolkit, effects.go); the engine gives each turn its
// session.Journal (the turn key is the conversation id plus the turn's
// DedupKey: web Idempotency-Key, Telegram update id, Slack event id,
// console line). A turn run again after a crash (a web retry, an inbox
// resumed at start) makes the same calls, finds their rows and skips them,
// answering from the state as it is. One transaction for the whole turn
// would also be atomic, but it would hold SQLite's single write lock (and
// Postgres row locks) across model calls that take seconds, stalling every
// other chat; the journal costs nothing on turns without effects and one
// INSERT inside the transaction the effect needs anyway. Orders are also
// unique on the turn's key (Session.IdempotencyKey). Notices to the
// merchant (an order, a handoff) are written with their effect and claimed
// once after the commit; a crash in between delivers them on the retry,
// and the engine's prune sweeps those whose turn never came back
// (prune.go). The journal is pruned after three days. Config.Crash lets
// tests stop a turn at each of these steps as a crash would (effects.go
// here drops a crashed turn's events).
//
// Cart changes are single statements (catalog.AddCartItem and friends), so
// concurrent tools of one round, threads of a shared channel cart and
// replicas never lose one another's updates; when several tools of a
// round changed the cart it is read once more after them all
// (cartround.go), so the reply shows the cart the round left. A reply
// carries one cart, the latest, however often the turn read or changed it
// (onecart.go: the planner's "remove one" views, then updates; the model
// views in one round and adds in the next): every adapter renders each
// EventCart, so the engine sends one.
//
// The tools live in engine/tools, one file each (the purchase and review
// tools in its sub-packages), behind a Toolbox (engine/toolkit) that
// validates their arguments against strict JSON schemas; identity and
// cart scope come from the session.Session the engine builds, never from
// arguments, and toolkit.ModelMessage is the one place an outcome becomes
// what the model reads. The model is an llm.Model (engine/llm owns the
// interface and its request and response types); engine/openai implements
// it over any OpenAI-compatible server, and bot wires it in.
//
// EventDone also says what checkout awaits after the turn (awaiting.go),
// so Telegram offers its share-phone keyboard without reading the state.
// Outside turns, adapters ask the engine rather than the catalog:
// PreCheckout and ConfirmPayment (payments_door.go over engine/payments:
// prices re-checked and the order marked paid in one place for every
// channel that takes payments, idempotent on the charge), Home (home.go: a shopper's carts and orders,
// as view.Home), CanAdd and HasConversation (lookup.go).
//
// The engine's logger masks the contact details shoppers type (phone
// numbers, e-mails, street addresses; catalog/personal) in every string
// and error it logs (logmask.go), the turn's text included.
//
// Handle's error classifies the failure for the adapter: ErrRateLimited,
// ErrBadTurn, ErrReplayed, and ErrUnavailable when the database could not
// serve (catalog.Unavailable) — HTTP adapters answer that one with 503 and
// Retry-After; the shopper was told once, through the sink. Unavailable
// classifies an adapter's own database errors the same way.
//
// The engine is split along its seams, and imports run one way:
//
//	engine ──▶ engine/planner ──▶ engine/tools ──▶ engine/toolkit ──▶ engine/view ──▶ catalog
//	   │                              │   └──▶ engine/variants ─┘
//	   └──────────────────────────────┴──▶ engine/llm ◀── engine/openai
//
// The agent door (agentcall.go) runs an agent's tool call as a turn of
// its own; what it offers and the idempotency of writes are
// engine/agentdoor's. The copilot (copilot.go) runs a turn against
// engine/copilot's dry tools, every write refused, and summarizes a
// conversation. engine/factcheck reads the figures in an answer; the
// engine decides what is unverified (factcheck.go). None of these
// subpackages imports engine.
//
// engine keeps the turn (this package); engine/planner the offline
// planner; engine/tools the tools and their registry (tools/purchases,
// tools/reviews: tools with Deps of their own); engine/toolkit what a tool
// is (Tool, Result, Toolbox), the stores tools read and write through and
// the effects journal; engine/variants a product's variants and the
// picker that chooses one; engine/session the turn's memory;
// engine/locale the text catalogue; engine/view what is shown (cards, cart, orders,
// buttons and their actions, notices), which adapters render; engine/llm
// the Model interface and its wire-neutral types; engine/openai the
// OpenAI-compatible client, which bot wires in. engine/llmtest is the
// scripted OpenAI-compatible server for tests; engine/loadtest drives
// `shopbot bench`.
package engine
