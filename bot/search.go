package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search/embed"
	"shopbot/catalog/search/embedded"
	"shopbot/engine"
)

// searchBackend is the configured search and how to describe it.
type searchBackend struct {
	engine.Searcher
	index    *embedded.Index
	embedder string
	alpha    float64
}

// newSearch builds the configured backend, empty until load is called.
func newSearch(cfg *Config, log *slog.Logger) (*searchBackend, error) {
	if cfg.SearchBackend == "weaviate" {
		return nil, usagef("SEARCH_BACKEND=weaviate is not available in this build yet; use embedded")
	}
	opts := embedded.Options{Logger: log, Alpha: &cfg.search.alpha}
	switch cfg.Embeddings {
	case "openai":
		opts.Embedder = embed.NewOpenAI(embed.OpenAIConfig{APIKey: cfg.OpenAIAPIKey, BaseURL: cfg.OpenAIBaseURL})
	default:
		opts.Embedder = embed.NewLocal(0)
	}
	idx := embedded.New(opts)
	return &searchBackend{Searcher: idx, index: idx, embedder: opts.Embedder.Name(), alpha: cfg.search.alpha}, nil
}

// load builds the index from the database and keeps it current until ctx
// ends (every catalog write bumps products.updated_at, which Follow polls).
func (s *searchBackend) load(ctx context.Context, db *bun.DB, log *slog.Logger) error {
	start := time.Now()
	if err := s.index.Rebuild(ctx, db); err != nil {
		return fmt.Errorf("build search index: %w", err)
	}
	log.DebugContext(ctx, "search index built", "products", s.index.Len(), "took", time.Since(start))
	go func() {
		if err := s.index.Follow(ctx, db); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "search index stopped following the catalog", "err", err)
		}
	}()
	return nil
}

func (s *searchBackend) String() string {
	return fmt.Sprintf("embedded hybrid index (%d products, %s vectors, alpha %.2f, kept current from the database)", s.index.Len(), s.embedder, s.alpha)
}

// shop is a prepared database with its search index, for the commands that
// run the shop without serving it (chat, search-eval).
type shop struct {
	db     *bun.DB
	info   catalog.DBInfo
	search *searchBackend
	close  func()
}

// openShop opens and prepares the database (migrations, demo catalog) and
// builds the search index, which follows the catalog until close.
func openShop(ctx context.Context, cfg *Config, log *slog.Logger) (*shop, error) {
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &shop{db: db, info: info, close: func() { cancel(); db.Close() }}
	if _, err := prepare(ctx, db); err != nil {
		s.close()
		return nil, fmt.Errorf("prepare %s: %w", info, err)
	}
	if s.search, err = newSearch(cfg, log); err == nil {
		err = s.search.load(ctx, db, log)
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}
