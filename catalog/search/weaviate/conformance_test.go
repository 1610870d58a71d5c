package weaviate_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/weaviate"
	"shopbot/catalog/search/weaviate/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// stack is the Weaviate backend as bot wires it: the embedded index
// (query analysis and fallback) following the database, the backend on a
// collection of its own, and the change-feed worker feeding it.
type stack struct {
	srv     *weaviatetest.Server
	local   *embedded.Index
	backend *weaviate.Backend
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// newStack builds the stack over db, which holds the catalog, rebuilds
// the collection and starts the change-feed worker (until the test ends).
func newStack(t testing.TB, db *bun.DB, workerCfg indexer.Config) *stack {
	t.Helper()
	srv := weaviatetest.Shared(t)
	ctx, cancel := context.WithCancel(context.Background())
	emb := vectorizer.NewLocal(0)
	local := embedded.New(embedded.Options{Embedder: emb, Poll: 50 * time.Millisecond, Logger: testLogger(t)})
	if err := local.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	b, err := weaviate.New(weaviate.Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Collection: collection(), Embedder: emb, Expander: local,
		Alpha: search.DefaultAlpha, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := b.Rebuild(ctx, catalog.NewSearchSource(db), nil); err != nil {
		t.Fatalf("rebuild: %v\n%s", err, srv.Output())
	}
	if err := indexer.SetCursor(ctx, db, workerCfg.Cursor, start); err != nil {
		t.Fatal(err)
	}
	workerCfg.Poll = 50 * time.Millisecond
	workerCfg.Logger = testLogger(t)
	w := indexer.New(db, b, workerCfg)
	// The rebuild covered the catalog; what the feed still has (its
	// overlap window) is delivered before the test compares rankings.
	if _, err := w.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{}, 2)
	go func() { local.Follow(ctx, catalog.NewSearchSource(db)); done <- struct{}{} }()
	go func() { _ = w.Run(ctx); done <- struct{}{} }()
	t.Cleanup(func() { cancel(); <-done; <-done })
	return &stack{srv: srv, local: local, backend: b}
}

// collection is a fresh collection name, so tests sharing the server do
// not see each other's products.
func collection() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "Test_" + hex.EncodeToString(b)
}

// TestConformance runs the search suite against a real Weaviate server,
// fed by the change-feed worker, on both database dialects.
func TestConformance(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		searchtest.Run(t, db, func(t *testing.T, db *bun.DB) search.Searcher {
			return newStack(t, db, indexer.Config{}).backend
		})
	})
}

// TestPassageConformance runs the passage suite against a real Weaviate
// server, fed by the change-feed worker, with the embedded passage index as
// the expander and embedder, as bot wires it.
func TestPassageConformance(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		searchtest.RunPassages(t, db, func(t *testing.T, db *bun.DB) search.PassageSearcher {
			srv := weaviatetest.Shared(t)
			ctx, cancel := context.WithCancel(context.Background())
			emb := vectorizer.NewLocal(0)
			local := embedded.NewPassages(embedded.PassageOptions{Embedder: emb, Poll: 50 * time.Millisecond, Logger: testLogger(t)})
			if err := local.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
				t.Fatal(err)
			}
			b, err := weaviate.New(weaviate.Config{URL: srv.URL, GRPCAddr: srv.GRPCAddr, Collection: collection(),
				Embedder: vectorizer.NewLocal(0), Expander: embedded.New(embedded.Options{}), Alpha: search.DefaultAlpha, Logger: testLogger(t)})
			if err != nil {
				t.Fatal(err)
			}
			px, err := b.Passages(weaviate.PassageConfig{Collection: collection(), Embedder: emb, Expander: local})
			if err != nil {
				t.Fatal(err)
			}
			if err := px.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
				t.Fatalf("rebuild: %v\n%s", err, srv.Output())
			}
			w := indexer.New(db, nil, indexer.Config{Poll: 50 * time.Millisecond, Logger: testLogger(t), Passages: px})
			done := make(chan struct{}, 2)
			go func() { local.Follow(ctx, catalog.NewSearchSource(db)); done <- struct{}{} }()
			go func() { _ = w.Run(ctx); done <- struct{}{} }()
			t.Cleanup(func() { cancel(); <-done; <-done })
			return px
		})
	})
}
