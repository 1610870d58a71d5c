package demo

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/importer"
)

//go:embed pages/*.md
var pageFiles embed.FS

// Pages parses the demo shop's pages (returns, shipping, payment,
// warranty, contact, about), written as `shopbot import-pages` reads them.
func Pages() ([]catalog.PageInput, error) {
	names, err := fs.Glob(pageFiles, "pages/*.md")
	if err != nil {
		return nil, err
	}
	out := make([]catalog.PageInput, 0, len(names))
	for _, name := range names {
		b, err := pageFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		in, err := importer.ParsePage(name, b)
		if err != nil {
			return nil, fmt.Errorf("demo: %s: %w", name, err)
		}
		out = append(out, in)
	}
	return out, nil
}

// writePages saves the demo pages the shop has not got (a merchant's own
// page of the same slug is left alone) and returns their slugs.
func writePages(ctx context.Context, tx bun.IDB) ([]string, error) {
	pages, err := Pages()
	if err != nil {
		return nil, err
	}
	var created []string
	for _, p := range pages {
		if _, err := catalog.GetPage(ctx, tx, p.Slug); err == nil {
			continue
		} else if !errors.Is(err, catalog.ErrNotFound) {
			return nil, err
		}
		if _, err := catalog.UpsertPage(ctx, tx, p); err != nil {
			return nil, err
		}
		created = append(created, p.Slug)
	}
	return created, nil
}
