package searchtest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// Database searches the catalog tables directly with SQL LIKE: a
// search.Searcher for tests that need a simple, obviously correct search
// beside the real backends (engine and admin tests). Production never
// uses it.
type Database struct {
	db *bun.DB
}

// NewDatabase returns the database-query backend.
func NewDatabase(db *bun.DB) *Database { return &Database{db: db} }

// maxWords bounds the words of a query that become conditions.
const maxWords = 8

// Search implements Searcher.
func (d *Database) Search(ctx context.Context, q search.Query) (search.Results, error) {
	var ps []catalog.Product
	sel := d.db.NewSelect().Model(&ps).Relation("Category").Where("product.active = ?", true).
		Where("product.parent_id IS NULL") // variants are found through their parents
	sel, err := d.filter(ctx, sel, q)
	if err != nil {
		return search.Results{}, err
	}
	for _, w := range words(q.RankText()) {
		sel = sel.WhereGroup(" AND ", func(g *bun.SelectQuery) *bun.SelectQuery {
			for _, col := range []string{"product.title", "product.brand", "product.description", "category.path"} {
				for _, form := range caseForms(w) {
					g = g.WhereOr("LOWER("+col+") LIKE ? ESCAPE '\\'", "%"+escapeLike(form)+"%")
				}
			}
			for _, form := range caseForms(w) {
				g = g.WhereOr(d.optionText(), "%"+escapeLike(form)+"%")
			}
			return g
		})
	}
	for _, expr := range order(q.Sort) {
		sel = sel.OrderExpr(expr)
	}
	limit := q.Limit
	if limit <= 0 || limit > 100 {
		limit = 10
	}
	offset := max(q.Offset, 0)
	if err := sel.Limit(int64(limit)).Offset(int64(offset)).Scan(ctx); err != nil {
		return search.Results{}, fmt.Errorf("search: database: %w", err)
	}
	if len(ps) < limit {
		// A short page is the last one: no count query needed.
		return search.Results{Products: ps, Total: offset + len(ps)}, nil
	}
	total, err := sel.Count(ctx)
	if err != nil {
		return search.Results{}, fmt.Errorf("search: database: count: %w", err)
	}
	return search.Results{Products: ps, Total: int(total)}, nil
}

func (d *Database) filter(ctx context.Context, sel *bun.SelectQuery, q search.Query) (*bun.SelectQuery, error) {
	if q.Category != "" {
		ids, err := categoryIDs(ctx, d.db, q.Category)
		if err != nil {
			return nil, err
		}
		sel = sel.Where("product.category_id IN (?)", bun.List(ids))
	}
	// A parent's price is a range (Price to PriceMax); with Options the
	// matching variant's price is what counts (variantFilter).
	if q.MinPrice > 0 && len(q.Options) == 0 {
		sel = sel.Where("CASE WHEN product.price_max > product.price THEN product.price_max ELSE product.price END >= ?", q.MinPrice)
	}
	if q.MaxPrice > 0 && len(q.Options) == 0 {
		sel = sel.Where("product.price <= ?", q.MaxPrice)
	}
	if len(q.Options) > 0 {
		expr, args := d.variantFilter(q)
		sel = sel.Where(expr, args...)
	}
	if q.InStockOnly {
		sel = sel.Where("product.stock > 0")
	}
	for k, v := range q.Attributes {
		if d.db.Dialect().Name() == dialect.PG {
			sel = sel.Where("LOWER(product.attributes->>?) = ?", k, strings.ToLower(v))
		} else {
			sel = sel.Where("LOWER(json_extract(product.attributes, ?)) = ?", `$."`+strings.ReplaceAll(k, `"`, ``)+`"`, strings.ToLower(v))
		}
	}
	return sel, nil
}

// variantFilter is a condition keeping parents with an active variant in
// stock that has every option value of q.Options (names and values
// compared case-insensitively) and a price within q's bounds.
func (d *Database) variantFilter(q search.Query) (string, []any) {
	var b strings.Builder
	var args []any
	b.WriteString("EXISTS (SELECT 1 FROM products AS v WHERE v.parent_id = product.id AND v.active = ? AND v.stock > 0")
	args = append(args, true)
	if q.MinPrice > 0 {
		b.WriteString(" AND v.price >= ?")
		args = append(args, q.MinPrice)
	}
	if q.MaxPrice > 0 {
		b.WriteString(" AND v.price <= ?")
		args = append(args, q.MaxPrice)
	}
	each := "json_each(v.options) AS o"
	if d.db.Dialect().Name() == dialect.PG {
		each = "jsonb_each_text(v.options) AS o(key, value)"
	}
	for _, n := range slices.Sorted(maps.Keys(q.Options)) {
		b.WriteString(" AND EXISTS (SELECT 1 FROM " + each + " WHERE LOWER(o.key) IN (?) AND LOWER(o.value) = ?)")
		args = append(args, bun.List(catalog.OptionNameAliases(n)), strings.ToLower(strings.TrimSpace(q.Options[n])))
	}
	b.WriteString(")")
	return b.String(), args
}

// optionText is a condition (one LIKE argument) matching a parent whose
// active variants' option names or values contain the word.
func (d *Database) optionText() string {
	opts := "v.options"
	if d.db.Dialect().Name() == dialect.PG {
		opts = "v.options::text"
	}
	return "EXISTS (SELECT 1 FROM products AS v WHERE v.parent_id = product.id AND v.active = TRUE AND LOWER(" + opts + ") LIKE ? ESCAPE '\\')"
}

// categoryIDs resolves a category path (or a unique last name such as
// "Running") to the ids of its subtree; an unknown category matches nothing.
func categoryIDs(ctx context.Context, db bun.IDB, path string) ([]int64, error) {
	all, err := catalog.ListCategories(ctx, db)
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(strings.Join(catalog.SplitCategoryPath(path), catalog.PathSeparator))
	var ids []int64
	for _, c := range all {
		p := strings.ToLower(c.Path)
		if p == want || strings.HasSuffix(p, catalog.PathSeparator+want) {
			ids = append(ids, catalog.Subtree(all, c.ID)...)
		}
	}
	if len(ids) == 0 {
		return []int64{-1}, nil
	}
	return ids, nil
}

func order(s search.Sort) []string {
	switch s {
	case search.SortPriceAsc:
		return []string{"product.price ASC", "product.id"}
	case search.SortPriceDesc:
		return []string{"product.price DESC", "product.id"}
	case search.SortRating:
		return []string{"product.rating_avg DESC", "product.rating_count DESC", "product.id"}
	case search.SortPopular:
		return []string{"product.sold_count DESC", "product.rating_count DESC", "product.id"}
	}
	// Relevance without a ranking model: in-stock first, then well-reviewed.
	return []string{"CASE WHEN product.stock > 0 THEN 0 ELSE 1 END", "product.rating_count DESC", "product.id"}
}

// Similar returns active products of the same category, closest in price;
// never variants. A variant's SKU is answered as its parent's.
func (d *Database) Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error) {
	p, err := catalog.GetProduct(ctx, d.db, sku)
	if err != nil {
		return nil, err
	}
	if p.ParentID != nil {
		var parent catalog.Product
		if err := d.db.NewSelect().Model(&parent).Where("id = ?", *p.ParentID).Scan(ctx); err != nil {
			return nil, fmt.Errorf("search: similar to %s: parent: %w", sku, err)
		}
		p = &parent
	}
	var ps []catalog.Product
	sel := d.db.NewSelect().Model(&ps).Relation("Category").
		Where("product.active = ?", true).Where("product.sku <> ?", p.SKU).Where("product.parent_id IS NULL")
	if p.CategoryID != nil {
		sel = sel.Where("product.category_id = ?", *p.CategoryID)
	}
	err = sel.OrderExpr("ABS(product.price - ?)", p.Price).Order("product.id").Limit(int64(max(limit, 1))).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: similar to %s: %w", sku, err)
	}
	return ps, nil
}

// words lower-cases the query and keeps up to maxWords words of 2+ runes.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '-' || r == '\'' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127)
	}) {
		if len([]rune(w)) >= 2 && len(out) < maxWords {
			out = append(out, w)
		}
	}
	return out
}

// caseForms returns the word and, for non-ASCII words, its capitalised
// form: SQLite's LOWER and LIKE fold ASCII only, so "кроссовки" must also be
// tried as "Кроссовки" to find a title that starts with it.
func caseForms(w string) []string {
	for _, r := range w {
		if r > 127 {
			rs := []rune(w)
			return []string{w, strings.ToUpper(string(rs[0])) + string(rs[1:])}
		}
	}
	return []string{w}
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
