package toolstest

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
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
	Tools   *tools.Toolbox
	Session *session.Session
}

// New loads the demo shop into db and builds the tools over it, with
// database keyword search, the embedded index of the shop's pages and the
// fixed clock.
func New(t testing.TB, db *bun.DB) *Env {
	t.Helper()
	if _, err := demo.Load(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	deps := &tools.Deps{DB: db, Search: searchtest.NewDatabase(db), Currency: "USD", Now: func() time.Time { return Now }}
	pages := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0)})
	if err := pages.Rebuild(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	deps.Passages = pages // the demo shop's pages, for search_shop_info
	tb, err := tools.NewToolbox(tools.Tools(deps)...)
	if err != nil {
		t.Fatal(err)
	}
	return &Env{DB: db, Deps: deps, Tools: tb, Session: Session(t, db, "web", "shopper-1")}
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
