package search

import (
	"strings"

	"shopbot/catalog"
)

// Violation says which of q's filters product p breaks ("price above
// maximum", "outside category Shoes", …), or "" when p may be a result of
// q. search-eval counts violations with it, and the backends' tests assert
// none. A parent's price is its range (Price to PriceMax): it is below a
// minimum only when its dearest variant is. An Options filter needs a
// parent (the variants themselves are not at hand here).
func (q Query) Violation(p catalog.Product) string {
	switch {
	case !p.Active:
		return "inactive"
	case p.IsVariant():
		return "a variant, not its parent"
	case len(q.Options) > 0 && !p.HasVariants():
		return "no variants to match options"
	case q.MinPrice > 0 && max(p.Price, p.PriceMax) < q.MinPrice:
		return "price below minimum"
	case q.MaxPrice > 0 && p.Price > q.MaxPrice:
		return "price above maximum"
	case q.InStockOnly && p.Stock <= 0:
		return "out of stock"
	case q.Category != "" && !inCategory(p, q.Category):
		return "outside category " + q.Category
	}
	for k, v := range q.Attributes {
		if !hasAttribute(p.Attributes, k, v) {
			return "attribute " + k + " is not " + v
		}
	}
	return ""
}

// inCategory: the category's names appear, in order, in the product's
// path ("Running" and "Shoes > Running" are both in "Shoes > Running").
func inCategory(p catalog.Product, category string) bool {
	if p.Category == nil {
		return false
	}
	norm := func(s string) string {
		return catalog.PathSeparator + strings.ToLower(strings.Join(catalog.SplitCategoryPath(s), catalog.PathSeparator)) + catalog.PathSeparator
	}
	return strings.Contains(norm(p.Category.Path), norm(category))
}

// hasAttribute compares case-insensitively; a comma-separated value
// ("40, 41, 42") matches any of its items.
func hasAttribute(attrs map[string]string, key, want string) bool {
	want = strings.TrimSpace(want)
	for k, v := range attrs {
		if !strings.EqualFold(k, key) {
			continue
		}
		for _, item := range append(strings.Split(v, ","), v) {
			if strings.EqualFold(strings.TrimSpace(item), want) {
				return true
			}
		}
	}
	return false
}
