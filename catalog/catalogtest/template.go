package catalogtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
	"shopbot/migrations"
)

// Migrating a database runs every embedded migration (34 and counting),
// which under -race costs seconds per database on SQLite and on Postgres;
// the suite makes hundreds. So each dialect's schema is migrated once and
// copied: a Postgres template database (CREATE DATABASE … TEMPLATE), an
// SQLite file's bytes. Migrate still runs on every copy (a no-op when the
// copy is current), so the tests see exactly what migrating gives.

// templateKey names the schema the embedded migrations produce for d: a
// hash of every migration's version, name and SQL, so a new or edited
// migration gets a new template and a stale one is never used.
func templateKey(d dialect.Name) (string, error) {
	list, err := migrations.List(d)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range list {
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00", m.Version, m.Name, m.SQL)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// pgTemplate is this process's Postgres template, found or built once.
var pgTemplate struct {
	once sync.Once
	name string
	err  error
}

// templateLockKey serializes template builds across test processes (an
// advisory lock on the admin database; "tmpl" in ASCII).
const templateLockKey = 0x746d706c

// postgresTemplate returns the name of the migrated template database on
// the test server, building it when no process has yet. Templates are kept
// on the server across runs, one per schema (templateKey): they take no
// connections (ALLOW_CONNECTIONS false), so copying one never fails on a
// session left connected to it.
func postgresTemplate(ctx context.Context, admin *bun.DB) (string, error) {
	pgTemplate.once.Do(func() {
		pgTemplate.name, pgTemplate.err = buildPostgresTemplate(ctx, admin)
	})
	return pgTemplate.name, pgTemplate.err
}

func buildPostgresTemplate(ctx context.Context, admin *bun.DB) (string, error) {
	key, err := templateKey(dialect.PG)
	if err != nil {
		return "", err
	}
	name := "shopbot_tmpl_" + key
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("template: connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", templateLockKey); err != nil {
		return "", fmt.Errorf("template: lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", templateLockKey)
	}()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_database WHERE datname = ? AND datistemplate", name).Scan(&n); err != nil {
		return "", fmt.Errorf("template: look up %s: %w", name, err)
	}
	if n > 0 {
		return name, nil
	}
	// Built under another name and renamed when complete, so a process
	// that dies half way leaves no template that looks finished.
	build := "shopbot_tmplbuild_" + randomHex(6)
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+build); err != nil {
		return "", fmt.Errorf("template: create %s: %w", build, err)
	}
	if err := migratePostgres(ctx, withDatabase(PostgresURL(), build)); err != nil {
		_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+build+" WITH (FORCE)")
		return "", err
	}
	for _, stmt := range []string{
		"ALTER DATABASE " + build + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
		"ALTER DATABASE " + build + " RENAME TO " + name,
	} {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			_, _ = conn.ExecContext(ctx, "ALTER DATABASE "+build+" WITH IS_TEMPLATE false")
			_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+build+" WITH (FORCE)")
			return "", fmt.Errorf("template: %s: %w", stmt, err)
		}
	}
	return name, nil
}

func migratePostgres(ctx context.Context, dbURL string) error {
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		return fmt.Errorf("template: open: %w", err)
	}
	defer db.Close()
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		return fmt.Errorf("template: migrate: %w", err)
	}
	return nil
}

// sqliteTemplate is this process's migrated SQLite file, in memory.
var sqliteTemplate struct {
	once  sync.Once
	bytes []byte
	err   error
}

// sqliteTemplateBytes returns the bytes of a freshly migrated SQLite file.
// They are kept in the user's cache directory, one file per schema
// (templateKey), so only the first test process after a migration changes
// pays for migrating.
func sqliteTemplateBytes() ([]byte, error) {
	sqliteTemplate.once.Do(func() {
		sqliteTemplate.bytes, sqliteTemplate.err = cachedSQLiteTemplate()
	})
	return sqliteTemplate.bytes, sqliteTemplate.err
}

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

func cachedSQLiteTemplate() ([]byte, error) {
	key, err := templateKey(dialect.SQLite)
	if err != nil {
		return nil, err
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return buildSQLiteTemplate()
	}
	dir = filepath.Join(dir, "shopbot", "catalogtest")
	path := filepath.Join(dir, "sqlite-"+key+".db")
	if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(string(b), sqliteHeader) {
		return b, nil
	}
	b, err := buildSQLiteTemplate()
	if err != nil {
		return nil, err
	}
	// Written aside and renamed: processes racing to fill the cache each
	// leave a complete file.
	if os.MkdirAll(dir, 0o755) == nil {
		if f, err := os.CreateTemp(dir, "sqlite-*.tmp"); err == nil {
			_, werr := f.Write(b)
			if cerr := f.Close(); werr == nil && cerr == nil {
				_ = os.Rename(f.Name(), path)
			}
			_ = os.Remove(f.Name())
		}
	}
	return b, nil
}

func buildSQLiteTemplate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "shopbot-sqlite-template-")
	if err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "shopbot.db")
	db, _, err := catalog.OpenDB("sqlite:" + path)
	if err != nil {
		return nil, fmt.Errorf("template: open: %w", err)
	}
	ctx := context.Background()
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("template: migrate: %w", err)
	}
	// Everything into the main file, so its bytes alone are the database.
	if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		db.Close()
		return nil, fmt.Errorf("template: checkpoint: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("template: close: %w", err)
	}
	return os.ReadFile(path)
}

// copySQLiteTemplate writes the migrated template to path unless a file is
// there already (a second pool on one database, EachReplicas).
func copySQLiteTemplate(path string) error {
	if _, err := os.Stat(path); err == nil || !os.IsNotExist(err) {
		return nil
	}
	b, err := sqliteTemplateBytes()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("template: write %s: %w", path, err)
	}
	return nil
}
