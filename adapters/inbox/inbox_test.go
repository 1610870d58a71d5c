package inbox_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/adapters/inbox"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// newInbox is an inbox on db whose held connection is given back when
// the test ends.
func newInbox(t *testing.T, db *bun.DB, source string) *inbox.Inbox {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return inbox.New(ctx, db, source)
}

// TestRecordDedupeAcrossReplicas: three processes on one database record
// the same ten keys at once, each key once per process: every key is new
// exactly once, and the writer calls fresh exactly once per key. The same
// key from another source is a different update.
func TestRecordDedupeAcrossReplicas(t *testing.T) {
	catalogtest.EachReplicas(t, 3, func(t *testing.T, dbs []*bun.DB) {
		ctx := context.Background()
		ins := make([]*inbox.Inbox, len(dbs))
		for i, db := range dbs {
			ins[i] = newInbox(t, db, "telegram")
		}
		var mu sync.Mutex
		firsts, freshes := map[string]int{}, map[string]int{}
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 30 {
			key := fmt.Sprint(i % 10)
			in := ins[i/10]
			wg.Go(func() {
				<-gate
				first, err := in.Record(ctx, inbox.Update{Key: key, Chat: "c", Kind: "update", Payload: "{}"}, func() {
					mu.Lock()
					freshes[key]++
					mu.Unlock()
				})
				if err != nil {
					t.Error(err)
				}
				if first {
					mu.Lock()
					firsts[key]++
					mu.Unlock()
				}
			})
		}
		close(gate)
		wg.Wait()
		for k := range 10 {
			key := fmt.Sprint(k)
			if firsts[key] != 1 || freshes[key] != 1 {
				t.Errorf("key %s: new %d times, fresh called %d times; want 1 and 1", key, firsts[key], freshes[key])
			}
		}
		if n := count(t, dbs[0], "telegram"); n != 10 {
			t.Errorf("%d rows, want 10", n)
		}
		first, err := newInbox(t, dbs[0], "slack").Record(ctx, inbox.Update{Key: "0", Payload: "{}"}, nil)
		if err != nil || !first {
			t.Errorf("key 0 of another source: new %v, %v; want new", first, err)
		}
	})
}

// TestRecordRefusesBadKeys: a key that could not be stored as given is
// refused and nothing is stored; text is stored as valid UTF-8 without
// NUL.
func TestRecordRefusesBadKeys(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		in := newInbox(t, db, "slack")
		for _, key := range []string{"", strings.Repeat("é", inbox.MaxKeyRunes+1), "a\x00b", "a\nb", "a\xffb"} {
			if _, err := in.Record(ctx, inbox.Update{Key: key, Payload: "{}"}, nil); !errors.Is(err, inbox.ErrBadKey) {
				t.Errorf("key %q: err %v, want ErrBadKey", key, err)
			}
		}
		if n := count(t, db, "slack"); n != 0 {
			t.Fatalf("%d rows stored from bad keys", n)
		}
		long := strings.Repeat("é", inbox.MaxKeyRunes)
		if first, err := in.Record(ctx, inbox.Update{Key: long, Chat: "C\x001", Kind: "event", Payload: "{\"t\":\"\xff\"}"}, nil); err != nil || !first {
			t.Fatalf("a key of %d runes: %v, %v", inbox.MaxKeyRunes, first, err)
		}
		rows, err := in.Unhandled(ctx)
		if err != nil || len(rows) != 1 {
			t.Fatalf("unhandled %v, %v", rows, err)
		}
		if r := rows[0]; r.Key != long || r.Chat != "C1" || r.Payload != "{\"t\":\"\uFFFD\"}" {
			t.Errorf("stored %+v", r)
		}
	})
}

// TestRecordedWhenTheCallerGaveUp: an update whose request gave up is
// still written, and queued by the writer, so a redelivery finds it.
func TestRecordedWhenTheCallerGaveUp(t *testing.T) {
	db := catalogtest.SQLite(t)
	in := newInbox(t, db, "telegram")
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	queued := false
	_, _ = in.Record(gone, inbox.Update{Key: "1", Payload: "{}"}, func() { queued = true })
	if !queued {
		t.Error("the writer did not queue the update it recorded")
	}
	first, err := in.Record(context.Background(), inbox.Update{Key: "1", Payload: "{}"}, nil)
	if err != nil || first {
		t.Errorf("the redelivery: new %v, %v; want not new", first, err)
	}
}

// TestDoneUnhandledPrune: handled updates leave the unhandled list, which
// is oldest first and of one source; the prune forgets only handled
// updates received before the cutoff.
func TestDoneUnhandledPrune(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		in, other := newInbox(t, db, "slack"), newInbox(t, db, "telegram")
		base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
		for _, i := range []int{3, 0, 4, 1, 2} {
			for _, x := range []*inbox.Inbox{in, other} {
				if _, err := x.Record(ctx, inbox.Update{Key: fmt.Sprint("ev", i), Payload: "{}", ReceivedAt: base.Add(time.Duration(i) * time.Minute)}, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		var wg sync.WaitGroup
		for _, k := range []string{"ev0", "ev3"} {
			wg.Go(func() {
				if err := in.Done(ctx, k); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got := keys(t, in); got != "ev1 ev2 ev4" {
			t.Errorf("unhandled, oldest first: %s", got)
		}
		// ev0 and ev3 are handled; only ev0 was received before the cutoff.
		n, err := in.Prune(ctx, base.Add(2*time.Minute))
		if err != nil || n != 1 {
			t.Errorf("pruned %d (%v), want 1", n, err)
		}
		if c := count(t, db, "slack"); c != 4 {
			t.Errorf("%d rows left, want 4", c)
		}
		if got := keys(t, other); got != "ev0 ev1 ev2 ev3 ev4" {
			t.Errorf("the other source's unhandled: %s", got)
		}
	})
}

// TestResumeAfterCrash: a process records three updates of one chat and
// dies while the second runs: the first, finished, is not resumed; the
// second, cut short, and the third, not started, are, in order, by the
// next process, and marked handled when it is done.
func TestResumeAfterCrash(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		crashCtx, crash := context.WithCancel(context.Background())
		in := inbox.New(crashCtx, db, "telegram")
		q := inbox.NewQueue(crashCtx, inbox.Limits{})
		running := make(chan string, 3)
		var ran []string
		for i := 1; i <= 3; i++ {
			key := fmt.Sprint(i)
			job := inbox.Job{ID: key, Seq: int64(i), Run: func(ctx context.Context, _ *inbox.Slot) {
				running <- key
				if key == "2" {
					<-ctx.Done() // the process dies mid-turn
					return
				}
				ran = append(ran, key)
				if err := in.Done(ctx, key); err != nil {
					t.Error(err)
				}
			}}
			_, err := in.Record(context.Background(), inbox.Update{Key: key, Chat: "42", Payload: "{}"}, func() {
				if err := q.Push("42", job); err != nil {
					t.Error(err)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		<-running
		if <-running != "2" {
			t.Fatal("the second update did not run second")
		}
		crash()
		q.Wait()
		if fmt.Sprint(ran) != "[1]" {
			t.Fatalf("before the crash ran %v, want [1]", ran)
		}

		in2 := newInbox(t, db, "telegram")
		rows, err := in2.Unhandled(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		q2 := inbox.NewQueue(context.Background(), inbox.Limits{})
		var resumed []string
		for _, r := range rows {
			if err := q2.Push(r.Chat, inbox.Job{ID: r.Key, Run: func(ctx context.Context, _ *inbox.Slot) {
				resumed = append(resumed, r.Key)
				if err := in2.Done(ctx, r.Key); err != nil {
					t.Error(err)
				}
			}}); err != nil {
				t.Fatal(err)
			}
		}
		q2.Wait()
		if fmt.Sprint(resumed) != "[2 3]" {
			t.Errorf("resumed %v, want [2 3]", resumed)
		}
		if got := keys(t, in2); got != "" {
			t.Errorf("still unhandled after the resume: %s", got)
		}
	})
}

// TestCartMessages: the cart message of (chat, thread) is remembered and
// replaced, per source.
func TestCartMessages(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		tg, sl := newInbox(t, db, "telegram"), newInbox(t, db, "slack")
		if id, err := tg.CartMessage(ctx, "42", ""); err != nil || id != "" {
			t.Fatalf("no cart message yet: %q, %v", id, err)
		}
		for _, id := range []string{"10", "11"} {
			if err := tg.RememberCart(ctx, "42", "", id); err != nil {
				t.Fatal(err)
			}
		}
		if err := sl.RememberCart(ctx, "42", "1.2", "3.4"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			in           *inbox.Inbox
			chat, thread string
			want         string
		}{{tg, "42", "", "11"}, {sl, "42", "1.2", "3.4"}, {sl, "42", "", ""}, {tg, "42", "1.2", ""}, {tg, "43", "", ""}} {
			if id, err := c.in.CartMessage(ctx, c.chat, c.thread); err != nil || id != c.want {
				t.Errorf("cart message of %s/%s: %q, %v; want %q", c.chat, c.thread, id, err, c.want)
			}
		}
	})
}

// TestRecordWhenPoolClosed: once the pool is closed a record fails as
// unavailable (the edge answers 503) although the writer held a
// connection of its own.
func TestRecordWhenPoolClosed(t *testing.T) {
	db := catalogtest.SQLite(t)
	in := newInbox(t, db, "slack")
	ctx := context.Background()
	if _, err := in.Record(ctx, inbox.Update{Key: "a", Payload: "{}"}, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err := in.Record(ctx, inbox.Update{Key: "b", Payload: "{}"}, nil)
	if !errors.Is(catalog.Unavailable(err), catalog.ErrUnavailable) {
		t.Errorf("err %v, want unavailable", err)
	}
}

func count(t *testing.T, db *bun.DB, source string) int {
	t.Helper()
	n, err := db.NewSelect().Table("inbox").Where("source = ?", source).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// keys lists the unhandled keys of in, space-separated.
func keys(t *testing.T, in *inbox.Inbox) string {
	t.Helper()
	rows, err := in.Unhandled(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, r := range rows {
		ks = append(ks, r.Key)
	}
	return strings.Join(ks, " ")
}
