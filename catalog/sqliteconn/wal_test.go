package sqliteconn

import (
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"
)

// TestFreshFileOpenedByManyProcesses: sixteen pools (as many processes)
// open one new file at once and write to it. The switch to WAL needs
// exclusive access and ignores busy_timeout, so with journal_mode in the
// DSN some of them could fail with SQLITE_BUSY; every one must succeed, and
// the file ends in WAL mode.
func TestFreshFileOpenedByManyProcesses(t *testing.T) {
	dsn := "file:" + filepath.Join(t.TempDir(), "fresh.db") + "?_pragma=busy_timeout(10000)&_txlock=immediate"
	const n = 16
	dbs := make([]*sql.DB, n)
	for i := range dbs {
		connector, err := sqlite.NewConnector(dsn)
		if err != nil {
			t.Fatal(err)
		}
		dbs[i] = sql.OpenDB(NewConnector(connector, 10*time.Second))
		t.Cleanup(func() { dbs[i].Close() })
	}
	gate := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS n (v INTEGER NOT NULL)`); err != nil {
				errs[i] = err
				return
			}
			_, errs[i] = db.Exec(`INSERT INTO n VALUES (?)`, i)
		}()
	}
	close(gate)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v", i, err)
		}
	}
	var mode string
	var rows int
	if err := dbs[0].QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal mode %q (%v), want wal", mode, err)
	}
	if err := dbs[0].QueryRow(`SELECT count(*) FROM n`).Scan(&rows); err != nil || rows != n {
		t.Errorf("%d rows (%v), want %d", rows, err, n)
	}
}
