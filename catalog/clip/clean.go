package clip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes text from outside safe to store and show: invalid UTF-8
// becomes U+FFFD, NUL and the other control characters are dropped except
// newline and tab, and the result is cut to max runes (max <= 0: no
// bound). Postgres refuses NUL in text, so one such byte must never reach
// the database. The engine applies it to every field of a turn
// (engine.Handle), the admin to every form field.
func Clean(s string, max int) string {
	return clean(s, max, true)
}

// CleanLine is Clean for one-line fields (names, locales, handles):
// newlines and tabs become spaces, surrounding space is trimmed.
func CleanLine(s string, max int) string {
	return strings.TrimSpace(clean(s, max, false))
}

func clean(s string, max int, multiline bool) string {
	if IsClean(s, multiline) && (max <= 0 || utf8.RuneCountInString(s) <= max) {
		return s // the common case: no allocation
	}
	var b strings.Builder
	b.Grow(len(s))
	n := 0
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if max > 0 && n == max {
			break
		}
		switch {
		case r == '\n' || r == '\t':
			if !multiline {
				r = ' '
			}
		case unicode.IsControl(r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// IsClean reports whether Clean (multiline) or CleanLine (not) would leave
// s as it is but for a length cut.
func IsClean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t')) {
			return false
		}
		i += size
	}
	return true
}
