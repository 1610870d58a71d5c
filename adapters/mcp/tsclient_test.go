package mcp_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"shopbot/adapters/mcp"
	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/engine"
	"shopbot/engine/agentdoor"
)

// TestTypeScriptClient: an MCP client other than our own — the official
// TypeScript SDK, run with node — lists the tools, searches, builds a
// cart, checks out with an idempotency key sent twice (one order) and
// reads the order. node and npm are required: without them the test
// fails. The SDK is installed with `npm ci` from the committed lock file
// into a cache outside the repository, keyed by the lock file's hash.
func TestTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is required (Debian: apt-get install nodejs npm)")
	}
	dir := tsClientDir(t)
	db := catalogtest.SQLiteDemo(t)
	srv, _ := shop(t, db, engine.Config{}, mcp.Options{})
	cmd := exec.Command(node, filepath.Join(dir, "client.mjs"), srv.URL)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("client.mjs: %v\n%s", err, stderr)
	}
	var got struct {
		Tools   []string `json:"tools"`
		SKU     string   `json:"sku"`
		Units   int      `json:"units"`
		Summary string   `json:"summary"`
		Orders  []string `json:"orders"`
		Payment string   `json:"payment"`
		Read    string   `json:"read"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output %s: %v", out, err)
	}
	if !slices.Contains(got.Tools, "search_products") || !slices.Contains(got.Tools, "complete_checkout") || got.SKU == "" || got.Units != 2 || got.Summary != "confirm" {
		t.Errorf("client saw %+v", got)
	}
	if len(got.Orders) != 2 || got.Orders[0] == "" || got.Orders[0] != got.Orders[1] || got.Read != got.Orders[0] || got.Payment != "awaiting_payment" {
		t.Errorf("orders %v, read %q, payment %q; want one order read back", got.Orders, got.Read, got.Payment)
	}
	n, err := db.NewSelect().Model((*catalog.Order)(nil)).Where("channel = ?", agentdoor.Channel).Count(context.Background())
	if err != nil || n != 1 {
		t.Errorf("%d orders (%v); want 1", n, err)
	}
}

// tsClientDir is the client's directory with its node_modules installed:
// a copy of testdata/tsclient in the user's cache, keyed by the lock
// file's hash, installed once with npm ci.
func tsClientDir(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is required (Debian: apt-get install npm)")
	}
	lock, err := os.ReadFile("testdata/tsclient/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "shopbot", "npm-mcp", hex.EncodeToString(sum[:8]))
	for _, f := range []string{"package.json", "package-lock.json", "client.mjs"} {
		b, err := os.ReadFile(filepath.Join("testdata/tsclient", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".installed")); err == nil {
		return dir
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", ".installed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
