package main

import (
	"context"
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

// importSpec is one import command: what it reads and how.
type importSpec struct {
	name, arg, usage string
	kind             string // catalog.ImportProducts, ImportReviews or ImportPages
	failed           error  // wrapped when any row failed
	flags            func(*flag.FlagSet)
	options          func(*importer.Options) // applies the flags, after parsing
	dryRun           func() bool             // after parsing: report, write nothing
	open             func(path string) (source, error)
	run              func(ctx context.Context, job *importer.Job, src source, opts importer.Options) (importer.Summary, error)
}

// runImport is every import command: flags and config, the source, the
// migrated database, a job recorded in import_jobs like a panel upload
// (so the panel of any replica lists it with its first errors), a
// progress bar when stderr is a terminal, then the first 1,000 row errors
// and the count of the rest on stderr and the summary on stdout.
func runImport(ctx context.Context, e env, args []string, spec importSpec) error {
	fs := flag.NewFlagSet(spec.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if spec.flags != nil {
		spec.flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, spec.usage)
		fs.PrintDefaults()
	}
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("%s needs exactly one %s", spec.name, spec.arg)
	}
	path := fs.Arg(0)
	src, err := spec.open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	db, err := openMigrated(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if spec.dryRun != nil && spec.dryRun() {
		opts := importer.Options{DryRun: true}
		spec.options(&opts)
		return dryRunImport(ctx, e, db, src.file, path, opts)
	}
	job, err := importer.StartJob(ctx, db, catalog.ImportJob{Kind: spec.kind, FileName: path,
		SizeBytes: max(src.size, 0), StartedBy: "shopbot " + spec.name}, importer.JobConfig{})
	if err != nil {
		return err
	}
	bar := newProgressBar(e.stderr, src.size, "importing "+path)
	opts := importer.Options{Progress: func(p importer.Progress) { _ = bar.Set64(p.BytesRead) }}
	if spec.options != nil {
		spec.options(&opts)
	}
	sum, err := spec.run(ctx, job, src, opts)
	_ = bar.Finish()
	if err != nil {
		return fmt.Errorf("%s %s: %w", spec.name, path, err)
	}
	return report(e, path, sum, spec.failed)
}

// report prints an import's ignored columns, row errors and summary.
func report(e env, path string, sum importer.Summary, failed error) error {
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
		return fmt.Errorf("%s: %d rows failed: %w", path, sum.Failed, failed)
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
