package tools

import (
	"context"
	"shopbot/engine/toolkit"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/session"
)

// testEnv is a demo shop on SQLite and one shopper's session.
type testEnv struct {
	db      *bun.DB
	deps    *Deps
	tools   *toolkit.Toolbox
	session *session.Session
}

// fixedNow is the clock of engine tests.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	return newTestEnvOnDemo(t, catalogtest.SQLiteDemo(t))
}

// newTestEnvOnDemo builds the tools over a database that holds the demo
// shop already (catalogtest.SQLiteDemo, PostgresDemo, EachDemo): a copy costs
// a file or template copy where loading costs seconds under -race.
func newTestEnvOnDemo(t testing.TB, db *bun.DB) *testEnv {
	t.Helper()
	deps := &Deps{DB: db, Search: searchtest.NewDatabase(db), Currency: "USD", Now: func() time.Time { return fixedNow }}
	tb, err := toolkit.NewToolbox(Tools(deps)...)
	if err != nil {
		t.Fatal(err)
	}
	return &testEnv{db: db, deps: deps, tools: tb, session: newTestSession(t, db, "web", "shopper-1")}
}

// newTestSession is a personal session of a web shopper.
func newTestSession(t testing.TB, db *bun.DB, channel, userID string) *session.Session {
	t.Helper()
	ctx := context.Background()
	c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: channel, PlatformUserID: userID, DisplayName: "Shopper " + userID})
	if err != nil {
		t.Fatal(err)
	}
	conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: channel, ChatID: userID}, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	return &session.Session{
		Channel: channel, ChatID: userID, DedupKey: "turn-1",
		Customer: c, Conversation: conv, Scope: catalog.PersonalCart(c.ID),
		State: &session.State{}, Currency: "USD", Now: fixedNow,
	}
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

// placeTestOrder puts lines in the session's cart, orders them under key
// and dates the order daysAgo days before fixedNow.
func placeTestOrder(t *testing.T, e *testEnv, s *session.Session, key string, daysAgo int, lines map[string]int) *catalog.Order {
	t.Helper()
	req := catalog.OrderRequest{IdempotencyKey: key, Scope: s.Scope, CustomerID: s.Customer.ID, Channel: s.Channel, ChatID: s.ChatID}
	return catalogtest.PlaceOrderAt(t, e.db, req, fixedNow.AddDate(0, 0, -daysAgo), lines)
}
