package panel_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
	"shopbot/catalog/team"
)

func inboxIDs(rows []panel.InboxRow) []int64 {
	var out []int64
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// TestListInbox: newest message first, the filters and the text search,
// the last visible message, and keyset pages that neither skip nor repeat
// a conversation.
func TestListInbox(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		ann, bob, cy := catalogtest.Customer(t, db, "telegram", "ann"), catalogtest.Customer(t, db, "slack", "bob"), catalogtest.Customer(t, db, "web", "cy")
		a, b, c := catalogtest.OpenConversation(t, db, ann), catalogtest.OpenConversation(t, db, bob), catalogtest.OpenConversation(t, db, cy)
		say := func(conv *catalog.Conversation, ms ...*catalog.Message) {
			t.Helper()
			if err := catalog.AppendMessages(ctx, db, conv.ID, ms...); err != nil {
				t.Fatal(err)
			}
		}
		say(a, &catalog.Message{Role: catalog.RoleUser, Content: "red   shoes\nplease"})
		say(b, &catalog.Message{Role: catalog.RoleUser, Content: "a 50% discount?"},
			&catalog.Message{Role: catalog.RoleTool, ToolCallID: "x", ToolName: "search_products", Content: "secret tool text"})
		say(c, &catalog.Message{Role: catalog.RoleAssistant, Content: "Hello"})
		if err := catalog.FlagNeedsHuman(ctx, db, b.ID, "asked for a person"); err != nil {
			t.Fatal(err)
		}
		if err := catalog.SetPaused(ctx, db, c.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := team.MarkConversationRead(ctx, db, a.ID, time.Now().UTC().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			in   panel.Inbox
			want []int64
		}{
			{"all, newest first", panel.Inbox{}, []int64{c.ID, b.ID, a.ID}},
			{"channel", panel.Inbox{Channel: "slack"}, []int64{b.ID}},
			{"needs human", panel.Inbox{Show: panel.InboxNeedsHuman}, []int64{b.ID}},
			{"paused", panel.Inbox{Show: panel.InboxPaused}, []int64{c.ID}},
			{"unread", panel.Inbox{Show: panel.InboxUnread}, []int64{c.ID, b.ID}},
			{"customer name, any case", panel.Inbox{Text: "user ANN"}, []int64{a.ID}},
			{"chat id", panel.Inbox{Text: "cy"}, []int64{c.ID}},
			{"message text, wildcards literal", panel.Inbox{Text: "50%"}, []int64{b.ID}},
			{"not tool results", panel.Inbox{Text: "secret tool"}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []int64
				in := tc.in
				in.Limit = 1
				for range 10 {
					rows, next, err := panel.ListInbox(ctx, db, in)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, inboxIDs(rows)...)
					if next == "" {
						break
					}
					if in.After, err = catalog.ParseCursor(next); err != nil {
						t.Fatal(err)
					}
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("pages of 1: %v, want %v", got, tc.want)
				}
			})
		}
		rows, _, err := panel.ListInbox(ctx, db, panel.Inbox{Channel: "slack"})
		if err != nil || len(rows) != 1 {
			t.Fatalf("slack inbox = %+v, %v", rows, err)
		}
		r := rows[0]
		if r.Customer != "User bob" || r.LastMessage != "a 50% discount?" || r.LastRole != "user" || !r.NeedsHuman || r.NeedsHumanReason != "asked for a person" || !r.Unread() {
			t.Errorf("slack row = %+v", r)
		}
		chans, err := panel.ConversationChannels(ctx, db)
		if err != nil || !slices.Equal(chans, []string{"slack", "telegram", "web"}) {
			t.Errorf("ConversationChannels = %v, %v", chans, err)
		}
		if id := catalog.FindConversationID(ctx, db, b.Key()); id != b.ID {
			t.Errorf("FindConversationID = %d, want %d", id, b.ID)
		}
		if id := catalog.FindConversationID(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: "nobody"}); id != 0 {
			t.Errorf("FindConversationID of no conversation = %d, want 0", id)
		}
	})
}

// TestStaffConversationWrites: a merchant's reply pauses the bot and is
// stored; handing back unpauses and clears the flag; read marks stick.
func TestStaffConversationWrites(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		conv := catalogtest.OpenConversation(t, db, catalogtest.Customer(t, db, "telegram", "ann"))
		if err := catalog.FlagNeedsHuman(ctx, db, conv.ID, "help"); err != nil {
			t.Fatal(err)
		}
		if err := team.AddMerchantReply(ctx, db, conv.ID, "alice", "Hi, Alice here"); err != nil {
			t.Fatal(err)
		}
		got, _ := catalog.GetConversation(ctx, db, conv.ID)
		msgs, _ := catalog.RecentMessages(ctx, db, conv.ID, 10)
		if !got.Paused || len(msgs) != 1 || msgs[0].Role != catalog.RoleMerchant || msgs[0].Content != "Hi, Alice here" || msgs[0].Model != "staff:alice" {
			t.Fatalf("after reply: paused %v, messages %+v", got.Paused, msgs)
		}
		if err := team.HandBack(ctx, db, conv.ID); err != nil {
			t.Fatal(err)
		}
		got, _ = catalog.GetConversation(ctx, db, conv.ID)
		if got.Paused || got.NeedsHuman || got.NeedsHumanReason != "" {
			t.Errorf("after hand back: %+v", got)
		}
		seen := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		if err := team.MarkConversationRead(ctx, db, conv.ID, seen); err != nil {
			t.Fatal(err)
		}
		got, _ = catalog.GetConversation(ctx, db, conv.ID)
		if got.LastReadAt == nil || !got.LastReadAt.Equal(seen) {
			t.Errorf("last read = %v, want %v", got.LastReadAt, seen)
		}
		for name, err := range map[string]error{
			"reply":     team.AddMerchantReply(ctx, db, 999999, "alice", "x"),
			"hand back": team.HandBack(ctx, db, 999999),
			"read":      team.MarkConversationRead(ctx, db, 999999, seen),
		} {
			if err == nil {
				t.Errorf("%s on a missing conversation: no error", name)
			}
		}
		if msgs, _ := catalog.RecentMessages(ctx, db, 999999, 10); len(msgs) != 0 {
			t.Errorf("a reply to a missing conversation stored %d messages", len(msgs))
		}
	})
}
