package live_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/live"
)

// TestEventsAndHub: a shopper's message, a note and a status change each
// leave an event (a tool message does not); the hub wakes its subscribers
// (on Postgres with the poll an hour apart, so by NOTIFY); Prune forgets
// old events.
func TestEventsAndHub(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		poll := 10 * time.Millisecond
		if db.Dialect().Name() == dialect.PG {
			poll = time.Hour
		}
		hub := live.NewHub(db, nil, poll)
		go hub.Run(ctx)
		conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "w1"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		start, err := live.Latest(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		woken := hub.Changed()
		if err := catalog.AppendMessages(ctx, db, conv.ID,
			&catalog.Message{Role: catalog.RoleUser, Content: "hi"},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "c1", ToolName: "search_products", Content: "{}"}); err != nil {
			t.Fatal(err)
		}
		<-woken // the test's deadline is the only bound
		woken = hub.Changed()
		if err := catalog.AddConversationNote(ctx, db, &catalog.ConversationNote{ConversationID: conv.ID, Author: "ann", Body: "note"}); err != nil {
			t.Fatal(err)
		}
		if err := catalog.SetConversationStatus(ctx, db, conv.ID, catalog.ConvPending, nil, time.Now()); err != nil {
			t.Fatal(err)
		}
		<-woken
		es, err := live.Since(ctx, db, start, 10)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, e := range es {
			if e.ConversationID != conv.ID {
				t.Errorf("event for conversation %d, want %d", e.ConversationID, conv.ID)
			}
			kinds = append(kinds, e.Kind)
		}
		if len(kinds) != 3 || kinds[0] != "message" || kinds[1] != "note" || kinds[2] != "state" {
			t.Errorf("events = %v, want message, note, state", kinds)
		}
		if err := live.Prune(ctx, db, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if es, _ := live.Since(ctx, db, 0, 10); len(es) != 0 {
			t.Errorf("%d events survived the prune", len(es))
		}
	})
}
