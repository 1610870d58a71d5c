package chatlock

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
)

// Attempts asked for while a statement is on its way go together in the
// next: 50 chats locked on one holder cost two statements, not 50, and
// their 50 unlocks (sent without waiting) at most as many more; after
// Close every lock is free for another process.
func TestLockOperationsShareAStatement(t *testing.T) {
	url := catalogtest.NewPostgresDatabase(t)
	a, b := Open(url, 1), Open(url, 1)
	t.Cleanup(func() { b.Close() })
	ctx := context.Background()
	h := a.holders[0]

	h.mu.Lock() // the first batch waits here until all 50 are queued
	const chats = 50
	unlocks := make([]func(), chats)
	var wg sync.WaitGroup
	for i := range chats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := a.Lock(ctx, fmt.Sprint("web\x00batch-", i))
			if err != nil {
				t.Error(err)
				return
			}
			unlocks[i] = unlock
		}()
	}
	for {
		if busy, n := h.batch.Pending(); busy && n == chats-1 {
			break
		}
		runtime.Gosched()
	}
	h.mu.Unlock()
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if got := a.Stats.Counts().Statements; got != 2 {
		t.Fatalf("50 locks took %d statements, want 2 (one alone, then 49 together)", got)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := b.Lock(short, "web\x00batch-7"); err == nil {
		t.Fatal("another process took a held chat lock")
	}
	for _, unlock := range unlocks {
		unlock()
	}
	// The same chat again in this process before its unlock ran: the
	// session's lock stacks, and is released only by the last unlock.
	again, err := a.Lock(ctx, "web\x00batch-7")
	if err != nil {
		t.Fatal(err)
	}
	a.unlocks.Wait()
	short2, cancel2 := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel2()
	if _, err := b.Lock(short2, "web\x00batch-7"); err == nil {
		t.Fatal("another process took a chat lock taken twice and released once")
	}
	again()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if got := a.Stats.Counts().Statements; got > 2+chats+2 {
		t.Fatalf("%d statements in all", got)
	}
	for i := range chats {
		unlock, err := b.Lock(ctx, fmt.Sprint("web\x00batch-", i))
		if err != nil {
			t.Fatalf("chat %d still locked after unlock: %v", i, err)
		}
		unlock()
	}
}
