package panel_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// BenchmarkInboxViews100k lists the first page of every team view and
// filter over 100,000 conversations on Postgres and reports the p99 of a
// page (target: 50 ms). Run it with
//
//	SHOPBOT_REQUIRE_POSTGRES=1 go test -run '^$' -bench InboxViews100k -benchtime 200x ./catalog/
func BenchmarkInboxViews100k(b *testing.B) {
	db, _ := catalogtest.Postgres(b)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO staff_users (username, password_hash, role, created_at, updated_at) SELECT 'agent' || g, 'x', 'agent', now(), now() FROM generate_series(1, 10) AS g`,
		`INSERT INTO customers (channel, platform_user_id, display_name) SELECT 'telegram', CAST(g AS TEXT), 'Shopper ' || g FROM generate_series(1, 100000) AS g`,
		`INSERT INTO conversations (channel, chat_id, customer_id, needs_human, status, assignee_id, last_message_at)
		 SELECT 'telegram', CAST(g AS TEXT), g, g % 17 = 0,
		   'open',
		   CASE WHEN g % 3 = 0 THEN NULL ELSE 1 + g % 10 END,
		   now() - make_interval(secs => g)
		 FROM generate_series(1, 100000) AS g`,
		// Messages first: a shopper's message reopens a resolved or snoozed
		// conversation, so the states are set after them.
		`INSERT INTO messages (conversation_id, role, content) SELECT id, 'user', 'hello there, do you have boots size ' || id FROM conversations`,
		`UPDATE conversations SET status = (ARRAY['open','pending','snoozed','resolved'])[1 + id % 4]`,
		`UPDATE conversations SET snoozed_until = now() + interval '1 day' WHERE status = 'snoozed'`,
		`INSERT INTO conversation_labels (conversation_id, label) SELECT id, 'vip' FROM conversations WHERE id % 50 = 0`,
		// The worst case for the label filter: a label only on the oldest
		// 2 % (the page walks the newest-first index past 98,000 others).
		`INSERT INTO conversation_labels (conversation_id, label) SELECT id, 'old' FROM conversations WHERE id > 98000`,
		`ANALYZE`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	filters := map[string]panel.Inbox{
		"all":         {},
		"mine":        {Workflow: panel.InboxWorkflow{View: panel.ViewMine, Me: 3}},
		"unassigned":  {Workflow: panel.InboxWorkflow{View: panel.ViewUnassigned}},
		"needs_human": {Workflow: panel.InboxWorkflow{View: panel.ViewNeedsHuman}},
		"open":        {Workflow: panel.InboxWorkflow{Status: catalog.ConvOpen}},
		"resolved":    {Workflow: panel.InboxWorkflow{Status: catalog.ConvResolved}},
		"label":       {Workflow: panel.InboxWorkflow{Label: "vip"}},
		"label_old":   {Workflow: panel.InboxWorkflow{Label: "old"}},
		"mine_open":   {Workflow: panel.InboxWorkflow{View: panel.ViewMine, Me: 3, Status: catalog.ConvOpen}},
	}
	names := make([]string, 0, len(filters))
	for k := range filters {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		in := filters[name]
		b.Run(name, func(b *testing.B) {
			var took []time.Duration
			rows := 0
			for i := 0; i < b.N; i++ {
				start := time.Now()
				rs, _, err := panel.ListInbox(ctx, db, in)
				if err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
				rows = len(rs)
			}
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			p99 := took[(len(took)*99)/100]
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99_ms")
			b.ReportMetric(float64(rows), "rows")
			if rows == 0 {
				b.Fatalf("%s listed nothing", name)
			}
		})
	}
}
