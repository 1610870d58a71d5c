package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// shopCounts are the listings, pages and delivery methods of a shop.
func shopCounts(t *testing.T, db bun.IDB) (products, pages, methods int) {
	t.Helper()
	ctx := context.Background()
	products, err := catalog.CountProducts(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := catalog.ListPages(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := catalog.ListDeliveryMethods(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return products, len(ps), len(ms)
}

// TestDemoOff: DEMO=false starts an empty shop; the default loads the
// demo.
func TestDemoOff(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if loaded, err := prepare(ctx, db, false); err != nil || loaded != 0 {
			t.Fatalf("prepare without the demo loaded %d (%v)", loaded, err)
		}
		if p, pg, m := shopCounts(t, db); p != 0 || pg != 0 || m != 0 {
			t.Errorf("demo off: %d products, %d pages, %d delivery methods; want an empty shop", p, pg, m)
		}
		if loaded, err := prepare(ctx, db, true); err != nil || loaded < 300 {
			t.Fatalf("prepare with the demo loaded %d (%v)", loaded, err)
		}
		if p, pg, m := shopCounts(t, db); p < 300 || pg != 6 || m != 5 {
			t.Errorf("demo on: %d products, %d pages, %d delivery methods", p, pg, m)
		}
	})
}

// TestRestartAfterDemoRemoval: `shopbot demo remove` empties a demo shop,
// a second run changes nothing, and the next start does not load the demo
// again.
func TestRestartAfterDemoRemoval(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if _, err := prepare(ctx, db, true); err != nil {
			t.Fatal(err)
		}
		dbURL := databaseURLOf(t, db)
		var out bytes.Buffer
		if err := run(ctx, []string{"demo", "remove", "--database-url", dbURL}, envFunc(nil), nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Removed the demo shop") {
			t.Errorf("first removal said %q", out.String())
		}
		out.Reset()
		if err := run(ctx, []string{"demo", "remove", "--database-url", dbURL}, envFunc(nil), nil, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Nothing to remove") {
			t.Errorf("second removal said %q", out.String())
		}
		if loaded, err := prepare(ctx, db, true); err != nil || loaded != 0 {
			t.Errorf("restart after removal loaded %d (%v)", loaded, err)
		}
		if p, pg, m := shopCounts(t, db); p != 0 || pg != 0 || m != 0 {
			t.Errorf("after removal and restart: %d products, %d pages, %d delivery methods", p, pg, m)
		}
	})
}

// databaseURLOf finds the URL of a catalogtest database for a subcommand.
func databaseURLOf(t *testing.T, db *bun.DB) string {
	t.Helper()
	if db.Dialect().Name().String() != "pg" {
		var file string
		if err := db.NewRaw("SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(context.Background(), &file); err != nil {
			t.Fatal(err)
		}
		return "sqlite:" + file
	}
	var name string
	if err := db.NewRaw("SELECT current_database()").Scan(context.Background(), &name); err != nil {
		t.Fatal(err)
	}
	u := catalogtest.PostgresURL()
	i := strings.LastIndex(u, "/")
	rest := ""
	if q := strings.IndexByte(u[i:], '?'); q >= 0 {
		rest = u[i+q:]
	}
	return u[:i+1] + name + rest
}

// TestDemoSetting: DEMO reads true or false, --demo=false overrides it,
// a bare --demo turns it on, and anything else is a usage error.
func TestDemoSetting(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "x.db")
	for _, tc := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, true},
		{"false", nil, false},
		{"0", nil, false},
		{"", []string{"--demo=false"}, false},
		{"false", []string{"--demo"}, true},
		{"true", []string{"--demo=false"}, false},
	} {
		vars := map[string]string{"DATABASE_URL": db, "DEMO": tc.env}
		cfg, err := loadConfig(flag.NewFlagSet("serve", flag.ContinueOnError), tc.args, envFunc(vars))
		if err != nil || cfg.demo != tc.want {
			t.Errorf("DEMO=%q %v: demo %v (%v), want %v", tc.env, tc.args, cfg.demo, err, tc.want)
		}
	}
	for _, args := range [][]string{{"--demo=maybe"}} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if _, err := loadConfig(fs, args, envFunc(map[string]string{"DATABASE_URL": db})); err == nil || !strings.Contains(err.Error(), "DEMO must be true or false") {
			t.Errorf("%v: %v", args, err)
		}
	}
	if err := run(context.Background(), []string{"demo", "restore"}, envFunc(nil), nil, io.Discard, io.Discard); exitCode(err) != 2 {
		t.Errorf("demo restore: %v, want a usage error", err)
	}
}
