// Package catalog is Shopbot's domain, its types and their storage: categories,
// products and stock, reviews, customers, carts, orders, conversations and
// messages, the merchant's settings, the search backends' source and
// change feed (search_source.go, changes.go; the adapters keep their own
// inboxes), and the lists the admin panel and the engine both read: the
// product list (products_list.go, keyset pages by Cursor) and the order
// list (orders_list.go). Uploaded images are stored with the product edits
// (product_edits.go).
//
// Two packages beside it query its tables and import it (catalog imports
// neither): catalog/panel, the read models only the admin panel reads
// (the dashboard, its searches, the inbox, the shop counts), and
// catalog/team, the merchant's people and their work on conversations
// (staff users and sessions, takeover, handoffs and support cases, CSAT,
// round robin, canned replies). They report catalog's errors through
// NotFound and ExpectOneRow. The team's settings (team_settings.go,
// team_hours.go) stay here with the other settings the engine reads.
//
// Shopper notices (notices.go, NoticeBox) wait in the database for
// shoppers reached only when they ask (the web chat): put by whichever
// replica made them, taken once by whichever the shopper reaches, bounded
// per chat, expiring after a TTL and pruned.
//
// Shop pages (pages*.go) and visible reviews (reviews*.go) are split into
// passages in the transaction that saves them, for the passage search.
// Commerce beside the order: delivery methods and the country an address
// names (delivery*.go; the order keeps method and price), promo codes
// (promo*.go; a use is taken by a conditional UPDATE in the order's
// transaction and given back when the order is cancelled), back-in-stock
// alerts (restock.go; every stock write wakes a product's alerts in its
// own transaction, and senders claim them with a lease) and the merchant's
// cancel and refund (order_changes.go; units return to stock once, each
// form's key makes a second click change nothing).
//
// Variants (variants.go): a product with options (size, colour…) is a
// parent row plus one product row per variant (parent_id, its option
// values), so carts, orders, stock and alerts work on a variant as on any
// product, and a parent cannot go into a cart (ErrNeedsVariant). Every
// write that touches variants ends with RollupParents, which recomputes
// the parents' stock, sales and price range from their active variants in
// the same transaction (on Postgres after locking the parents, last and
// in id order). Option names fold their aliases (OptionName: Colour,
// color and «цвет» are one). Lists and counts show listings: parents and
// plain products.
//
// Admin forms never write back what they read (product_edits.go): a
// product row's Version counts writes of its content (imports, saves,
// archiving; not orders), SaveProducts writes a form's content only over
// the version it was opened at, and its stock only as a StockChange (+N /
// -N, or a count compare-and-set against the one shown) applied to the
// stock as it is; a stale form is ErrConflict and writes nothing.
//
// Settings (settings.go) are one type shared by the admin panel, which
// validates and saves them, and the engine, which applies them to the
// next turns; SettingsStore reads them over the process configuration's
// defaults, and saves them only over the version they were read at.
//
// Storage is Bun over Postgres (production) or embedded SQLite (the default);
// OpenDB picks the dialect from DATABASE_URL. Repository functions take a
// bun.IDB, so a caller composes several of them in one transaction:
// PlaceOrder reserves stock, writes the order and empties the cart in one
// RunInTx. Stock only ever changes through a conditional UPDATE
// (stock >= n), and the schema's CHECK (stock >= 0) backs that up.
// Every cart change (cartwrites.go) is likewise one statement with its
// stock and active checks inside (INSERT ... SELECT ... ON CONFLICT DO
// UPDATE ... WHERE ... RETURNING), so concurrent adds to one line — tools
// of one reply, threads of a shared channel cart, replicas — all count.
//
// The effects journal (effects.go, table turn_effects) records each side
// effect of a chat turn in the effect's own transaction; the engine skips
// an effect it finds there, which makes a turn run again after a crash
// change nothing twice.
//
// SQLite has one writer at a time: every transaction takes the write lock
// at BEGIN, and this process queues its writers in Go (sqliteconn)
// rather than letting them sleep in SQLite's busy handler. Writers that
// come in bursts (the engine persisting turns, the Slack inbox) share
// commits through groupcommit.Batcher (package catalog/groupcommit).
//
// Limits shared by every replica (limits.go: the engine's turns per
// customer, the panel's sign-in attempts) are counters in rate_limits,
// counted in fixed windows by one atomic upsert that returns the count
// (Hit), so exactly the limit is allowed per window across processes
// (unlogged on Postgres: a hit waits for no WAL flush, and a Postgres
// crash starts the windows again);
// LimitPruner deletes ended windows now and then. Sign-in delays
// (delays.go) slow guessing of one key without a lock: ClaimDelay lets
// one attempt through per wait, and the wait doubles up to a cap. The
// web chat's Idempotency-Keys are remembered for a set time
// (idempotency.go), and secrets every replica shares (the key signing
// the panel's known-device cookies) are made once in server_secrets
// (ServerSecret, delays.go).
//
// The few statements every chat turn runs (hot.go: the customer, the
// conversation, the cart summary, the token count, the messages) are
// constant SQL with $N arguments rather than bun's query builder, which
// writes the values into the text: each SQLite connection keeps them
// prepared (sqliteconn), so a turn parses no SQL; a turn's messages go
// in INSERTs of at most 500 rows, so no turn passes SQLite's variable
// limit. Everything else is built with bun.
//
// Errors are wrapped with context and classified by the sentinels in
// sqlerr.go (ErrNotFound, ErrOutOfStock, ...); callers test them with
// errors.Is and translate them once at their edge. Unavailable
// (sqlerr.go) adds ErrUnavailable to the errors of a database that cannot
// serve — a closed pool, a refused or lost connection, a Postgres
// shutting down or dropped, SQLite busy — so that edges answer 503 rather
// than 500. ResolveCustomer stores names without NUL or invalid UTF-8
// (storable, customers.go), whatever the caller passed: one such byte
// must not fail a customer's every turn.
//
// Imports (products, reviews, pages: ImportJob.Kind) are recorded in
// import_jobs (import_jobs.go): counts, a heartbeat and the first 1,000 row
// errors (import_job_errors), so every replica shows a job; a running job
// whose heartbeat is older than ImportStaleAfter is reported as
// interrupted (ImportJob.State). Scheduled product feeds live in
// import_feeds (feeds.go): their schedule, validators and last outcome;
// ClaimFeed gives a due run to exactly one replica. A complete feed's
// absent products are archived with AbsentProducts and ArchiveProducts
// (products_archive.go), never deleted.
//
// The admin's replay batches live in replay_batches (replay_batches.go):
// progress, a heartbeat and the replayed turns as JSON, so every replica
// shows a batch; StartReplayBatch lets one run at a time across replicas
// (a partial unique index) and marks a stale one interrupted.
//
// Shop pages (pages.go) are Markdown the merchant writes, by slug; each
// write re-chunks the page by heading and paragraph (pages_chunk.go) into
// passages (pages_passages.go: a table shared with the next kinds of
// passage, reviews) in the same transaction; the search backends see it in the
// change feed (a deleted page leaves a tombstone). importer.ParsePage is the import-pages format.
//
// Money is integer minor units plus an ISO 4217 currency code; money.go
// parses and formats it.
//
// The infrastructure under the domain lives beside it, each in a package
// that knows nothing of products or carts: catalog/sqliteconn (the SQLite
// connector: the process's write slot and the prepared hot statements),
// catalog/groupcommit (writers that share commits) and catalog/chatlock
// (Postgres advisory locks that order a chat's turns across replicas,
// which bot/ hands to the engine). catalog/clip cuts text to a bound
// without breaking a character, for the catalog and everything above it.
package catalog
