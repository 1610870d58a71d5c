package chatlock_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/chatlock"
)

// Two processes (two lock pools) on one database: the second turn of a
// chat waits for the first; another chat does not.
func TestChatLocksSerializeAcrossProcesses(t *testing.T) {
	url := catalogtest.NewPostgresDatabase(t)
	a, b := chatlock.Open(url, 4), chatlock.Open(url, 4)
	t.Cleanup(func() { a.Close(); b.Close() })
	ctx := context.Background()

	unlockA, err := a.Lock(ctx, "telegram\x0042")
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.Lock(ctx, "telegram\x0043")
	if err != nil {
		t.Fatalf("another chat must not wait: %v", err)
	}
	other()

	got := make(chan error, 1)
	go func() {
		unlockB, err := b.Lock(ctx, "telegram\x0042")
		if err == nil {
			unlockB()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("the second process took a held chat lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	unlockA()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not handed over after unlock")
	}

	// A cancelled wait gives up and leaves the lock usable.
	unlockA, err = a.Lock(ctx, "slack\x00C1")
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := b.Lock(short, "slack\x00C1"); err == nil {
		t.Fatal("a wait past its deadline returned a lock")
	}
	unlockA()
	unlockB, err := b.Lock(ctx, "slack\x00C1")
	if err != nil {
		t.Fatal(err)
	}
	unlockB()
}

// Thousands of chats can be mid-turn at once on a couple of sessions; a
// chat locked in one process still waits in the other.
func TestChatLocksManyChatsFewSessions(t *testing.T) {
	url := catalogtest.NewPostgresDatabase(t)
	a, b := chatlock.Open(url, 2), chatlock.Open(url, 2)
	t.Cleanup(func() { a.Close(); b.Close() })
	ctx := context.Background()
	var unlocks []func()
	for i := range 2000 {
		unlock, err := a.Lock(ctx, fmt.Sprint("web\x00chat-", i))
		if err != nil {
			t.Fatalf("chat %d: %v", i, err)
		}
		unlocks = append(unlocks, unlock)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := b.Lock(short, "web\x00chat-1999"); err == nil {
		t.Fatal("the other process took a held chat lock")
	}
	for _, unlock := range unlocks {
		unlock()
	}
	unlock, err := b.Lock(ctx, "web\x00chat-1999")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// A lock session that dies (here: terminated by the server) releases its
// locks; the next Lock opens a new session, and the stale unlock is a
// no-op.
func TestChatLocksSurviveALostSession(t *testing.T) {
	url := catalogtest.NewPostgresDatabase(t)
	a, b := chatlock.Open(url, 1), chatlock.Open(url, 1)
	t.Cleanup(func() { a.Close(); b.Close() })
	ctx := context.Background()
	stale, err := a.Lock(ctx, "telegram\x007")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("pg", url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// End a's session: the only one holding an advisory lock in the space.
	if _, err := admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 23303`); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.Lock(ctx, "telegram\x007")
	if err != nil {
		t.Fatalf("the lock of a dead session was not released: %v", err)
	}
	if _, err := a.Lock(ctx, "telegram\x008"); err == nil {
		t.Fatal("a statement on the dead session succeeded")
	}
	unlockA, err := a.Lock(ctx, "telegram\x008") // a new session
	if err != nil {
		t.Fatalf("no new session after the loss: %v", err)
	}
	stale()
	unlockA()
	unlockB()
}
