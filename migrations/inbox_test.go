package migrations_test

import (
	"context"
	"testing"
	"time"

	"shopbot/migrations"
)

// TestInboxMigrationCopiesRows: migration 10 moves the rows of the
// adapters' own inboxes and cart tables into inbox and cart_messages (an
// update acknowledged before the upgrade is still resumed after it) and
// drops the old tables.
func TestInboxMigrationCopiesRows(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := open(t, kind)
			if err := migrations.MigrateTo(ctx, db, 9); err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
			for _, q := range []struct {
				sql  string
				args []any
			}{
				{"INSERT INTO telegram_updates (update_id, chat_id, payload, received_at) VALUES (?, ?, ?, ?)", []any{1234567890123, "42", `{"update_id":1234567890123}`, at}},
				{"INSERT INTO telegram_updates (update_id, chat_id, payload, received_at, handled_at) VALUES (?, ?, ?, ?, ?)", []any{7, "42", `{}`, at, at}},
				{"INSERT INTO telegram_chats (chat_id, cart_message_id, updated_at) VALUES (?, ?, ?)", []any{"42", 991, at}},
				{"INSERT INTO slack_inbox (event_key, kind, payload, received_at) VALUES (?, ?, ?, ?)", []any{"event:Ev1", "event", `{"type":"event_callback"}`, at}},
				{"INSERT INTO slack_carts (channel_id, thread_ts, message_ts, updated_at) VALUES (?, ?, ?, ?)", []any{"C1", "1.2", "3.4", at}},
			} {
				if _, err := db.ExecContext(ctx, q.sql, q.args...); err != nil {
					t.Fatalf("%s: %v", q.sql, err)
				}
			}
			if _, _, err := migrations.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}

			type row struct {
				Source, Key, Chat, Kind, Payload string
				ReceivedAt                       time.Time
				Handled                          bool
			}
			var rows []row
			if err := db.NewRaw(`SELECT source, key, chat, kind, payload, received_at, handled_at IS NOT NULL AS handled
				FROM inbox ORDER BY source, key`).Scan(ctx, &rows); err != nil {
				t.Fatal(err)
			}
			want := []row{
				{"slack", "event:Ev1", "", "event", `{"type":"event_callback"}`, at, false},
				{"telegram", "1234567890123", "42", "update", `{"update_id":1234567890123}`, at, false},
				{"telegram", "7", "42", "update", `{}`, at, true},
			}
			if len(rows) != len(want) {
				t.Fatalf("inbox = %+v, want %+v", rows, want)
			}
			for i := range want {
				if rows[i].Source != want[i].Source || rows[i].Key != want[i].Key || rows[i].Chat != want[i].Chat ||
					rows[i].Kind != want[i].Kind || rows[i].Payload != want[i].Payload || rows[i].Handled != want[i].Handled ||
					!rows[i].ReceivedAt.Equal(want[i].ReceivedAt) {
					t.Errorf("inbox row %d = %+v, want %+v", i, rows[i], want[i])
				}
			}

			type cart struct{ Source, Chat, Thread, MessageID string }
			var carts []cart
			if err := db.NewRaw("SELECT source, chat, thread, message_id FROM cart_messages ORDER BY source").Scan(ctx, &carts); err != nil {
				t.Fatal(err)
			}
			if len(carts) != 2 || carts[0] != (cart{"slack", "C1", "1.2", "3.4"}) || carts[1] != (cart{"telegram", "42", "", "991"}) {
				t.Errorf("cart_messages = %+v", carts)
			}
			for _, old := range []string{"telegram_updates", "telegram_chats", "slack_inbox", "slack_carts"} {
				if _, err := db.ExecContext(ctx, "SELECT 1 FROM "+old); err == nil {
					t.Errorf("table %s is still there", old)
				}
			}
		})
	}
}
