// Package importer reads product files — Shopbot's own CSV (or TSV) with a
// header row or JSONL, a Shopify or WooCommerce product export, a Google
// Merchant Center feed (RSS/Atom XML or TSV) — and upserts them into the
// catalog by SKU.
//
// Formats (detect.go): JSONL by extension or a leading '{', XML by a
// leading '<', else the header row names the format (Detect). Each shop
// format has its own reader (shopify.go, woocommerce.go, merchantfeed.go)
// that turns the shop's rows into Records of the own format — variants
// with their options, HTML descriptions as plain text (html.go), images,
// categories, stock (or in/out of stock), sale prices, currencies — so
// everything below is the same for every format. Columns no format field
// uses are ignored and reported in Summary.Mapping, never a refusal.
//
// Dry run (dryrun.go): Options.DryRun takes the same path with every
// batch rolled back and reports new, changed, unchanged and refused
// counts, the title, price and stock changes, the column mapping and the
// first rows. The one entry point, Import, serves `shopbot import`, the
// panel's preview and upload, and a feed fetcher (any io.Reader; Options.Seen is told
// every SKU the file names).
//
// Besides products, the package reads reviews (reviews.go: ImportReviews)
// and shop pages (pages.go: ImportPages, a directory of Markdown files),
// and runs scheduled product feeds (feed*.go). Every file goes through one
// opening (openText in read.go: byte order mark skipped, binary data and
// empty files refused) and the same row-size limit, and every import is
// recorded as a Job of its kind.
//
// Rows flow reader → Record (as written in the file) → catalog.ProductInput
// (validated: price parsed into minor units, currency checked, attributes
// flattened to strings) → batches written with catalog.UpsertProducts, one
// transaction per batch. A row that fails validation is reported with its
// line number and reason and never written; a batch the database rejects is
// retried row by row so only the offending rows fail. A file that is not
// CSV or JSONL at all (binary data — more than one control byte in a
// hundred, or invalid UTF-8, in the first 8 KiB — or no recognisable
// header) fails before anything is written.
//
// Variants (variants.go): a row with variant_of (the parent's SKU) and
// options (a JSON object; its key order names the parent's options unless
// the parent row has option_names) is a variant; it may leave title,
// description, brand, category and images empty to inherit them. Parents
// are written before their variants wherever they are in the file (a
// variant read before its parent waits in a temporary file), a parent
// without a price is accepted when a row of the file is its variant and
// is never committed without one, and catalog.CheckVariants reports bad
// variants per row. A batch is BatchSize products, variants riding along.
//
// Memory stays flat whatever the file holds: rows are streamed, one row is
// at most 8 MiB (a longer JSONL line fails alone; a longer CSV record, an
// unclosed quote, stops the import), and Summary keeps only the first
// Options.MaxErrors (1,000) row errors, each with its SKU and reason cut
// to a few dozen characters; Failed counts them all.
//
// Text (text.go): NUL and other control characters are stripped from every
// field (the description keeps line breaks and tabs) and the row is
// imported; a field that is not valid UTF-8 fails its row ("save the file
// as UTF-8") rather than being silently altered.
//
// Feeds (feed.go, feed_fetch.go, feed_archive.go, metrics.go): a
// Scheduler, started by `shopbot serve` on every replica with an injected
// clock and ticker, runs each due feed of the import_feeds table once per
// period — the replica whose conditional update claims the run
// (catalog.ClaimFeed) fetches it. The fetch is a conditional GET (the
// last imported body's ETag and Last-Modified; 304 is recorded as not
// changed), http and https only, with a timeout and a body limit; a 200
// body is imported as a products Job through Import, so any format Import
// detects works, and Options.Seen collects the SKUs it lists. Active
// products the feed no longer lists are then archived (never deleted),
// unless the run looks incomplete: the download or import failed, a row
// failed, or more than FeedConfig.ArchiveShare (half) of the active
// products would go; the panel shows why. Every run's outcome, with a
// sentence for a failure, is stored on the feed, and counted in
// shopbot_feed_fetches_total{result}.
//
// The same Import serves `shopbot import`, the admin panel's upload and
// feeds; all run it through a Job (job.go), which records the import in the
// catalog's import_jobs table as it goes: counts, a heartbeat and the kept
// errors, written at most every 250 ms (Options.Progress is called after
// each batch and every 1,000 rows), and the outcome at the end, so any
// replica shows the job and a job whose process died reads as interrupted.
package importer
