package catalogtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/demo"
)

// Loading the demo catalog costs more than migrating (seconds per
// database under -race), and many tests start from it. So it is loaded
// once per test process into a template, and each test gets a copy. These
// templates live only as long as the process's tests (the demo's rows
// carry the load's timestamps): the SQLite one in memory, the Postgres one
// as a database named with its creation time, dropped by a later process
// once it is old (see dropStaleDemoTemplates).

// demoFill is how a demo template is filled: demo.Load or demo.Seed.
type demoFill int

const (
	loaded demoFill = iota // demo.Load: the catalog's rows
	seeded                 // demo.Seed: first start's seeding, the demo state recorded
)

func (f demoFill) fill(ctx context.Context, db bun.IDB) error {
	var err error
	if f == seeded {
		_, err = demo.Seed(ctx, db)
	} else {
		_, err = demo.Load(ctx, db)
	}
	return err
}

// SQLiteDemo returns a migrated SQLite database in a temporary file that
// holds the demo catalog, as demo.Load leaves it; closed at the end of the
// test.
func SQLiteDemo(t testing.TB) *bun.DB {
	t.Helper()
	return sqliteDemoCopy(t, loaded)
}

// SQLiteSeeded is SQLiteDemo as demo.Seed leaves the database (a first
// start's seeding).
func SQLiteSeeded(t testing.TB) *bun.DB {
	t.Helper()
	return sqliteDemoCopy(t, seeded)
}

// SQLiteSeededURL returns the URL of a fresh SQLite file in a temporary
// directory as demo.Seed leaves it (a first start's seeding, before its
// admin user), for a command under test to open; nothing here holds it
// open. A `shopbot serve` started on it finds the demo shop loaded.
func SQLiteSeededURL(t testing.TB) string {
	t.Helper()
	return sqliteDemoFile(t, seeded)
}

func sqliteDemoCopy(t testing.TB, f demoFill) *bun.DB {
	t.Helper()
	return SQLiteURL(t, sqliteDemoFile(t, f))
}

// sqliteDemoFile writes the demo database f in a temporary directory and
// returns its URL.
func sqliteDemoFile(t testing.TB, f demoFill) string {
	t.Helper()
	b, err := sqliteDemoBytes(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shopbot.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return "sqlite:" + path
}

// PostgresDemo returns a fresh database on the test server holding the
// demo catalog, as demo.Load leaves it, and its URL; dropped at the end of
// the test.
func PostgresDemo(t testing.TB) (*bun.DB, string) {
	t.Helper()
	return postgresDemoCopy(t, loaded)
}

// PostgresSeeded is PostgresDemo as demo.Seed leaves the database.
func PostgresSeeded(t testing.TB) (*bun.DB, string) {
	t.Helper()
	return postgresDemoCopy(t, seeded)
}

func postgresDemoCopy(t testing.TB, f demoFill) (*bun.DB, string) {
	t.Helper()
	return postgresFrom(t, func(ctx context.Context, admin *bun.DB) (string, error) {
		return postgresDemoTemplate(ctx, admin, f)
	})
}

// EachDemo is Each with databases holding the demo catalog (SQLiteDemo,
// PostgresDemo).
func EachDemo(t *testing.T, fn func(t *testing.T, db *bun.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteDemo(t)) })
	t.Run("postgres", func(t *testing.T) {
		db, _ := PostgresDemo(t)
		fn(t, db)
	})
}

// EachSeeded is Each with databases as demo.Seed leaves them
// (SQLiteSeeded, PostgresSeeded).
func EachSeeded(t *testing.T, fn func(t *testing.T, db *bun.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLiteSeeded(t)) })
	t.Run("postgres", func(t *testing.T) {
		db, _ := PostgresSeeded(t)
		fn(t, db)
	})
}

var sqliteDemo [2]struct {
	once  sync.Once
	bytes []byte
	err   error
}

func sqliteDemoBytes(f demoFill) ([]byte, error) {
	d := &sqliteDemo[f]
	d.once.Do(func() { d.bytes, d.err = buildSQLiteDemo(f) })
	return d.bytes, d.err
}

func buildSQLiteDemo(f demoFill) ([]byte, error) {
	b, err := sqliteTemplateBytes()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "shopbot-sqlite-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo template: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "shopbot.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("demo template: %w", err)
	}
	db, _, err := catalog.OpenDB("sqlite:" + path)
	if err != nil {
		return nil, fmt.Errorf("demo template: open: %w", err)
	}
	ctx := context.Background()
	if err := f.fill(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("demo template: %w", err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		db.Close()
		return nil, fmt.Errorf("demo template: checkpoint: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("demo template: close: %w", err)
	}
	return os.ReadFile(path)
}

var pgDemo [2]struct {
	once sync.Once
	name string
	err  error
}

// demoTemplatePrefix starts the names of the Postgres demo templates,
// followed by the Unix time of their creation.
const demoTemplatePrefix = "shopbot_tmpldemo_"

// demoTemplateMaxAge is how long a demo template is kept: far longer than
// any test process that may still copy it.
const demoTemplateMaxAge = 3 * time.Hour

// postgresDemoTemplate returns this process's demo template on the test
// server, made on first use from the migrated template.
func postgresDemoTemplate(ctx context.Context, admin *bun.DB, f demoFill) (string, error) {
	d := &pgDemo[f]
	d.once.Do(func() { d.name, d.err = buildPostgresDemo(ctx, admin, f) })
	return d.name, d.err
}

func buildPostgresDemo(ctx context.Context, admin *bun.DB, f demoFill) (string, error) {
	dropStaleDemoTemplates(ctx, admin)
	tmpl, err := postgresTemplate(ctx, admin)
	if err != nil {
		return "", err
	}
	name := demoTemplatePrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_" + randomHex(4)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
		return "", fmt.Errorf("demo template: create: %w", err)
	}
	fail := func(err error) (string, error) {
		_, _ = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		return "", err
	}
	db, _, err := catalog.OpenDB(withDatabase(PostgresURL(), name))
	if err != nil {
		return fail(fmt.Errorf("demo template: open: %w", err))
	}
	err = f.fill(ctx, db)
	db.Close()
	if err != nil {
		return fail(fmt.Errorf("demo template: %w", err))
	}
	if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return fail(fmt.Errorf("demo template: %w", err))
	}
	return name, nil
}

// dropStaleDemoTemplates drops the demo templates older than
// demoTemplateMaxAge, left by earlier test processes (best effort).
func dropStaleDemoTemplates(ctx context.Context, admin *bun.DB) {
	var names []string
	if err := admin.NewRaw("SELECT datname FROM pg_database WHERE datname LIKE ?", demoTemplatePrefix+"%").Scan(ctx, &names); err != nil {
		return
	}
	for _, n := range names {
		stamp, _, _ := strings.Cut(strings.TrimPrefix(n, demoTemplatePrefix), "_")
		sec, err := strconv.ParseInt(stamp, 10, 64)
		if err != nil || time.Since(time.Unix(sec, 0)) < demoTemplateMaxAge {
			continue
		}
		_, _ = admin.ExecContext(ctx, "ALTER DATABASE "+n+" WITH IS_TEMPLATE false")
		_, _ = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+n+" WITH (FORCE)")
	}
}
