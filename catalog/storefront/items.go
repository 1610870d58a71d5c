package storefront

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// Item is one row of a feed: a variant, or a product without variants.
type Item struct {
	// SKU identifies the row; GroupSKU is its product's SKU (the row's own
	// for a product without variants). HasVariants tells the two apart.
	SKU, GroupSKU string
	HasVariants   bool
	// Title includes a variant's option values ("Rain jacket (Blue, M)");
	// Description is plain text of at most 5,000 characters.
	Title, Description, Brand string
	// Category is the category path ("Outdoor > Jackets"), "" for none.
	Category string
	// Options are the variant's option values in the product's option
	// order, as name and value pairs.
	Options [][2]string
	// Price is what the item sells for, in minor units of Currency;
	// CompareAt its regular price when it is on sale (above Price), else 0.
	Price, CompareAt int64
	Currency         string
	Stock            int
	Images           []string
	// RatingAvg and RatingCount are the product's reviews.
	RatingAvg   float64
	RatingCount int
}

// OnSale reports whether the item sells below its regular price.
func (it *Item) OnSale() bool { return it.CompareAt > it.Price }

// InStock reports whether the item can be bought now.
func (it *Item) InStock() bool { return it.Stock > 0 }

// Option returns the value of the first option whose name is one of
// names (compared without case), "" when there is none.
func (it *Item) Option(names ...string) string {
	for _, o := range it.Options {
		for _, n := range names {
			if strings.EqualFold(o[0], n) {
				return o[1]
			}
		}
	}
	return ""
}

// batchSize is how many listings one read takes; their variants come in a
// second query.
const batchSize = 500

// variantRow is what a feed reads of a variant.
type variantRow struct {
	bun.BaseModel `bun:"table:products,alias:product"`

	SKU         string            `bun:"sku"`
	ParentID    int64             `bun:"parent_id"`
	Title       string            `bun:"title"`
	Description string            `bun:"description"`
	Brand       string            `bun:"brand"`
	Options     map[string]string `bun:"options"`
	Price       int64             `bun:"price"`
	CompareAt   int64             `bun:"compare_at_price"`
	Currency    string            `bun:"currency"`
	Stock       int               `bun:"stock"`
	ImageURLs   []string          `bun:"image_urls"`
}

// listingRow is what a feed reads of a product that is not a variant:
// only the columns a row shows, its category's path joined in.
type listingRow struct {
	bun.BaseModel `bun:"table:products,alias:product"`

	ID           int64    `bun:"id"`
	SKU          string   `bun:"sku"`
	Title        string   `bun:"title"`
	Description  string   `bun:"description"`
	Brand        string   `bun:"brand"`
	Category     string   `bun:"category_path"`
	Price        int64    `bun:"price"`
	CompareAt    int64    `bun:"compare_at_price"`
	Currency     string   `bun:"currency"`
	Stock        int      `bun:"stock"`
	ImageURLs    []string `bun:"image_urls"`
	RatingAvg    float64  `bun:"rating_avg"`
	RatingCount  int      `bun:"rating_count"`
	VariantCount int      `bun:"variant_count"`
	OptionNames  []string `bun:"option_names"`
}

// EachItem calls fn with every item of the feed, in product order, a
// batch at a time; an error from fn stops the walk and is returned.
func EachItem(ctx context.Context, db bun.IDB, fn func([]Item) error) error {
	var after int64
	for {
		var ps []listingRow
		err := db.NewSelect().Model(&ps).
			Column("product.id", "product.sku", "product.title", "product.description", "product.brand",
				"product.price", "product.compare_at_price", "product.currency", "product.stock", "product.image_urls",
				"product.rating_avg", "product.rating_count", "product.variant_count", "product.option_names").
			ColumnExpr("coalesce(category.path, '') AS category_path").
			Join("LEFT JOIN categories AS category ON category.id = product.category_id").
			Where("product.parent_id IS NULL").Where("product.active = ?", true).
			Where("product.id > ?", after).Order("product.id").Limit(batchSize).Scan(ctx)
		if err != nil {
			return fmt.Errorf("storefront: read products: %w", err)
		}
		if len(ps) == 0 {
			return nil
		}
		items, err := itemsOf(ctx, db, ps)
		if err != nil {
			return err
		}
		if len(items) > 0 {
			if err := fn(items); err != nil {
				return err
			}
		}
		if len(ps) < batchSize {
			return nil
		}
		after = ps[len(ps)-1].ID
	}
}

// itemsOf turns a batch of listings into feed rows, reading the active
// variants of those that have any.
func itemsOf(ctx context.Context, db bun.IDB, ps []listingRow) ([]Item, error) {
	var parents []int64
	for _, p := range ps {
		if p.VariantCount > 0 {
			parents = append(parents, p.ID)
		}
	}
	variants := map[int64][]variantRow{}
	if len(parents) > 0 {
		var vs []variantRow
		err := db.NewSelect().Model(&vs).Where("product.parent_id IN (?)", bun.List(parents)).
			Where("product.active = ?", true).Order("product.parent_id", "product.id").Scan(ctx)
		if err != nil {
			return nil, fmt.Errorf("storefront: read variants: %w", err)
		}
		for _, v := range vs {
			variants[v.ParentID] = append(variants[v.ParentID], v)
		}
	}
	items := make([]Item, 0, len(ps))
	for i := range ps {
		p := &ps[i]
		desc := clip(plain(p.Description), maxDescription) // once for all its variants
		if p.VariantCount == 0 {
			items = append(items, productItem(p, desc))
			continue
		}
		for _, v := range variants[p.ID] {
			items = append(items, variantItem(p, &v, desc))
		}
	}
	return items, nil
}

// productItem is the row of a product without variants; desc is its
// description as feeds give it.
func productItem(p *listingRow, desc string) Item {
	return Item{
		SKU: p.SKU, GroupSKU: p.SKU, Title: p.Title, Description: desc, Brand: p.Brand,
		Category: p.Category, Price: p.Price, CompareAt: p.CompareAt, Currency: p.Currency, Stock: p.Stock,
		Images: p.ImageURLs, RatingAvg: p.RatingAvg, RatingCount: p.RatingCount,
	}
}

// variantItem is the row of one variant of p: what the variant leaves
// empty comes from its product (desc: the product's description as feeds
// give it), and its title names its option values.
func variantItem(p *listingRow, v *variantRow, desc string) Item {
	it := Item{
		SKU: v.SKU, GroupSKU: p.SKU, HasVariants: true,
		Title: cmp(v.Title, p.Title), Description: desc, Brand: cmp(v.Brand, p.Brand),
		Category: p.Category, Price: v.Price, CompareAt: v.CompareAt, Currency: cmp(v.Currency, p.Currency), Stock: v.Stock,
		Images: v.ImageURLs, RatingAvg: p.RatingAvg, RatingCount: p.RatingCount,
	}
	if v.Description != "" && v.Description != p.Description {
		it.Description = clip(plain(v.Description), maxDescription)
	}
	if len(it.Images) == 0 {
		it.Images = p.ImageURLs
	}
	it.Options = orderedOptions(p.OptionNames, v.Options)
	if len(it.Options) > 0 {
		vals := make([]string, len(it.Options))
		for i, o := range it.Options {
			vals[i] = o[1]
		}
		it.Title += " (" + strings.Join(vals, ", ") + ")"
	}
	return it
}

// orderedOptions lists a variant's option values in the product's option
// order, then any others by name.
func orderedOptions(names []string, values map[string]string) [][2]string {
	out := make([][2]string, 0, len(values))
	seen := map[string]bool{}
	for _, n := range names {
		if v, ok := values[n]; ok && v != "" {
			out = append(out, [2]string{n, v})
			seen[n] = true
		}
	}
	var rest []string
	for n, v := range values {
		if !seen[n] && v != "" {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	for _, n := range rest {
		out = append(out, [2]string{n, values[n]})
	}
	return out
}

// cmp returns a unless it is empty, else b.
func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
