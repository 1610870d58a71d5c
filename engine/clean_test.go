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
	"shopbot/catalog/clip"
	"shopbot/catalog/search/searchtest"
)

// TestTurnFieldsCleaned: a turn whose names and locale hold NUL, control
// characters, invalid UTF-8 or far too many characters is answered, on
// both databases, and what is stored is clean and bounded; later turns of
// the same shopper still answer. Identifiers that would have to be altered
// are refused instead (altering them could name someone else).
func TestTurnFieldsCleaned(t *testing.T) {
	catalogtest.EachDemo(t, func(t *testing.T, db *bun.DB) {
		env := newTestEnvOnDemo(t, db)
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
			DisplayName: clip.CleanLine(turn.UserName, maxNameRunes), Username: "ann", Locale: clip.CleanLine(turn.Locale, maxLocaleRunes)})
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
