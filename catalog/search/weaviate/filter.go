package weaviate

import (
	"maps"
	"slices"
	"strings"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"

	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// filter turns the query's hard constraints into a where clause (nil for
// none). ok is false when nothing can match (a category without names).
func filter(q search.Query) (w *filters.WhereBuilder, ok bool) {
	var ops []*filters.WhereBuilder
	if q.Category != "" {
		segs := lowerSegments(q.Category)
		if len(segs) == 0 {
			return nil, false
		}
		ops = append(ops, filters.Where().WithPath([]string{"category_keys"}).
			WithOperator(filters.ContainsAny).WithValueText(strings.Join(segs, " > ")))
	}
	// A parent's price is a range; with Options the price of a variant
	// that has them counts (below).
	priced := len(q.Options) > 0 && (q.MinPrice > 0 || q.MaxPrice > 0)
	if q.MinPrice > 0 && !priced { // the parent's range overlaps the query's
		ops = append(ops, filters.Where().WithPath([]string{"price_max"}).
			WithOperator(filters.GreaterThanEqual).WithValueInt(q.MinPrice))
	}
	if q.MaxPrice > 0 && !priced {
		ops = append(ops, filters.Where().WithPath([]string{"price"}).
			WithOperator(filters.LessThanEqual).WithValueInt(q.MaxPrice))
	}
	if q.InStockOnly {
		ops = append(ops, filters.Where().WithPath([]string{"in_stock"}).
			WithOperator(filters.Equal).WithValueBoolean(true))
	}
	for _, k := range slices.Sorted(maps.Keys(q.Attributes)) {
		ops = append(ops, filters.Where().WithPath([]string{"attr_keys"}).
			WithOperator(filters.ContainsAny).WithValueText(attrFilterValue(k, q.Attributes[k])))
	}
	switch {
	case priced:
		// option_price_keys joins those subsets with the prefixes of the
		// variant's price; the range becomes the prefixes covering it.
		keys := search.OptionPriceFilter(q.Options, q.MinPrice, q.MaxPrice)
		if len(keys) == 0 {
			return nil, false // minimum above maximum
		}
		ops = append(ops, filters.Where().WithPath([]string{"option_price_keys"}).
			WithOperator(filters.ContainsAny).WithValueText(cleanAll(keys)...))
	case len(q.Options) > 0:
		// option_keys holds every subset of every in-stock variant's
		// option values: one key asks for a variant with all of them.
		ops = append(ops, filters.Where().WithPath([]string{"option_keys"}).
			WithOperator(filters.ContainsAny).WithValueText(clean(search.OptionsKey(q.Options))))
	}
	return and(ops...), true
}

// and combines clauses, any of which may be nil.
func and(ops ...*filters.WhereBuilder) *filters.WhereBuilder {
	return combine(filters.And, ops)
}

func combine(op filters.WhereOperator, ops []*filters.WhereBuilder) *filters.WhereBuilder {
	ops = slices.DeleteFunc(slices.Clone(ops), func(w *filters.WhereBuilder) bool { return w == nil })
	switch len(ops) {
	case 0:
		return nil
	case 1:
		return ops[0]
	}
	return filters.Where().WithOperator(op).WithOperands(ops)
}

// slotMatch is a where clause matching products that contain one of the
// slot's alternatives (all stems of it).
func slotMatch(slot []analysis.Alternative) *filters.WhereBuilder {
	var ops []*filters.WhereBuilder
	for _, a := range slot {
		ops = append(ops, filters.Where().WithPath([]string{"terms"}).
			WithOperator(filters.ContainsAll).WithValueText(cleanAll(a.Stems)...))
	}
	return combine(filters.Or, ops)
}

// anyTerm matches products containing any stem of the slots: the keyword
// matches a query's Total counts.
func anyTerm(slots [][]analysis.Alternative) *filters.WhereBuilder {
	stems := allStems(slots)
	if len(stems) == 0 {
		return nil
	}
	return filters.Where().WithPath([]string{"terms"}).WithOperator(filters.ContainsAny).WithValueText(stems...)
}

func allStems(slots [][]analysis.Alternative) []string {
	var out []string
	for _, sl := range slots {
		for _, a := range sl {
			for _, s := range a.Stems {
				if s = clean(s); s != "" && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

func cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clean(s)
	}
	return out
}
