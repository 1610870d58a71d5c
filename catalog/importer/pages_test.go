package importer_test

import (
	"errors"
	"strings"
	"testing"

	"shopbot/catalog"
	"shopbot/catalog/importer"
)

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
