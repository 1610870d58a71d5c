package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestNoticesAcrossReplicas: a notice put through one replica's pool is
// taken through another's, once, in the order put; another chat's and
// another channel's stay.
func TestNoticesAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 2, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		a, b := catalog.NoticeBox{DB: dbs[0], TTL: time.Hour}, catalog.NoticeBox{DB: dbs[1], TTL: time.Hour}
		for i, p := range []string{`{"n":1}`, `{"n":2}`} {
			if err := a.Put(ctx, "web", "session-one", []byte(p)); err != nil {
				t.Fatalf("put %d: %v", i, err)
			}
		}
		if err := a.Put(ctx, "web", "session-two", []byte(`{"n":3}`)); err != nil {
			t.Fatal(err)
		}
		if err := a.Put(ctx, "console", "session-one", []byte(`{"n":4}`)); err != nil {
			t.Fatal(err)
		}
		got, err := b.Take(ctx, "web", "session-one")
		if err != nil || fmt.Sprintf("%s", got) != `[{"n":1} {"n":2}]` {
			t.Fatalf("took %s, %v", got, err)
		}
		if got, err := a.Take(ctx, "web", "session-one"); err != nil || len(got) != 0 {
			t.Errorf("taken twice: %s, %v", got, err)
		}
		if got, _ := a.Take(ctx, "web", "session-two"); len(got) != 1 {
			t.Errorf("session-two has %d notices, want 1", len(got))
		}
		if got, _ := b.Take(ctx, "console", "session-one"); len(got) != 1 {
			t.Errorf("console has %d notices, want 1", len(got))
		}
	})
}

// TestNoticesTakenOnce: four requests of one session take its notices at
// once through four pools: each notice reaches exactly one of them.
func TestNoticesTakenOnce(t *testing.T) {
	catalogtest.EachReplicas(t, 4, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		put := catalog.NoticeBox{DB: dbs[0], TTL: time.Hour}
		for i := range catalog.MaxChatNotices {
			if err := put.Put(ctx, "web", "session-race", []byte(fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		seen := map[string]int{}
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for _, db := range dbs {
			wg.Go(func() {
				<-gate
				got, err := catalog.NoticeBox{DB: db, TTL: time.Hour}.Take(ctx, "web", "session-race")
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				for _, p := range got {
					seen[string(p)]++
				}
				mu.Unlock()
			})
		}
		close(gate)
		wg.Wait()
		if len(seen) != catalog.MaxChatNotices {
			t.Errorf("%d of %d notices delivered", len(seen), catalog.MaxChatNotices)
		}
		for p, n := range seen {
			if n != 1 {
				t.Errorf("notice %s delivered %d times", p, n)
			}
		}
	})
}

// TestNoticesExpire: a notice past its TTL is not delivered, and the
// prune deletes it (and only it). The clock is the test's.
func TestNoticesExpire(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		box := catalog.NoticeBox{DB: db, TTL: 24 * time.Hour, Now: func() time.Time { return now }}
		if err := box.Put(ctx, "web", "session-old", []byte(`"old"`)); err != nil {
			t.Fatal(err)
		}
		now = now.Add(23 * time.Hour)
		if err := box.Put(ctx, "web", "session-new", []byte(`"new"`)); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Hour + time.Second)
		if got, err := box.Take(ctx, "web", "session-old"); err != nil || len(got) != 0 {
			t.Errorf("an expired notice delivered: %s, %v", got, err)
		}
		if n, err := box.Prune(ctx); err != nil || n != 1 {
			t.Errorf("pruned %d, %v; want 1", n, err)
		}
		if got, err := box.Take(ctx, "web", "session-new"); err != nil || len(got) != 1 {
			t.Errorf("the unexpired notice: %s, %v", got, err)
		}
	})
}

// TestNoticesBounds: a chat holds at most MaxChatNotices (the next is
// refused, ErrConflict, and stored nowhere); bad input is ErrInvalid and
// changes nothing.
func TestNoticesBounds(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		box := catalog.NoticeBox{DB: db, TTL: time.Hour}
		for i := range catalog.MaxChatNotices {
			if err := box.Put(ctx, "web", "session-full", []byte(fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		if err := box.Put(ctx, "web", "session-full", []byte(`"one more"`)); !errors.Is(err, catalog.ErrConflict) {
			t.Errorf("one over the bound: %v, want ErrConflict", err)
		}
		for _, c := range []struct {
			name, channel, chat, payload string
			ttl                          time.Duration
		}{
			{"no channel", "", "s", `1`, time.Hour},
			{"no chat", "web", "", `1`, time.Hour},
			{"not JSON", "web", "s", `{"a":`, time.Hour},
			{"too big", "web", "s", `"` + strings.Repeat("x", catalog.MaxNoticeBytes) + `"`, time.Hour},
			{"long chat", "web", strings.Repeat("s", 129), `1`, time.Hour},
			{"no TTL", "web", "s", `1`, 0},
		} {
			err := catalog.NoticeBox{DB: db, TTL: c.ttl}.Put(ctx, c.channel, c.chat, []byte(c.payload))
			if !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v, want ErrInvalid", c.name, err)
			}
		}
		n, err := db.NewSelect().Model((*catalog.ShopperNotice)(nil)).Count(ctx)
		if err != nil || n != catalog.MaxChatNotices {
			t.Errorf("%d notices stored (%v), want %d", n, err, catalog.MaxChatNotices)
		}
	})
}
