package groupcommit_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"shopbot/catalog/groupcommit"
)

// TestBatcher: items arriving while a write is in flight are written
// together, at most Max at a time; each caller gets its own item's
// result, or the batch's error; a caller whose context ends stops
// waiting, while the write goes on for the others.
func TestBatcher(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var batches [][]int
	g := groupcommit.Batcher[int, int]{Max: 3, Write: func(_ context.Context, items []int) ([]int, error) {
		if items[0] == 0 {
			<-release // the first write holds the others back
		}
		mu.Lock()
		batches = append(batches, append([]int(nil), items...))
		mu.Unlock()
		if items[0] == 99 {
			return nil, errors.New("disk full")
		}
		out := make([]int, len(items))
		for i, v := range items {
			out[i] = v * 10
		}
		return out, nil
	}}
	ctx := context.Background()
	results := make([]int, 6)
	var wg sync.WaitGroup
	wg.Go(func() { results[0], _ = g.Do(ctx, 0) })
	waitFor(t, &g, 0)
	for i := 1; i <= 5; i++ {
		wg.Go(func() { results[i], _ = g.Do(ctx, i) })
	}
	waitFor(t, &g, 5)
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.Do(gone, 6); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled caller: err %v", err)
	}
	close(release)
	wg.Wait()
	for i, r := range results {
		if r != i*10 {
			t.Errorf("item %d: result %d, want %d", i, r, i*10)
		}
	}
	mu.Lock()
	if len(batches) != 3 || len(batches[1]) != 3 || len(batches[2]) != 3 {
		t.Errorf("batches %v, want [0] then two of 3 (the cancelled caller's item written too)", batches)
	}
	mu.Unlock()
	if _, err := g.Do(ctx, 99); err == nil || err.Error() != "disk full" {
		t.Errorf("a failed batch: err %v", err)
	}
}

// waitFor waits until a write is in flight with n items waiting.
func waitFor(t *testing.T, g *groupcommit.Batcher[int, int], n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if busy, waiting := g.Pending(); busy && waiting == n {
			return
		}
		if time.Now().After(deadline) {
			busy, waiting := g.Pending()
			t.Fatalf("busy %v with %d waiting, want %d", busy, waiting, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBatcherLeaderWaitsForItsOwnBatch: the caller that wrote a batch
// returns once it is written, while the items that arrived meanwhile are
// written by another goroutine — a steady stream holds no caller.
func TestBatcherLeaderWaitsForItsOwnBatch(t *testing.T) {
	first, second := make(chan struct{}), make(chan struct{})
	g := groupcommit.Batcher[int, int]{Write: func(_ context.Context, items []int) ([]int, error) {
		switch items[0] {
		case 0:
			<-first
		case 1:
			<-second // the next batch is still being written ...
		}
		return items, nil
	}}
	ctx := context.Background()
	led := make(chan int, 1)
	go func() { r, _ := g.Do(ctx, 0); led <- r }()
	waitFor(t, &g, 0)
	var wg sync.WaitGroup
	wg.Go(func() {
		if r, err := g.Do(ctx, 1); r != 1 || err != nil {
			t.Errorf("item 1: %d, %v", r, err)
		}
	})
	waitFor(t, &g, 1)
	close(first)
	select {
	case <-led: // ... and the leader of the first is done
	case <-time.After(10 * time.Second):
		t.Fatal("the leader waited for a batch not its own")
	}
	close(second)
	wg.Wait()
}
