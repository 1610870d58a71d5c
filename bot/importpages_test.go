package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"shopbot/catalog"
)

// TestImportPages: good files become pages, bad ones (no title, a bad
// slug, too big, invalid UTF-8) are listed by name and reason and change
// nothing, and a second run updates by slug.
func TestImportPages(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	if err := os.Mkdir(pages, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(pages, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("returns.md", "# Returns\n\nThirty days.\n")
	write("shipping.md", "Preface.\n# Shipping\n\n## Countries\n\nCanada.\n")
	write("notes.txt", "not a page")
	write("untitled.md", "## Only a subheading\n")
	write("Bad_Slug.md", "# Bad\n")
	write("huge.md", "# Huge\n"+strings.Repeat("x", catalog.MaxPageBody))
	write("latin1.md", "# Caf\xe9\n")
	dbURL := "sqlite:" + filepath.Join(dir, "shop.db")
	importPages := func() (string, string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"import-pages", "--database-url", dbURL, pages}, envFunc(nil), nil, &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	out, errOut, err := importPages()
	if !errors.Is(err, errPagesFailed) || out != "imported 2, updated 0, failed 4\n" {
		t.Fatalf("first run: %q, err %v\n%s", out, err, errOut)
	}
	for _, want := range []string{"untitled.md: invalid input: no title", "Bad_Slug.md: invalid input: slug", "huge.md: invalid input: too big", "latin1.md: invalid input: not valid UTF-8"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}

	write("returns.md", "# Returns and refunds\n\nSixty days now.\n")
	for _, bad := range []string{"untitled.md", "Bad_Slug.md", "huge.md", "latin1.md"} {
		if err := os.Remove(filepath.Join(pages, bad)); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, err = importPages(); err != nil || out != "imported 0, updated 2, failed 0\n" || errOut != "" {
		t.Fatalf("re-import: %q, %q, %v", out, errOut, err)
	}
	db, _, err := catalog.OpenDB(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	all, err := catalog.ListPages(ctx, db)
	if err != nil || len(all) != 2 {
		t.Fatalf("pages %+v, %v", all, err)
	}
	p, err := catalog.GetPage(ctx, db, "returns")
	if err != nil || p.Title != "Returns and refunds" || p.Body != "Sixty days now.\n" {
		t.Errorf("returns page %+v, %v", p, err)
	}
	ps, err := catalog.PassagesOf(ctx, db, catalog.PassagePage, "shipping")
	if err != nil || len(ps) != 2 || ps[1].Heading != "Countries" || ps[1].Title != "Shipping" {
		t.Errorf("shipping passages %+v, %v", ps, err)
	}

	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"import-pages", "--database-url", dbURL, filepath.Join(dir, "missing")}, envFunc(nil), nil, &stdout, &stderr); err == nil {
		t.Error("a missing directory imported")
	}
}
