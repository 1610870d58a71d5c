package catalog_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestWarmPool: warming opens every connection of a Postgres pool and
// leaves them idle in it, and writes nothing (its save that saves nothing
// fires the triggers, in a transaction rolled back); SQLite has nothing
// to warm.
func TestWarmPool(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		pg := db.Dialect().Name().String() == "pg"
		if pg {
			db.SetMaxOpenConns(6)
			db.SetMaxIdleConns(6)
		}
		conv := catalogtest.OpenConversation(t, db, customer(t, db, "web", "w-warm"))
		rows := func() (n [3]int) {
			for i, table := range []string{"messages", "inbox_events", "conversations"} {
				if err := db.NewSelect().TableExpr(table).ColumnExpr("count(*)").Scan(ctx, &n[i]); err != nil {
					t.Fatal(err)
				}
			}
			return n
		}
		var state string
		if err := db.NewSelect().TableExpr("conversations").Column("state").Where("id = ?", conv.ID).Scan(ctx, &state); err != nil {
			t.Fatal(err)
		}
		before := rows()
		if err := catalog.WarmPool(ctx, db); err != nil {
			t.Fatal(err)
		}
		if st := db.Stats(); pg && (st.OpenConnections != 6 || st.Idle != 6) {
			t.Errorf("after warming: %d open, %d idle; want all 6 open and idle", st.OpenConnections, st.Idle)
		}
		if after := rows(); after != before {
			t.Errorf("rows (messages, inbox events, conversations) %v after warming, %v before", after, before)
		}
		var again string
		if err := db.NewSelect().TableExpr("conversations").Column("state").Where("id = ?", conv.ID).Scan(ctx, &again); err != nil || again != state {
			t.Errorf("state %q after warming, %q before (%v)", again, state, err)
		}
	})
}
