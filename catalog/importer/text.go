package importer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"shopbot/catalog/clip"
)

// Text hygiene. A field of an import file may carry bytes that break later
// use of the product: Postgres refuses NUL in text, control characters
// garble the panel and the chat, and invalid UTF-8 cannot be stored or
// shown. The importer's choice:
//
//   - NUL and every other control character are stripped from every field
//     (cleanField); a description keeps its line breaks and tabs, a
//     one-line field (sku, title, brand, ...) turns them into spaces. The
//     row is imported: the characters are invisible and carry no meaning.
//   - Invalid UTF-8 makes the row fail with a clear reason ("save the file
//     as UTF-8"): replacing the bytes would silently turn "Café" in a
//     Latin-1 file into "Caf\uFFFD", so the merchant is told instead.
//
// Text the importer echoes back (row errors) goes through displayText, so
// a 1 MB cell or a NUL never reaches the result page, the terminal or the
// import_job_errors table.

// Bounds of the echoed text of a row error, in runes. With HTML escaping
// (at most 5 bytes a rune) 1,000 kept errors stay well under 1 MB of page.
const (
	maxReasonRunes = 120
	maxSKURunes    = 40
)

// cleanField strips NUL and other control characters. multiline keeps
// '\n' and '\t'; otherwise they become spaces. The string must be valid
// UTF-8 (checked by the readers first).
func cleanField(s string, multiline bool) string {
	if !needsCleaning(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			if multiline {
				return r
			}
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// needsCleaning is the fast path: plain text has no control characters.
func needsCleaning[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == 0x7f || b == 0xc2 { // 0xc2 leads U+0080–U+009F
			return true
		}
	}
	return false
}

// displayText makes text safe to echo: invalid UTF-8 replaced, control
// characters stripped, cut to max runes (with "…").
func displayText(s string, max int) string {
	if len(s) > 4*max+4 {
		s = s[:4*max+4] // no need to scan a 1 MB cell to keep max runes of it
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return clip.Shorten(cleanField(s, false), max)
}

// invalidUTF8 names the first field of fields that is not valid UTF-8.
func invalidUTF8(names []string, fields []string) (string, bool) {
	for i, f := range fields {
		if !utf8.ValidString(f) {
			if i < len(names) && names[i] != "" {
				return names[i], true
			}
			return "", true
		}
	}
	return "", false
}
