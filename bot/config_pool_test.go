package main

import (
	"context"
	"flag"
	"io"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestDBPoolSettings: DB_MAX_CONNS and DB_LOCK_CONNS (or their flags) size
// a process's Postgres connections, 20 + 4 by default; a bad value is
// refused with a sentence naming the setting and its range.
func TestDBPoolSettings(t *testing.T) {
	load := func(args []string, vars map[string]string) (Config, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return loadConfig(fs, args, envFunc(vars))
	}
	c, err := load(nil, nil)
	if err != nil || c.pool != (dbPool{maxConns: 20, lockConns: 4}) || c.pool.total() != 24 {
		t.Errorf("defaults: %+v (%v), want 20 + 4", c.pool, err)
	}
	c, err = load([]string{"--db-lock-conns", "2"}, map[string]string{"DB_MAX_CONNS": "7"})
	if err != nil || c.pool != (dbPool{maxConns: 7, lockConns: 2}) || c.pool.total() != 9 {
		t.Errorf("set: %+v (%v), want 7 + 2", c.pool, err)
	}
	for name, tc := range map[string]struct{ vars map[string]string }{
		`DB_MAX_CONNS must be a whole number from 4 to 1000 (got "many")`: {map[string]string{"DB_MAX_CONNS": "many"}},
		`DB_MAX_CONNS must be a whole number from 4 to 1000 (got "0")`:    {map[string]string{"DB_MAX_CONNS": "0"}},
		`DB_MAX_CONNS must be a whole number from 4 to 1000 (got "5000")`: {map[string]string{"DB_MAX_CONNS": "5000"}},
		`DB_LOCK_CONNS must be a whole number from 1 to 64 (got "-1")`:    {map[string]string{"DB_LOCK_CONNS": "-1"}},
	} {
		_, err := load(nil, tc.vars)
		if err == nil || err.Error() != name || exitCode(err) != 2 {
			t.Errorf("%v: err %v, want %q (exit 2)", tc.vars, err, name)
		}
		if err := run(context.Background(), []string{"serve"}, envFunc(tc.vars), nil, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("serve with %v: %v", tc.vars, err)
		}
	}
}

// TestSizePool: the main pool of a Postgres database gets DB_MAX_CONNS;
// SQLite keeps its own size.
func TestSizePool(t *testing.T) {
	_, url := catalogtest.Postgres(t)
	db, info, err := catalog.OpenDB(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sizePool(db, info, dbPool{maxConns: 7, lockConns: 2})
	if n := db.Stats().MaxOpenConnections; n != 7 {
		t.Errorf("postgres pool of %d, want 7", n)
	}
	lite := catalogtest.SQLite(t)
	sizePool(lite, catalog.DBInfo{Kind: "sqlite"}, dbPool{maxConns: 100, lockConns: 2})
	if n := lite.Stats().MaxOpenConnections; n != 8 {
		t.Errorf("sqlite pool of %d, want its own 8", n)
	}
}
