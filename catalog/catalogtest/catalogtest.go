package catalogtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/migrations"
)

// DefaultPostgresURL is the test server of ARCHITECTURE.md.
const DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresURL returns the admin URL of the test Postgres server.
func PostgresURL() string {
	if u := os.Getenv("SHOPBOT_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// PostgresRequired reports whether a missing Postgres must fail tests.
func PostgresRequired() bool {
	return os.Getenv("CI") == "true" || os.Getenv("SHOPBOT_REQUIRE_POSTGRES") == "1"
}

// SQLite returns a migrated database in a temporary file, closed at the
// end of the test.
func SQLite(t testing.TB) *bun.DB {
	t.Helper()
	return SQLiteURL(t, "sqlite:"+filepath.Join(t.TempDir(), "shopbot.db"))
}

// SQLiteURL opens and migrates the SQLite database at url. A file that
// does not exist yet starts as a copy of one migrated once per process.
func SQLiteURL(t testing.TB, url string) *bun.DB {
	t.Helper()
	if info, err := catalog.ParseDatabaseURL(url); err == nil && !strings.HasPrefix(info.Location, ":memory:") && !strings.HasPrefix(info.Location, "file:") {
		if err := copySQLiteTemplate(info.Location); err != nil {
			t.Fatal(err)
		}
	}
	db, _, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	migrate(t, db)
	return db
}

// Postgres returns a migrated, freshly created database on the test server,
// dropped at the end of the test, and its URL. It is a copy of a template
// database migrated once (template.go).
func Postgres(t testing.TB) (*bun.DB, string) {
	t.Helper()
	return postgresFrom(t, postgresTemplate)
}

// postgresFrom opens a fresh copy of the template database template
// names (made on first use), closed at the end of the test, migrated as
// every test database is, and returns it with its URL.
func postgresFrom(t testing.TB, template func(context.Context, *bun.DB) (string, error)) (*bun.DB, string) {
	t.Helper()
	dbURL := newPostgresDatabaseFrom(t, template)
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	migrate(t, db)
	return db, dbURL
}

// NewPostgresDatabase creates an empty database on the test server, dropped
// at the end of the test, and returns its URL.
func NewPostgresDatabase(t testing.TB) string {
	t.Helper()
	return newPostgresDatabaseFrom(t, nil)
}

// newPostgresDatabaseFrom creates a database, dropped at the end of the
// test, and returns its URL: empty when template is nil, else a copy of
// the template database it names.
func newPostgresDatabaseFrom(t testing.TB, template func(context.Context, *bun.DB) (string, error)) string {
	t.Helper()
	admin, _, err := catalog.OpenDB(PostgresURL())
	if err != nil {
		t.Fatalf("SHOPBOT_TEST_POSTGRES_URL: %v", err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		msg := fmt.Sprintf("Postgres test server unreachable at %s: %v", redact(PostgresURL()), err)
		if PostgresRequired() {
			t.Fatalf("%s\n(required under CI=true or SHOPBOT_REQUIRE_POSTGRES=1: start Postgres or set SHOPBOT_TEST_POSTGRES_URL)", msg)
		}
		t.Skipf("SKIPPING POSTGRES: %s (set SHOPBOT_REQUIRE_POSTGRES=1 to make this a failure)", msg)
	}
	name := "shopbot_test_" + randomHex(6)
	create := "CREATE DATABASE " + name
	if template != nil {
		tmpl, err := template(context.Background(), admin)
		if err != nil {
			t.Fatalf("template database: %v", err)
		}
		create += " TEMPLATE " + tmpl
	}
	// Copying a template writes the whole database: more time than the
	// ping's on a loaded machine.
	cctx, ccancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer ccancel()
	if _, err := admin.ExecContext(cctx, create); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		admin, _, err := catalog.OpenDB(PostgresURL())
		if err != nil {
			return
		}
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	return withDatabase(PostgresURL(), name)
}

// withDatabase is the server URL raw with its database set to name.
func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw // unreachable: PostgresURL was opened already
	}
	u.Path = "/" + name
	return u.String()
}

// Each runs fn as a subtest against a fresh SQLite and a fresh Postgres
// database: the catalog's conformance suite is written once this way.
func Each(t *testing.T, fn func(t *testing.T, db *bun.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) {
		db, _ := Postgres(t)
		fn(t, db)
	})
}

// EachReplicas runs fn with n connection pools on one database, as n
// shopbot processes (replicas) would open it: n pools on one SQLite file,
// then n pools on one fresh Postgres database.
func EachReplicas(t *testing.T, n int, fn func(t *testing.T, dbs []*bun.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		url := "sqlite:" + filepath.Join(t.TempDir(), "shopbot.db")
		dbs := make([]*bun.DB, n)
		for i := range dbs {
			dbs[i] = SQLiteURL(t, url)
		}
		fn(t, dbs)
	})
	t.Run("postgres", func(t *testing.T) {
		first, url := Postgres(t)
		dbs := []*bun.DB{first}
		for len(dbs) < n {
			db, _, err := catalog.OpenDB(url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			dbs = append(dbs, db)
		}
		fn(t, dbs)
	})
}

func migrate(t testing.TB, db *bun.DB) {
	t.Helper()
	if _, _, err := migrations.Migrate(context.Background(), db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
