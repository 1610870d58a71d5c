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
// by the write lock an immediate transaction holds (the catalog opens SQLite
// with _txlock=immediate). A database whose schema is newer than the binary is
// refused with ErrSchemaTooNew instead of being touched.
//
// Setup runs the rest of a first start under the same lock, after the
// migrations: Steps such as loading the demo catalog and creating the admin
// user, each of which checks whether its work is done. Replicas starting
// together on an empty database therefore do that work once; the others wait
// for the lock, find it done and go on. On SQLite the migrations and the steps
// share one transaction, so a start that fails halfway leaves nothing behind.
package migrations
