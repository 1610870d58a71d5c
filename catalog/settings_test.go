package catalog_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

// TestSettingsStore: defaults until saved, then the saved values; a second
// save overwrites every field; a save at a stale version is refused; no
// database means zero settings.
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
		first.Version = 1
		if got, err := store.Get(ctx); err != nil || got != first {
			t.Fatalf("after save: %+v, %v; want %+v", got, err, first)
		}
		second := catalog.Settings{ShopName: "Shop 2", Currency: "GBP", MaxRounds: 1, RateLimit: 1, RateWindow: time.Hour, Version: 1}
		if err := store.Save(ctx, second, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		second.Version = 2
		if got, err := catalog.NewSettingsStore(db, defaults).Get(ctx); err != nil || got != second {
			t.Fatalf("after second save, read by another store: %+v, %v; want %+v", got, err, second)
		}
		// A form read at version 1 (or never saved) is refused now and
		// writes nothing.
		for _, v := range []int64{0, 1, 3} {
			stale := first
			stale.Version = v
			if err := store.Save(ctx, stale, now.Add(time.Hour)); !errors.Is(err, catalog.ErrConflict) {
				t.Errorf("save at stale version %d: err = %v, want ErrConflict", v, err)
			}
		}
		if got, _ := store.Get(ctx); got != second {
			t.Fatalf("a stale save changed the settings: %+v", got)
		}
		var none *catalog.SettingsStore
		if got, err := none.Get(ctx); err != nil || got != (catalog.Settings{}) {
			t.Fatalf("nil store: %+v, %v; want zero settings", got, err)
		}
	})
}

// TestSettingsSaveRace: forms opened at the same version and saved at
// once: exactly one is written, the others are refused.
func TestSettingsSaveRace(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		store := catalog.NewSettingsStore(db, catalog.Settings{})
		const n = 8
		for round := range 3 { // from never saved (0), then from 1 and 2
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st := catalog.Settings{ShopName: "Shop", Currency: "USD", MaxRounds: i + 1, RateLimit: 1, RateWindow: time.Minute, Version: int64(round)}
					errs[i] = store.Save(ctx, st, time.Now())
				}()
			}
			wg.Wait()
			ok := 0
			for _, err := range errs {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, catalog.ErrConflict):
					t.Fatalf("round %d: %v", round, err)
				}
			}
			if got, _ := store.Get(ctx); ok != 1 || got.Version != int64(round+1) {
				t.Fatalf("round %d: %d saves won, version %d", round, ok, got.Version)
			}
		}
	})
}
