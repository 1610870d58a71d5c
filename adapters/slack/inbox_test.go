package slack

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
)

// TestInbox runs the inbox's storage on both databases: concurrent
// requests recorded together, a repeated key (also twice in one batch)
// not first, handled rows leaving the unhandled list, which is oldest
// first, and the prune forgetting only old handled rows.
func TestInbox(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		in := newInbox(db)
		base := time.Now().UTC().Add(-time.Minute)
		var wg sync.WaitGroup
		firsts := make([]bool, 20)
		for i := range 20 {
			wg.Go(func() {
				key := fmt.Sprint("event:Ev", i%10) // each key twice
				row := inboxRow{Key: key, Kind: kindEvent, Payload: "{}", ReceivedAt: base.Add(time.Duration(i%10) * time.Second)}
				first, err := in.record(ctx, row)
				if err != nil {
					t.Error(err)
				}
				firsts[i] = first
			})
		}
		wg.Wait()
		for i := range 10 {
			if firsts[i] == firsts[i+10] {
				t.Errorf("key %d: first %v and %v, want exactly one", i, firsts[i], firsts[i+10])
			}
		}
		for _, k := range []string{"event:Ev0", "event:Ev5"} {
			if err := in.done(ctx, k); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := in.unhandled(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, r := range rows {
			keys = append(keys, r.Key)
		}
		if fmt.Sprint(keys) != "[event:Ev1 event:Ev2 event:Ev3 event:Ev4 event:Ev6 event:Ev7 event:Ev8 event:Ev9]" {
			t.Errorf("unhandled, oldest first: %v", keys)
		}
		// Ev0 and Ev5 are handled; only Ev0 was received before the cutoff.
		if err := in.prune(ctx, base.Add(3*time.Second)); err != nil {
			t.Fatal(err)
		}
		n, err := db.NewSelect().Model((*inboxRow)(nil)).Count(ctx)
		if err != nil || n != 9 {
			t.Errorf("%d rows after pruning (%v), want 9", n, err)
		}
	})
}
