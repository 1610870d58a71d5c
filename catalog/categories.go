package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// PathSeparator joins category names into a path such as "Shoes > Running".
const PathSeparator = " > "

// Category is a node of the category tree.
type Category struct {
	bun.BaseModel `bun:"table:categories"`

	ID        int64     `bun:"id,pk,autoincrement"`
	ParentID  *int64    `bun:"parent_id"`
	Name      string    `bun:"name,notnull"`
	Path      string    `bun:"path,notnull"`
	Position  int       `bun:"position,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// SplitCategoryPath turns "Shoes > Running" into its trimmed, non-empty
// parts. ">" inside a name is not supported.
func SplitCategoryPath(path string) []string {
	var parts []string
	for _, p := range strings.Split(path, ">") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			parts = append(parts, p)
		}
	}
	return parts
}

// EnsureCategoryPath returns the category at the end of parts, creating
// missing nodes along the way.
func EnsureCategoryPath(ctx context.Context, db bun.IDB, parts []string) (*Category, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("catalog: ensure category: %w: empty path", ErrInvalid)
	}
	var parent *Category
	for i := range parts {
		path := strings.Join(parts[:i+1], PathSeparator)
		c := &Category{Name: parts[i], Path: path}
		if parent != nil {
			c.ParentID = &parent.ID
		}
		_, err := db.NewInsert().Model(c).On("CONFLICT (path) DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, fmt.Errorf("catalog: ensure category %q: %w", path, err)
		}
		if err := db.NewSelect().Model(c).Where("path = ?", path).Scan(ctx); err != nil {
			return nil, fmt.Errorf("catalog: load category %q: %w", path, err)
		}
		parent = c
	}
	return parent, nil
}

// ListCategories returns the whole tree ordered by path, parents first.
func ListCategories(ctx context.Context, db bun.IDB) ([]Category, error) {
	var cs []Category
	if err := db.NewSelect().Model(&cs).Order("path").Scan(ctx); err != nil {
		return nil, fmt.Errorf("catalog: list categories: %w", err)
	}
	return cs, nil
}

// Children returns the direct children of parent (nil for the roots) from a
// list returned by ListCategories.
func Children(all []Category, parent *int64) []Category {
	var out []Category
	for _, c := range all {
		if (parent == nil && c.ParentID == nil) || (parent != nil && c.ParentID != nil && *c.ParentID == *parent) {
			out = append(out, c)
		}
	}
	return out
}

// Subtree returns the ids of root and all its descendants.
func Subtree(all []Category, root int64) []int64 {
	ids := []int64{root}
	for i := 0; i < len(ids); i++ {
		for _, c := range all {
			if c.ParentID != nil && *c.ParentID == ids[i] {
				ids = append(ids, c.ID)
			}
		}
	}
	return ids
}

// CategoryProductCounts returns how many active listings (plain products
// and parents; not their variants) each category holds directly, by
// category id. Categories without active products are
// absent; add up a Subtree for the count of a whole branch.
func CategoryProductCounts(ctx context.Context, db bun.IDB) (map[int64]int, error) {
	var rows []struct {
		CategoryID int64 `bun:"category_id"`
		N          int   `bun:"n"`
	}
	err := db.NewSelect().Model((*Product)(nil)).
		Column("category_id").ColumnExpr("COUNT(*) AS n").
		Where("active = ?", true).Where("category_id IS NOT NULL").Where("parent_id IS NULL").
		Group("category_id").
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("catalog: count products per category: %w", err)
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		out[r.CategoryID] = r.N
	}
	return out, nil
}
