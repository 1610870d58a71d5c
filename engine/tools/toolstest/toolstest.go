package toolstest

import (
	"context"
	"encoding/json"
	"shopbot/engine/toolkit"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/search/vectorizer"
	"shopbot/engine/session"
	"shopbot/engine/tools"
)

// Now is the clock of engine tests.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Env is a demo shop and one web shopper's session.
type Env struct {
	DB      *bun.DB
	Deps    *tools.Deps
	Tools   *toolkit.Toolbox
	Session *session.Session
}

// SQLite is OnDemo on a copy of an SQLite database holding the demo shop
// (catalogtest.SQLiteDemo).
func SQLite(t testing.TB) *Env {
	t.Helper()
	return OnDemo(t, catalogtest.SQLiteDemo(t))
}

// OnDemo builds the tools over db, a database that holds the demo shop as
// demo.Load leaves it, with database keyword search, the embedded index of
// the demo shop's pages (shared, see demoPassageIndex) and the fixed clock. db is a copy from catalogtest
// (SQLiteDemo, PostgresDemo, EachDemo): copying costs a file or template
// copy where loading the demo costs seconds under -race.
func OnDemo(t testing.TB, db *bun.DB) *Env {
	t.Helper()
	deps := &tools.Deps{DB: db, Search: searchtest.NewDatabase(db), Currency: "USD", Now: func() time.Time { return Now }}
	tb, err := toolkit.NewToolbox(tools.Tools(deps)...)
	if err != nil {
		t.Fatal(err)
	}
	e := &Env{DB: db, Deps: deps, Tools: tb, Session: Session(t, db, "web", "shopper-1")}
	deps.Passages = demoPassages(t, db) // the demo shop's pages, for search_shop_info
	return e
}

// demoPassageIndex is the index of the demo shop's pages and reviews, one
// per dialect, built on first use: every demo copy holds the same pages
// and reviews, so each would build the same index (a second or two under
// -race). The tools only read it; nothing here updates it. A test that
// changes the pages or reviews calls IndexPassages for an index of its own.
var demoPassageIndex sync.Map // dialect name → *demoPassageEntry

type demoPassageEntry struct {
	once  sync.Once
	index *embedded.Passages
	err   error
}

func demoPassages(t testing.TB, db *bun.DB) *embedded.Passages {
	t.Helper()
	v, _ := demoPassageIndex.LoadOrStore(db.Dialect().Name().String(), &demoPassageEntry{})
	d := v.(*demoPassageEntry)
	d.once.Do(func() {
		d.index = embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
		d.err = d.index.Rebuild(context.Background(), catalog.NewSearchSource(db))
	})
	if d.err != nil {
		t.Fatal(d.err)
	}
	return d.index
}

// IndexPassages indexes the shop's pages and reviews as they are now
// for search_shop_info and search_reviews.
func (e *Env) IndexPassages(t testing.TB) {
	t.Helper()
	pages := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
	if err := pages.Rebuild(context.Background(), catalog.NewSearchSource(e.DB)); err != nil {
		t.Fatal(err)
	}
	e.Deps.Passages = pages
}

// DataOf decodes what the model reads of res into v, failing the test on
// a tool error.
func DataOf(t testing.TB, res toolkit.Result, v any) {
	t.Helper()
	msg, isErr := toolkit.ModelMessage(res, nil)
	if isErr {
		t.Fatalf("tool message: %s", msg)
	}
	if err := json.Unmarshal([]byte(msg), v); err != nil {
		t.Fatalf("decode %s: %v", msg, err)
	}
}

// Session is a personal session of a shopper on channel.
func Session(t testing.TB, db *bun.DB, channel, userID string) *session.Session {
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
		State: &session.State{}, Currency: "USD", Now: Now,
	}
}

// Call runs a tool in the env's session and fails the test on an error.
func (e *Env) Call(t testing.TB, name, args string) toolkit.Result {
	t.Helper()
	res, err := e.Tools.Call(context.Background(), e.Session, name, args)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return res
}

// ToolError runs a tool that must fail with an error the model reads as
// {"error": ...}, and no cards or buttons; it returns the error's text.
func (e *Env) ToolError(t testing.TB, name, args string) string {
	t.Helper()
	res, err := e.Tools.Call(context.Background(), e.Session, name, args)
	msg, isErr := toolkit.ModelMessage(res, err)
	if !isErr {
		t.Fatalf("%s(%s) succeeded: %s", name, args, msg)
	}
	if len(res.Cards) > 0 || len(res.Buttons) > 0 {
		t.Errorf("%s(%s) failed but returned cards or buttons", name, args)
	}
	var out struct{ Error string }
	if err := json.Unmarshal([]byte(msg), &out); err != nil || out.Error == "" {
		t.Fatalf("%s(%s): tool error %s is not {\"error\": ...}", name, args, msg)
	}
	return out.Error
}

// PlaceOrder puts lines (SKU → quantity) in s's cart, orders them under
// key and dates the order daysAgo days before Now.
func (e *Env) PlaceOrder(t testing.TB, s *session.Session, key string, daysAgo int, lines map[string]int) *catalog.Order {
	t.Helper()
	req := catalog.OrderRequest{IdempotencyKey: key, Scope: s.Scope, CustomerID: s.Customer.ID, Channel: s.Channel, ChatID: s.ChatID}
	return catalogtest.PlaceOrderAt(t, e.DB, req, Now.AddDate(0, 0, -daysAgo), lines)
}
