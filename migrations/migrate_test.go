package migrations_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/migrations"
)

func TestDialectsHaveTheSameVersions(t *testing.T) {
	pg, err := migrations.List(dialect.PG)
	if err != nil {
		t.Fatal(err)
	}
	lite, err := migrations.List(dialect.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg) == 0 || len(pg) != len(lite) {
		t.Fatalf("postgres has %d migrations, sqlite %d", len(pg), len(lite))
	}
	for i := range pg {
		if pg[i].Name != lite[i].Name {
			t.Errorf("version %d: postgres %q, sqlite %q", pg[i].Version, pg[i].Name, lite[i].Name)
		}
	}
}

func open(t *testing.T, kind string) *bun.DB {
	t.Helper()
	var url string
	if kind == "sqlite" {
		url = "sqlite:" + t.TempDir() + "/m.db"
	} else {
		url = catalogtest.NewPostgresDatabase(t)
	}
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrate(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := open(t, kind)
			st, err := migrations.Check(ctx, db)
			if err != nil || st.Current != 0 || st.UpToDate() {
				t.Fatalf("empty database: %+v, %v", st, err)
			}
			// Several processes starting at once apply each version once.
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _, errs[i] = migrations.Migrate(ctx, db)
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatalf("concurrent migrate: %v", err)
				}
			}
			from, to, err := migrations.Migrate(ctx, db)
			if err != nil || from != to || !to.UpToDate() || to.Current == 0 {
				t.Fatalf("second migrate: from %+v to %+v, %v", from, to, err)
			}
		})
	}
}

func TestRefusesNewerSchema(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := open(t, kind)
			if _, _, err := migrations.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', CURRENT_TIMESTAMP)"); err != nil {
				t.Fatal(err)
			}
			_, _, err := migrations.Migrate(ctx, db)
			if !errors.Is(err, migrations.ErrSchemaTooNew) {
				t.Fatalf("err = %v, want ErrSchemaTooNew", err)
			}
			if _, err := migrations.Check(ctx, db); !errors.Is(err, migrations.ErrSchemaTooNew) {
				t.Errorf("check: err = %v", err)
			}
		})
	}
}

// openProcesses opens n handles (pools) on one new database: as many
// processes starting together, sharing no in-process lock.
func openProcesses(t *testing.T, kind string, n int) []*bun.DB {
	t.Helper()
	url := "sqlite:" + t.TempDir() + "/m.db"
	if kind == "postgres" {
		url = catalogtest.NewPostgresDatabase(t)
	}
	dbs := make([]*bun.DB, n)
	for i := range dbs {
		db, _, err := catalog.OpenDB(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	return dbs
}

// waitingForLock counts the sessions of this database waiting for an
// advisory lock.
func waitingForLock(ctx context.Context, db bun.IDB) (int, error) {
	var n int
	err := db.NewRaw("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").Scan(ctx, &n)
	return n, err
}

// TestSetupRunsStepsOneAtATime: three processes released together run a
// check-then-act step (insert a row into an empty table) one at a time,
// after the migrations, so the row is inserted once. On Postgres the first
// step waits until the other two are seen queued on the lock before it
// acts, so without the lock they would all find the table empty; on SQLite
// the step runs inside the immediate transaction that is the lock.
func TestSetupRunsStepsOneAtATime(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			dbs := openProcesses(t, kind, 3)
			var inside, overlaps atomic.Int32
			step := func(ctx context.Context, db bun.IDB) error {
				if inside.Add(1) > 1 {
					overlaps.Add(1)
				}
				defer inside.Add(-1)
				if st, err := migrations.Check(ctx, db); err != nil || !st.UpToDate() {
					return fmt.Errorf("step ran before the migrations: %+v, %v", st, err)
				}
				if _, err := db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS first_start (id INTEGER)"); err != nil {
					return err
				}
				n, err := db.NewSelect().Table("first_start").Count(ctx)
				if err != nil || n > 0 {
					return err
				}
				if _, inTx := db.(bun.Tx); kind == "sqlite" && !inTx {
					return errors.New("on SQLite the step must run in the transaction that holds the write lock")
				}
				if kind == "postgres" {
					if err := waitFor(ctx, func() (bool, error) { n, err := waitingForLock(ctx, db); return n == 2, err }); err != nil {
						return err
					}
				}
				_, err = db.ExecContext(ctx, "INSERT INTO first_start (id) VALUES (1)")
				return err
			}
			gate := make(chan struct{})
			errs := make([]error, len(dbs))
			var wg sync.WaitGroup
			for i, db := range dbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-gate
					_, _, errs[i] = migrations.Setup(context.Background(), db, step)
				}()
			}
			close(gate)
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			n, err := dbs[0].NewSelect().Table("first_start").Count(context.Background())
			if err != nil || n != 1 || overlaps.Load() != 0 {
				t.Errorf("%d rows (%v), %d overlapping steps; want 1 row, no overlap", n, err, overlaps.Load())
			}
		})
	}
}

// waitFor polls cond (a database query) until it holds, for at most 10 s.
func waitFor(ctx context.Context, cond func() (bool, error)) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := cond()
		if ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return errors.New("condition not met within 10 s")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestSetupFailedStep: a failing step fails Setup and releases the lock,
// so the next start runs it again. On SQLite the migrations and the steps
// are one transaction, so nothing of the failed start is left.
func TestSetupFailedStep(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := open(t, kind)
			boom := errors.New("boom")
			_, _, err := migrations.Setup(ctx, db, func(context.Context, bun.IDB) error { return boom })
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v, want the step's error", err)
			}
			st, err := migrations.Check(ctx, db)
			if err != nil || (kind == "sqlite" && st.Current != 0) || (kind == "postgres" && !st.UpToDate()) {
				t.Errorf("after a failed setup: %+v, %v", st, err)
			}
			ran := false
			from, to, err := migrations.Setup(ctx, db, func(context.Context, bun.IDB) error { ran = true; return nil })
			if err != nil || !ran || !to.UpToDate() {
				t.Errorf("next start: from %+v to %+v, ran %v, %v", from, to, ran, err)
			}
		})
	}
}
