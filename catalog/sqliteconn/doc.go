// Package sqliteconn is the connector the catalog opens SQLite through
// (catalog.OpenDB with a sqlite: DATABASE_URL). It wraps the pure-Go
// driver's connections for the two things a busy single-file database
// needs from this process:
//
//   - one write slot (writeslot.go): SQLite has one writer at a time, and
//     its busy handler makes waiting writers sleep, so the process queues
//     its writers in Go and hands the slot straight to the next one. Every
//     write transaction and every statement that writes outside one takes
//     the slot; reads never wait for it.
//   - a prepared-statement cache per connection (stmts.go): statements
//     sent with arguments (the hot ones every chat turn runs) are prepared
//     once per connection and reused, so a turn parses no SQL.
//   - WAL mode, set as each connection opens (wal.go), retried while
//     another process holds the file: the switch ignores busy_timeout.
//
// It is plumbing under database/sql and knows nothing of the domain; the
// catalog decides the DSN (busy_timeout, immediate transactions) and
// the pool size.
package sqliteconn
