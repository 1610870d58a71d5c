package importer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/importer"
)

// TestImportPages: good files become pages, bad ones (no title, a bad
// slug, too big, invalid UTF-8) are listed by name and reason and change
// nothing, other files are ignored, and a second run updates by slug.
func TestImportPages(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		dir := fstest.MapFS{
			"returns.md":  {Data: []byte("# Returns\n\nThirty days.\n")},
			"shipping.md": {Data: []byte("Preface.\n# Shipping\n\n## Countries\n\nCanada.\n")},
			"notes.txt":   {Data: []byte("not a page")},
			"untitled.md": {Data: []byte("## Only a subheading\n")},
			"Bad_Slug.md": {Data: []byte("# Bad\n")},
			"huge.md":     {Data: []byte("# Huge\n" + strings.Repeat("x", catalog.MaxPageBody))},
			"latin1.md":   {Data: []byte("# Caf\xe9\n")},
		}
		sum, err := importer.ImportPages(ctx, db, dir, importer.Options{})
		if err != nil || sum.String() != "imported 2, updated 0, failed 4" || sum.Rows != 6 {
			t.Fatalf("first run: %v, %v", sum, err)
		}
		errs := rowErrors(sum)
		for _, want := range []string{"untitled.md: invalid input: no title", "Bad_Slug.md: invalid input: slug", "huge.md: invalid input: too big", "latin1.md: invalid input: not valid UTF-8"} {
			if !strings.Contains(errs, want) {
				t.Errorf("errors lack %q:\n%s", want, errs)
			}
		}
		dir["returns.md"] = &fstest.MapFile{Data: []byte("# Returns and refunds\n\nSixty days now.\n")}
		for _, bad := range []string{"untitled.md", "Bad_Slug.md", "huge.md", "latin1.md"} {
			delete(dir, bad)
		}
		if sum, err := importer.ImportPages(ctx, db, dir, importer.Options{}); err != nil || sum.String() != "imported 0, updated 2, failed 0" || len(sum.Errors) != 0 {
			t.Fatalf("re-import: %v, %v", sum, err)
		}
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
	})
}

func TestParsePage(t *testing.T) {
	in, err := importer.ParsePage("dir/returns.md", []byte("\uFEFFIntro kept.\r\n# Returns policy\r\n\r\nBody.\r\n## More\r\n"))
	if err != nil || in.Slug != "returns" || in.Title != "Returns policy" || in.Body != "Intro kept.\n\nBody.\n## More\n" {
		t.Errorf("got %+v, %v", in, err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"a.md", "no title here\n## Sub", "no title"},
		{"a.md", "#NoSpace", "no title"},
		{"Bad_Slug.md", "# T", "slug"},
		{"a.md", "# T\n\xff\xfe", "UTF-8"},
		{"a.md", "# T\n" + strings.Repeat("x", catalog.MaxPageBody), "too big"},
		{"a.md", "# T\n" + strings.Repeat("\x00\x01x", 20), "binary data"},
	} {
		if _, err := importer.ParsePage(tc.name, []byte(tc.data)); !errors.Is(err, catalog.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %.20q: %v, want %q", tc.name, tc.data, err, tc.want)
		}
	}
}
