package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"shopbot/bot/internal/servetest"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/weaviate/weaviatetest"
)

// TestReindexHoldsTheStartLockPostgres: shopbot reindex rebuilds Weaviate
// under the lock a starting replica takes to migrate and fill the
// collection (so the two never rebuild at once and delete each other's
// objects as stale): while its first batch is on its way to Weaviate,
// Postgres shows the advisory lock held in the shop's database.
func TestReindexHoldsTheStartLockPostgres(t *testing.T) {
	srv := weaviatetest.New(t)
	target, _ := url.Parse(srv.URL)
	batch, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/batch/objects") {
			once.Do(func() { close(batch); <-release })
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()
	dbURL := catalogtest.NewPostgresDatabase(t)
	vars := map[string]string{"DATABASE_URL": dbURL, "SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": front.URL}

	ctx := context.Background()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"reindex"}, envFunc(vars), nil, &out, io.Discard) }()
	select {
	case <-batch:
	case err := <-done:
		t.Fatalf("reindex ended before its first batch: %v", err)
	}
	db := servetest.OpenDB(t, dbURL)
	var held int
	err := db.NewRaw("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").Scan(ctx, &held)
	close(release)
	if err != nil {
		t.Fatal(err)
	}
	if held != 1 {
		t.Errorf("%d advisory locks held in the shop's database while reindex writes, want the start lock", held)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "weaviate collection ShopbotProduct: 324 products in ") {
		t.Errorf("reindex: %q", out.String())
	}
}
