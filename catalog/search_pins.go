package catalog

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Limits of search pins.
const (
	MaxPinQueryLen  = 100 // characters in a pinned query
	MaxPinsPerQuery = 5   // products pinned for one query
)

// SearchPin is a product the merchant pinned for a search query: a search
// whose normalized text equals Query lists it first (catalog/search.Pinned).
type SearchPin struct {
	bun.BaseModel `bun:"table:search_pins,alias:search_pin"`
	ID            int64     `bun:"id,pk,autoincrement"`
	Query         string    `bun:"query,notnull"` // NormalizeSearchQuery
	ProductID     int64     `bun:"product_id,notnull"`
	Product       *Product  `bun:"rel:belongs-to,join:product_id=id"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

// NormalizeSearchQuery is a query as pins and the search insights key it:
// lower case, spaces collapsed.
func NormalizeSearchQuery(q string) string {
	return strings.ToLower(strings.Join(strings.Fields(q), " "))
}

// AddSearchPin pins the product with sku for query (normalized). The
// product must exist and not be a variant (search lists parents); a query
// is at most MaxPinQueryLen characters and holds at most MaxPinsPerQuery
// pins. Pinning the same pair twice, or from two replicas at once, stores
// it once. Bad input is ErrInvalid (an unknown SKU ErrNotFound) and
// stores nothing.
func AddSearchPin(ctx context.Context, db bun.IDB, query, sku string) (SearchPin, error) {
	q := NormalizeSearchQuery(query)
	switch {
	case q == "":
		return SearchPin{}, fmt.Errorf("%w: a pin needs a query", ErrInvalid)
	case utf8.RuneCountInString(q) > MaxPinQueryLen:
		return SearchPin{}, fmt.Errorf("%w: a pinned query is at most %d characters", ErrInvalid, MaxPinQueryLen)
	}
	p, err := GetProduct(ctx, db, strings.TrimSpace(sku))
	if err != nil {
		return SearchPin{}, err
	}
	if p.ParentID != nil {
		return SearchPin{}, fmt.Errorf("%w: %s is a variant; pin its product", ErrInvalid, p.SKU)
	}
	pin := SearchPin{Query: q, ProductID: p.ID, CreatedAt: time.Now().UTC()}
	err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*SearchPin)(nil)).Where("query = ?", q).Where("product_id <> ?", p.ID).Count(ctx)
		if err != nil {
			return fmt.Errorf("catalog: count pins: %w", err)
		}
		if n >= MaxPinsPerQuery {
			return fmt.Errorf("%w: at most %d products are pinned for one query", ErrInvalid, MaxPinsPerQuery)
		}
		if _, err := tx.NewInsert().Model(&pin).On("CONFLICT (query, product_id) DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("catalog: add pin: %w", err)
		}
		return tx.NewSelect().Model(&pin).Where("query = ?", q).Where("product_id = ?", p.ID).Scan(ctx)
	})
	if err != nil {
		return SearchPin{}, err
	}
	pinEdits.Add(1)
	pin.Product = p
	return pin, nil
}

// DeleteSearchPin removes a pin; an unknown id is ErrNotFound.
func DeleteSearchPin(ctx context.Context, db bun.IDB, id int64) error {
	res, err := db.NewDelete().Model((*SearchPin)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: delete pin: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("search pin %d: %w", id, ErrNotFound)
	}
	pinEdits.Add(1)
	return nil
}

// pinEdits counts the pins this process added or deleted.
var pinEdits atomic.Uint64

// SearchPinEdits counts the pin edits (AddSearchPin, DeleteSearchPin) made
// by this process: a reader that keeps the pinned queries in memory
// (PinnedQueries) reloads them when it changes, so an edit made here is
// seen by the next search. Edits by another process do not change it.
func SearchPinEdits() uint64 { return pinEdits.Load() }

// PinnedQueries is the set of queries (normalized) that have pins.
func PinnedQueries(ctx context.Context, db bun.IDB) (map[string]bool, error) {
	var qs []string
	if err := db.NewSelect().Model((*SearchPin)(nil)).Column("query").Distinct().Scan(ctx, &qs); err != nil {
		return nil, fmt.Errorf("catalog: pinned queries: %w", err)
	}
	out := make(map[string]bool, len(qs))
	for _, q := range qs {
		out[q] = true
	}
	return out, nil
}

// ListSearchPins is every pin with its product, by query then pin order.
func ListSearchPins(ctx context.Context, db bun.IDB) ([]SearchPin, error) {
	var pins []SearchPin
	err := db.NewSelect().Model(&pins).Relation("Product").Order("search_pin.query", "search_pin.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list pins: %w", err)
	}
	return pins, nil
}

// PinnedProducts is the active products pinned for query (normalized), in
// the order they were pinned, each with its category; none when nothing
// is pinned for it.
func PinnedProducts(ctx context.Context, db bun.IDB, query string) ([]Product, error) {
	q := NormalizeSearchQuery(query)
	if q == "" {
		return nil, nil
	}
	var ids []int64
	err := db.NewSelect().Model((*SearchPin)(nil)).Column("product_id").Where("query = ?", q).Order("id").Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("catalog: pins for %q: %w", q, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var ps []Product
	err = db.NewSelect().Model(&ps).Relation("Category").Where("product.id IN (?)", bun.List(ids)).Where("product.active").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: pinned products: %w", err)
	}
	pos := make(map[int64]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	out := make([]Product, len(ids))
	have := make([]bool, len(ids))
	for _, p := range ps {
		out[pos[p.ID]], have[pos[p.ID]] = p, true
	}
	res := out[:0]
	for i, p := range out {
		if have[i] {
			res = append(res, p)
		}
	}
	return res, nil
}
