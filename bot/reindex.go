package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/schollz/progressbar/v3"
	"github.com/uptrace/bun"
	"golang.org/x/term"

	"shopbot/catalog"
	"shopbot/catalog/search/indexer"
)

// reindexCmd rebuilds the configured search backend from the database:
// the Weaviate collection (with a progress bar on a terminal), or, for
// the embedded index, which every process builds at startup, a build that
// checks the catalog indexes and reports how long it takes.
func reindexCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("reindex", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("reindex takes no arguments")
	}
	log := e.logger(slog.LevelWarn)
	db, info, err := catalog.OpenDB(cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	s, err := newSearch(&cfg, log, prometheus.NewRegistry())
	if err != nil {
		return err
	}
	if s.weaviate == nil {
		if _, err := prepare(ctx, db, cfg.demo); err != nil { // as serve: migrations, the demo catalog into an empty database
			return fmt.Errorf("prepare %s: %w", info, err)
		}
		start := time.Now()
		if err := s.index.Rebuild(ctx, catalog.NewSearchSource(db)); err != nil {
			return fmt.Errorf("reindex: %w", err)
		}
		fmt.Fprintf(e.stdout, "embedded index: %d products in %s (each shopbot process builds it at startup)\n",
			s.index.Len(), time.Since(start).Round(time.Millisecond))
		return nil
	}
	// The rebuild is first-start work: under the lock serve takes to
	// migrate and fill an empty collection (migrations.Setup), so that a
	// reindex and a replica starting, or two reindexes, never rebuild at
	// once and delete each other's objects as stale.
	var summary string
	rebuild := func(ctx context.Context, db bun.IDB) (err error) {
		summary, err = rebuildWeaviate(ctx, e, db, s)
		return err
	}
	if _, err := prepare(ctx, db, cfg.demo, rebuild); err != nil {
		if errors.Is(err, errReindex) {
			return err
		}
		return fmt.Errorf("prepare %s: %w", info, err)
	}
	fmt.Fprintln(e.stdout, summary)
	return nil
}

// errReindex marks a failure of the rebuild itself (not of preparing the
// database).
var errReindex = errors.New("reindex")

// rebuildWeaviate rebuilds the Weaviate collections from db, under the
// first-start lock, and says what it did.
func rebuildWeaviate(ctx context.Context, e env, db bun.IDB, s *searchBackend) (string, error) {
	start := time.Now()
	src := catalog.NewSearchSource(db)
	var bar *progressbar.ProgressBar
	err := s.weaviate.Rebuild(ctx, src, func(done, total int) {
		if bar == nil {
			bar = newCountBar(e.stderr, total, "indexing into weaviate")
		}
		_ = bar.Set(done)
	})
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return "", fmt.Errorf("%w: %w", errReindex, err)
	}
	// The shop's pages too (their embedder is fitted on them first), since
	// the feed cursor moved below covers the pages' changes too.
	if err := s.pageIndex.Rebuild(ctx, src); err != nil {
		return "", fmt.Errorf("%w: pages: %w", errReindex, err)
	}
	if err := s.weaviatePages.Rebuild(ctx, src); err != nil {
		return "", fmt.Errorf("%w: pages: %w", errReindex, err)
	}
	took := time.Since(start)
	// Changes made before the rebuild read the catalog are in it now: the
	// followers resume from its start.
	if err := indexer.SetCursor(ctx, db, "", start); err != nil {
		return "", fmt.Errorf("%w: feed cursor: %w", errReindex, err)
	}
	n, err := s.weaviate.Count(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errReindex, err)
	}
	return fmt.Sprintf("weaviate collection %s: %d products in %s (%s vectors); the change feed resumes from the rebuild's start",
		s.weaviate.Collection(), n, took.Round(time.Millisecond), s.embedder), nil
}

// newCountBar draws a product-count bar on a terminal and nothing
// elsewhere (CI logs and pipes stay clean).
func newCountBar(w io.Writer, total int, label string) *progressbar.ProgressBar {
	if tf, ok := w.(*os.File); !ok || !term.IsTerminal(int(tf.Fd())) {
		return progressbar.DefaultSilent(int64(total), label)
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		progressbar.OptionFullWidth(),
	)
}
