// Package telegram is the Telegram channel of Shopbot, built on
// github.com/go-telegram/bot.
//
// Receiving: long polling by default, or a webhook (POST /telegram/webhook)
// whose secret token is checked here (401, nothing recorded, on a
// mismatch). Every update is written to the shared inbox (package
// adapters/inbox) before it is acknowledged — the webhook answers 200, or the next getUpdates
// carries the offset past it — so an update acknowledged but not yet
// handled survives a crash; update_id as the inbox key makes a
// redelivery a no-op. Replicas cover for each other (cover.go,
// inbox.Lease): the replica that records an update holds a lease on it,
// renewed while the turn waits and runs; once a dead replica's lease runs
// out another takes the update over, and a resumed turn edits the cart
// message it posted rather than post a second (render.go). A body over 1 MB is a 413;
// an update that cannot be recorded because the database is down a 503.
// The raw update is stored as valid UTF-8; names, the language code and
// callback data are cleaned where the turn is built (handle.go turnBase),
// so a NUL in a first_name never reaches the database.
//
// Ordering: updates go through the inbox's queue per chat, in update_id
// order (a resumed update and a fresh one too), one at a time; different
// chats run concurrently, at most Config.Concurrency at once, and a turn
// gives up its place while it waits for the pacer. Pre-checkout queries skip
// the queue (Telegram waits 10 s at most), and button presses are
// answered (with a toast such as "Added ✓") as soon as they are recorded,
// before their turn runs.
//
// Rendering (reply.go, render.go, stream.go): the engine's events become
// HTML messages (format.go converts the model's Markdown and escapes
// everything from data), split at 4,096 characters on paragraph
// boundaries; product cards as photos with captions (≤ 1,024) or text
// cards, with Add to cart / Details / More like this buttons whose
// callback data is view.Action.Encode() (≤ 64 bytes, checked); the cart
// as one message edited in place (its id remembered in the inbox) with − / +
// per line and Checkout. Long answers stream as drafts
// (sendMessageDraft) in private chats, else by editing a message at most
// once per second.
//
// Commands (/start with a deep-link SKU, /help, /cart, /orders, /menu)
// and buttons map to engine actions and need no model. Checkout offers a
// request_contact keyboard for the phone (when the turn's EventDone says
// it awaits one); with a payment provider token an invoice follows the
// order, the pre-checkout query is refused when the order, a price or a
// product changed (engine.PreCheckout; texts.go words its reasons), and a
// successful payment marks the order paid once per
// telegram_payment_charge_id (engine.ConfirmPayment). Notify delivers
// order status changes and merchant replies (engine.Notifier).
//
// A variant picker (picker.go) is one message (a photo with a caption
// when the product has an image) with the option's values four to a
// row; pressing a value of an earlier option edits that message in place
// (editMessageText, or editMessageCaption for a photo) into the next
// question, and pressing one of the last option closes it as
// "✓ Trail Runner — 42 / Navy" while the cart follows as for any add.
// Cart and order lines name the variant.
//
// Limits (send.go): new messages are paced per chat (about 1/s private,
// 20/min groups), 429s are waited out for retry_after with bounded
// attempts, and a chat that blocked the bot or no longer exists is
// logged and skipped.
//
// Health (check.go): CheckToken tells a malformed token without a request,
// Check asks getMe once (a refused token is a *TokenRefusedError, other
// errors never carry the token), and Config.Received hears of each update
// recorded; bot/ turns these into the process's channel status.
package telegram
