package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog/search/weaviate/weaviatetest"
)

// TestWeaviateCommands: reindex fills a real Weaviate from the demo
// catalog, and search-eval with SEARCH_BACKEND=weaviate finds the judged
// products without a filter violated.
func TestWeaviateCommands(t *testing.T) {
	srv := weaviatetest.New(t)
	vars := map[string]string{
		"DATABASE_URL":       "sqlite:" + filepath.Join(t.TempDir(), "shop.db"),
		"SEARCH_BACKEND":     "weaviate",
		"WEAVIATE_URL":       srv.URL,
		"WEAVIATE_GRPC_ADDR": srv.GRPCAddr,
	}
	ctx := context.Background()
	var out bytes.Buffer
	if err := run(ctx, []string{"reindex"}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`weaviate collection ShopbotProduct: 324 products in `).MatchString(out.String()) {
		t.Fatalf("reindex: %q", out.String())
	}
	out.Reset()
	judgments := filepath.Join("..", "catalog", "search", "eval", "testdata", "demo_judgments.jsonl")
	if err := run(ctx, []string{"search-eval", "--judgments", judgments}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	figures := map[string]float64{}
	for line := range strings.Lines(out.String()) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			figures[k], _ = strconv.ParseFloat(v, 64)
		}
	}
	if figures["constraint_violations"] != 0 || figures["ndcg@10"] < 0.85 || figures["recall@10"] < 0.85 || figures["queries"] < 150 {
		t.Errorf("search-eval on weaviate:\n%s", out.String())
	}
}

func TestWeaviateConfigErrors(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"WEAVIATE_URL":       {"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": "localhost:8080"},
		"WEAVIATE_GRPC_ADDR": {"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": "http://127.0.0.1:1", "WEAVIATE_GRPC_ADDR": "nope"},
	} {
		t.Run(name, func(t *testing.T) {
			vars["DATABASE_URL"] = "sqlite:" + filepath.Join(t.TempDir(), "shop.db")
			err := run(context.Background(), []string{"reindex"}, envFunc(vars), nil, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), name) || exitCode(err) != 2 {
				t.Fatalf("err = %v (exit %d), want a usage error about %s", err, exitCode(err), name)
			}
		})
	}
	if err := run(context.Background(), []string{"reindex", "extra"}, envFunc(map[string]string{
		"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "shop.db")}), nil, io.Discard, io.Discard); exitCode(err) != 2 {
		t.Errorf("reindex with an argument: %v", err)
	}
}

func TestReindexEmbedded(t *testing.T) {
	var out bytes.Buffer
	vars := map[string]string{"DATABASE_URL": "sqlite:" + filepath.Join(t.TempDir(), "shop.db")}
	if err := run(context.Background(), []string{"reindex"}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "embedded index: 324 products in ") {
		t.Errorf("reindex: %q", out.String())
	}
}
