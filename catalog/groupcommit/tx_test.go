package groupcommit

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog/catalogtest"
)

// TestTx: on SQLite, writers that finish while a transaction is
// being written are written together; one that fails in the group fails
// alone, and the others are committed. Postgres runs each on its own.
func TestTx(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		g := NewTx(db, 16)
		if db.Dialect().Name() != dialect.SQLite {
			if g.group {
				t.Fatal("grouping on Postgres")
			}
			return
		}
		if _, err := db.ExecContext(ctx, "CREATE TABLE group_commit_test (id INTEGER PRIMARY KEY, turn TEXT NOT NULL)"); err != nil {
			t.Fatal(err)
		}
		insert := func(id int, turn string) func(context.Context, bun.Tx) error {
			return func(ctx context.Context, tx bun.Tx) error {
				_, err := tx.ExecContext(ctx, "INSERT INTO group_commit_test (id, turn) VALUES (?, ?)", id, turn)
				return err
			}
		}

		// The first turn holds the writer until nine more are waiting.
		release := make(chan struct{})
		first := make(chan error, 1)
		go func() {
			first <- g.Run(ctx, func(ctx context.Context, tx bun.Tx) error {
				<-release
				return insert(1, "first")(ctx, tx)
			})
		}()
		waitPending(t, g, 0) // the first is being written, not pending
		errs := make([]error, 10)
		var wg sync.WaitGroup
		for i := 2; i <= 10; i++ {
			id := i
			if i == 10 {
				id = 1 // the same key as the first: fails
			}
			wg.Go(func() { errs[i-2] = g.Run(ctx, insert(id, fmt.Sprint("turn ", i))) })
		}
		waitPending(t, g, 9)
		close(release)
		wg.Wait()
		if err := <-first; err != nil {
			t.Fatalf("first: %v", err)
		}
		for i, err := range errs[:8] {
			if err != nil {
				t.Errorf("turn %d: %v", i+2, err)
			}
		}
		if errs[8] == nil {
			t.Error("a duplicate key was committed")
		}
		var n int
		if err := db.NewRaw("SELECT count(*) FROM group_commit_test").Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		if n != 9 {
			t.Errorf("%d rows, want 9 (the first and eight more)", n)
		}
		if busy, n := g.writer.Pending(); busy || n != 0 {
			t.Errorf("busy %v with %d pending after all returned", busy, n)
		}
	})
}

// waitPending waits until the writer is busy with want turns pending.
func waitPending(t *testing.T, g *Tx, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		busy, n := g.writer.Pending()
		if busy && n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("busy %v with %d turns pending, want %d", busy, n, want)
		}
		time.Sleep(time.Millisecond)
	}
}
