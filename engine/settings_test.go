package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
	"shopbot/catalog/search/searchtest"
	"shopbot/engine/openai"
)

// TestSettingsApplyWithoutRestart changes the rate limit through the
// settings hook while the engine runs: it applies on the next read, and
// the hook is read at most once per settingsTTL.
func TestSettingsApplyWithoutRestart(t *testing.T) {
	ctx := context.Background()
	db := catalogtest.SQLiteDemo(t)
	now := fixedNow
	var reads atomic.Int32
	limit := atomic.Int32{}
	limit.Store(100)
	e, err := New(Config{
		DB: db, Search: searchtest.NewDatabase(db), Now: func() time.Time { return now },
		Settings: func(context.Context) (catalog.Settings, error) {
			reads.Add(1)
			return catalog.Settings{RateLimit: int(limit.Load()), RateWindow: time.Hour, ShopName: "Live Shop"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(text string) error {
		return e.Handle(ctx, Turn{Channel: "web", ChatID: "settings-chat", UserID: "u1", Text: text}, SinkFunc(func(context.Context, Event) error { return nil }))
	}
	for range 3 {
		if err := turn("hello"); err != nil {
			t.Fatal(err)
		}
	}
	if got := reads.Load(); got != 1 {
		t.Errorf("settings read %d times within a second, want 1", got)
	}
	limit.Store(3) // three turns already in the window
	if err := turn("hello"); err != nil {
		t.Fatalf("cached settings should still allow the turn: %v", err)
	}
	now = now.Add(2 * time.Second)
	if err := turn("hello"); !errors.Is(err, ErrRateLimited) {
		t.Errorf("after the new limit applied: err = %v, want ErrRateLimited", err)
	}
	if got := reads.Load(); got != 2 {
		t.Errorf("settings read %d times, want 2", got)
	}
	if got := e.withSettings(ctx).cfg.ShopName; got != "Live Shop" {
		t.Errorf("shop name = %q, want the override", got)
	}
}

// TestSettingsFailureKeepsStaticConfig: an unreadable settings store must
// not stop the shop.
func TestSettingsFailureKeepsStaticConfig(t *testing.T) {
	db := catalogtest.SQLite(t)
	e, err := New(Config{
		DB: db, Search: searchtest.NewDatabase(db), ShopName: "Static",
		Settings: func(context.Context) (catalog.Settings, error) {
			return catalog.Settings{}, errors.New("no such table: settings")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.withSettings(context.Background()); got != e || got.cfg.ShopName != "Static" {
		t.Errorf("failing settings: got shop %q", got.cfg.ShopName)
	}
}

// TestSettingsModelOverride: a model name picks a sibling OpenAI client
// with the same connection, reused while the name stays.
func TestSettingsModelOverride(t *testing.T) {
	base := openai.New(openai.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "gpt-4o-mini"})
	l := &liveSettings{}
	if m := l.model(base, "gpt-4o-mini"); m != nil {
		t.Error("same name should keep the configured client")
	}
	m := l.model(base, "gpt-4.1")
	oa, ok := m.(*openai.Client)
	if !ok || oa.ModelName() != "gpt-4.1" {
		t.Fatalf("override = %#v", m)
	}
	if l.model(base, "gpt-4.1") != m {
		t.Error("override client rebuilt for the same name")
	}
}
