package searchtest_test

import (
	"context"
	"log/slog"
	"shopbot/catalog"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/searchtest"
	"shopbot/catalog/search/vectorizer"
)

// openEmbedded is the default backend as bot wires it: the hybrid index
// with the Local embedder, following the database.
func openEmbedded(t *testing.T, db *bun.DB) search.Searcher {
	ctx, cancel := context.WithCancel(context.Background())
	x := embedded.New(embedded.Options{Embedder: vectorizer.NewLocal(0), Poll: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err := x.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { x.Follow(ctx, catalog.NewSearchSource(db)); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return x
}

func TestEmbedded(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) { searchtest.Run(t, db, openEmbedded) })
}

// openPassages is the embedded passage index as bot wires it: its own
// Local embedder, following the database.
func openPassages(t *testing.T, db *bun.DB) search.PassageSearcher {
	ctx, cancel := context.WithCancel(context.Background())
	x := embedded.NewPassages(embedded.PassageOptions{Embedder: vectorizer.NewLocal(0), Poll: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err := x.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { x.Follow(ctx, catalog.NewSearchSource(db)); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return x
}

func TestEmbeddedPassages(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) { searchtest.RunPassages(t, db, openPassages) })
}
