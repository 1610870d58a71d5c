package sqliteconn

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"
)

// queuedDB opens a SQLite file through the writer queue with a short wait.
func queuedDB(t *testing.T, timeout time.Duration) *sql.DB {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "q.db") + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_txlock=immediate"
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(NewConnector(connector, timeout))
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE n (v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO n VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	return db
}

func count(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow(`SELECT v FROM n`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Concurrent write transactions all commit, one after another.
func TestWriterQueueSerializesWriters(t *testing.T) {
	db := queuedDB(t, 10*time.Second)
	db.SetMaxOpenConns(8)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				tx, err := db.Begin()
				if err != nil {
					errs <- err
					return
				}
				if _, err := tx.Exec(`UPDATE n SET v = v + 1`); err != nil {
					_ = tx.Rollback()
					errs <- err
					return
				}
				if err := tx.Commit(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := count(t, db); got != 400 {
		t.Fatalf("v = %d after 400 increments", got)
	}
}

// A statement that waits on the caller's own open transaction fails after
// the timeout, as SQLITE_BUSY would, and writes nothing; a cancelled wait
// gives up at once; the slot is free again after the transaction ends.
func TestWriterQueueWaitEnds(t *testing.T) {
	db := queuedDB(t, 50*time.Millisecond)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE n SET v = 7`); !errors.Is(err, ErrWriteSlot) {
		t.Fatalf("exec while the slot is held: %v, want ErrWriteSlot", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.BeginTx(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("begin with a cancelled context: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := count(t, db); got != 0 {
		t.Fatalf("v = %d, want 0: the timed-out statement must not write", got)
	}
	if _, err := db.Exec(`UPDATE n SET v = 1`); err != nil {
		t.Fatalf("exec after the transaction ended: %v", err)
	}
	if got := count(t, db); got != 1 {
		t.Fatalf("v = %d, want 1", got)
	}
}

// A query that writes (… RETURNING) outside a transaction takes the write
// slot like Exec does, and holds it until its rows are closed; a read
// does not wait for it.
func TestWriterQueueWritingQuery(t *testing.T) {
	db := queuedDB(t, 50*time.Millisecond)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Query(`UPDATE n SET v = 7 RETURNING v`); !errors.Is(err, ErrWriteSlot) {
		t.Fatalf("writing query while the slot is held: %v, want ErrWriteSlot", err)
	}
	if got := count(t, db); got != 0 {
		t.Fatalf("read while the slot is held: v = %d, want 0", got)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`  update n SET v = 2 RETURNING v`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE n SET v = 3`); !errors.Is(err, ErrWriteSlot) {
		t.Fatalf("exec while a writing query's rows are open: %v, want ErrWriteSlot", err)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE n SET v = v + 1`); err != nil {
		t.Fatalf("exec after the rows were closed: %v", err)
	}
	if got := count(t, db); got != 3 {
		t.Fatalf("v = %d, want 3", got)
	}
}
