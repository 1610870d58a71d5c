package catalog

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// A product with variants (a shoe in sizes, a tee in colours and sizes) is
// a parent row plus one product row per variant. A variant has its own
// SKU, option values, price, stock and image; carts, orders, stock and
// back-in-stock alerts work on it like on any product. The parent is what
// lists and search show: RollupParents keeps its stock (the sum), sold
// count, price (the lowest) and PriceMax (the highest) in step with its
// active variants, in the transaction that changed them. A parent itself
// cannot go into a cart (ErrNeedsVariant).

// MaxOptions is how many option names a product may have.
const MaxOptions = 3

// maxOptionLen bounds an option name or value.
const maxOptionLen = 40

// ErrNeedsVariant refuses a parent where a variant must be chosen.
var ErrNeedsVariant = fmt.Errorf("%w: choose a variant", ErrInvalid)

// HasVariants reports whether p is a parent with variants.
func (p *Product) HasVariants() bool { return p.VariantCount > 0 }

// IsVariant reports whether p is a variant of another product.
func (p *Product) IsVariant() bool { return p.ParentID != nil }

// OptionLabel joins a variant's option values in the order of names (the
// parent's OptionNames), then any others by name: "42 / Navy".
func OptionLabel(opts map[string]string, names []string) string {
	if len(opts) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var parts []string
	for _, n := range names {
		if v, ok := opts[n]; ok {
			parts = append(parts, v)
			seen[n] = true
		}
	}
	rest := make([]string, 0, len(opts))
	for n := range opts {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		parts = append(parts, opts[n])
	}
	return strings.Join(parts, " / ")
}

// optionAliases are names shops and shoppers use for the same option, in
// English and Russian; the first of each group is the canonical one.
var optionAliases = map[string]string{
	"size": "size", "sizes": "size", "размер": "size",
	"colour": "color", "colours": "color", "color": "color", "colors": "color", "цвет": "color",
	"material": "material", "материал": "material",
}

// OptionName folds an option name for matching: trimmed, lower case, and
// one name for each alias group ("Colour", "color" and «цвет» are all
// "color"). Search and the tools compare names through it, so a shop's
// "Colour" and a shopper's "color" meet.
func OptionName(n string) string {
	n = strings.ToLower(strings.TrimSpace(n))
	if c, ok := optionAliases[n]; ok {
		return c
	}
	return n
}

// OptionNameAliases lists the lower-case names that OptionName folds to
// the same name as n (n itself included), for a database to match.
func OptionNameAliases(n string) []string {
	c := OptionName(n)
	out := []string{c}
	for a, to := range optionAliases {
		if to == c && a != c {
			out = append(out, a)
		}
	}
	if l := strings.ToLower(strings.TrimSpace(n)); !slices.Contains(out, l) {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// OptionKey is a canonical text of an option set, for comparing siblings:
// names through OptionName, values folded to lower case, sorted.
func OptionKey(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for n, v := range opts {
		keys = append(keys, OptionName(n)+"="+strings.ToLower(strings.TrimSpace(v)))
	}
	sort.Strings(keys)
	return strings.Join(keys, ";")
}

// optionNameKey is OptionKey of the names only.
func optionNameKey(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for n := range opts {
		keys = append(keys, OptionName(n))
	}
	sort.Strings(keys)
	return strings.Join(keys, ";")
}

// validateOptions checks and trims a product input's option fields.
func (in *ProductInput) validateOptions() error {
	in.VariantOf = strings.TrimSpace(in.VariantOf)
	clean := make(map[string]string, len(in.Options))
	for n, v := range in.Options {
		n, v = strings.TrimSpace(n), strings.TrimSpace(v)
		if n == "" || v == "" {
			return fmt.Errorf("%w: option names and values must not be empty", ErrInvalid)
		}
		if len([]rune(n)) > maxOptionLen || len([]rune(v)) > maxOptionLen {
			return fmt.Errorf("%w: option %q is longer than %d characters", ErrInvalid, n, maxOptionLen)
		}
		clean[n] = v
	}
	in.Options = clean
	names := make([]string, 0, len(in.OptionNames))
	for _, n := range in.OptionNames {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	in.OptionNames = names
	switch {
	case in.VariantOf != "" && len(in.Options) == 0:
		return fmt.Errorf("%w: variant %q of %q has no options", ErrInvalid, in.SKU, in.VariantOf)
	case in.VariantOf == "" && len(in.Options) > 0:
		return fmt.Errorf("%w: %q has options but no variant_of", ErrInvalid, in.SKU)
	case in.VariantOf == in.SKU && in.SKU != "":
		return fmt.Errorf("%w: %q cannot be a variant of itself", ErrInvalid, in.SKU)
	case len(in.Options) > MaxOptions || len(in.OptionNames) > MaxOptions:
		return fmt.Errorf("%w: %q has more than %d options", ErrInvalid, in.SKU, MaxOptions)
	}
	return nil
}

// CheckVariants checks variant inputs against each other and the stored
// catalog: the parent exists (in the database or earlier in ins) and is
// not a variant itself, siblings share option names, and no two siblings
// have the same option values. It returns one error per input (nil where
// fine), so an import can report them by row.
func CheckVariants(ctx context.Context, db bun.IDB, ins []ProductInput) ([]error, error) {
	errs := make([]error, len(ins))
	parents := map[string]bool{}
	inBatch := map[string]int{}
	for i, in := range ins {
		inBatch[in.SKU] = i
		if in.VariantOf != "" {
			parents[in.VariantOf] = true
		}
	}
	if len(parents) == 0 {
		return errs, nil
	}
	list := make([]string, 0, len(parents))
	for p := range parents {
		list = append(list, p)
	}
	var stored []Product
	if err := db.NewSelect().Model(&stored).Column("id", "sku", "parent_id").Where("sku IN (?)", bun.List(list)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: check variants: %w", err)
	}
	storedParent := map[string]*Product{}
	ids := make([]int64, 0, len(stored))
	for i := range stored {
		storedParent[stored[i].SKU] = &stored[i]
		ids = append(ids, stored[i].ID)
	}
	// Siblings already stored, less those this batch rewrites.
	type sibling struct {
		sku  string
		opts map[string]string
	}
	family := map[string][]sibling{}
	if len(ids) > 0 {
		var kids []struct {
			SKU     string            `bun:"sku"`
			Options map[string]string `bun:"options"`
			Parent  string            `bun:"parent_sku"`
		}
		err := db.NewSelect().TableExpr("products AS v").Join("JOIN products AS p ON p.id = v.parent_id").
			ColumnExpr("v.sku, v.options, p.sku AS parent_sku").Where("v.parent_id IN (?)", bun.List(ids)).Scan(ctx, &kids)
		if err != nil {
			return nil, fmt.Errorf("catalog: check variants: siblings: %w", err)
		}
		for _, k := range kids {
			if _, rewritten := inBatch[k.SKU]; !rewritten {
				family[k.Parent] = append(family[k.Parent], sibling{k.SKU, k.Options})
			}
		}
	}
	for i, in := range ins {
		if in.VariantOf == "" {
			continue
		}
		if j, ok := inBatch[in.VariantOf]; ok && j < i {
			if ins[j].VariantOf != "" {
				errs[i] = fmt.Errorf("%w: parent %q is itself a variant", ErrInvalid, in.VariantOf)
				continue
			}
		} else if p := storedParent[in.VariantOf]; p == nil {
			errs[i] = fmt.Errorf("%w: unknown parent %q in variant_of", ErrInvalid, in.VariantOf)
			continue
		} else if p.ParentID != nil {
			errs[i] = fmt.Errorf("%w: parent %q is itself a variant", ErrInvalid, in.VariantOf)
			continue
		}
		key, names := OptionKey(in.Options), optionNameKey(in.Options)
		for _, s := range family[in.VariantOf] {
			if optionNameKey(s.opts) != names {
				errs[i] = fmt.Errorf("%w: options of %q (%s) differ from sibling %q (%s)", ErrInvalid, in.SKU,
					strings.ReplaceAll(names, ";", ", "), s.sku, strings.ReplaceAll(optionNameKey(s.opts), ";", ", "))
				break
			}
			if OptionKey(s.opts) == key {
				errs[i] = fmt.Errorf("%w: %q has the same options as sibling %q (%s)", ErrInvalid, in.SKU, s.sku, OptionLabel(in.Options, nil))
				break
			}
		}
		if errs[i] == nil {
			family[in.VariantOf] = append(family[in.VariantOf], sibling{in.SKU, in.Options})
		}
	}
	return errs, nil
}

// ListVariants returns a parent's variants in the order they were created.
func ListVariants(ctx context.Context, db bun.IDB, parentID int64) ([]Product, error) {
	var vs []Product
	if err := db.NewSelect().Model(&vs).Where("parent_id = ?", parentID).OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: variants of %d: %w", parentID, err)
	}
	return vs, nil
}

// VariantsOf returns the variants of several parents, by parent id.
func VariantsOf(ctx context.Context, db bun.IDB, parentIDs []int64) (map[int64][]Product, error) {
	out := map[int64][]Product{}
	if len(parentIDs) == 0 {
		return out, nil
	}
	var vs []Product
	if err := db.NewSelect().Model(&vs).Where("parent_id IN (?)", bun.List(parentIDs)).OrderExpr("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: variants: %w", err)
	}
	for _, v := range vs {
		out[*v.ParentID] = append(out[*v.ParentID], v)
	}
	return out, nil
}

// rollupSQL recomputes parents from their variants. MIN/MAX take
// "price + 0" so Postgres cannot answer them by walking products_price_idx
// backwards and filtering on parent_id (its plan when statistics lag, as
// in a bulk import: a scan of most of the table per parent); they use
// products_parent_idx like the other sums.
const rollupSQL = `UPDATE products SET
variant_count = (SELECT COUNT(*) FROM products AS v WHERE v.parent_id = products.id),
stock = (SELECT COALESCE(SUM(v.stock), 0) FROM products AS v WHERE v.parent_id = products.id AND v.active),
sold_count = (SELECT COALESCE(SUM(v.sold_count), 0) FROM products AS v WHERE v.parent_id = products.id),
price = COALESCE((SELECT MIN(v.price + 0) FROM products AS v WHERE v.parent_id = products.id AND v.active), price),
price_max = COALESCE((SELECT MAX(v.price + 0) FROM products AS v WHERE v.parent_id = products.id AND v.active), price),
updated_at = ?
WHERE id IN (?)`

// RollupParents recomputes the parents of the given products (and those
// of them that are parents) from their variants, wakes their stock
// alerts and queues them for the search index. Call it once at the end of
// a transaction that wrote variants, after all its variant writes: on
// Postgres it locks the parents (in id order) before reading the sums, so
// a concurrent writer's committed change is counted, and locking parents
// last keeps it from deadlocking with writers that lock variants first.
func RollupParents(ctx context.Context, db bun.IDB, skus ...string) error {
	if len(skus) == 0 {
		return nil
	}
	var ids []int64
	err := db.NewSelect().Model((*Product)(nil)).ColumnExpr("DISTINCT COALESCE(parent_id, id)").
		Where("sku IN (?)", bun.List(skus)).Where("parent_id IS NOT NULL OR variant_count > 0 OR EXISTS (SELECT 1 FROM products AS c WHERE c.parent_id = product.id)").
		Scan(ctx, &ids)
	if err != nil {
		return fmt.Errorf("catalog: roll up variants: %w", err)
	}
	return rollupIDs(ctx, db, ids)
}

func rollupIDs(ctx context.Context, db bun.IDB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if db.Dialect().Name() == dialect.PG {
		var locked []int64
		if err := db.NewRaw("SELECT id FROM products WHERE id IN (?) ORDER BY id FOR UPDATE", bun.List(ids)).Scan(ctx, &locked); err != nil {
			return fmt.Errorf("catalog: roll up variants: lock parents: %w", err)
		}
	}
	if _, err := db.NewRaw(rollupSQL, time.Now().UTC(), bun.List(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("catalog: roll up variants: %w", err)
	}
	var skus []string
	if err := db.NewSelect().Model((*Product)(nil)).Column("sku").Where("id IN (?)", bun.List(ids)).Scan(ctx, &skus); err != nil {
		return fmt.Errorf("catalog: roll up variants: %w", err)
	}
	return wakeStockAlertsBySKU(ctx, db, skus...)
}
