// Package indexer delivers catalog changes to a search index through the
// outbox: every product write records an outbox event in its own
// transaction (catalog.EnqueueOutbox), and a Worker drains the events
// into the index. The index re-reads each product from the database, so
// events carry only a SKU and order does not matter: an upsert of a
// product since deleted or archived deletes it from the index.
//
// A delivered batch is acknowledged (deleted from the outbox); a failed
// one is rescheduled with exponential backoff (catalog.RetryOutbox, 1 s
// doubling up to 5 min, with jitter), so an outage of the index delays
// changes but loses none. When a batch fails while the index is reachable
// (Ready succeeds), its events are retried one by one, so one product the
// index rejects does not hold back the others. Several workers (one per
// shopbot replica) may drain the same outbox: delivery is idempotent.
//
// Each event is taken by one worker, so the outbox can feed only an
// index every replica shares: Weaviate. The embedded index, one per
// process, follows the database itself (embedded.Index.Follow); with that
// backend the worker runs over NoIndex, acknowledging events unread so
// the outbox does not grow.
//
// Passage events (catalog.OutboxPassages, a shop page changed) carry a
// source key instead of a SKU and go to Config.Passages (the Weaviate
// passage collection); without one they are acknowledged unread.
//
// Metrics: shopbot_outbox_pending (events waiting), and
// shopbot_outbox_delivered_total and shopbot_outbox_failures_total
// (failed delivery attempts).
package indexer
