// Package catalogtest provides migrated test databases for both catalog
// dialects: a temporary SQLite file and a fresh database on the test Postgres
// server, the way net/http/httptest provides servers. Production code never
// imports it.
//
// Postgres comes from SHOPBOT_TEST_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable). When it cannot be
// reached the Postgres half of a test is skipped with a loud message — except
// under CI=true or SHOPBOT_REQUIRE_POSTGRES=1 (set by `make test`), where it
// fails, so a missing server never passes unnoticed.
//
// Databases are copies, not migrated one by one: the schema is migrated once
// into a Postgres template database (kept on the server, one per set of
// migrations, named shopbot_tmpl_<hash>) and an SQLite file (kept in the
// user's cache directory, ~/.cache/shopbot/catalogtest). SQLiteDemo,
// PostgresDemo and EachDemo (demo.Load) and SQLiteSeeded, PostgresSeeded and
// EachSeeded (demo.Seed) copy a database holding the demo catalog, filled
// once per test process; the Postgres ones (shopbot_tmpldemo_<unix time>_…)
// are dropped by a later process after three hours.
package catalogtest
