package migrations_test

import (
	"context"
	"errors"
	"sync"
	"testing"

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
