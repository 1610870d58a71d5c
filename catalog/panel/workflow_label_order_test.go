package panel_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/panel"
)

// TestLabelPageOrder: the label filter lists the label's conversations
// newest message first, page by page, and a new message moves its
// conversation to the top of the label's page (the label rows follow the
// conversation's time, migration 0028), also one labelled before.
func TestLabelPageOrder(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		var convs []*catalog.Conversation
		for i := range 5 {
			c := catalogtest.Chat(t, db, fmt.Sprint(100+i))
			convs = append(convs, c)
			if i%2 == 0 { // 100, 102, 104 labelled
				if err := catalog.AddConversationLabel(ctx, db, c.ID, "vip"); err != nil {
					t.Fatal(err)
				}
			}
		}
		page := func() []int64 {
			var ids []int64
			in := panel.Inbox{Limit: 2, Workflow: panel.InboxWorkflow{Label: "vip"}}
			for {
				rows, next, err := panel.ListInbox(ctx, db, in)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					ids = append(ids, r.ID)
				}
				if next == "" {
					return ids
				}
				in.After, err = catalog.ParseCursor(next)
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		want := []int64{convs[4].ID, convs[2].ID, convs[0].ID}
		if got := page(); !slices.Equal(got, want) {
			t.Fatalf("label pages = %v, want %v", got, want)
		}
		// The oldest labelled conversation gets a message: it comes first.
		if err := catalog.AppendMessages(ctx, db, convs[0].ID, &catalog.Message{Role: catalog.RoleUser, Content: "again"}); err != nil {
			t.Fatal(err)
		}
		want = []int64{convs[0].ID, convs[4].ID, convs[2].ID}
		if got := page(); !slices.Equal(got, want) {
			t.Fatalf("after a new message, label pages = %v, want %v", got, want)
		}
		// A label added later takes the conversation's time, not now.
		if err := catalog.AddConversationLabel(ctx, db, convs[1].ID, "vip"); err != nil {
			t.Fatal(err)
		}
		want = []int64{convs[0].ID, convs[4].ID, convs[2].ID, convs[1].ID}
		if got := page(); !slices.Equal(got, want) {
			t.Fatalf("after labelling an older one, label pages = %v, want %v", got, want)
		}
	})
}
