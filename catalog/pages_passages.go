package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// PassageKind names the source a passage comes from.
type PassageKind string

// PassagePage is a chunk of a shop page; its Ref is the page's slug.
// (Reviews are the next kind.)
const PassagePage PassageKind = "page"

// Passage is one searchable chunk of a longer text: a page split by
// heading and paragraph (ChunkPage). A source's passages are replaced
// together, with one UpdatedAt, in the transaction that changes the source.
type Passage struct {
	bun.BaseModel `bun:"table:passages"`

	ID        int64       `bun:"id,pk,autoincrement"`
	Kind      PassageKind `bun:"kind,notnull"`
	Ref       string      `bun:"ref,notnull"`
	Seq       int         `bun:"seq,notnull"`
	Scope     string      `bun:"scope,notnull"` // narrows a search (a review's SKU); "" for pages
	Title     string      `bun:"title,notnull"`
	Heading   string      `bun:"heading,notnull"`
	Body      string      `bun:"body,notnull"`
	UpdatedAt time.Time   `bun:"updated_at,notnull"`
}

// Key identifies the passage's source (see PassageKey).
func (p *Passage) Key() string { return PassageKey(p.Kind, p.Ref) }

// PassageKey is "kind:ref", a source's key in the change feed and the indexes.
func PassageKey(kind PassageKind, ref string) string { return string(kind) + ":" + ref }

// SplitPassageKey is the inverse of PassageKey.
func SplitPassageKey(key string) (PassageKind, string, bool) {
	k, ref, ok := strings.Cut(key, ":")
	return PassageKind(k), ref, ok && k != "" && ref != ""
}

// Chunk is a passage before it is stored: its heading and text.
type Chunk struct {
	Heading string
	Text    string
}

// replacePassages swaps the passages of one source for chunks (none:
// the source is gone, and leaves a tombstone for the search backends).
func replacePassages(ctx context.Context, db bun.IDB, kind PassageKind, ref, scope, title string, chunks []Chunk, now time.Time) error {
	if _, err := db.NewDelete().Model((*Passage)(nil)).Where("kind = ? AND ref = ?", kind, ref).Exec(ctx); err != nil {
		return fmt.Errorf("delete passages: %w", err)
	}
	if len(chunks) > 0 {
		rows := make([]Passage, len(chunks))
		for i, c := range chunks {
			rows[i] = Passage{Kind: kind, Ref: ref, Seq: i, Scope: scope, Title: title, Heading: c.Heading, Body: c.Text, UpdatedAt: now}
		}
		if _, err := db.NewInsert().Model(&rows).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("insert passages: %w", err)
		}
	}
	if len(chunks) == 0 {
		return recordDeleted(ctx, db, TombstonePassages, PassageKey(kind, ref))
	}
	return nil
}

// PassageChange is the newest write of one source.
type PassageChange struct {
	Kind      PassageKind `bun:"kind"`
	Ref       string      `bun:"ref"`
	UpdatedAt time.Time   `bun:"updated_at"`
}

// PassageChanges returns the sources whose passages were written after
// since (at most limit, oldest first), for an index that follows the table.
func PassageChanges(ctx context.Context, db bun.IDB, since time.Time, limit int) ([]PassageChange, error) {
	var cs []PassageChange
	err := db.NewSelect().Model((*Passage)(nil)).
		Column("kind", "ref").ColumnExpr("MAX(updated_at) AS updated_at").
		Where("updated_at > ?", since).
		Group("kind", "ref").OrderExpr("MAX(updated_at), kind, ref").Limit(int64(limit)).Scan(ctx, &cs)
	if err != nil {
		return nil, fmt.Errorf("catalog: passage changes: %w", err)
	}
	return cs, nil
}

// PassagesOf returns the passages of these sources of one kind, in order.
func PassagesOf(ctx context.Context, db bun.IDB, kind PassageKind, refs ...string) ([]Passage, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	var ps []Passage
	err := db.NewSelect().Model(&ps).Where("kind = ? AND ref IN (?)", kind, bun.List(refs)).
		Order("ref", "seq").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: passages of %d %s sources: %w", len(refs), kind, err)
	}
	return ps, nil
}

// AllPassages calls fn with every passage, in batches of up to batch, in
// id order.
func AllPassages(ctx context.Context, db bun.IDB, batch int, fn func([]Passage) error) error {
	var after int64
	for {
		var ps []Passage
		if err := db.NewSelect().Model(&ps).Where("id > ?", after).Order("id").Limit(int64(batch)).Scan(ctx); err != nil {
			return fmt.Errorf("catalog: read passages: %w", err)
		}
		if len(ps) > 0 {
			if err := fn(ps); err != nil {
				return err
			}
			after = ps[len(ps)-1].ID
		}
		if len(ps) < batch {
			return nil
		}
	}
}

// CountPassages returns how many passages are stored.
func CountPassages(ctx context.Context, db bun.IDB) (int, error) {
	n, err := db.NewSelect().Model((*Passage)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count passages: %w", err)
	}
	return int(n), nil
}

// PassageSources returns the key (PassageKey) of every source that has
// passages.
func PassageSources(ctx context.Context, db bun.IDB) ([]string, error) {
	var rows []struct {
		Kind PassageKind `bun:"kind"`
		Ref  string      `bun:"ref"`
	}
	if err := db.NewSelect().Model((*Passage)(nil)).Column("kind", "ref").Distinct().Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("catalog: passage sources: %w", err)
	}
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = PassageKey(r.Kind, r.Ref)
	}
	return keys, nil
}
