package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestChatEvents: on SQLite and Postgres, events append in order with
// growing ids, read back latest-first-limited and after a cursor (by
// kind), stay apart per chat, refuse bad input whole, and prune by age.
func TestChatEvents(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := t.Context()
		log := catalog.ChatEvents{DB: db}
		evs := []catalog.ChatEvent{{Kind: "user", Payload: `{"text":"lamps"}`}, {Kind: "cards", Payload: `{"cards":[]}`}, {Kind: "notice", Payload: `{"id":"n1"}`}}
		got, err := log.Append(ctx, "web", "s1", evs)
		if err != nil || len(got) != 3 || got[0].ID == 0 || got[1].ID <= got[0].ID || got[2].ID <= got[1].ID {
			t.Fatalf("append: %+v %v", got, err)
		}
		if _, err := log.Append(ctx, "web", "s2", evs[:1]); err != nil {
			t.Fatal(err)
		}
		latest, err := log.Latest(ctx, "web", "s1", 2)
		if err != nil || len(latest) != 2 || latest[0].Kind != "cards" || latest[1].Payload != `{"id":"n1"}` {
			t.Errorf("latest 2: %+v %v", latest, err)
		}
		after, err := log.After(ctx, "web", "s1", got[0].ID, "notice", 10)
		if err != nil || len(after) != 1 || after[0].ID != got[2].ID {
			t.Errorf("notices after the first: %+v %v", after, err)
		}
		for name, bad := range map[string][]catalog.ChatEvent{
			"not JSON":  {{Kind: "text", Payload: `{"text":"ok"}`}, {Kind: "text", Payload: `{`}},
			"no kind":   {{Payload: `{}`}},
			"too large": {{Kind: "text", Payload: `"` + strings.Repeat("a", catalog.MaxChatEventBytes) + `"`}},
		} {
			if _, err := log.Append(ctx, "web", "s3", bad); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := log.Append(ctx, "web", "", evs); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no chat: %v", err)
		}
		if n, _ := log.Latest(ctx, "web", "s3", 10); len(n) != 0 {
			t.Errorf("a refused append kept %d events", len(n))
		}
		if n, err := log.Prune(ctx, -1); err != nil || n != 4 {
			t.Errorf("prune all: %d %v", n, err)
		}
	})
}
