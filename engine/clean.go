package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of a turn's fields, in runes (maxTurnText bounds Text in bytes).
const (
	maxNameRunes   = 200 // UserName, Username
	maxLocaleRunes = 16
	maxIDRunes     = 128 // ChatID, ThreadID, UserID, DedupKey, action SKU and Arg
)

// CleanText makes text from outside safe to store and show: invalid UTF-8
// becomes U+FFFD, NUL and the other control characters are dropped except
// newline and tab, and the result is cut to max runes (max <= 0: no
// bound). Postgres refuses NUL in text, so one such byte must never reach
// the database. Adapters apply it where they first read a field; Handle
// applies it again to every Turn field.
func CleanText(s string, max int) string {
	return clean(s, max, true)
}

// CleanLine is CleanText for one-line fields (names, locales, handles):
// newlines and tabs become spaces, surrounding space is trimmed.
func CleanLine(s string, max int) string {
	return strings.TrimSpace(clean(s, max, false))
}

func clean(s string, max int, multiline bool) string {
	if isClean(s, multiline) && (max <= 0 || utf8.RuneCountInString(s) <= max) {
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

// isClean reports whether s needs no change but a length cut.
func isClean(s string, multiline bool) bool {
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

// cleanTurn cleans every string field of a turn in place: free text is
// cleaned and bounded; identifiers, which name a customer or a chat and so
// must not be altered into someone else's, are refused when they hold
// control characters or invalid UTF-8, or are too long.
func cleanTurn(t *Turn) error {
	t.Text = CleanText(t.Text, 0)
	t.UserName = CleanLine(t.UserName, maxNameRunes)
	t.Username = CleanLine(t.Username, maxNameRunes)
	t.Locale = CleanLine(t.Locale, maxLocaleRunes)
	for _, f := range []struct{ name, v string }{
		{"channel", t.Channel}, {"chat id", t.ChatID}, {"thread id", t.ThreadID},
		{"user id", t.UserID}, {"dedup key", t.DedupKey},
	} {
		if !isClean(f.v, false) || utf8.RuneCountInString(f.v) > maxIDRunes {
			return fmt.Errorf("%w: %s must be at most %d characters without control characters", ErrBadTurn, f.name, maxIDRunes)
		}
	}
	if t.Action != nil {
		a := *t.Action // the adapter's copy stays as it was
		a.SKU = CleanLine(a.SKU, maxIDRunes)
		a.Arg = CleanLine(a.Arg, maxIDRunes)
		t.Action = &a
	}
	return nil
}
