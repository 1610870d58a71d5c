package catalog_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/catalogtest"
)

func TestOptionVocab(t *testing.T) {
	catalogtest.Each(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		empty, err := catalog.LoadOptionVocab(ctx, db)
		if err != nil || len(empty.Names) != 0 {
			t.Fatalf("no variants: %+v, %v", empty, err)
		}
		seedTee(t, db)
		// An inactive variant's values are not sold: not in the vocabulary.
		gone := variant("TEE-GREEN-XL", "TEE", 2500, 4, map[string]string{"colour": "Green", "size": "XL"})
		gone.Inactive = true
		seed(t, db, gone)
		now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
		cache := &catalog.OptionVocabCache{DB: db, TTL: time.Minute, Now: func() time.Time { return now }}
		v, err := cache.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := catalog.OptionVocab{Names: []string{"colour", "size"}, Values: map[string][]string{"colour": {"Navy", "Red"}, "size": {"M", "L"}}}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("vocabulary = %+v, want %+v", v, want)
		}
		// Within the TTL the cache answers; after it, a new value shows.
		seed(t, db, variant("TEE-RED-S", "TEE", 2400, 1, map[string]string{"colour": "Red", "size": "S"}))
		if v, _ = cache.Get(ctx); len(v.Values["size"]) != 2 {
			t.Errorf("within TTL: sizes %v, want the cached two", v.Values["size"])
		}
		now = now.Add(time.Minute)
		if v, _ = cache.Get(ctx); !reflect.DeepEqual(v.Values["size"], []string{"M", "L", "S"}) {
			t.Errorf("after TTL: sizes %v", v.Values["size"])
		}
	})
}
