package main

import (
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine"
)

// TestMCPSetting: MCP is on by default; off leaves /mcp unmounted (404);
// a value that is neither is refused at start.
func TestMCPSetting(t *testing.T) {
	load := func(env map[string]string) (Config, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		env["DATABASE_URL"] = "sqlite:" + t.TempDir() + "/x.db"
		return loadConfig(fs, nil, envFunc(env))
	}
	if _, err := load(map[string]string{"MCP": "maybe"}); err == nil || !strings.Contains(err.Error(), "MCP must be on or off") {
		t.Errorf("MCP=maybe: %v", err)
	}
	db := catalogtest.SQLite(t)
	eng, err := engine.New(engine.Config{DB: db, Search: searchtest.NewDatabase(db)})
	if err != nil {
		t.Fatal(err)
	}
	var ready atomic.Bool
	ready.Store(true)
	for _, tc := range []struct {
		env     map[string]string
		mounted bool
	}{
		{map[string]string{}, true},
		{map[string]string{"MCP": "on"}, true},
		{map[string]string{"MCP": "off"}, false},
	} {
		cfg, err := load(tc.env)
		if err != nil {
			t.Fatal(err)
		}
		mux := routes(httpHandlers{admin: fakePanel{}, ready: &ready, mcp: agentDoor(&cfg, eng, slog.New(slog.DiscardHandler))})
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if got := rec.Code != http.StatusNotFound; got != tc.mounted || (tc.mounted && rec.Code != http.StatusOK) {
			t.Errorf("%v: POST /mcp initialize = %d %s; mounted %v", tc.env, rec.Code, rec.Body, tc.mounted)
		}
	}
}
