package catalog

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// ProductSort orders a ProductList.
type ProductSort string

const (
	SortNewest    ProductSort = "newest" // the default
	SortTitle     ProductSort = "title"
	SortPriceAsc  ProductSort = "price_asc"
	SortPriceDesc ProductSort = "price_desc"
	SortStockAsc  ProductSort = "stock_asc"
)

// StockFilter selects products by stock; the zero value is any product,
// archived ones included.
type StockFilter string

const (
	StockAny      StockFilter = ""
	StockIn       StockFilter = "in"       // active, in stock
	StockLow      StockFilter = "low"      // active, 1 to LowStock left
	StockOut      StockFilter = "out"      // active, none left
	StockArchived StockFilter = "archived" // archived
)

// LowStock is the most units a product may have left and count as low
// on stock (StockLow); a variant at or below it flags its parent in the
// merchant's list.
const LowStock = 5

// ProductList selects a page of the merchant's product list.
type ProductList struct {
	// Text matches the SKU exactly (a variant's SKU finds its parent),
	// or the title or brand as a
	// case-insensitive substring.
	Text        string
	CategoryIDs []int64 // any of them; none: every category
	Stock       StockFilter
	Sort        ProductSort
	// After is where the previous page ended (ProductPage.Next); nil
	// for the first page.
	After *Cursor
	Limit int // default 50, at most 500
}

// ListProductPage returns one page of the products l selects (plain
// products and parents; variants are listed on their parent), with their
// categories, and the cursor of the next page ("" on the last).
func ListProductPage(ctx context.Context, db bun.IDB, l ProductList) ([]Product, string, error) {
	limit := l.Limit
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	var ps []Product
	q := l.where(db, db.NewSelect().Model(&ps).Relation("Category"))
	col, desc := l.Sort.key()
	q = l.After.where(q, col, desc)
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	if col != "product.id" {
		q = q.OrderExpr(col + dir)
	}
	if err := q.OrderExpr("product.id" + dir).Limit(int64(limit + 1)).Scan(ctx); err != nil {
		return nil, "", fmt.Errorf("catalog: list products: %w", err)
	}
	if len(ps) <= limit {
		return ps, "", nil
	}
	ps = ps[:limit]
	return ps, cursorAfter(ps[len(ps)-1], col).String(), nil
}

// CountProductList counts the products l selects (cursor and sort aside),
// variants left out as in ListProductPage.
func CountProductList(ctx context.Context, db bun.IDB, l ProductList) (int, error) {
	n, err := l.where(db, db.NewSelect().Model((*Product)(nil))).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count products: %w", err)
	}
	return int(n), nil
}

func (l ProductList) where(db bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	q = notVariant(db, q)
	if l.Text != "" {
		pat, like := LikePattern(l.Text), LikeOp(db)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("product.sku = ?", l.Text).
				WhereOr("product.id = (SELECT v.parent_id FROM products AS v WHERE v.sku = ?)", l.Text).
				WhereOr("product.title "+like+" ? ESCAPE '\\'", pat).
				WhereOr("product.brand "+like+" ? ESCAPE '\\'", pat)
		})
	}
	if len(l.CategoryIDs) > 0 {
		q = q.Where("product.category_id IN (?)", bun.List(l.CategoryIDs))
	}
	switch l.Stock {
	case StockIn:
		q = q.Where("product.active = ?", true).Where("product.stock > 0")
	case StockLow:
		q = q.Where("product.active = ?", true).Where("product.stock > 0").Where("product.stock <= ?", LowStock)
	case StockOut:
		q = q.Where("product.active = ?", true).Where("product.stock = 0")
	case StockArchived:
		q = q.Where("product.active = ?", false)
	}
	return q
}

// notVariant leaves variants out of q. On SQLite a plain "parent_id IS
// NULL" would cost the list its covering index (category, active, stock,
// price): every matching row read from the table, 10× slower with
// 100,000 products; the variants' ids come from the partial parent index
// instead. Postgres filters by the column (a NOT IN of a large set would
// not be hashed).
func notVariant(db bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	if db.Dialect().Name() == dialect.PG {
		return q.Where("product.parent_id IS NULL")
	}
	return q.Where("product.id NOT IN (SELECT v.id FROM products AS v WHERE v.parent_id IS NOT NULL)")
}

// where restricts q to the rows after c in the order of col.
func (c *Cursor) where(q *bun.SelectQuery, col string, desc bool) *bun.SelectQuery {
	if c == nil {
		return q
	}
	op := ">"
	if desc {
		op = "<"
	}
	if col == "product.id" {
		return q.Where("product.id "+op+" ?", c.ID)
	}
	var v any = c.Num
	if col == "product.title" {
		v = c.Str
	}
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where(col+" "+op+" ?", v).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where(col+" = ?", v).Where("product.id "+op+" ?", c.ID)
		})
	})
}

func cursorAfter(last Product, col string) Cursor {
	c := Cursor{ID: last.ID}
	switch col {
	case "product.price":
		c.Num = last.Price
	case "product.stock":
		c.Num = int64(last.Stock)
	case "product.title":
		c.Str = last.Title
	}
	return c
}

// key is the sort column and direction; ties go by id the same way.
func (s ProductSort) key() (col string, desc bool) {
	switch s {
	case SortTitle:
		return "product.title", false
	case SortPriceAsc:
		return "product.price", false
	case SortPriceDesc:
		return "product.price", true
	case SortStockAsc:
		return "product.stock", false
	}
	return "product.id", true
}

// LikePattern is user text as a LIKE pattern matching it anywhere: its
// wildcards escaped with a backslash (ESCAPE '\'), % on both sides.
func LikePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// LikeOp is a case-insensitive LIKE in both dialects: ILIKE on Postgres,
// LIKE (case-insensitive for ASCII) on SQLite.
func LikeOp(db bun.IDB) string {
	if db.Dialect().Name() == dialect.PG {
		return "ILIKE"
	}
	return "LIKE"
}

// Cursor is where a page of a keyset-paginated list ended: the sort key
// (a number or a text) and the id of its last row, so page 2,000 costs
// what page 1 costs. ListProductPage and ListInbox return the next page's
// as a string.
type Cursor struct {
	Num int64  `json:"n,omitempty"`
	Str string `json:"s,omitempty"`
	ID  int64  `json:"id"`
}

// String encodes c for a URL.
func (c Cursor) String() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseCursor decodes a Cursor's String: nil for "", an ErrInvalid error
// for text that is not one.
func ParseCursor(s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	c := new(Cursor)
	if err == nil {
		err = json.Unmarshal(b, c)
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: list cursor: %w: %v", ErrInvalid, err)
	}
	return c, nil
}
