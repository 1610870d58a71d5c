package turnsave_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine/turnsave"
)

// TestConcurrentSaves: many turns finishing at once on Postgres, each
// in its own conversation and several of one customer, are all saved
// whatever groups they fall into: every message stored once with its
// id, every conversation's time moved, and the customer's tokens the
// sum of its turns'.
func TestConcurrentSaves(t *testing.T) {
	db, _ := catalogtest.Postgres(t)
	ctx := context.Background()
	s := turnsave.New(db, 16)
	const turns = 48
	custs := []*catalog.Customer{catalogtest.Customer(t, db, "web", "ts-a"), catalogtest.Customer(t, db, "web", "ts-b"), catalogtest.Customer(t, db, "web", "ts-c")}
	ws := make([]catalog.TurnWrites, turns)
	for i := range ws {
		c := custs[i%len(custs)]
		cv, err := catalog.OpenConversation(ctx, db, catalog.ConversationKey{Channel: "web", ChatID: fmt.Sprintf("ts-%d", i)}, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		ws[i] = catalog.TurnWrites{ConversationID: cv.ID, State: `{"lang":"en"}`, CustomerID: c.ID, TokenDay: "2026-11-28", Tokens: i + 1,
			Messages: []*catalog.Message{{Role: catalog.RoleUser, Content: fmt.Sprintf("q%d", i)}, {Role: catalog.RoleAssistant, Content: fmt.Sprintf("a%d", i)}}}
		if !s.Grouped(ws[i]) {
			t.Fatalf("turn %d is not grouped on Postgres", i)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, turns)
	for i := range ws {
		wg.Go(func() { _, errs[i] = s.Save(ctx, ws[i]) })
	}
	wg.Wait()
	want := map[int64]int{}
	for i, w := range ws {
		if errs[i] != nil {
			t.Fatalf("turn %d: %v", i, errs[i])
		}
		want[w.CustomerID] += w.Tokens
		got, err := catalog.RecentMessages(ctx, db, w.ConversationID, 10)
		if err != nil || len(got) != 2 || got[0].Content != fmt.Sprintf("q%d", i) || got[1].Content != fmt.Sprintf("a%d", i) {
			t.Fatalf("turn %d stored %+v, %v", i, got, err)
		}
		if w.Messages[0].ID != got[0].ID || w.Messages[1].ID != got[1].ID {
			t.Errorf("turn %d: ids %d, %d; stored %d, %d", i, w.Messages[0].ID, w.Messages[1].ID, got[0].ID, got[1].ID)
		}
	}
	for id, n := range want {
		if c, err := catalog.GetCustomer(ctx, db, id); err != nil || c.TokensToday("2026-11-28") != n {
			t.Errorf("customer %d: tokens %d, want %d (%v)", id, c.TokensToday("2026-11-28"), n, err)
		}
	}
}
