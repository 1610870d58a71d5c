package catalog_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
	"shopbot/catalog/team"
)

func workflowConversation(t *testing.T, db *bun.DB, chat string) *catalog.Conversation {
	t.Helper()
	return catalogtest.Chat(t, db, chat)
}

func workflowView(t *testing.T, db *bun.DB, w panel.InboxWorkflow) []int64 {
	t.Helper()
	rows, _, err := panel.ListInbox(context.Background(), db, panel.Inbox{Workflow: w})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestConversationWorkflow: states (a bad one or a snooze in the past
// changes nothing), a shopper's message reopens a resolved or snoozed
// conversation (and only a shopper's), assignment (not to a disabled
// user), the views, labels and private notes.
func TestConversationWorkflow(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		a, b, c := workflowConversation(t, db, "1"), workflowConversation(t, db, "2"), workflowConversation(t, db, "3")
		ann, _ := team.CreateStaffUser(ctx, db, "ann", "h", now)
		off, _ := team.CreateStaffUser(ctx, db, "off", "h", now)
		_ = team.SetStaffDisabled(ctx, db, off.ID, true, now)

		if err := catalog.SetConversationStatus(ctx, db, a.ID, "closed", nil, now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("bad status: %v", err)
		}
		past := now.Add(-time.Minute)
		if err := catalog.SetConversationStatus(ctx, db, a.ID, catalog.ConvSnoozed, &past, now); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("snooze into the past: %v", err)
		}
		if w, _ := catalog.GetWorkflow(ctx, db, a.ID); w.Status != catalog.ConvOpen {
			t.Errorf("refused changes moved it to %s", w.Status)
		}
		if err := catalog.SetConversationStatus(ctx, db, a.ID, catalog.ConvResolved, nil, now); err != nil {
			t.Fatal(err)
		}
		later := now.Add(time.Hour)
		if err := catalog.SetConversationStatus(ctx, db, b.ID, catalog.ConvSnoozed, &later, now); err != nil {
			t.Fatal(err)
		}
		if got := workflowView(t, db, panel.InboxWorkflow{Status: catalog.ConvOpen, Now: now}); len(got) != 1 || got[0] != c.ID {
			t.Errorf("open = %v, want [%d]", got, c.ID)
		}
		if got := workflowView(t, db, panel.InboxWorkflow{Status: catalog.ConvOpen, Now: later.Add(time.Second)}); len(got) != 2 {
			t.Errorf("open after the snooze ran out = %v, want two", got)
		}
		// Staff and the assistant writing does not reopen; the shopper does.
		_ = catalog.AppendMessages(ctx, db, a.ID, &catalog.Message{Role: catalog.RoleAssistant, Content: "bye"})
		if w, _ := catalog.GetWorkflow(ctx, db, a.ID); w.Status != catalog.ConvResolved {
			t.Errorf("an assistant message moved a resolved conversation to %s", w.Status)
		}
		for _, id := range []int64{a.ID, b.ID} {
			if err := catalog.AppendMessages(ctx, db, id, &catalog.Message{Role: catalog.RoleUser, Content: "one more thing"}); err != nil {
				t.Fatal(err)
			}
			if w, _ := catalog.GetWorkflow(ctx, db, id); w.Status != catalog.ConvOpen || w.SnoozedUntil != nil {
				t.Errorf("after the shopper wrote: %s until %v, want open", w.Status, w.SnoozedUntil)
			}
		}

		if err := team.AssignConversation(ctx, db, a.ID, &off.ID); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("assign to a disabled user: %v", err)
		}
		if err := team.AssignConversation(ctx, db, a.ID, &ann.ID); err != nil {
			t.Fatal(err)
		}
		if err := catalog.FlagNeedsHuman(ctx, db, b.ID, "asked for a person"); err != nil {
			t.Fatal(err)
		}
		if got := workflowView(t, db, panel.InboxWorkflow{View: panel.ViewMine, Me: ann.ID}); len(got) != 1 || got[0] != a.ID {
			t.Errorf("mine = %v, want [%d]", got, a.ID)
		}
		if got := workflowView(t, db, panel.InboxWorkflow{View: panel.ViewUnassigned}); len(got) != 2 {
			t.Errorf("unassigned = %v, want two", got)
		}
		if got := workflowView(t, db, panel.InboxWorkflow{View: panel.ViewNeedsHuman}); len(got) != 1 || got[0] != b.ID {
			t.Errorf("needs a human = %v, want [%d]", got, b.ID)
		}
		rows, _, _ := panel.ListInbox(ctx, db, panel.Inbox{Workflow: panel.InboxWorkflow{View: panel.ViewMine, Me: ann.ID}})
		if len(rows) != 1 || rows[0].Assignee != "ann" || rows[0].Status != catalog.ConvOpen {
			t.Errorf("inbox row = %+v", rows)
		}

		for _, bad := range []string{"", "two words", strings.Repeat("x", 33), "<b>"} {
			if err := catalog.AddConversationLabel(ctx, db, a.ID, bad); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("label %q: %v", bad, err)
			}
		}
		if err := catalog.AddConversationLabel(ctx, db, 99999, "vip"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("label on no conversation: %v", err)
		}
		for _, l := range []string{"VIP", "vip", "refund"} {
			if err := catalog.AddConversationLabel(ctx, db, a.ID, l); err != nil {
				t.Fatal(err)
			}
		}
		_ = catalog.RemoveConversationLabel(ctx, db, a.ID, "refund")
		if got := workflowView(t, db, panel.InboxWorkflow{Label: "vip"}); len(got) != 1 || got[0] != a.ID {
			t.Errorf("label vip = %v", got)
		}

		if err := catalog.AddConversationNote(ctx, db, &catalog.ConversationNote{ConversationID: a.ID, Author: "ann", Body: "  "}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("empty note: %v", err)
		}
		note := "PRIVATE: shopper is a reseller"
		if err := catalog.AddConversationNote(ctx, db, &catalog.ConversationNote{ConversationID: a.ID, AuthorID: &ann.ID, Author: "ann", Body: note, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		w, err := catalog.GetWorkflow(ctx, db, a.ID)
		if err != nil || len(w.Labels) != 1 || w.Labels[0] != "vip" || len(w.Notes) != 1 || w.Notes[0].Body != note || w.Assignee != "ann" {
			t.Errorf("workflow = %+v, %v", w, err)
		}
		// The history the model and every channel read holds no note.
		ms, err := catalog.RecentMessages(ctx, db, a.ID, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if strings.Contains(m.Content, "PRIVATE") {
				t.Errorf("a private note is in the conversation's messages: %+v", m)
			}
		}
	})
}

// TestCannedReplies: a shortcut is saved (with or without '/', any case),
// replaced by a second save, found, deleted; a bad shortcut or empty text
// is refused.
func TestCannedReplies(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Now()
		if _, err := team.SaveCannedReply(ctx, db, "/Thanks", "Thank you, {name}!", now); err != nil {
			t.Fatal(err)
		}
		c, err := team.SaveCannedReply(ctx, db, "thanks", "Thanks a lot, {name}!", now)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range [][2]string{{"/", "x"}, {"two words", "x"}, {"ok", "  "}} {
			if _, err := team.SaveCannedReply(ctx, db, bad[0], bad[1], now); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("save %q: %v", bad, err)
			}
		}
		all, _ := team.ListCannedReplies(ctx, db)
		if len(all) != 1 || all[0].Body != "Thanks a lot, {name}!" {
			t.Errorf("replies = %+v", all)
		}
		if f, err := team.FindCannedReply(ctx, db, "/THANKS"); err != nil || f.ID != c.ID {
			t.Errorf("find = %+v, %v", f, err)
		}
		if err := team.DeleteCannedReply(ctx, db, all[0].ID); err != nil {
			t.Fatal(err)
		}
		if _, err := team.FindCannedReply(ctx, db, "thanks"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted reply found: %v", err)
		}
	})
}
