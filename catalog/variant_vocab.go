package catalog

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// OptionVocab is what the shop's variants are sold in: the option names
// of active variants and, per name, their distinct values ("size": 40,
// 41, 42). The offline planner reads option words in a message against
// it ("the tee in navy", «42 размера») instead of a fixed list of sizes.
type OptionVocab struct {
	Names  []string            // sorted
	Values map[string][]string // by name, in order of first appearance by variant id
}

// LoadOptionVocab reads the option names and values of active variants.
func LoadOptionVocab(ctx context.Context, db bun.IDB) (OptionVocab, error) {
	var rows []Product
	err := db.NewSelect().Model(&rows).Column("id", "options").
		Where("parent_id IS NOT NULL").Where("active").OrderExpr("id").Scan(ctx)
	if err != nil {
		return OptionVocab{}, fmt.Errorf("catalog: option vocabulary: %w", err)
	}
	v := OptionVocab{Values: map[string][]string{}}
	seen := map[string]bool{}
	for _, r := range rows {
		names := make([]string, 0, len(r.Options))
		for n := range r.Options {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			key := n + "\x00" + r.Options[n]
			if seen[key] {
				continue
			}
			seen[key] = true
			if _, ok := v.Values[n]; !ok {
				v.Names = append(v.Names, n)
			}
			v.Values[n] = append(v.Values[n], r.Options[n])
		}
	}
	sort.Strings(v.Names)
	return v, nil
}

// OptionVocabCache keeps the vocabulary for TTL, so a turn that may name
// an option reads it from memory; a catalog change shows within TTL.
type OptionVocabCache struct {
	DB  bun.IDB
	TTL time.Duration
	Now func() time.Time // time.Now when nil

	mu    sync.Mutex
	vocab OptionVocab
	at    time.Time
	ok    bool
}

// Get returns the cached vocabulary, loading it when it is older than TTL.
func (c *OptionVocabCache) Get(ctx context.Context) (OptionVocab, error) {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok && now().Sub(c.at) < c.TTL {
		return c.vocab, nil
	}
	v, err := LoadOptionVocab(ctx, c.DB)
	if err != nil {
		return OptionVocab{}, err
	}
	c.vocab, c.at, c.ok = v, now(), true
	return v, nil
}
