package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
)

func TestCleanText(t *testing.T) {
	for _, tc := range []struct {
		in, text, line string
		max            int
	}{
		{in: "plain", text: "plain", line: "plain"},
		{in: "a\x00b", text: "ab", line: "ab"},
		{in: "tab\there\nnext\r\n", text: "tab\there\nnext\n", line: "tab here next"},
		{in: "bad \xff\xfe utf8", text: "bad \uFFFD utf8", line: "bad \uFFFD utf8"},
		{in: "bell\a esc\x1b del\x7f c1\u0085", text: "bell esc del c1", line: "bell esc del c1"},
		{in: "Привет 👋", text: "Привет 👋", line: "Привет 👋"},
		{in: "ЁЁЁЁЁ", max: 3, text: "ЁЁЁ", line: "ЁЁЁ"},
		{in: "\x00\x00", text: "", line: ""},
	} {
		if got := CleanText(tc.in, tc.max); got != tc.text {
			t.Errorf("CleanText(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.text)
		}
		if got := CleanLine(tc.in, tc.max); got != tc.line {
			t.Errorf("CleanLine(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.line)
		}
	}
}

func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "a\x00b", "\xff", "line\nnext\ttab", "Привет", "\u0085\u200b"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		for _, got := range []string{CleanText(s, max), CleanLine(s, max)} {
			if !utf8.ValidString(got) || strings.IndexByte(got, 0) >= 0 {
				t.Fatalf("%q cleaned to %q", s, got)
			}
			if max > 0 && utf8.RuneCountInString(got) > max {
				t.Fatalf("%q cleaned to %q: over %d runes", s, got, max)
			}
			if CleanText(got, max) != got && got == CleanText(s, max) {
				t.Fatalf("CleanText not idempotent on %q", got)
			}
		}
	})
}

// TestTurnFieldsCleaned: a turn whose names and locale hold NUL, control
// characters, invalid UTF-8 or far too many characters is answered, on
// both databases, and what is stored is clean and bounded; later turns of
// the same shopper still answer. Identifiers that would have to be altered
// are refused instead (altering them could name someone else).
func TestTurnFieldsCleaned(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		env := newTestEnvOn(t, db)
		eng, err := New(Config{DB: env.db, Search: searchtest.NewDatabase(env.db)})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		turn := Turn{
			Channel: "telegram", ChatID: "77", UserID: "77",
			UserName: "Ann\x00 \xffie\n" + strings.Repeat("я", 500), Username: "ann\x00", Locale: "ru\x00-RU-but-far-too-long",
			Text: "show\x00 me sneakers\x07",
		}
		for i, text := range []string{turn.Text, "cart", "hi"} {
			turn.Text = text
			ev := &events{}
			if err := eng.Handle(ctx, turn, ev); err != nil {
				t.Fatalf("turn %d: %v (%+v)", i, err, ev.all)
			}
		}
		c, err := catalog.ResolveCustomer(ctx, db, catalog.Identity{Channel: "telegram", PlatformUserID: "77",
			DisplayName: CleanLine(turn.UserName, maxNameRunes), Username: "ann", Locale: CleanLine(turn.Locale, maxLocaleRunes)})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(c.DisplayName, "Ann \uFFFDie я") || utf8.RuneCountInString(c.DisplayName) != maxNameRunes ||
			c.Username != "ann" || c.Locale != "ru-RU-but-far-to" {
			t.Errorf("stored %q %q %q", c.DisplayName, c.Username, c.Locale)
		}
		for _, bad := range []Turn{
			{Channel: "web", ChatID: "c\x00", UserID: "u", Text: "hi"},
			{Channel: "web", ChatID: "c", UserID: strings.Repeat("u", maxIDRunes+1), Text: "hi"},
			{Channel: "web", ChatID: "c", UserID: "u", DedupKey: "k\xff", Text: "hi"},
		} {
			if err := eng.Handle(ctx, bad, &events{}); !errors.Is(err, ErrBadTurn) {
				t.Errorf("%+q: err = %v", []string{bad.ChatID, bad.UserID, bad.DedupKey}, err)
			}
		}
	})
}
