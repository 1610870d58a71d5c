package catalog

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// ParsePageFile reads a page from a Markdown file (shopbot import-pages,
// the demo shop): the file name without ".md" is the slug, the first line
// starting with "# " is the title, and the rest is the body. Errors wrap
// ErrInvalid and say what is wrong in the shopkeeper's terms.
func ParsePageFile(name string, data []byte) (PageInput, error) {
	slug := strings.TrimSuffix(filepath.Base(name), ".md")
	switch {
	case len(data) > MaxPageBody:
		return PageInput{}, fmt.Errorf("%w: too big: %d bytes, at most %d", ErrInvalid, len(data), MaxPageBody)
	case !utf8.Valid(data):
		return PageInput{}, fmt.Errorf("%w: not valid UTF-8 text", ErrInvalid)
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if title, ok := strings.CutPrefix(l, "# "); ok {
			body := strings.Join(append(lines[:i:i], lines[i+1:]...), "\n")
			in := PageInput{Slug: slug, Title: title, Body: strings.TrimSpace(body) + "\n"}
			return in, in.Validate()
		}
	}
	return PageInput{}, fmt.Errorf("%w: no title: the file needs a line starting with \"# \"", ErrInvalid)
}
