package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/importer"

	"github.com/uptrace/bun"
)

// Errors that make an import command exit non-zero when any row failed.
var (
	errRowsFailed    = errors.New("some rows were not imported")
	errReviewsFailed = errors.New("some reviews were not imported")
	errPagesFailed   = errors.New("some pages were not imported")
)

// importCmd upserts products from a product file by SKU (Shopbot CSV or
// JSONL, a Shopify or WooCommerce export, a Google Merchant Center feed).
// With --dry-run it reports what the import would do (the column mapping,
// the first rows, new, changed, unchanged and refused counts and the
// changes) and writes nothing, not even a job.
func importCmd(ctx context.Context, e env, args []string) error {
	var batch *int
	var currency *string
	var dryRun *bool
	return runImport(ctx, e, args, importSpec{
		name: "import", arg: "FILE", kind: catalog.ImportProducts, failed: errRowsFailed,
		usage: "Usage: shopbot import [flags] FILE  (Shopbot CSV or JSONL, Shopify or WooCommerce CSV export, Google Merchant Center XML or TSV feed)",
		flags: func(fs *flag.FlagSet) {
			batch = fs.Int("batch", 1000, "rows per transaction")
			currency = fs.String("currency", "USD", "currency of rows that name none")
			dryRun = fs.Bool("dry-run", false, "report what the import would do and change nothing")
		},
		options: func(o *importer.Options) { o.BatchSize, o.DefaultCurrency = *batch, *currency },
		dryRun:  func() bool { return *dryRun },
		open:    openFile,
		run: func(ctx context.Context, job *importer.Job, src source, opts importer.Options) (importer.Summary, error) {
			return job.Run(ctx, src.file, opts)
		},
	})
}

// importReviewsCmd adds or updates reviews from a CSV or JSONL file, each
// row in its own transaction; the same file again changes nothing.
func importReviewsCmd(ctx context.Context, e env, args []string) error {
	return runImport(ctx, e, args, importSpec{
		name: "import-reviews", arg: "FILE", kind: catalog.ImportReviews, failed: errReviewsFailed,
		usage: "Usage: shopbot import-reviews [flags] FILE  (CSV or JSONL: sku, rating 1–5, author, title, body, created_at)",
		open:  openFile,
		run: func(ctx context.Context, job *importer.Job, src source, opts importer.Options) (importer.Summary, error) {
			return job.Run(ctx, src.file, opts)
		},
	})
}

// importPagesCmd saves every *.md file of a directory as a shop page by
// slug (the file name), each in its own transaction.
func importPagesCmd(ctx context.Context, e env, args []string) error {
	return runImport(ctx, e, args, importSpec{
		name: "import-pages", arg: "DIR", kind: catalog.ImportPages, failed: errPagesFailed,
		usage: "Usage: shopbot import-pages [flags] DIR  (each DIR/*.md is a page: file name = slug, first '# ' line = title)",
		open: func(path string) (source, error) {
			if st, err := os.Stat(path); err != nil || !st.IsDir() {
				return source{}, usagef("import-pages: %s is not a directory", path)
			}
			dir := os.DirFS(path)
			return source{dir: dir, size: importer.PagesSize(dir)}, nil
		},
		run: func(ctx context.Context, job *importer.Job, src source, opts importer.Options) (importer.Summary, error) {
			return job.RunPages(ctx, src.dir, opts)
		},
	})
}

// openFile opens an import command's FILE.
func openFile(path string) (source, error) {
	f, err := os.Open(path)
	if err != nil {
		return source{}, usagef("%v", err)
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return source{file: f, size: size}, nil
}

// source is what an import command reads: a file or a directory.
type source struct {
	file *os.File
	dir  fs.FS
	size int64 // bytes to read, -1 when unknown
}

func (s source) Close() error {
	if s.file != nil {
		return s.file.Close()
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
