package search

import (
	"maps"
	"slices"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// What a product's variants add to its search document, for backends
// that store documents (Weaviate): the option names and values of its
// active variants as attribute text, and the option combinations of its
// active variants in stock as filter keys.

// OptionText is the attribute text of the option values of the active
// variants vs ("Colour: Navy, Red; Size: 42, 43; "), "" without any.
func OptionText(vs []catalog.Product) string {
	values := map[string][]string{}
	for _, v := range vs {
		if !v.Active {
			continue
		}
		for n, val := range v.Options {
			values[n] = append(values[n], val)
		}
	}
	text := make(map[string]string, len(values))
	for n, vals := range values {
		slices.Sort(vals)
		text[n] = strings.Join(slices.Compact(vals), ", ")
	}
	return analysis.AttributeText(text)
}

// OptionCombos returns, for every active variant of vs in stock, every
// non-empty subset of its option values as an OptionsKey: a filter on
// any options then matches when one variant has them all. A variant has
// at most catalog.MaxOptions options, so at most 7 keys each.
func OptionCombos(vs []catalog.Product) []string {
	var out []string
	for _, v := range vs {
		if !v.Active || v.Stock <= 0 || len(v.Options) == 0 {
			continue
		}
		names := slices.Sorted(maps.Keys(v.Options))
		if len(names) > catalog.MaxOptions {
			names = names[:catalog.MaxOptions]
		}
		for mask := 1; mask < 1<<len(names); mask++ {
			sub := make(map[string]string, len(names))
			for i, n := range names {
				if mask&(1<<i) != 0 {
					sub[n] = v.Options[n]
				}
			}
			out = append(out, OptionsKey(sub))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// OptionsKey is the canonical text of option values: names and values
// trimmed and lower-cased, "name=value" sorted by name and joined by ";".
func OptionsKey(opts map[string]string) string {
	parts := make([]string, 0, len(opts))
	for n, v := range opts {
		parts = append(parts, strings.ToLower(strings.TrimSpace(n))+"="+strings.ToLower(strings.TrimSpace(v)))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}
