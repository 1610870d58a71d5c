// Package admin owns Shopbot's HTTP handlers for operators and merchants:
// the health and readiness probes, the Prometheus endpoint and the
// merchant panel under /admin/ — products, CSV/JSONL import, orders,
// the conversation inbox with takeover, the playground, the dashboard and
// the settings — built from net/http, html/template and embedded assets
// (templates/*.html, static/).
//
// Server.Handlers (handlers.go) hands every handler, already wrapped with
// its sign-in or sign-in-plus-CSRF check, to bot/routes.go, the one
// function that gives every route of the process its path; admin declares
// no paths (export_test.go mirrors them for the tests). Server.Instrument
// wraps that mux in the request metrics. Each page has one file
// (page_*.go) that builds a plain page struct from catalog calls and
// renders one template inside layout.html, and render.go turns every error
// into one error page (renderError). The package owns no SQL: every read
// and write, the dashboard's figures and the staff users and sessions
// included, is a catalog repository function. Pages work without JavaScript; only the playground
// (static/playground.js, the web chat API's server-sent events) needs it.
//
// Security (session.go, auth.go, login.go, login_limit.go,
// login_device.go, proxy.go): staff users with bcrypt password hashes;
// sign-in creates a server-side session whose random token travels in an
// HttpOnly, SameSite=Lax cookie and is stored only as its SHA-256;
// sessions end after 2 hours idle or 12 hours. Cookies are Secure when
// PublicURL is https, or the request came over TLS (directly, or per
// X-Forwarded-Proto from a trusted proxy). X-Forwarded-For and
// X-Forwarded-Proto are read only in proxy.go and only when the peer is
// one of TrustedProxies. Every POST but the sign-in needs the session's
// CSRF token (403 and no change otherwise); every form posted by a
// signed-in staff member is bounded (256 MB, else 413), parsed and cleaned
// once by readForm (form.go: NUL, control characters and invalid UTF-8
// removed, line breaks kept) before a handler reads it, and multipart
// uploads get a 15-minute read and write window past the server's
// timeouts — only once the session is verified. The sign-in, open to
// anyone, takes only a URL-encoded form of at most 16 KB (readSignInForm:
// the limit applies as the body is read; multipart is 415, oversized 413,
// neither counted as an attempt) within the server's ordinary read
// timeout. An unreachable database is a 503 with Retry-After.
// The sign-in form uses a double-submit token. Sign-in attempts are
// limited in the database before the password is compared, shared by
// every replica (login_limit.go): a per-user delay that doubles from 1 s
// to 60 s and never locks, hard limits per address and per /24 or /64
// in 15-minute windows, and a signed known-device cookie whose holder is
// not slowed by strangers' failures (it has a delay of its own). Pages carry a
// strict Content-Security-Policy, and html/template escapes everything
// that comes from shoppers, products or the model. No template holds
// inline script: destructive forms ask through static/confirm.js, which
// the layout loads, from a data-confirm="…" question on the form or its
// button. Merchants read sentences, never Go errors: renderError, and
// told (notices.go) for a notice that did not reach a shopper; the Go
// error goes to the log.
//
// Imports (page_import.go) run in the background of the replica that
// received the upload and record their progress, outcome and first 1,000
// row errors in the database (importer.Job); a job's page and the recent
// jobs list read only the database, so any replica shows them, and a job
// whose process died shows as interrupted.
//
// Writes go through the catalog's repositories: product changes queue a
// search backends see in the change feed; a product and the rows of its
// variant table (page_product_variants.go) are one catalog.SaveProducts
// batch in one transaction, refused whole with the reasons by row, and a
// variant is archived, never deleted. A product or settings form carries
// what it was opened at (product_snapshot.go; the settings version): a
// save over a newer version is refused and the form shown again with the
// current values and what changed, and stock fields are changes (+10, -2,
// or a count that holds only if the stock is still the one shown), so
// units sold while a page was open are never written back; order status changes (cancelling
// returns the stock) and merchant replies are told to the shopper through
// the engine.Notifier (adapters.Hub routes them to the channel's adapter).
// Settings are catalog.Settings, stored by a catalog.SettingsStore that
// bot shares with the engine: what the settings page saves (validated in
// settings.go) applies to the next turns, within a second and without a
// restart.
//
// The admin user: EnsureAdmin creates it at first start (with ADMIN_PASSWORD,
// or a generated password returned to be printed once) and later makes
// ADMIN_PASSWORD its password when set. bot runs it under the migration lock
// (migrations.Setup), so one of several replicas starting together creates
// it; an admin that appears between its look-up and its insert counts as
// existing, never as an error.
//
// The package reads no environment and owns no globals. Its metrics
// (HTTP requests by route and status, request latency, and the shop's
// orders, carts and conversations read at scrape time) are registered in
// metrics.go and metrics_shop.go on the registry it is given.
package admin
