package catalog_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestHotStatementsStoreWhatBunStores pins the stored form of what the hot
// statements (hot.go) write, compared with rows bun's query builder wrote:
// times, JSON, booleans and NULLs read back alike.
func TestHotStatementsStoreWhatBunStores(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		c := customer(t, db, "web", "hot-1")
		conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "hot-1"}, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 11, 25, 6, 30, 0, 123456000, time.UTC)
		calls := []catalog.ToolCall{{ID: "call_1", Name: "search_products", Arguments: `{"query":"it's \"quoted\""}`}}
		hot := []*catalog.Message{
			{Role: catalog.RoleUser, Content: "héllo 'quote' ; DROP TABLE messages", CreatedAt: at},
			{Role: catalog.RoleAssistant, ToolCalls: calls, PromptTokens: 12, CompletionTokens: 3, Model: "m", LatencyMS: 7, CreatedAt: at},
			{Role: catalog.RoleTool, ToolCallID: "call_1", ToolName: "search_products", ToolError: true, Content: `{"error":"x"}`, CreatedAt: at},
		}
		if _, err := catalog.SaveTurn(ctx, db, conv.ID, `{"k":"v"}`, hot...); err != nil {
			t.Fatal(err)
		}
		// The same messages through bun's builder, in another conversation.
		other, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "hot-2"}, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		viaBun := make([]*catalog.Message, len(hot))
		for i, m := range hot {
			cp := *m
			cp.ID, cp.ConversationID = 0, other.ID
			viaBun[i] = &cp
		}
		if _, err := db.NewInsert().Model(&viaBun).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for i, m := range hot {
			if m.ID == 0 || (i > 0 && m.ID <= hot[i-1].ID) {
				t.Fatalf("message %d: id %d not returned in order", i, m.ID)
			}
		}
		type stored struct {
			Role, Content, ToolCallID, ToolName, Model, CreatedAt string
			ToolCalls                                             *string
			ToolError                                             bool
			Prompt, Completion, Latency                           int
		}
		read := func(convID int64) []stored {
			var out []stored
			rows, err := db.QueryContext(ctx, `SELECT role, content, tool_call_id, tool_name, model, CAST(created_at AS TEXT),
				CAST(tool_calls AS TEXT), tool_error, prompt_tokens, completion_tokens, latency_ms
				FROM messages WHERE conversation_id = ? ORDER BY id`, convID)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var s stored
				if err := rows.Scan(&s.Role, &s.Content, &s.ToolCallID, &s.ToolName, &s.Model, &s.CreatedAt,
					&s.ToolCalls, &s.ToolError, &s.Prompt, &s.Completion, &s.Latency); err != nil {
					t.Fatal(err)
				}
				out = append(out, s)
			}
			return out
		}
		got, want := read(conv.ID), read(other.ID)
		if len(got) != 3 || len(want) != 3 {
			t.Fatalf("got %d and %d rows", len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			gc, wc := "<nil>", "<nil>"
			if g.ToolCalls != nil {
				gc = *g.ToolCalls
			}
			if w.ToolCalls != nil {
				wc = *w.ToolCalls
			}
			g.ToolCalls, w.ToolCalls = nil, nil
			if g != w || gc != wc {
				t.Errorf("message %d stored as\n %+v %s\nbun stores\n %+v %s", i, g, gc, w, wc)
			}
		}
		// Read back through the model, the way transcripts are.
		back, err := catalog.RecentMessages(ctx, db, conv.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != 3 || !back[0].CreatedAt.Equal(at) || back[1].ToolCalls[0] != calls[0] || !back[2].ToolError || back[1].ToolCalls == nil || back[0].ToolCalls != nil {
			t.Fatalf("read back %+v", back)
		}
		again, err := catalog.GetConversation(ctx, db, conv.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ReplaceAll(again.State, " ", "") != `{"k":"v"}` { // jsonb on Postgres adds a space
			t.Fatalf("state %q", again.State)
		}
	})
}

// TestSaveTurnStoresAnyNumberOfMessages saves a turn of 6,000 messages:
// 72,000 arguments in one statement are past SQLite's variable limit (and
// Postgres's 65,535 parameters were they bound), so this holds only
// because the rows go in chunks, inside the caller's transaction.
func TestSaveTurnStoresAnyNumberOfMessages(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		c := customer(t, db, "web", "many-1")
		conv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "many-1"}, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		const n = 6000
		ms := make([]*catalog.Message, n)
		for i := range ms {
			ms[i] = &catalog.Message{Role: catalog.RoleTool, ToolCallID: "call_" + strconv.Itoa(i), ToolName: "view_cart", Content: `{"error":"skipped"}`}
		}
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := catalog.SaveTurn(ctx, tx, conv.ID, `{}`, ms...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			if m.ID == 0 || (i > 0 && m.ID <= ms[i-1].ID) {
				t.Fatalf("message %d: id %d not returned in order", i, m.ID)
			}
		}
		count, err := db.NewSelect().Model((*catalog.Message)(nil)).Where("conversation_id = ?", conv.ID).Count(ctx)
		if err != nil || count != n {
			t.Fatalf("stored %d messages (%v), want %d", count, err, n)
		}
		back, err := catalog.RecentMessages(ctx, db, conv.ID, 1)
		if err != nil || len(back) != 1 || back[0].ToolCallID != "call_5999" {
			t.Fatalf("last message %+v (%v)", back, err)
		}
	})
}
