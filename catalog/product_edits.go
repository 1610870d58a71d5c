package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// An admin form is a copy of a product taken when the page was opened.
// Saving it must not write back what other writers changed meanwhile:
// another member of staff's edit, an import, and above all the stock that
// orders took or cancels put back. So a form's content is written only
// over the version it was loaded at (Product.Version, bumped by every
// content write but not by orders), and its stock is never written back as
// the number it showed: it is a StockChange applied to the stock as it is.

// StockChange is how a form changes a product's stock: Add units (negative
// removes) to the stock as it is now, never going below zero; or, with
// Set, replace it by To only if it is still From (what the form showed),
// so units sold or returned meanwhile are never overwritten. The zero
// StockChange changes nothing.
type StockChange struct {
	Add      int
	Set      bool
	From, To int
}

// IsZero reports whether c changes nothing.
func (c StockChange) IsZero() bool { return c.Add == 0 && (!c.Set || c.From == c.To) }

// ProductEdit is one product saved by an admin form.
type ProductEdit struct {
	In ProductInput
	// Version is the product's version when the form was loaded; 0
	// creates it (with In.Stock as its stock).
	Version int64
	// Stock changes a stored product's stock; In.Stock is then ignored.
	Stock StockChange
}

// SaveProducts writes what admin forms saved, like UpsertProducts, but
// safely against what happened since they were loaded: every stored
// product must still be at its edit's Version, or nothing is written and
// the error is ErrConflict naming the products that changed; a new one
// must not exist yet. Stored stock is kept and each StockChange applied to
// it: a Set whose From is no longer the stock is an ErrConflict, an Add
// below zero is ErrInvalid. Each written product's version is bumped. It
// runs in a transaction of its own, so a refused batch writes nothing; on
// Postgres, one aborted for a deadlock with an order (which locks a
// variant before its parent, the reverse of this) runs again.
func SaveProducts(ctx context.Context, db bun.IDB, edits []ProductEdit) (UpsertResult, error) {
	var res UpsertResult
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			res, err = saveProducts(ctx, tx, edits)
			return err
		})
		if !isTxConflict(err) {
			break
		}
	}
	return res, err
}

func saveProducts(ctx context.Context, db bun.IDB, edits []ProductEdit) (UpsertResult, error) {
	ins := make([]ProductInput, len(edits))
	versions := make(map[string]int64, len(edits))
	for i, e := range edits {
		ins[i], versions[e.In.SKU] = e.In, e.Version
	}
	res, stale, err := writeProducts(ctx, db, ins, versions)
	if err != nil {
		return res, err
	}
	if len(stale) > 0 {
		return res, fmt.Errorf("catalog: %s changed since the form was opened: %w", strings.Join(stale, ", "), ErrConflict)
	}
	for _, e := range edits {
		if e.Version == 0 || e.Stock.IsZero() {
			continue
		}
		if err := changeStock(ctx, db, e.In.SKU, e.Stock); err != nil {
			return res, err
		}
	}
	if len(ins) == 0 {
		return res, nil
	}
	return res, afterProductWrites(ctx, db, ins)
}

// changeStock applies c to the stock of a product without variants in
// one conditional UPDATE, so concurrent orders are counted, never undone.
func changeStock(ctx context.Context, db bun.IDB, sku string, c StockChange) error {
	q := db.NewUpdate().Model((*Product)(nil)).Set("updated_at = ?", time.Now().UTC()).
		Where("sku = ?", sku).Where("variant_count = 0")
	if c.Set {
		if c.To < 0 {
			return fmt.Errorf("catalog: %w: stock of %s cannot be %d, below zero", ErrInvalid, sku, c.To)
		}
		q = q.Set("stock = ?", c.To).Where("stock = ?", c.From)
	} else {
		q = q.Set("stock = stock + ?", c.Add).Where("stock + ? >= 0", c.Add)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return fmt.Errorf("catalog: change stock of %s: %w", sku, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		return nil
	}
	p, err := GetProduct(ctx, db, sku)
	switch {
	case err != nil:
		return err
	case p.HasVariants():
		return fmt.Errorf("catalog: %w: the stock of %s is the sum of its variants' (change theirs)", ErrInvalid, sku)
	case c.Set:
		return fmt.Errorf("catalog: stock of %s is now %d, not %d: %w", sku, p.Stock, c.From, ErrConflict)
	default:
		return fmt.Errorf("catalog: %w: stock of %s is %d, so %d cannot be taken away", ErrInvalid, sku, p.Stock, -c.Add)
	}
}

// MediaFile is an image uploaded in the admin panel, served at
// /media/{name} (product images shoppers see).
type MediaFile struct {
	bun.BaseModel `bun:"table:media"`

	ID          int64     `bun:"id,pk,autoincrement"`
	Name        string    `bun:"name,notnull"`
	ContentType string    `bun:"content_type,notnull"`
	Data        []byte    `bun:"data,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
}

// SaveMedia stores an uploaded file.
func SaveMedia(ctx context.Context, db bun.IDB, m *MediaFile) error {
	if _, err := db.NewInsert().Model(m).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: store media %s: %w", m.Name, err)
	}
	return nil
}

// GetMedia loads an uploaded file by name; ErrNotFound when there is none.
func GetMedia(ctx context.Context, db bun.IDB, name string) (*MediaFile, error) {
	m := new(MediaFile)
	if err := db.NewSelect().Model(m).Where("name = ?", name).Scan(ctx); err != nil {
		return nil, notFound(err, "media %q", name)
	}
	return m, nil
}
