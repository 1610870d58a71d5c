// Package groupcommit shares one database commit among the writers that
// arrive together. A Batcher queues the items of concurrent callers while
// a write is in flight and hands them to the next write as one batch, so a
// burst costs a few commits instead of one each. On SQLite, where every
// commit takes the single write slot, that is most of the throughput of a
// busy process; on Postgres it saves round trips and WAL flushes.
//
// Users: the engine persists turns with it (Tx, tx.go) and the
// chat adapters' inbox records updates and marks them handled with it
// (adapters/inbox). It knows nothing about what it writes: the caller's
// Write function gets the batch and returns one result per item.
package groupcommit
