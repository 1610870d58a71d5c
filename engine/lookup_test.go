package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestCanAdd: a product can be added while it is sold and in stock; an
// unknown SKU cannot; a SKU no product could have is refused as bad input.
func TestCanAdd(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLiteDemo(t)
	eng := newShopEngine(t, db)
	check := func(name, sku string, want bool) {
		t.Helper()
		if got, err := eng.CanAdd(ctx, sku); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", name, got, err, want)
		}
	}
	check("in stock", "SHO-RUN-001-42", true)
	check("unknown", "NOPE-404", false)
	if got, err := eng.CanAdd(ctx, "SHO-RUN-001"); got || !errors.Is(err, ErrNeedsChoice) {
		t.Errorf("parent with variants: %v, %v; want false, ErrNeedsChoice", got, err)
	}
	if _, err := db.NewUpdate().Model((*catalog.Product)(nil)).Set("stock = 0").Where("sku = ?", "SHO-RUN-001-42").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	check("sold out", "SHO-RUN-001-42", false)
	if err := catalog.SetProductActive(ctx, db, "GRO-COF-001", false); err != nil {
		t.Fatal(err)
	}
	check("withdrawn", "GRO-COF-001", false)
	if _, err := eng.CanAdd(ctx, "SKU\x00"); !errors.Is(err, ErrBadTurn) {
		t.Errorf("SKU with a NUL: %v", err)
	}
}

// TestHasConversation: true for a conversation a turn opened, false for
// another thread of the same channel, without opening one; bad keys are
// refused. Also on Postgres, where a NUL would fail the query.
func TestHasConversation(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		eng := newShopEngine(t, db)
		if err := eng.Handle(ctx, Turn{Channel: "slack", ChatID: "C1", ThreadID: "1.1", UserID: "U1", Text: "hi", Shared: true, DedupKey: "e1"}, &events{}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			key  ConversationKey
			want bool
		}{
			{ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "1.1"}, true},
			{ConversationKey{Channel: "slack", ChatID: "C1", ThreadID: "2.2"}, false},
			{ConversationKey{Channel: "slack", ChatID: "C1"}, false},
			{ConversationKey{Channel: "telegram", ChatID: "C1", ThreadID: "1.1"}, false},
		} {
			if got, err := eng.HasConversation(ctx, tc.key); err != nil || got != tc.want {
				t.Errorf("%+v: %v, %v; want %v", tc.key, got, err, tc.want)
			}
		}
		n, err := db.NewSelect().Model((*catalog.Conversation)(nil)).Count(ctx)
		if err != nil || n != 2 { // toolstest's shopper and the turn's
			t.Errorf("%d conversations after lookups (%v), want 2", n, err)
		}
		if _, err := eng.HasConversation(ctx, ConversationKey{Channel: "slack", ChatID: "C\x00", ThreadID: "1.1"}); !errors.Is(err, ErrBadTurn) {
			t.Errorf("chat id with a NUL: %v", err)
		}
	})
}

// TestUnavailable: a closed database is classified as unavailable; a
// plain error is left as it is.
func TestUnavailable(t *testing.T) {
	db := catalogtest.SQLiteDemo(t)
	eng := newShopEngine(t, db)
	plain := errors.New("boom")
	if err := Unavailable(plain); err != plain || errors.Is(err, ErrUnavailable) {
		t.Errorf("plain error became %v", err)
	}
	if Unavailable(nil) != nil {
		t.Error("nil became an error")
	}
	db.Close()
	_, err := eng.CanAdd(context.Background(), "SHO-RUN-001-42")
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("closed database: %v", err)
	}
}
