package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/embedded"
	"shopbot/catalog/search/indexer"
	"shopbot/catalog/search/vectorizer"
	"shopbot/catalog/search/weaviate"
	"shopbot/engine/toolkit"
	"shopbot/migrations"
)

// searchBackend is the configured search and how to describe it. The
// embedded index is always built: it is the default backend, and with
// SEARCH_BACKEND=weaviate it analyzes queries for Weaviate (stems,
// synonyms, typos) and answers while Weaviate is unreachable.
type searchBackend struct {
	search.Searcher
	index    *embedded.Index
	weaviate *weaviate.Backend // nil unless SEARCH_BACKEND=weaviate
	embedder string
	alpha    float64
	outbox   *indexer.Metrics
	log      *slog.Logger
	pins     *pinSource // the merchant's search pins, read once load has the database

	// The shop's pages (passages): their own embedded index, always
	// built; with Weaviate also its passage collection, which the
	// embedded one backs up. pages is what search_shop_info searches.
	pages         toolkit.PassageSearcher
	pageIndex     *embedded.Passages
	weaviatePages *weaviate.Passages
}

// newSearch builds the configured backend, empty until load is called;
// its metrics go to reg.
func newSearch(cfg *Config, log *slog.Logger, reg prometheus.Registerer) (*searchBackend, error) {
	return newSearchVia(cfg, log, reg, nil)
}

// newSearchVia is newSearch with Weaviate's REST calls carried by
// transport (nil: Go's default), which serve wraps to trace them.
func newSearchVia(cfg *Config, log *slog.Logger, reg prometheus.Registerer, transport http.RoundTripper) (*searchBackend, error) {
	opts := embedded.Options{Logger: log, Alpha: &cfg.search.alpha}
	switch cfg.Embeddings {
	case "openai":
		opts.Embedder = vectorizer.NewOpenAI(vectorizer.OpenAIConfig{APIKey: cfg.OpenAIAPIKey, BaseURL: cfg.OpenAIBaseURL})
	default:
		opts.Embedder = vectorizer.NewLocal(0)
	}
	idx := embedded.New(opts)
	m := search.NewMetrics(reg)
	s := &searchBackend{index: idx, embedder: opts.Embedder.Name(), alpha: cfg.search.alpha,
		outbox: indexer.NewMetrics(reg), log: log,
		Searcher: search.NewMeasured(search.Named{Name: "embedded", Searcher: idx}, m)}
	// The local embedder learns from the texts it is fitted on: the pages
	// get one of their own, so fitting it on them moves no product vector.
	pageEmb := opts.Embedder
	if _, learns := pageEmb.(*vectorizer.Local); learns {
		pageEmb = vectorizer.NewLocal(0)
	}
	s.pageIndex = embedded.NewPassages(embedded.PassageOptions{Embedder: pageEmb, Alpha: &cfg.search.alpha, Logger: log})
	s.pages = s.pageIndex
	s.pins = &pinSource{}
	if cfg.SearchBackend != "weaviate" {
		s.Searcher = search.Pinned{Searcher: s.Searcher, Pins: s.pins}
		return s, nil
	}
	wv, err := weaviate.New(weaviate.Config{URL: cfg.WeaviateURL, APIKey: cfg.WeaviateAPIKey, GRPCAddr: cfg.WeaviateGRPC,
		Embedder: opts.Embedder, Expander: idx, Alpha: cfg.search.alpha, Logger: log, Transport: transport})
	if err != nil {
		return nil, usagef("%v", err)
	}
	s.weaviate = wv
	if s.weaviatePages, err = wv.Passages(weaviate.PassageConfig{Embedder: pageEmb, Expander: s.pageIndex}); err != nil {
		return nil, usagef("%v", err)
	}
	s.pages = search.PassageFallback{Primary: s.weaviatePages, Secondary: s.pageIndex, Logger: log}
	s.Searcher = search.NewFallback(search.Named{Name: "weaviate", Searcher: wv}, search.Named{Name: "embedded", Searcher: idx},
		search.FallbackConfig{Logger: log, Metrics: m})
	s.Searcher = search.Pinned{Searcher: s.Searcher, Pins: s.pins}
	return s, nil
}

// load builds the embedded index from the database and keeps it current
// until ctx ends: Follow polls the catalog's change feed (products'
// updated_at, which every catalog write bumps), so every replica's index
// sees every change. With Weaviate, a feed worker in every replica
// follows the same feed into the shared collection from a cursor stored
// in the database (indexer.Worker). An empty Weaviate collection is
// filled first.
func (s *searchBackend) load(ctx context.Context, db *bun.DB, log *slog.Logger) error {
	s.pins.db.Store(db)
	src := catalog.NewSearchSource(db)
	start := time.Now()
	if err := s.index.Rebuild(ctx, src); err != nil {
		return fmt.Errorf("build search index: %w", err)
	}
	log.DebugContext(ctx, "search index built", "products", s.index.Len(), "took", time.Since(start))
	go s.index.Follow(ctx, src)
	if err := s.pageIndex.Rebuild(ctx, src); err != nil {
		return fmt.Errorf("build page index: %w", err)
	}
	go s.pageIndex.Follow(ctx, src)
	if s.weaviate != nil {
		wcfg := indexer.Config{Logger: log, Metrics: s.outbox}
		// Under the migration lock: replicas starting together on an
		// empty collection fill it once, and two rebuilds cannot delete
		// each other's objects as stale.
		wcfg.Passages = s.weaviatePages
		fill := func(ctx context.Context, db bun.IDB) error { s.fillWeaviate(ctx, db); return nil }
		if _, _, err := migrations.Setup(ctx, db, fill); err != nil {
			return fmt.Errorf("fill weaviate: %w", err)
		}
		w := indexer.New(db, s.weaviate, wcfg)
		go func() { _ = w.Run(ctx) }()
	}
	return nil
}

// fillWeaviate rebuilds an empty collection (a first start); with
// Weaviate unreachable it warns and leaves the searches to the fallback.
func (s *searchBackend) fillWeaviate(ctx context.Context, idb bun.IDB) {
	db := catalog.NewSearchSource(idb)
	n, err := s.weaviate.Count(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "weaviate unreachable at startup; searching the embedded index until it is back", "err", err)
		return
	}
	// The pages are few: their collection is rewritten at every start.
	if err := s.weaviatePages.Rebuild(ctx, db); err != nil {
		s.log.WarnContext(ctx, "weaviate: writing the shop's pages failed; searching the embedded page index", "err", err)
	}
	if n > 0 || s.index.Len() == 0 {
		return
	}
	start := time.Now()
	if err := s.weaviate.Rebuild(ctx, db, nil); err != nil {
		s.log.WarnContext(ctx, "weaviate: filling the empty collection failed; run shopbot reindex", "err", err)
		return
	}
	// The feed worker resumes from the fill's start, not the feed's.
	if err := indexer.SetCursor(ctx, idb, "", start); err != nil {
		s.log.WarnContext(ctx, "weaviate: saving the feed cursor failed; the feed worker re-reads the catalog", "err", err)
	}
	s.log.InfoContext(ctx, "weaviate: collection filled", "collection", s.weaviate.Collection(), "took", time.Since(start).Round(time.Millisecond))
}

// configured is the configured backend itself, without the fallback:
// search-eval measures it, so an outage shows as errors and slow queries
// as latency instead of hiding behind the embedded index.
func (s *searchBackend) configured() search.Searcher {
	if s.weaviate != nil {
		return s.weaviate
	}
	return s.Searcher
}

func (s *searchBackend) String() string {
	if s.weaviate != nil {
		return fmt.Sprintf("weaviate (collection %s, %s vectors, alpha %.2f; fed by the change feed; falls back to the embedded index of %d products)",
			s.weaviate.Collection(), s.embedder, s.alpha, s.index.Len())
	}
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
	if _, err := prepare(ctx, db, cfg.demo); err != nil {
		s.close()
		return nil, fmt.Errorf("prepare %s: %w", info, err)
	}
	if s.search, err = newSearch(cfg, log, prometheus.NewRegistry()); err == nil {
		err = s.search.load(ctx, db, log)
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}
