package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

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
