package importer

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Markdown is the format of a pages import: a directory of *.md files.
const Markdown Format = "md"

// ImportPages saves every *.md file of fsys's top directory as a shop
// page (ParsePage: the file name is the slug, the first "# " line the
// title), creating or updating it by slug, each page in its own
// transaction: a bad file is counted in the Summary with its name and
// reason (Line 0), the others are saved. Progress counts bytes read.
func ImportPages(ctx context.Context, db bun.IDB, fsys fs.FS, opts Options) (Summary, error) {
	opts = opts.withDefaults()
	imp := &run{opts: opts, sum: Summary{Format: Markdown}}
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return imp.sum, fmt.Errorf("importer: list pages: %w", err)
	}
	slices.Sort(names)
	var read int64
	for _, name := range names {
		imp.sum.Rows++
		created, n, err := importPage(ctx, db, fsys, name)
		read += n
		switch {
		case err != nil && ctx.Err() != nil:
			return imp.sum, ctx.Err()
		case err != nil:
			imp.fail(0, name, err.Error())
		case created:
			imp.sum.Imported++
		default:
			imp.sum.Updated++
		}
		imp.progress(read)
	}
	return imp.sum, nil
}

// PagesSize is the bytes of the *.md files ImportPages would read, for a
// progress bar.
func PagesSize(fsys fs.FS) int64 {
	names, _ := fs.Glob(fsys, "*.md")
	var n int64
	for _, name := range names {
		if st, err := fs.Stat(fsys, name); err == nil {
			n += st.Size()
		}
	}
	return n
}

// importPage reads one file (refusing one too big before reading it all)
// and saves it.
func importPage(ctx context.Context, db bun.IDB, fsys fs.FS, name string) (created bool, n int64, err error) {
	f, err := fsys.Open(name)
	if err != nil {
		return false, 0, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, catalog.MaxPageBody+1))
	if err != nil {
		return false, int64(len(data)), err
	}
	in, err := ParsePage(name, data)
	if err != nil {
		return false, int64(len(data)), err
	}
	created, err = catalog.UpsertPage(ctx, db, in)
	return created, int64(len(data)), err
}

// ParsePage reads a page from a Markdown file (shopbot import-pages, the
// demo shop): the file name without ".md" is the slug, the first line
// starting with "# " is the title, and the rest is the body. Binary data
// is refused like in every import file (openText). Errors wrap
// catalog.ErrInvalid and say what is wrong in the shopkeeper's terms.
func ParsePage(name string, data []byte) (catalog.PageInput, error) {
	slug := strings.TrimSuffix(path.Base(strings.ReplaceAll(name, "\\", "/")), ".md")
	head := data[:min(len(data), sniffSize)]
	switch {
	case len(data) > catalog.MaxPageBody:
		return catalog.PageInput{}, fmt.Errorf("%w: too big: %d bytes, at most %d", catalog.ErrInvalid, len(data), catalog.MaxPageBody)
	case !utf8.Valid(data):
		return catalog.PageInput{}, fmt.Errorf("%w: not valid UTF-8 text", catalog.ErrInvalid)
	case binary(head):
		return catalog.PageInput{}, fmt.Errorf("%w: not a text file (it contains binary data)", catalog.ErrInvalid)
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if title, ok := strings.CutPrefix(l, "# "); ok {
			body := strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
			in := catalog.PageInput{Slug: slug, Title: title, Body: strings.TrimSpace(body) + "\n"}
			return in, in.Validate()
		}
	}
	return catalog.PageInput{}, fmt.Errorf("%w: no title: the file needs a line starting with \"# \"", catalog.ErrInvalid)
}
