package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// errPagesFailed makes `shopbot import-pages` exit non-zero when a file
// failed.
var errPagesFailed = errors.New("some pages were not imported")

// importPagesCmd saves every *.md file of a directory as a shop page
// (catalog.ParsePageFile: the file name is the slug, the first "# " line
// the title), creating or updating it by slug, each page in its own
// transaction: a bad file is listed and skipped, the others are saved.
func importPagesCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("import-pages", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfg, err := loadConfig(fs, args, e.getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("import-pages needs exactly one DIR")
	}
	dir := fs.Arg(0)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("import-pages: %s is not a directory", dir)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	db, err := openMigrated(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var imported, updated, failed int
	for _, path := range files {
		created, err := importPage(ctx, db, path)
		switch {
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			failed++
			fmt.Fprintf(e.stderr, "%s: %v\n", filepath.Base(path), err)
		case created:
			imported++
		default:
			updated++
		}
	}
	fmt.Fprintf(e.stdout, "imported %d, updated %d, failed %d\n", imported, updated, failed)
	if failed > 0 {
		return fmt.Errorf("%s: %d of %d pages failed: %w", dir, failed, len(files), errPagesFailed)
	}
	return nil
}

// importPage reads one file (refusing one too big before reading it all)
// and saves it.
func importPage(ctx context.Context, db bun.IDB, path string) (created bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, catalog.MaxPageBody+1))
	if err != nil {
		return false, err
	}
	in, err := catalog.ParsePageFile(path, data)
	if err != nil {
		return false, err
	}
	return catalog.UpsertPage(ctx, db, in)
}
