package catalog_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSettingsStore: defaults until saved, then the saved values; a second
// save overwrites every field; no database means zero settings.
func TestSettingsStore(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		defaults := catalog.Settings{ShopName: "Default", Currency: "USD", MaxRounds: 5, RateLimit: 20, RateWindow: time.Minute}
		store := catalog.NewSettingsStore(db, defaults)
		if got, err := store.Get(ctx); err != nil || got != defaults {
			t.Fatalf("before any save: %+v, %v; want the defaults %+v", got, err, defaults)
		}
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		first := catalog.Settings{ShopName: "Shop", Currency: "EUR", PromptExtra: "Be brief.", Model: "gpt-4o", MaxRounds: 3, RateLimit: 9, RateWindow: 90 * time.Second}
		if err := store.Save(ctx, first, now); err != nil {
			t.Fatal(err)
		}
		if got, err := store.Get(ctx); err != nil || got != first {
			t.Fatalf("after save: %+v, %v; want %+v", got, err, first)
		}
		second := catalog.Settings{ShopName: "Shop 2", Currency: "GBP", MaxRounds: 1, RateLimit: 1, RateWindow: time.Hour}
		if err := store.Save(ctx, second, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if got, err := catalog.NewSettingsStore(db, defaults).Get(ctx); err != nil || got != second {
			t.Fatalf("after second save, read by another store: %+v, %v; want %+v", got, err, second)
		}
		var none *catalog.SettingsStore
		if got, err := none.Get(ctx); err != nil || got != (catalog.Settings{}) {
			t.Fatalf("nil store: %+v, %v; want zero settings", got, err)
		}
	})
}
