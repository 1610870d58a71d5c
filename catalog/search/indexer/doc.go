// Package indexer feeds the Weaviate collections from the catalog's
// change feed (catalog/changes.go): a Worker in every shopbot replica
// reads the products written since its cursor (catalog.ChangedSince),
// the passage sources (PassageChanges: shop pages, reviews) and the
// tombstones of what was deleted outright, and upserts them into the
// index, which re-reads each product or source through
// catalog.SearchSource: a product since deleted or archived is removed.
// The embedded index follows the same feed on its own, in every process
// (embedded.Index.Follow); no catalog write records anything for search.
//
// The cursor is stored in the database (catalog.SaveCursor, under
// Config.Cursor, "weaviate" by default), shared by the replicas feeding
// one collection: it only moves forward, delivery is idempotent, and a
// restarted worker resumes from it. Each read re-reads the last
// catalog.FeedOverlap behind the cursor, for transactions that stamped
// updated_at before a later one but committed after it; what the worker
// delivered inside that window is not written again. A rebuild
// (shopbot reindex, the first fill) moves the cursor to its start
// (SetCursor).
//
// A failed delivery leaves the cursor where it was and is retried after
// a backoff (1 s doubling up to 5 min), so an outage of the index delays
// changes but loses none. When a batch fails while the index is
// reachable (Ready succeeds), its changes are retried one by one and the
// ones refused are retried every poll (until the process restarts), so
// one product the index rejects does not hold back the others.
//
// Metrics (named before the feed replaced the outbox, which dashboards
// and alerts use): shopbot_outbox_pending (changes read but not yet
// delivered), shopbot_outbox_delivered_total and
// shopbot_outbox_failures_total (failed delivery attempts).
package indexer
