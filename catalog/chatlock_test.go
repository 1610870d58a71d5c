package catalog_test

import (
	"context"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// Two processes (two lock pools) on one database: the second turn of a
// chat waits for the first; another chat does not.
func TestChatLocksSerializeAcrossProcesses(t *testing.T) {
	url := catalogtest.NewPostgresDatabase(t)
	a, b := catalog.OpenChatLocks(url, 4), catalog.OpenChatLocks(url, 4)
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
