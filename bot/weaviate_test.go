package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/demo"
	"shopbot/catalog/search/weaviate/weaviatetest"
)

// TestWeaviateCommands: reindex fills a real Weaviate from the demo
// catalog, and search-eval with SEARCH_BACKEND=weaviate finds the judged
// products without a filter violated.
func TestWeaviateCommands(t *testing.T) {
	t.Parallel() // waits on its own weaviate-server most of the time
	srv := weaviatetest.New(t)
	vars := map[string]string{
		"DATABASE_URL":       catalogtest.SQLiteSeededURL(t),
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
	vars := map[string]string{"DATABASE_URL": catalogtest.SQLiteSeededURL(t)}
	if err := run(context.Background(), []string{"reindex"}, envFunc(vars), nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "embedded index: 324 products in ") {
		t.Errorf("reindex: %q", out.String())
	}
}

// TestReplicasFillWeaviateOnce: three replicas started together on one
// empty Postgres database and one empty Weaviate collection fill the
// collection once (under the migration lock), and it holds the whole demo
// catalog: two rebuilds at once could delete each other's objects as
// stale.
func TestReplicasFillWeaviateOnce(t *testing.T) {
	t.Parallel() // waits on its own weaviate-server most of the time
	srv := weaviatetest.New(t)
	replicas := startReplicas(t, 3, map[string]string{
		"DATABASE_URL":       catalogtest.NewPostgresDatabase(t),
		"SEARCH_BACKEND":     "weaviate",
		"WEAVIATE_URL":       srv.URL,
		"WEAVIATE_GRPC_ADDR": srv.GRPCAddr,
	})
	fills := 0
	for _, s := range replicas {
		fills += strings.Count(s.stderr.String(), "weaviate: collection filled")
	}
	if fills != 1 {
		t.Errorf("the collection was filled %d times, want once", fills)
	}
	if n := weaviateCount(t, srv.URL); n != len(must(demo.Products())) {
		t.Errorf("weaviate holds %d products, want the demo's %d", n, len(must(demo.Products())))
	}
}

// weaviateCount counts the objects of the default collection.
func weaviateCount(t *testing.T, url string) int {
	t.Helper()
	query := `{"query":"{Aggregate{ShopbotProduct{meta{count}}}}"}`
	resp, err := http.Post(url+"/v1/graphql", "application/json", strings.NewReader(query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Aggregate struct {
				ShopbotProduct []struct{ Meta struct{ Count int } }
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Data.Aggregate.ShopbotProduct) != 1 {
		t.Fatalf("aggregate: %v (%d results)", err, len(out.Data.Aggregate.ShopbotProduct))
	}
	return out.Data.Aggregate.ShopbotProduct[0].Meta.Count
}
