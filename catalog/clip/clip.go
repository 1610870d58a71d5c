package clip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bytes returns s cut to at most n bytes, never inside a UTF-8 sequence:
// it steps back to the start of the character the limit falls in. n <= 0
// gives "".
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Runes returns s cut to at most n runes. A cut replaces invalid UTF-8 in
// what is kept with U+FFFD, as a conversion to []rune does; an uncut s is
// returned as it is. n <= 0 gives "".
func Runes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// Shorten returns s in at most n runes for a reader: when s is longer, its
// first n-1 runes, without the whitespace they end with, and "…". Invalid
// UTF-8 is treated as Runes treats it. n <= 0 gives "".
func Shorten(s string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRightFunc(string(r[:n-1]), unicode.IsSpace) + "…"
}
