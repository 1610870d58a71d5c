package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/uptrace/bun"
	"golang.org/x/term"

	"shopbot/catalog"
	"shopbot/catalog/importer"
	"shopbot/migrations"
)

// errRowsFailed makes `shopbot import` exit non-zero when any row failed.
var errRowsFailed = errors.New("some rows were not imported")

// importCmd upserts products from a product file (Shopbot CSV or JSONL, a
// Shopify or WooCommerce export, a Google Merchant Center feed), with a
// progress bar when stderr is a terminal, and reports the first 1,000
// failed rows and the count of the rest. The run is recorded in
// import_jobs. With --dry-run it reports what the import would do (the
// column mapping, the first rows, new, changed, unchanged and refused
// counts and the changes) and writes nothing, not even a job.
func importCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	batch := fs.Int("batch", 1000, "rows per transaction")
	currency := fs.String("currency", "USD", "currency of rows that name none")
	dryRun := fs.Bool("dry-run", false, "report what the import would do and change nothing")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "Usage: shopbot import [flags] FILE  (Shopbot CSV or JSONL, Shopify or WooCommerce CSV export, Google Merchant Center XML or TSV feed)")
		fs.PrintDefaults()
	}
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
	if *dryRun {
		return dryRunImport(ctx, e, db, f, path, importer.Options{BatchSize: *batch, DefaultCurrency: *currency, DryRun: true})
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
	if len(sum.Mapping.Ignored) > 0 {
		fmt.Fprintf(e.stderr, "%s: %s; ignored columns: %s\n", path, sum.Format.Label(), strings.Join(sum.Mapping.Ignored, ", "))
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

// dryRunImport prints what importing f would do: the format and column
// mapping, the first rows as mapped, the counts and the changes.
func dryRunImport(ctx context.Context, e env, db *bun.DB, f io.Reader, path string, opts importer.Options) error {
	sum, err := importer.Import(ctx, db, f, path, opts)
	if err != nil {
		return fmt.Errorf("dry run %s: %w", path, err)
	}
	out := e.stdout
	fmt.Fprintf(out, "%s: %s (nothing was changed)\n\ncolumns:\n", path, sum.Format.Label())
	for _, c := range sum.Mapping.Columns {
		fmt.Fprintf(out, "  %-32s → %s\n", c.Column, c.Field)
	}
	if len(sum.Mapping.Ignored) > 0 {
		fmt.Fprintf(out, "ignored: %s\n", strings.Join(sum.Mapping.Ignored, ", "))
	}
	fmt.Fprintln(out, "\nfirst rows:")
	for _, r := range sum.Sample {
		fmt.Fprintf(out, "  line %d: %s %q %s %s stock %d", r.Line, r.SKU, r.Title, r.Options, r.Price, r.Stock)
		if r.VariantOf != "" {
			fmt.Fprintf(out, " (variant of %s)", r.VariantOf)
		}
		fmt.Fprintln(out)
	}
	if len(sum.Changes) > 0 {
		fmt.Fprintln(out, "\nwould change:")
		for _, c := range sum.Changes {
			fmt.Fprintf(out, "  %s %s: %s → %s\n", c.SKU, c.Field, c.Old, c.New)
		}
	}
	for _, rowErr := range sum.Errors {
		fmt.Fprintf(e.stderr, "%s: %v\n", path, rowErr)
	}
	fmt.Fprintf(out, "\n%s\n", sum)
	if sum.Failed > 0 {
		return fmt.Errorf("%s: %d rows would be refused: %w", path, sum.Failed, errRowsFailed)
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
