package planner

import (
	"shopbot/engine/toolkit"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/engine/session"
	"shopbot/engine/tools"
	"shopbot/engine/tools/toolstest"
)

// testEnv is a demo shop on SQLite and one shopper's session
// (toolstest.Env under the names these tests use).
type testEnv struct {
	db      *bun.DB
	deps    *tools.Deps
	tools   *toolkit.Toolbox
	session *session.Session
}

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	return newTestEnvOnDemo(t, catalogtest.SQLiteDemo(t))
}

// newTestEnvOnDemo builds the test env on a database that holds the
// demo shop already (catalogtest.SQLiteDemo, PostgresDemo, EachDemo).
func newTestEnvOnDemo(t testing.TB, db *bun.DB) *testEnv {
	t.Helper()
	e := toolstest.OnDemo(t, db)
	return &testEnv{db: e.DB, deps: e.Deps, tools: e.Tools, session: e.Session}
}

// newTestSession is a personal session of a shopper on channel.
func newTestSession(t testing.TB, db *bun.DB, channel, userID string) *session.Session {
	t.Helper()
	return toolstest.Session(t, db, channel, userID)
}
