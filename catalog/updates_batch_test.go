package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestMarkProcessedBatch(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if first, err := catalog.MarkProcessed(ctx, db, "slack", "old"); err != nil || !first {
			t.Fatal(first, err)
		}
		first, err := catalog.MarkProcessedBatch(ctx, db, "slack", []string{"a", "old", "b", "a"})
		if err != nil {
			t.Fatal(err)
		}
		if len(first) != 2 || !first["a"] || !first["b"] || first["old"] {
			t.Errorf("first = %v, want a and b", first)
		}
		first, err = catalog.MarkProcessedBatch(ctx, db, "slack", []string{"a", "c"})
		if err != nil || len(first) != 1 || !first["c"] {
			t.Errorf("second batch: %v %v", first, err)
		}
		if first, err := catalog.MarkProcessedBatch(ctx, db, "telegram", []string{"a"}); err != nil || !first["a"] {
			t.Errorf("other channel: %v %v", first, err)
		}
		if first, err := catalog.MarkProcessedBatch(ctx, db, "slack", nil); err != nil || len(first) != 0 {
			t.Errorf("empty batch: %v %v", first, err)
		}
		for name, keys := range map[string][]string{"empty key": {"x", ""}} {
			if _, err := catalog.MarkProcessedBatch(ctx, db, "slack", keys); !errors.Is(err, catalog.ErrInvalid) {
				t.Errorf("%s: %v", name, err)
			}
		}
		if first, err := catalog.MarkProcessed(ctx, db, "slack", "x"); err != nil || !first {
			t.Errorf("a rejected batch recorded its keys: %v %v", first, err)
		}
		if _, err := catalog.MarkProcessedBatch(ctx, db, "", []string{"x"}); !errors.Is(err, catalog.ErrInvalid) {
			t.Errorf("no channel: %v", err)
		}
	})
}
