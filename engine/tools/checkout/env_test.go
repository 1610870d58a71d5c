package checkout_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/engine/session"
	"shopbot/engine/toolkit"
	"shopbot/engine/tools"
	"shopbot/engine/tools/checkout"
	"shopbot/engine/tools/toolstest"
)

// testEnv is toolstest's demo shop and one shopper's session, under the
// names these tests use.
type testEnv struct {
	db      *bun.DB
	deps    *tools.Deps
	tools   *toolkit.Toolbox
	session *session.Session
}

// newTestEnv is the demo shop on SQLite.
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

// call runs a tool and fails the test on an unexpected error.
func (e *testEnv) call(t testing.TB, name, args string) toolkit.Result {
	t.Helper()
	res, err := e.tools.Call(context.Background(), e.session, name, args)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return res
}

// checkoutDeps are checkout's Deps over the env's database, as
// tools.Deps gives them to the checkout tools.
func (e *testEnv) checkoutDeps() *checkout.Deps {
	st := toolkit.Store{DB: e.db}
	fx := toolkit.Effects{Writes: toolkit.DBWrites{DB: e.db}, Now: e.deps.Now}
	return &checkout.Deps{
		Carts: func() toolkit.Carts { return st }, Orders: func() toolkit.Orders { return st },
		Deliveries: func() toolkit.Deliveries { return st }, Apply: fx.Apply, DeliverPending: fx.DeliverPending,
	}
}
