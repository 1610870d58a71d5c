package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

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
