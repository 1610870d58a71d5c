package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSaveTurnWrites: a turn's end saves its messages, the state and the
// tokens together (one statement on Postgres, in the caller's transaction
// elsewhere); for a conversation that does not exist it fails and writes
// nothing.
func TestSaveTurnWrites(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		ann := customer(t, db, "web", "w1")
		c, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "w1"}, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		save := func(w catalog.TurnWrites) (at time.Time, err error) {
			err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				at, err = catalog.SaveTurnWrites(ctx, tx, w)
				return err
			})
			return at, err
		}
		msgs := []*catalog.Message{
			{Role: catalog.RoleUser, Content: "it's a 'quoted' shoe", TraceID: "4bf92f3577b34da6a3ce929d0e0e4736"},
			{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "c1", Name: "search_products", Arguments: `{"query":"shoe"}`}}, PromptTokens: 100, CompletionTokens: 20},
			{Role: catalog.RoleTool, ToolCallID: "c1", ToolName: "search_products", Content: `{"results":[]}`, ToolError: true},
		}
		w := catalog.TurnWrites{ConversationID: c.ID, State: `{"lang":"en"}`, Messages: msgs, CustomerID: ann.ID, TokenDay: "2026-11-27", Tokens: 120}
		if want := db.Dialect().Name().String() == "pg"; w.OneStatement(db) != want {
			t.Errorf("OneStatement = %v on %s", !want, db.Dialect().Name())
		}
		var at time.Time
		if w.OneStatement(db) {
			at, err = catalog.SaveTurnWrites(ctx, db, w)
		} else {
			at, err = save(w)
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range msgs {
			if m.ID == 0 || m.ConversationID != c.ID || !m.CreatedAt.Equal(at) {
				t.Errorf("message %d = %+v", i, m)
			}
		}
		got, err := catalog.RecentMessages(ctx, db, c.ID, 10)
		if err != nil || len(got) != 3 || got[0].Content != msgs[0].Content || got[1].ToolCalls[0].Arguments != `{"query":"shoe"}` || !got[2].ToolError ||
			got[0].TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || got[1].TraceID != "" {
			t.Fatalf("stored messages = %+v, %v", got, err)
		}
		conv, _ := catalog.GetConversation(ctx, db, c.ID)
		if !conv.LastMessageAt.Equal(at) || (conv.State != `{"lang":"en"}` && conv.State != `{"lang": "en"}`) {
			t.Errorf("conversation after the turn = %+v, want state and last_message_at %v", conv, at)
		}
		cust, err := catalog.GetCustomer(ctx, db, ann.ID)
		if err != nil || cust.TokensToday("2026-11-27") != 120 {
			t.Errorf("tokens = %d, %v; want 120", cust.TokensToday("2026-11-27"), err)
		}

		// No such conversation: an error, and nothing written.
		lost := []*catalog.Message{{Role: catalog.RoleUser, Content: "lost"}}
		bad := catalog.TurnWrites{ConversationID: c.ID + 1000, State: `{}`, Messages: lost, CustomerID: ann.ID, TokenDay: "2026-11-27", Tokens: 5}
		if bad.OneStatement(db) {
			_, err = catalog.SaveTurnWrites(ctx, db, bad)
		} else {
			_, err = save(bad)
		}
		if err == nil {
			t.Fatal("saving a turn of a missing conversation succeeded")
		}
		var n int
		if err := db.NewSelect().Table("messages").ColumnExpr("count(*)").Scan(ctx, &n); err != nil || n != 3 {
			t.Errorf("messages after the failed save = %d, %v; want 3", n, err)
		}
		if cust, _ := catalog.GetCustomer(ctx, db, ann.ID); cust.TokensToday("2026-11-27") != 120 {
			t.Errorf("tokens after the failed save = %d, want 120", cust.TokensToday("2026-11-27"))
		}
	})
}

// TestOpenCounted: opening a conversation and counting the turn return
// what OpenConversation and Hit would (on Postgres in one statement),
// Unhit gives a hit back, and a bad limit key changes nothing.
func TestOpenCounted(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		ann := customer(t, db, "slack", "U9")
		key := catalog.ConversationKey{Channel: "slack", ChatID: "C9", ThreadID: "t1"}
		lim := catalog.Limit{Max: 2, Window: time.Hour}
		now := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
		pg := db.Dialect().Name().String() == "pg"

		first, hit, counted, err := catalog.OpenCounted(ctx, db, key, ann.ID, "turn:x", lim, now)
		if err != nil || counted != pg {
			t.Fatalf("first open: counted %v, %v; want counted on Postgres only", counted, err)
		}
		if pg && (hit.Count != 1 || !hit.Allowed || hit.RetryAfter != 30*time.Minute) {
			t.Errorf("first hit = %+v", hit)
		}
		if err := catalog.SetPaused(ctx, db, first.ID, true); err != nil {
			t.Fatal(err)
		}
		want, err := catalog.OpenConversation(ctx, db, key, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		again, hit, _, err := catalog.OpenCounted(ctx, db, key, ann.ID, "turn:x", lim, now)
		if err != nil || again.ID != first.ID || !again.Paused || again.State != want.State || *again.CustomerID != ann.ID ||
			again.LastReadAt != nil || !again.LastMessageAt.Equal(want.LastMessageAt) || !again.CreatedAt.Equal(want.CreatedAt) || again.ChatID != "C9" || again.ThreadID != "t1" {
			t.Fatalf("reopened = %+v, %v; want %+v", again, err, want)
		}
		if !pg {
			return
		}
		if hit.Count != 2 || !hit.Allowed {
			t.Errorf("second hit = %+v", hit)
		}
		if _, hit, _, _ = catalog.OpenCounted(ctx, db, key, ann.ID, "turn:x", lim, now); hit.Allowed || hit.Count != 3 {
			t.Errorf("third hit = %+v, want refused", hit)
		}
		if err := catalog.Unhit(ctx, db, "turn:x", lim, now); err != nil {
			t.Fatal(err)
		}
		if res, err := catalog.Hit(ctx, db, "turn:x", lim, now); err != nil || res.Count != 3 {
			t.Errorf("hit after an unhit = %+v, %v; want count 3", res, err)
		}
		if _, _, _, err := catalog.OpenCounted(ctx, db, catalog.ConversationKey{Channel: "slack", ChatID: "C10"}, ann.ID, "", lim, now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("empty limit key: %v, want ErrInvalid", err)
		}
		var n int
		if err := db.NewSelect().Table("conversations").ColumnExpr("count(*)").Where("chat_id = 'C10'").Scan(ctx, &n); err != nil || n != 0 {
			t.Errorf("conversations after a refused open = %d, %v", n, err)
		}
	})
}
