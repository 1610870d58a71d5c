// Package slack is the Slack adapter: the assistant for teams.
//
// Slack reaches it over HTTP (Events API at POST /slack/events,
// interactivity at POST /slack/interactions, the /shop slash command at
// POST /slack/commands) or, with an app-level token, over Socket Mode;
// both feed the same accept functions. Every HTTP request's v0 signature
// is checked first (HMAC-SHA256 of "v0:timestamp:body" with the signing
// secret, five-minute window, constant-time compare): a bad, stale or
// missing signature gets 401 and touches nothing. A body over 1 MB gets a
// 413; an event_id or trigger_id with control characters a 400 (it could
// not be an inbox key); a request that cannot be recorded because the
// database is down a 503 with Retry-After, which Slack retries. Payloads
// are stored as valid UTF-8; message text is cleaned once, by
// engine.Handle.
//
// An accepted request (event, button press, slash command) goes through
// the shared inbox (package adapters/inbox; Slack's side in inbox.go): it
// is stored before it is acknowledged — keyed by event_id or trigger_id,
// with group commit: requests arriving together share one write; Slack's
// retries then find the key and are dropped — and handled afterwards on a
// per-conversation queue bounded by the process context: turns of one
// thread run in the order they came, threads run in parallel, at most
// Config.Workers at a time, at most 256 waiting per conversation. It is
// marked handled when its work ends; Resume, at start, runs again what a
// stop cut short, decoding each stored request by its kind (event,
// action, command). The engine does not answer a turn twice, so a resumed
// turn that had in fact finished changes nothing.
//
// The cart message of each thread is remembered in the inbox's
// cart_messages, so a restart or another replica updates it instead of
// posting another.
//
// Conversations: an app_mention in a channel is answered in a thread, and
// the thread is the conversation (engine.Turn.ThreadID), with one shared
// cart per channel; later replies in that thread need no mention
// (message.channels / message.groups). A direct message (message.im) is a
// personal conversation. Messages from bots, this one included, are ignored.
//
// Replies render natively: text streams with chat.startStream /
// appendStream / stopStream (chat.update at most once a second where the
// API lacks them), product cards are Block Kit sections with an image and
// Add to cart / Details / More like this buttons whose value is the
// engine's Action.Encode(), the channel cart shows who added what and is
// updated in place. Messages respect Slack's limits (50 blocks, 3,000
// characters per section, & < > escaped) and a 429's Retry-After holds
// back further calls of that method.
//
// A variant picker (picker.go) is a section (title, price, options chosen
// so far, the question) and an actions block with a static_select whose
// option values are the engine actions; a choice comes back as
// block_actions with selected_option.value and runs as a turn like a
// button. A narrowing choice replaces the picker message in place
// (chat.update, or replace_original through response_url for an
// ephemeral one); the last choice closes it as "✓ Trail Runner — 42 /
// Navy" and the cart follows. Cart and order lines name the variant.
//
// The App Home tab shows the user's cart, the channel carts they added to
// and their recent orders (engine.Home builds it, home.go renders it). Notifiers deliver merchant notices (new orders,
// handoffs from any channel) to the orders channel and shopper notices
// (order status, merchant replies) to the Slack thread they belong to.
//
// Slack's AI app surface (assistant.go): assistant_thread_started gets
// suggested prompts (the shopper's last orders, the shop's categories,
// the cart); a message in an assistant thread (a thread of the app's DM)
// titles the thread when it is the first, and shows a status while its
// turn runs (assistant.threads.setStatus, cleared after). A failing call
// of these is logged and the turn goes on.
//
// Health (check.go): Identify runs auth.test each time it is called (a
// refused token is a *TokenRefusedError) and Config.Received hears of each
// request recorded; bot/ turns these into the process's channel status.
package slack
