package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"github.com/uptrace/bun"
	"golang.org/x/term"

	"shopbot/catalog"
	"shopbot/catalog/importer"
	"shopbot/migrations"
)

// errRowsFailed makes `shopbot import` exit non-zero when any row failed.
var errRowsFailed = errors.New("some rows were not imported")

// importCmd upserts products from a CSV or JSONL file, with a progress bar
// when stderr is a terminal, and reports the first 1,000 failed rows and
// the count of the rest. The run is recorded in import_jobs.
func importCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	batch := fs.Int("batch", 1000, "rows per transaction")
	currency := fs.String("currency", "USD", "currency of rows that name none")
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("import needs exactly one FILE (CSV or JSONL)")
	}
	path := fs.Arg(0)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()

	db, err := openMigrated(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	// The job is recorded like a panel upload, so the panel of any replica
	// lists it with its first errors.
	job, err := importer.StartJob(ctx, db, catalog.ImportJob{FileName: path, SizeBytes: max(size, 0), StartedBy: "shopbot import"}, importer.JobConfig{})
	if err != nil {
		return err
	}
	bar := newProgressBar(e.stderr, size, "importing "+path)
	sum, err := job.Run(ctx, f, importer.Options{
		BatchSize:       *batch,
		DefaultCurrency: *currency,
		Progress:        func(p importer.Progress) { _ = bar.Set64(p.BytesRead) },
	})
	_ = bar.Finish()
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	for _, rowErr := range sum.Errors {
		fmt.Fprintf(e.stderr, "%s: %v\n", path, rowErr)
	}
	if more := sum.MoreErrors(); more > 0 {
		fmt.Fprintf(e.stderr, "%s: … and %d more errors (only the first %d are listed)\n", path, more, len(sum.Errors))
	}
	fmt.Fprintln(e.stdout, sum)
	if sum.Failed > 0 {
		return fmt.Errorf("%s: %d rows failed: %w", path, sum.Failed, errRowsFailed)
	}
	return nil
}

// newProgressBar draws a byte-based bar on a terminal and nothing elsewhere
// (CI logs and pipes stay clean).
func newProgressBar(w io.Writer, size int64, label string) *progressbar.ProgressBar {
	if tf, ok := w.(*os.File); !ok || !term.IsTerminal(int(tf.Fd())) {
		return progressbar.DefaultBytesSilent(size, label)
	}
	return progressbar.NewOptions64(size,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(label),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionShowCount(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		progressbar.OptionFullWidth(),
	)
}

// openMigrated opens the database of url and brings its schema up to date:
// what a command that writes to the shop does first.
func openMigrated(ctx context.Context, url string) (*bun.DB, error) {
	db, info, err := catalog.OpenDB(url)
	if err != nil {
		return nil, err
	}
	if _, _, err := migrations.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate %s: %w", info, err)
	}
	return db, nil
}
