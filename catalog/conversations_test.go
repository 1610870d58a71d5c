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

func TestConversations(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		ann := customer(t, db, "slack", "U1")
		key := catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "1700000000.0001"}
		c, err := catalog.OpenConversation(ctx, db, key, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		again, err := catalog.OpenConversation(ctx, db, key, ann.ID)
		if err != nil || again.ID != c.ID {
			t.Fatalf("reopen = %+v, %v", again, err)
		}
		other, _ := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "2"}, ann.ID)
		if other.ID == c.ID {
			t.Error("another thread must be another conversation")
		}

		msgs := []*catalog.Message{
			{Role: catalog.RoleUser, Content: "red sneakers under 100"},
			{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "call_1", Name: "search_products", Arguments: `{"query":"red sneakers","max_price":100}`}},
				PromptTokens: 812, CompletionTokens: 31, Model: "gpt-4o-mini", LatencyMS: 640},
			{Role: catalog.RoleTool, ToolCallID: "call_1", ToolName: "search_products", Content: `{"results":[]}`},
			{Role: catalog.RoleAssistant, Content: "Nothing red under $100 yet — want to see other colors?"},
		}
		if err := catalog.AppendMessages(ctx, db, c.ID, msgs...); err != nil {
			t.Fatal(err)
		}
		if msgs[3].ID == 0 {
			t.Error("message ids not set")
		}
		got, err := catalog.RecentMessages(ctx, db, c.ID, 3)
		if err != nil || len(got) != 3 {
			t.Fatalf("recent = %+v, %v", got, err)
		}
		if got[0].Role != catalog.RoleAssistant || len(got[0].ToolCalls) != 1 || got[0].ToolCalls[0].Arguments != msgs[1].ToolCalls[0].Arguments ||
			got[0].PromptTokens != 812 || got[0].Model != "gpt-4o-mini" || got[1].ToolCallID != "call_1" || got[2].Content != msgs[3].Content {
			t.Errorf("recent messages = %+v", got)
		}
		if c.State != "{}" {
			t.Errorf("new conversation state = %q", c.State)
		}
		turnMsg := &catalog.Message{Role: catalog.RoleUser, Content: "show me jackets"}
		at, err := catalog.SaveTurn(ctx, db, c.ID, `{"shown":["A-1","B-2"]}`, turnMsg)
		if err != nil {
			t.Fatal(err)
		}
		if turnMsg.ID == 0 || !turnMsg.CreatedAt.Equal(at) {
			t.Errorf("saved turn message = %+v, want an id and created_at %v", turnMsg, at)
		}
		if err := catalog.SetPaused(ctx, db, c.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := catalog.FlagNeedsHuman(ctx, db, c.ID, "wants to return a jacket"); err != nil {
			t.Fatal(err)
		}
		c, _ = catalog.GetConversation(ctx, db, c.ID)
		if !c.LastMessageAt.Equal(at) {
			t.Errorf("last_message_at = %v, want the turn's %v", c.LastMessageAt, at)
		}
		if !c.Paused || !c.NeedsHuman || c.NeedsHumanReason != "wants to return a jacket" || c.State != `{"shown": ["A-1", "B-2"]}` && c.State != `{"shown":["A-1","B-2"]}` {
			t.Errorf("conversation = %+v", c)
		}
		if _, err := catalog.GetConversation(ctx, db, 999999); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing conversation: err = %v", err)
		}
		if err := catalog.AppendMessages(ctx, db, 999999, &catalog.Message{Role: catalog.RoleUser}); err == nil {
			t.Error("message to a missing conversation was accepted")
		}
	})
}

func TestFeedCursor(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if c, err := catalog.LoadCursor(ctx, db, "w"); err != nil || c != (catalog.FeedCursor{}) {
			t.Fatalf("no cursor: %+v, %v", c, err)
		}
		t1 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		want := catalog.FeedCursor{Products: t1, ProductID: 7, Passages: t1.Add(time.Second), Tombstones: t1}
		if err := catalog.SaveCursor(ctx, db, "w", want); err != nil {
			t.Fatal(err)
		}
		// A replica behind the stored place cannot move it back.
		if err := catalog.SaveCursor(ctx, db, "w", catalog.FeedCursor{Products: t1, ProductID: 3, Passages: t1, Tombstones: t1.Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
		got, err := catalog.LoadCursor(ctx, db, "w")
		if err != nil || !got.Products.Equal(want.Products) || got.ProductID != 7 || !got.Passages.Equal(want.Passages) || !got.Tombstones.Equal(t1) {
			t.Errorf("cursor = %+v, %v; want %+v", got, err, want)
		}
		if n, err := catalog.PruneTombstones(ctx, db, time.Now()); err != nil || n != 0 {
			t.Errorf("prune: %d, %v", n, err)
		}
	})
}

func TestFindConversation(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		key := catalog.ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "100.1"}
		if _, err := catalog.FindConversation(ctx, db, key); !errors.Is(err, catalog.ErrNotFound) {
			t.Fatalf("before opening: %v", err)
		}
		opened, err := catalog.OpenConversation(ctx, db, key, 0)
		if err != nil {
			t.Fatal(err)
		}
		found, err := catalog.FindConversation(ctx, db, key)
		if err != nil || found.ID != opened.ID {
			t.Fatalf("found %+v, %v", found, err)
		}
		other := key
		other.ThreadID = "100.2"
		if _, err := catalog.FindConversation(ctx, db, other); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("another thread: %v", err)
		}
	})
}

// TestShopperTranscript: what a shopper sees again of their conversation
// is its user, assistant and merchant texts, oldest first, the latest
// limit of them; tool calls and results, and other conversations, stay
// out; a conversation not yet started has none.
func TestShopperTranscript(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		key := catalog.ConversationKey{Channel: "web", ChatID: "tr-1"}
		ms, err := catalog.ShopperTranscript(ctx, db, key, 10)
		if err != nil || len(ms) != 0 {
			t.Fatalf("before any message: %v, %v", ms, err)
		}
		c := customer(t, db, "web", "tr-1")
		conv, err := catalog.OpenConversation(ctx, db, key, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		other, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "tr-2"}, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := catalog.SaveTurn(ctx, db, other.ID, `{}`, &catalog.Message{Role: catalog.RoleUser, Content: "not mine"}); err != nil {
			t.Fatal(err)
		}
		_, err = catalog.SaveTurn(ctx, db, conv.ID, `{}`,
			&catalog.Message{Role: catalog.RoleUser, Content: "boots"},
			&catalog.Message{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "c1", Name: "search_products", Arguments: "{}"}}},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "c1", ToolName: "search_products", Content: `{"products":[]}`},
			&catalog.Message{Role: catalog.RoleAssistant, Content: "Here are boots."},
			&catalog.Message{Role: catalog.RoleMerchant, Content: "Anna here."},
		)
		if err != nil {
			t.Fatal(err)
		}
		ms, err = catalog.ShopperTranscript(ctx, db, key, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, string(m.Role)+":"+m.Content)
		}
		want := []string{"user:boots", "assistant:Here are boots.", "merchant:Anna here."}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("transcript = %q, want %q", got, want)
		}
		if ms, _ := catalog.ShopperTranscript(ctx, db, key, 2); len(ms) != 2 || ms[1].Content != "Anna here." {
			t.Errorf("latest 2 = %+v", ms)
		}
	})
}
