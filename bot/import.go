package main

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"

	"shopbot/catalog"
	"shopbot/catalog/importer"
)

// Errors that make an import command exit non-zero when any row failed.
var (
	errRowsFailed    = errors.New("some rows were not imported")
	errReviewsFailed = errors.New("some reviews were not imported")
	errPagesFailed   = errors.New("some pages were not imported")
)

// importCmd upserts products from a file by SKU (CSV, JSONL, or any format
// the importer detects).
func importCmd(ctx context.Context, e env, args []string) error {
	var batch *int
	var currency *string
	return runImport(ctx, e, args, importSpec{
		name: "import", arg: "FILE", kind: catalog.ImportProducts, failed: errRowsFailed,
		usage: "Usage: shopbot import [flags] FILE  (CSV with a header row, or JSONL)",
		flags: func(fs *flag.FlagSet) {
			batch = fs.Int("batch", 1000, "rows per transaction")
			currency = fs.String("currency", "USD", "currency of rows that name none")
		},
		options: func(o *importer.Options) { o.BatchSize, o.DefaultCurrency = *batch, *currency },
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
