package catalog_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/dbstats"
)

// TestSaveTurnGroup: several turns' ends save as each alone would (ids,
// times, states, tokens summed per customer), on Postgres in one
// statement; a turn of a missing conversation fails alone, the others
// saved; a customer counted on two days in one group is saved right.
func TestSaveTurnGroup(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		pg := db.Dialect().Name().String() == "pg"
		if !pg {
			t.Skip("SQLite groups turns' transactions (groupcommit.Tx), not statements")
		}
		ann := customer(t, db, "web", "g-ann")
		bob := customer(t, db, "web", "g-bob")
		conv := func(chat string, c *catalog.Customer) *catalog.Conversation {
			cv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: chat}, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			return cv
		}
		a1, a2, b1 := conv("g1", ann), conv("g2", ann), conv("g3", bob)
		turn := func(c *catalog.Conversation, cust *catalog.Customer, day string, tokens int, text string) catalog.TurnWrites {
			return catalog.TurnWrites{ConversationID: c.ID, State: fmt.Sprintf(`{"lang":%q}`, text), CustomerID: cust.ID, TokenDay: day, Tokens: tokens,
				Messages: []*catalog.Message{
					{Role: catalog.RoleUser, Content: text + " 'quoted', \"double\" {x}"},
					{Role: catalog.RoleAssistant, ToolCalls: []catalog.ToolCall{{ID: "c1", Name: "search_products", Arguments: `{"query":"shoe"}`}}},
					{Role: catalog.RoleTool, ToolCallID: "c1", ToolName: "search_products", Content: `{"results":[]}`, ToolError: true},
					{Role: catalog.RoleAssistant, Content: text + " answer", PromptTokens: 10, CompletionTokens: 2, Model: "m", LatencyMS: 7, TraceID: "t1"},
				}}
		}
		ws := []catalog.TurnWrites{turn(a1, ann, "2026-11-27", 100, "a1"), turn(a2, ann, "2026-11-27", 20, "a2"), turn(b1, bob, "2026-11-27", 0, "b1")}
		var c dbstats.Counter
		at, errs := catalog.SaveTurnGroup(dbstats.With(ctx, &c), db, ws)
		if n := c.Counts().Statements; n != 1 {
			t.Errorf("%d statements for 3 turns, want 1: %v", n, c.Shapes())
		}
		for i, w := range ws {
			if errs[i] != nil {
				t.Fatalf("turn %d: %v", i, errs[i])
			}
			got, err := catalog.RecentMessages(ctx, db, w.ConversationID, 10)
			if err != nil || len(got) != 4 {
				t.Fatalf("turn %d stored %+v, %v", i, got, err)
			}
			for j, m := range w.Messages {
				if m.ID != got[j].ID || m.ConversationID != w.ConversationID || !m.CreatedAt.Equal(at[i]) || got[j].Content != m.Content ||
					got[j].Role != m.Role || got[j].ToolCallID != m.ToolCallID || got[j].ToolError != m.ToolError || got[j].TraceID != m.TraceID ||
					got[j].PromptTokens != m.PromptTokens || got[j].LatencyMS != m.LatencyMS || (m.ToolCalls == nil) != (got[j].ToolCalls == nil) {
					t.Errorf("turn %d message %d = %+v, stored %+v", i, j, m, got[j])
				}
			}
			cv, _ := catalog.GetConversation(ctx, db, w.ConversationID)
			if !cv.LastMessageAt.Equal(at[i]) || cv.State != w.State && cv.State != fmt.Sprintf(`{"lang": %q}`, w.State[9:11]) {
				t.Errorf("conversation %d after the group = %+v", i, cv)
			}
		}
		if cust, _ := catalog.GetCustomer(ctx, db, ann.ID); cust.TokensToday("2026-11-27") != 120 {
			t.Errorf("ann's tokens = %d, want 120 (two turns in one group)", cust.TokensToday("2026-11-27"))
		}
		if cust, _ := catalog.GetCustomer(ctx, db, bob.ID); cust.TokensToday("2026-11-27") != 0 {
			t.Errorf("bob's tokens = %d, want 0", cust.TokensToday("2026-11-27"))
		}

		// A missing conversation fails alone; a customer on two days.
		bad := turn(a1, ann, "2026-11-27", 5, "bad")
		bad.ConversationID = b1.ID + 1000
		ws = []catalog.TurnWrites{turn(a1, ann, "2026-11-27", 1, "x1"), bad, turn(b1, bob, "2026-11-28", 3, "x2"), turn(a2, ann, "2026-11-28", 4, "x3")}
		_, errs = catalog.SaveTurnGroup(ctx, db, ws)
		if errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != nil {
			t.Fatalf("errors %v, want the missing conversation's only", errs)
		}
		var n int
		if err := db.NewSelect().Table("messages").ColumnExpr("count(*)").Scan(ctx, &n); err != nil || n != 24 {
			t.Errorf("messages = %d, %v; want 24", n, err)
		}
		if cust, _ := catalog.GetCustomer(ctx, db, ann.ID); cust.TokensToday("2026-11-28") != 4 {
			t.Errorf("ann's tokens on the 28th = %d, want 4", cust.TokensToday("2026-11-28"))
		}
		if cust, _ := catalog.GetCustomer(ctx, db, bob.ID); cust.TokensToday("2026-11-28") != 3 {
			t.Errorf("bob's tokens on the 28th = %d, want 3", cust.TokensToday("2026-11-28"))
		}
	})
}

// TestSaveTurnGroupPlan: the group save finds its conversations and
// customers by primary key in the plan Postgres keeps for it (a prepared
// statement's generic plan), never by reading the whole tables. The
// planner takes jsonb_to_recordset for 100 rows, and against tables of a
// few thousand rows a scan then looked cheaper than 100 lookups: every
// save read every conversation.
func TestSaveTurnGroupPlan(t *testing.T) {
	db, _ := catalogtest.Postgres(t)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO customers (channel, platform_user_id) SELECT 'web', 'plan-' || g FROM generate_series(1, 3000) AS g`,
		`INSERT INTO conversations (channel, chat_id, customer_id) SELECT 'web', platform_user_id, id FROM customers`,
		`ANALYZE customers, conversations`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		`SET plan_cache_mode = force_generic_plan`,
		`PREPARE group_save(jsonb, timestamptz, jsonb) AS ` + catalog.SaveTurnsSQL,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows, err := conn.QueryContext(ctx, `EXPLAIN EXECUTE group_save('[]', now(), '[]')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"conversations", "customers"} {
		if strings.Contains(plan.String(), "Seq Scan on "+table) {
			t.Errorf("the group save reads all of %s:\n%s", table, plan.String())
		}
	}
}
