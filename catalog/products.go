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
	Stock       int               `bun:"stock,notnull"`
	Active      bool              `bun:"active,notnull"`
	ImageURLs   []string          `bun:"image_urls,notnull"`
	RatingAvg   float64           `bun:"rating_avg,notnull"`
	RatingCount int               `bun:"rating_count,notnull"`
	SoldCount   int               `bun:"sold_count,notnull"`
	CreatedAt   time.Time         `bun:"created_at,nullzero,notnull,default:current_timestamp"`
	UpdatedAt   time.Time         `bun:"updated_at,nullzero,notnull,default:current_timestamp"`
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
	Stock        int
	ImageURLs    []string
	Attributes   map[string]string
	Inactive     bool
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
	case in.Title == "":
		return fmt.Errorf("%w: missing title", ErrInvalid)
	case in.Price < 0 || in.Price > maxAmount:
		return fmt.Errorf("%w: price out of range", ErrInvalid)
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
	return nil
}

// UpsertResult counts what UpsertProducts did.
type UpsertResult struct {
	Inserted int
	Updated  int
}

// UpsertProducts inserts or updates products by SKU in one statement, creates
// missing categories, and queues a search-index update for each. Inputs must
// be valid (see Validate) and have distinct SKUs. Run it in a transaction to
// make the batch atomic.
func UpsertProducts(ctx context.Context, db bun.IDB, ins []ProductInput) (UpsertResult, error) {
	var res UpsertResult
	if len(ins) == 0 {
		return res, nil
	}
	cats := map[string]*int64{}
	skus := make([]string, len(ins))
	rows := make([]Product, len(ins))
	now := time.Now().UTC()
	for i, in := range ins {
		skus[i] = in.SKU
		catID, err := categoryID(ctx, db, cats, in.CategoryPath)
		if err != nil {
			return res, err
		}
		rows[i] = Product{
			SKU: in.SKU, Title: in.Title, Description: in.Description, Brand: in.Brand,
			CategoryID: catID, Attributes: in.Attributes, Price: in.Price, Currency: in.Currency,
			Stock: in.Stock, Active: !in.Inactive, ImageURLs: in.ImageURLs, CreatedAt: now, UpdatedAt: now,
		}
	}
	existing, err := db.NewSelect().Model((*Product)(nil)).Where("sku IN (?)", bun.List(skus)).Count(ctx)
	if err != nil {
		return res, fmt.Errorf("catalog: upsert products: count existing: %w", err)
	}
	_, err = db.NewInsert().Model(&rows).
		On("CONFLICT (sku) DO UPDATE").
		Set("title = EXCLUDED.title, description = EXCLUDED.description, brand = EXCLUDED.brand").
		Set("category_id = EXCLUDED.category_id, attributes = EXCLUDED.attributes").
		Set("price = EXCLUDED.price, currency = EXCLUDED.currency, stock = EXCLUDED.stock").
		Set("active = EXCLUDED.active, image_urls = EXCLUDED.image_urls, updated_at = EXCLUDED.updated_at").
		Returning("NULL").
		Exec(ctx)
	if err != nil {
		return res, fmt.Errorf("catalog: upsert products: %w", err)
	}
	if err := EnqueueOutbox(ctx, db, OutboxProductUpsert, skus...); err != nil {
		return res, err
	}
	if err := wakeStockAlertsBySKU(ctx, db, skus...); err != nil {
		return res, err
	}
	res.Updated = int(existing)
	res.Inserted = len(ins) - res.Updated
	return res, nil
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

// CountProducts returns how many products exist.
func CountProducts(ctx context.Context, db bun.IDB) (int, error) {
	n, err := db.NewSelect().Model((*Product)(nil)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count products: %w", err)
	}
	return int(n), nil
}

// SetProductActive archives (false) or restores (true) a product.
func SetProductActive(ctx context.Context, db bun.IDB, sku string, active bool) error {
	res, err := db.NewUpdate().Model((*Product)(nil)).
		Set("active = ?", active).Set("updated_at = ?", time.Now().UTC()).
		Where("sku = ?", sku).Exec(ctx)
	if err := expectOneRow(res, err, "product %q", sku); err != nil {
		return err
	}
	if err := wakeStockAlertsBySKU(ctx, db, sku); err != nil {
		return err
	}
	return EnqueueOutbox(ctx, db, OutboxProductUpsert, sku)
}
