// Package migrations owns Shopbot's database schema: plain SQL files for each
// dialect (postgres/ and sqlite/), embedded in the binary, and the small
// migrator that applies them.
//
// Files are named NNNN_name.sql; NNNN is the schema version they bring the
// database to. Both dialect folders hold the same versions. Each file runs in
// one transaction together with the row that records it in
// schema_migrations, so a crash never leaves a half-applied version.
//
// Concurrent starts are serialized: on Postgres with a session advisory lock
// (released by the server if the process dies, unlike a lock row), on SQLite
// by the write lock every transaction takes (the catalog opens SQLite with
// _txlock=immediate). A database whose schema is newer than the binary is
// refused with ErrSchemaTooNew instead of being touched.
package migrations
