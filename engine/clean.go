package engine

import (
	"fmt"
	"shopbot/catalog/clip"
	"unicode/utf8"
)

// Bounds of a turn's fields, in runes (maxTurnText bounds Text in bytes).
const (
	maxNameRunes   = 200 // UserName, Username
	maxLocaleRunes = 16
	maxIDRunes     = 128 // ChatID, ThreadID, UserID, DedupKey, action SKU and Arg
)

// cleanTurn cleans every string field of a turn in place: free text is
// cleaned and bounded; identifiers, which name a customer or a chat and so
// must not be altered into someone else's, are refused when they hold
// control characters or invalid UTF-8, or are too long.
func cleanTurn(t *Turn) error {
	t.Text = clip.Clean(t.Text, 0)
	t.UserName = clip.CleanLine(t.UserName, maxNameRunes)
	t.Username = clip.CleanLine(t.Username, maxNameRunes)
	t.Locale = clip.CleanLine(t.Locale, maxLocaleRunes)
	for _, f := range []struct{ name, v string }{
		{"channel", t.Channel}, {"chat id", t.ChatID}, {"thread id", t.ThreadID},
		{"user id", t.UserID}, {"dedup key", t.DedupKey},
	} {
		if !clip.IsClean(f.v, false) || utf8.RuneCountInString(f.v) > maxIDRunes {
			return fmt.Errorf("%w: %s must be at most %d characters without control characters", ErrBadTurn, f.name, maxIDRunes)
		}
	}
	if t.Action != nil {
		a := *t.Action // the adapter's copy stays as it was
		a.SKU = clip.CleanLine(a.SKU, maxIDRunes)
		a.Arg = clip.CleanLine(a.Arg, maxIDRunes)
		t.Action = &a
	}
	return nil
}
