package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestResolveCustomerSurvivesBadNames: the catalog itself never stores NUL
// or invalid UTF-8 in a customer's names, so a caller that skipped the
// engine's cleaning cannot break that customer's every later turn.
func TestResolveCustomerSurvivesBadNames(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		id := catalog.Identity{Channel: "telegram", PlatformUserID: "5", DisplayName: "Bo\x00b", Username: "b\xffb", Locale: "e\x00n"}
		for range 2 {
			c, err := catalog.ResolveCustomer(ctx, db, id)
			if err != nil {
				t.Fatal(err)
			}
			if c.DisplayName != "Bob" || c.Username != "b\uFFFDb" || c.Locale != "en" {
				t.Errorf("stored %q %q %q", c.DisplayName, c.Username, c.Locale)
			}
		}
	})
}

// TestUnavailable: errors of a database that cannot serve — a closed
// pool, a refused connection, a database dropped under the process — are
// classified ErrUnavailable on both databases; a bad request is not.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	resolve := func(db bun.IDB) error {
		_, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "web", PlatformUserID: "u1"})
		return catalog.Unavailable(err)
	}
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		if err := resolve(db); err != nil {
			t.Fatal(err)
		}
		if err := catalog.Unavailable(fmt.Errorf("x: %w", catalog.ErrInvalid)); errors.Is(err, catalog.ErrUnavailable) {
			t.Errorf("invalid input classified unavailable: %v", err)
		}
		_, err := db.ExecContext(ctx, "SELECT * FROM no_such_table")
		if err = catalog.Unavailable(err); err == nil || errors.Is(err, catalog.ErrUnavailable) {
			t.Errorf("bad SQL classified unavailable: %v", err)
		}
		db.Close()
		if err := resolve(db); !errors.Is(err, catalog.ErrUnavailable) {
			t.Errorf("closed database: %v", err)
		}
	})
	t.Run("postgres refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		db, _, err := catalog.OpenDB("postgres://postgres@" + addr + "/test?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := resolve(db); !errors.Is(err, catalog.ErrUnavailable) {
			t.Errorf("refused: %v", err)
		}
	})
	t.Run("postgres database dropped", func(t *testing.T) {
		db, dbURL := catalogtest.Postgres(t)
		if err := resolve(db); err != nil {
			t.Fatal(err)
		}
		admin, _, err := catalog.OpenDB(catalogtest.PostgresURL())
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		u, err := url.Parse(dbURL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admin.ExecContext(ctx, "DROP DATABASE "+strings.TrimPrefix(u.Path, "/")+" WITH (FORCE)"); err != nil {
			t.Fatal(err)
		}
		for i := range 2 { // the pooled connection was terminated; then no database to connect to
			if err := resolve(db); !errors.Is(err, catalog.ErrUnavailable) {
				t.Errorf("dropped, try %d: %v", i, err)
			}
		}
	})
}
