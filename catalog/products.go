package catalog

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Product is one sellable item. Price is in minor units of Currency.
type Product struct {
	bun.BaseModel `bun:"table:products"`

	ID          int64             `bun:"id,pk,autoincrement"`
	SKU         string            `bun:"sku,notnull"`
	Title       string            `bun:"title,notnull"`
	Description string            `bun:"description,notnull"`
	Brand       string            `bun:"brand,notnull"`
	CategoryID  *int64            `bun:"category_id"`
	Category    *Category         `bun:"rel:belongs-to,join:category_id=id"`
	Attributes  map[string]string `bun:"attributes,notnull"`
	Price       int64             `bun:"price,notnull"`
	Currency    string            `bun:"currency,notnull"`
	// CompareAt is the regular price of a product on sale (above Price),
	// 0 when it is not on sale.
	CompareAt   int64    `bun:"compare_at_price,notnull"`
	Stock       int      `bun:"stock,notnull"`
	Active      bool     `bun:"active,notnull"`
	ImageURLs   []string `bun:"image_urls,notnull"`
	RatingAvg   float64  `bun:"rating_avg,notnull"`
	RatingCount int      `bun:"rating_count,notnull"`
	SoldCount   int      `bun:"sold_count,notnull"`
	// Variants (variants.go): a variant has ParentID and its option
	// values in Options; a parent has OptionNames, VariantCount > 0, and
	// Stock, SoldCount, Price (the lowest) and PriceMax rolled up from its
	// active variants.
	ParentID     *int64            `bun:"parent_id"`
	Options      map[string]string `bun:"options,notnull"`
	OptionNames  []string          `bun:"option_names,notnull"`
	VariantCount int               `bun:"variant_count,notnull"`
	PriceMax     int64             `bun:"price_max,notnull"`
	// Version counts the writes of the row's content (imports, admin
	// saves, archive and restore), not its stock: an admin form saves
	// only over the version it was loaded at (SaveProducts).
	Version   int64     `bun:"version,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt time.Time `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
	// Demo is the demo column (a row the demo shop created, demo_state.go)
	// where a query reads every column; bun never writes it: MarkDemo does.
	Demo bool `bun:"demo,scanonly"`
}

// InStock reports whether at least one unit can be sold.
func (p *Product) InStock() bool { return p.Active && p.Stock > 0 }

// ProductInput is what an import or the admin panel writes for one product;
// UpsertProducts creates or replaces the product with the same SKU.
// Ratings and sales are not part of it: they come from reviews and orders.
type ProductInput struct {
	SKU          string
	Title        string
	Description  string
	Brand        string
	CategoryPath []string
	Price        int64
	Currency     string
	// CompareAt is the regular price when Price is a sale price; a value
	// not above Price is stored as 0 (not on sale).
	CompareAt  int64
	Stock      int
	ImageURLs  []string
	Attributes map[string]string
	Inactive   bool
	// VariantOf makes the row a variant of the product with that SKU, with
	// Options its option values (name → value). A variant inherits the
	// parent's title, description, brand, category and images where it
	// leaves them empty. OptionNames orders a parent's option names (at
	// most three); when empty, they come from its variants.
	VariantOf   string
	Options     map[string]string
	OptionNames []string
}

// Validate checks an input and normalizes it in place (trimmed strings,
// upper-case currency, nil maps and slices made empty).
func (in *ProductInput) Validate() error {
	in.SKU = strings.TrimSpace(in.SKU)
	in.Title = strings.TrimSpace(in.Title)
	switch {
	case in.SKU == "":
		return fmt.Errorf("%w: missing sku", ErrInvalid)
	case len(in.SKU) > 64 || strings.ContainsAny(in.SKU, " \t\r\n"):
		return fmt.Errorf("%w: sku %q must be at most 64 characters without spaces", ErrInvalid, in.SKU)
	case in.Title == "" && in.VariantOf == "":
		return fmt.Errorf("%w: missing title", ErrInvalid)
	case in.Price < 0 || in.Price > maxAmount:
		return fmt.Errorf("%w: price out of range", ErrInvalid)
	case in.CompareAt < 0 || in.CompareAt > maxAmount:
		return fmt.Errorf("%w: compare-at price out of range", ErrInvalid)
	case in.Stock < 0:
		return fmt.Errorf("%w: stock %d is negative", ErrInvalid, in.Stock)
	}
	cur, err := NormalizeCurrency(in.Currency)
	if err != nil {
		return err
	}
	in.Currency = cur
	if in.Attributes == nil {
		in.Attributes = map[string]string{}
	}
	if in.ImageURLs == nil {
		in.ImageURLs = []string{}
	}
	return in.validateOptions()
}

// UpsertResult counts what UpsertProducts did.
type UpsertResult struct {
	Inserted int
	Updated  int
}

// UpsertProducts inserts or updates products by SKU (stock included, and
// each stored row's Version bumped), creates missing
// categories, and queues a search-index update for each. Plain products
// and parents are written first, then variants (ProductInput.VariantOf)
// with their parent's id and what they inherit from it; parents are then
// rolled up (RollupParents). Inputs must be valid (see Validate), have
// distinct SKUs and pass CheckVariants. Run it in a transaction to make
// the batch atomic.
func UpsertProducts(ctx context.Context, db bun.IDB, ins []ProductInput) (UpsertResult, error) {
	res, _, err := writeProducts(ctx, db, ins, nil)
	if err != nil || len(ins) == 0 {
		return res, err
	}
	return res, afterProductWrites(ctx, db, ins)
}

// writeProducts writes the rows of ins, plain products and parents first.
// With versions nil, a stored row is overwritten (stock included). With
// versions (SKU → the version a form was loaded at, 0 for a new product),
// a stored row is written only if it is still at that version, its stock
// is kept, and the SKUs not written are returned as stale.
func writeProducts(ctx context.Context, db bun.IDB, ins []ProductInput, versions map[string]int64) (UpsertResult, []string, error) {
	var res UpsertResult
	if len(ins) == 0 {
		return res, nil, nil
	}
	var plain, variants []ProductInput
	for _, in := range ins {
		if in.VariantOf == "" {
			plain = append(plain, in)
		} else {
			variants = append(variants, in)
		}
	}
	if len(variants) > 0 {
		errs, err := CheckVariants(ctx, db, ins)
		if err != nil {
			return res, nil, err
		}
		for _, e := range errs {
			if e != nil {
				return res, nil, e
			}
		}
	}
	var stale []string
	cats := map[string]*int64{}
	for _, batch := range [][]ProductInput{plain, variants} {
		if len(batch) == 0 {
			continue
		}
		rows, err := productRows(ctx, db, cats, batch, versions)
		if err != nil {
			return res, nil, err
		}
		r, notWritten, err := upsertRows(ctx, db, rows, versions != nil)
		if err != nil {
			return res, nil, err
		}
		res.Inserted += r.Inserted
		res.Updated += r.Updated
		stale = append(stale, notWritten...)
	}
	return res, stale, nil
}

// afterProductWrites queues the search-index updates of written products,
// wakes the stock alerts they satisfy and rolls up their parents.
func afterProductWrites(ctx context.Context, db bun.IDB, ins []ProductInput) error {
	skus := make([]string, len(ins))
	for i, in := range ins {
		skus[i] = in.SKU
	}
	if err := wakeStockAlertsBySKU(ctx, db, skus...); err != nil {
		return err
	}
	return RollupParents(ctx, db, skus...)
}

// productRows turns inputs into rows; a variant gets its parent's id and
// inherits what it leaves empty. A row's Version is the one it is written
// at: 1, or one past the version in versions that it must still have.
func productRows(ctx context.Context, db bun.IDB, cats map[string]*int64, ins []ProductInput, versions map[string]int64) ([]Product, error) {
	parents := map[string]*Product{}
	for _, in := range ins {
		if in.VariantOf != "" {
			parents[in.VariantOf] = nil
		}
	}
	if len(parents) > 0 {
		list := make([]string, 0, len(parents))
		for sku := range parents {
			list = append(list, sku)
		}
		ps, err := GetProducts(ctx, db, list)
		if err != nil {
			return nil, err
		}
		for i := range ps {
			parents[ps[i].SKU] = &ps[i]
		}
	}
	now := time.Now().UTC()
	rows := make([]Product, len(ins))
	for i, in := range ins {
		catID, err := categoryID(ctx, db, cats, in.CategoryPath)
		if err != nil {
			return nil, err
		}
		row := Product{
			SKU: in.SKU, Title: in.Title, Description: in.Description, Brand: in.Brand,
			CategoryID: catID, Attributes: in.Attributes, Price: in.Price, Currency: in.Currency, CompareAt: saleFrom(in),
			Stock: in.Stock, Active: !in.Inactive, ImageURLs: in.ImageURLs, CreatedAt: now, UpdatedAt: now,
			Options: in.Options, OptionNames: in.OptionNames, Version: versions[in.SKU] + 1,
		}
		if row.Options == nil {
			row.Options = map[string]string{}
		}
		if row.OptionNames == nil {
			row.OptionNames = []string{}
		}
		if in.VariantOf != "" {
			p := parents[in.VariantOf]
			if p == nil {
				return nil, fmt.Errorf("%w: unknown parent %q in variant_of", ErrInvalid, in.VariantOf)
			}
			row.ParentID = &p.ID
			inherit(&row, p)
		}
		rows[i] = row
	}
	return rows, nil
}

// saleFrom is the compare-at price a row stores: in's, when it is above
// the price.
func saleFrom(in ProductInput) int64 {
	if in.CompareAt > in.Price {
		return in.CompareAt
	}
	return 0
}

// inherit fills what a variant row leaves empty from its parent.
func inherit(v *Product, p *Product) {
	if v.Title == "" {
		v.Title = p.Title
	}
	if v.Description == "" {
		v.Description = p.Description
	}
	if v.Brand == "" {
		v.Brand = p.Brand
	}
	if v.CategoryID == nil {
		v.CategoryID = p.CategoryID
	}
	if len(v.ImageURLs) == 0 {
		v.ImageURLs = p.ImageURLs
	}
	if len(v.Attributes) == 0 {
		v.Attributes = p.Attributes
	}
	if v.Currency == "" {
		v.Currency = p.Currency
	}
}

// upsertRows writes rows in one statement. A parent's option names are
// kept when a row leaves them empty. Unguarded, a stored row is
// overwritten and its version bumped. Guarded, a stored row is written
// only if its version is one less than the row's, keeping its stock; the
// SKUs of rows not written are returned.
func upsertRows(ctx context.Context, db bun.IDB, rows []Product, guarded bool) (UpsertResult, []string, error) {
	skus := make([]string, len(rows))
	for i := range rows {
		skus[i] = rows[i].SKU
	}
	existing, err := db.NewSelect().Model((*Product)(nil)).Where("sku IN (?)", bun.List(skus)).Count(ctx)
	if err != nil {
		return UpsertResult{}, nil, fmt.Errorf("catalog: upsert products: count existing: %w", err)
	}
	q := db.NewInsert().Model(&rows).
		On("CONFLICT (sku) DO UPDATE").
		Set("title = EXCLUDED.title, description = EXCLUDED.description, brand = EXCLUDED.brand").
		Set("category_id = EXCLUDED.category_id, attributes = EXCLUDED.attributes").
		Set("price = EXCLUDED.price, currency = EXCLUDED.currency, compare_at_price = EXCLUDED.compare_at_price").
		Set("active = EXCLUDED.active, image_urls = EXCLUDED.image_urls, updated_at = EXCLUDED.updated_at").
		Set("parent_id = EXCLUDED.parent_id, options = EXCLUDED.options").
		Set("option_names = CASE WHEN EXCLUDED.option_names = '[]' THEN product.option_names ELSE EXCLUDED.option_names END")
	if guarded {
		q = q.Set("version = EXCLUDED.version").Where("product.version = EXCLUDED.version - 1")
	} else {
		q = q.Set("stock = EXCLUDED.stock, version = product.version + 1")
	}
	var written []string
	if _, err = q.Returning("sku").Exec(ctx, &written); err != nil {
		return UpsertResult{}, nil, fmt.Errorf("catalog: upsert products: %w", err)
	}
	var stale []string
	if len(written) < len(rows) {
		done := make(map[string]bool, len(written))
		for _, s := range written {
			done[s] = true
		}
		for _, s := range skus {
			if !done[s] {
				stale = append(stale, s)
			}
		}
	}
	inserted := len(rows) - int(existing)
	return UpsertResult{Updated: len(written) - inserted, Inserted: inserted}, stale, nil
}

func categoryID(ctx context.Context, db bun.IDB, cache map[string]*int64, parts []string) (*int64, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	key := strings.Join(parts, PathSeparator)
	if id, ok := cache[key]; ok {
		return id, nil
	}
	c, err := EnsureCategoryPath(ctx, db, parts)
	if err != nil {
		return nil, err
	}
	cache[key] = &c.ID
	return &c.ID, nil
}

// GetProduct loads a product (with its category) by SKU.
func GetProduct(ctx context.Context, db bun.IDB, sku string) (*Product, error) {
	p := new(Product)
	err := db.NewSelect().Model(p).Relation("Category").Where("product.sku = ?", sku).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "product %q", sku)
	}
	return p, nil
}

// GetProductByID loads a product (with its category) by id.
func GetProductByID(ctx context.Context, db bun.IDB, id int64) (*Product, error) {
	p := new(Product)
	err := db.NewSelect().Model(p).Relation("Category").Where("product.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, notFound(err, "product %d", id)
	}
	return p, nil
}

// GetProducts loads the products with the given SKUs, in the order asked;
// unknown SKUs are left out.
func GetProducts(ctx context.Context, db bun.IDB, skus []string) ([]Product, error) {
	if len(skus) == 0 {
		return nil, nil
	}
	var ps []Product
	if err := db.NewSelect().Model(&ps).Relation("Category").Where("product.sku IN (?)", bun.List(skus)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: load products: %w", err)
	}
	pos := make(map[string]int, len(skus))
	for i, s := range skus {
		pos[s] = i
	}
	sort.Slice(ps, func(i, j int) bool { return pos[ps[i].SKU] < pos[ps[j].SKU] })
	return ps, nil
}

// CountProducts returns how many listings exist: plain products and
// parents, active or not. Variants are rows of their parent's listing and
// are not counted.
func CountProducts(ctx context.Context, db bun.IDB) (int, error) {
	n, err := db.NewSelect().Model((*Product)(nil)).Where("parent_id IS NULL").Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count products: %w", err)
	}
	return int(n), nil
}

// SetProductActive archives (false) or restores (true) a product.
func SetProductActive(ctx context.Context, db bun.IDB, sku string, active bool) error {
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("active = ?", active).Set("updated_at = ?", time.Now().UTC()).Set("version = version + 1").
		Where("sku = ?", sku).Exec(ctx)
	if err := expectOneRow(res, err, "product %q", sku); err != nil {
		return err
	}
	if err := wakeStockAlertsBySKU(ctx, db, sku); err != nil {
		return err
	}
	return RollupParents(ctx, db, sku)
}
