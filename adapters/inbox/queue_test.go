package inbox_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"shopbot/adapters/inbox"
)

// journal notes what jobs did, in order.
type journal struct {
	mu    sync.Mutex
	notes []string
}

func (l *journal) add(s string) {
	l.mu.Lock()
	l.notes = append(l.notes, s)
	l.mu.Unlock()
}

func (l *journal) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return fmt.Sprint(l.notes)
}

// TestQueueOrder: the jobs of one key run one at a time in Seq order
// (a resumed update queued after a fresh one runs before it), equal Seqs
// in the order they came; a job whose ID is queued already is refused.
func TestQueueOrder(t *testing.T) {
	q := inbox.NewQueue(context.Background(), inbox.Limits{Workers: 4})
	var got journal
	release := make(chan struct{})
	started := make(chan struct{})
	mustPush(t, q, "a", inbox.Job{ID: "10", Seq: 10, Run: func(context.Context, *inbox.Slot) {
		close(started)
		<-release
		got.add("10")
	}})
	<-started // 10 runs: what follows waits behind it
	for _, seq := range []int64{30, 20, 25} {
		id := fmt.Sprint(seq)
		mustPush(t, q, "a", inbox.Job{ID: id, Seq: seq, Run: func(context.Context, *inbox.Slot) { got.add(id) }})
	}
	for _, id := range []string{"x", "y", "z"} {
		mustPush(t, q, "a", inbox.Job{ID: id, Seq: 40, Run: func(context.Context, *inbox.Slot) { got.add(id) }})
	}
	for _, id := range []string{"20", "10"} { // queued, and running
		if err := q.Push("a", inbox.Job{ID: id, Seq: 1, Run: func(context.Context, *inbox.Slot) { got.add("again " + id) }}); !errors.Is(err, inbox.ErrQueued) {
			t.Errorf("job %s pushed again: %v, want ErrQueued", id, err)
		}
	}
	close(release)
	q.Wait()
	if got.String() != "[10 20 25 30 x y z]" {
		t.Errorf("ran %s, want [10 20 25 30 x y z]", got.String())
	}
	// Once run, an ID may come again (the inbox decides what is new).
	mustPush(t, q, "a", inbox.Job{ID: "10", Run: func(context.Context, *inbox.Slot) { got.add("10 again") }})
	q.Wait()
	if got.String() != "[10 20 25 30 x y z 10 again]" {
		t.Errorf("ran %s", got.String())
	}
}

// TestQueueBounds: at most PerKey jobs wait in a key (ErrFull beyond),
// at most Workers run at once over all keys, and a job that gives up its
// slot while it waits lets another key's job run meanwhile.
func TestQueueBounds(t *testing.T) {
	q := inbox.NewQueue(context.Background(), inbox.Limits{Workers: 1, PerKey: 2})
	var running, most atomic.Int32
	enter := func() {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
	}
	var got journal
	started, other := make(chan struct{}), make(chan struct{})
	mustPush(t, q, "a", inbox.Job{ID: "a1", Run: func(ctx context.Context, s *inbox.Slot) {
		enter()
		close(started)
		running.Add(-1)
		s.Release() // waits for the pacer: b1 may run meanwhile
		<-other
		if !s.Acquire(ctx) {
			t.Error("slot not taken back")
		}
		enter()
		got.add("a1")
		running.Add(-1)
	}})
	<-started
	for _, id := range []string{"a2", "a3"} {
		mustPush(t, q, "a", inbox.Job{ID: id, Run: func(context.Context, *inbox.Slot) { enter(); got.add(id); running.Add(-1) }})
	}
	if err := q.Push("a", inbox.Job{ID: "a4", Run: func(context.Context, *inbox.Slot) { got.add("a4") }}); !errors.Is(err, inbox.ErrFull) {
		t.Errorf("a third waiting job: %v, want ErrFull", err)
	}
	mustPush(t, q, "b", inbox.Job{ID: "b1", Run: func(context.Context, *inbox.Slot) {
		enter()
		got.add("b1")
		running.Add(-1)
		close(other)
	}})
	q.Wait()
	if got.String() != "[b1 a1 a2 a3]" {
		t.Errorf("ran %s, want [b1 a1 a2 a3]", got.String())
	}
	if m := most.Load(); m != 1 {
		t.Errorf("%d jobs ran at once with one worker", m)
	}
}

// TestQueueStop: once the context ends, a job waiting behind a running
// one is dropped (its update stays unhandled) and no job is taken.
func TestQueueStop(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	q := inbox.NewQueue(ctx, inbox.Limits{})
	var got journal
	started := make(chan struct{})
	mustPush(t, q, "a", inbox.Job{ID: "1", Run: func(ctx context.Context, _ *inbox.Slot) {
		close(started)
		<-ctx.Done()
		got.add("1 stopped")
	}})
	mustPush(t, q, "a", inbox.Job{ID: "2", Run: func(context.Context, *inbox.Slot) { got.add("2") }})
	<-started
	stop()
	q.Wait()
	if got.String() != "[1 stopped]" {
		t.Errorf("ran %s, want [1 stopped]", got.String())
	}
	if err := q.Push("b", inbox.Job{ID: "3", Run: func(context.Context, *inbox.Slot) { got.add("3") }}); !errors.Is(err, inbox.ErrStopping) {
		t.Errorf("push after the stop: %v, want ErrStopping", err)
	}
}

func mustPush(t *testing.T, q *inbox.Queue, key string, j inbox.Job) {
	t.Helper()
	if err := q.Push(key, j); err != nil {
		t.Fatalf("push %s: %v", j.ID, err)
	}
}
