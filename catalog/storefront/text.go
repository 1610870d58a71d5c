package storefront

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// clip cuts s to at most n runes, at a word boundary when one is near,
// with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	if i := strings.LastIndexByte(string(r), ' '); i > len(string(r))*3/4 {
		return strings.TrimRight(string(r)[:i], " ,.;:") + "…"
	}
	return string(r) + "…"
}

// plain is a description as feeds want it: one paragraph of text, runs of
// white space (newlines of a Markdown description included) made one
// space, control characters dropped.
func plain(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 || r == 0x7f
	}), " ")
}

func pathEscape(s string) string  { return url.PathEscape(s) }
func queryEscape(s string) string { return url.QueryEscape(s) }
