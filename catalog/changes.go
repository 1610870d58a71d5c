package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// The change feed. The search backends keep current by following the
// catalog itself, not a queue: every product write (edits, archives,
// stock taken or returned by orders, variant roll-ups) moves the
// product's updated_at, and every write of a source's passages (a shop
// page, a review) rewrites them with a new updated_at, so ChangedSince
// and PassageChanges list what changed since a point in time. A deletion
// leaves no row to follow, so it leaves a tombstone (Tombstones).
//
// Late commits. On Postgres a transaction stamps updated_at before it
// commits, and transactions commit out of order, so a reader that keeps
// only "the newest updated_at seen" could pass a change that commits
// after it read. Followers therefore re-read an overlap window behind
// their mark (FeedOverlap) and apply changes idempotently (a change
// re-reads the product or source and writes what it is now, so reading
// one twice is harmless; the embedded index skips those whose
// updated_at it already has). A change is missed only if its
// transaction commits more than FeedOverlap after stamping it; a
// monotonic sequence would close that gap but would need a write (and
// a hot row) on every product write, which the feed exists to avoid.
// Across replicas and crashes the feed needs nothing: it is the catalog's
// own rows, and a follower's cursor (the embedded index's newest
// updated_at in memory, rebuilt on start; the Weaviate follower's in
// search_cursors) is only a place to resume from.

// FeedOverlap is how far behind its mark a follower re-reads the feed.
const FeedOverlap = 2 * time.Second

// FeedSince is where a follower whose mark is t reads the feed from: t
// less FeedOverlap, or the start of the feed for a follower without a
// mark.
func FeedSince(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return t.Add(-FeedOverlap)
}

// Tombstone kinds: a product's SKU, or a passage source's key.
const (
	TombstoneProduct  = "product"
	TombstonePassages = "passages"
)

// Tombstone says a product or the passages of a source were deleted.
type Tombstone struct {
	bun.BaseModel `bun:"table:search_tombstones"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Kind      string    `bun:"kind,notnull"`
	Key       string    `bun:"key,notnull"`
	DeletedAt time.Time `bun:"deleted_at,notnull"`
}

// recordDeleted leaves tombstones for deleted products (SKUs) or passage
// sources (PassageKey), in the deleting transaction.
func recordDeleted(ctx context.Context, db bun.IDB, kind string, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	now := time.Now().UTC()
	rows := make([]Tombstone, len(keys))
	for i, k := range keys {
		rows[i] = Tombstone{Kind: kind, Key: k, DeletedAt: now}
	}
	for lo := 0; lo < len(rows); lo += 500 {
		batch := rows[lo:min(lo+500, len(rows))]
		if _, err := db.NewInsert().Model(&batch).Returning("NULL").Exec(ctx); err != nil {
			return fmt.Errorf("catalog: record deletions: %w", err)
		}
	}
	return nil
}

// Tombstones returns up to limit deletions recorded after since, oldest
// first.
func (s SearchSource) Tombstones(ctx context.Context, since time.Time, limit int) ([]Tombstone, error) {
	var ts []Tombstone
	err := s.db.NewSelect().Model(&ts).Where("deleted_at > ?", since.UTC()).
		Order("deleted_at", "id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: tombstones: %w", err)
	}
	return ts, nil
}

// PruneTombstones deletes tombstones older than before (the engine does,
// after 30 days, with its other prunes): followers behind
// them rebuild (a restarted embedded index does; Weaviate's reindex).
func PruneTombstones(ctx context.Context, db bun.IDB, before time.Time) (int, error) {
	res, err := db.NewDelete().Model((*Tombstone)(nil)).Where("deleted_at < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: prune tombstones: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// FeedCursor is a follower's place in the change feed: the products'
// (updated_at, id), and the newest passage change and tombstone seen.
type FeedCursor struct {
	Products   time.Time
	ProductID  int64
	Passages   time.Time
	Tombstones time.Time
}

// cursorRow is one stream of a stored FeedCursor.
type cursorRow struct {
	bun.BaseModel `bun:"table:search_cursors,alias:sc"`

	Name    string    `bun:"name,pk"`
	At      time.Time `bun:"at,notnull"`
	AfterID int64     `bun:"after_id,notnull"`
}

// LoadCursor reads the cursor saved under name; a follower without one
// gets the zero cursor (the start of the feed).
func LoadCursor(ctx context.Context, db bun.IDB, name string) (FeedCursor, error) {
	var rows []cursorRow
	err := db.NewSelect().Model(&rows).Where("name IN (?)", bun.List([]string{name + ".products", name + ".passages", name + ".tombstones"})).Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return FeedCursor{}, fmt.Errorf("catalog: load cursor %s: %w", name, err)
	}
	var c FeedCursor
	for _, r := range rows {
		switch r.Name {
		case name + ".products":
			c.Products, c.ProductID = r.At.UTC(), r.AfterID
		case name + ".passages":
			c.Passages = r.At.UTC()
		case name + ".tombstones":
			c.Tombstones = r.At.UTC()
		}
	}
	return c, nil
}

// SaveCursor stores c under name. Several replicas may follow the feed
// into one shared index: a stream's stored position only moves forward.
func SaveCursor(ctx context.Context, db bun.IDB, name string, c FeedCursor) error {
	rows := []cursorRow{
		{Name: name + ".products", At: c.Products.UTC(), AfterID: c.ProductID},
		{Name: name + ".passages", At: c.Passages.UTC()},
		{Name: name + ".tombstones", At: c.Tombstones.UTC()},
	}
	_, err := db.NewInsert().Model(&rows).
		On("CONFLICT (name) DO UPDATE").
		Set("at = EXCLUDED.at, after_id = EXCLUDED.after_id").
		Where("sc.at < EXCLUDED.at OR (sc.at = EXCLUDED.at AND sc.after_id < EXCLUDED.after_id)").
		Returning("NULL").Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: save cursor %s: %w", name, err)
	}
	return nil
}
