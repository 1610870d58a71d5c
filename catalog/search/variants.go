package search

import (
	"maps"
	"slices"
	"strconv"
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

// OptionsKey is the canonical text of option values: names through
// catalog.OptionName ("Colour" is "color"), values trimmed and lower-cased, "name=value" sorted by name and joined by ";".
func OptionsKey(opts map[string]string) string {
	parts := make([]string, 0, len(opts))
	for n, v := range opts {
		parts = append(parts, catalog.OptionName(n)+"="+strings.ToLower(strings.TrimSpace(v)))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// priceDigits is how many decimal digits OptionPriceKeys writes a price
// with; dearer variants count as the largest such price.
const priceDigits = 10

// OptionPriceKeys returns, for every active variant of vs in stock, each
// of its OptionCombos joined with each decimal prefix of its price
// ("size=42|00000090", "size=42|0000009"…, priceDigits+1 prefixes): a
// filter on options and a price range then matches, with
// OptionPriceFilter, when one variant has the options and a price in
// range. Stores that filter by exact text values (Weaviate) need this.
func OptionPriceKeys(vs []catalog.Product) []string {
	var out []string
	for _, v := range vs {
		if !v.Active || v.Stock <= 0 || len(v.Options) == 0 {
			continue
		}
		price := paddedPrice(v.Price)
		for _, combo := range OptionCombos([]catalog.Product{v}) {
			for n := 0; n <= priceDigits; n++ {
				out = append(out, combo+"|"+price[:n])
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// OptionPriceFilter returns the OptionPriceKeys values of which a
// variant with opts and a price in [lo, hi] has one (zero bounds: none).
// It covers the range by decimal prefixes: at most 18 per digit.
func OptionPriceFilter(opts map[string]string, lo, hi int64) []string {
	top := int64(1)
	for range priceDigits {
		top *= 10
	}
	lo, hi = max(lo, 0), min(hi, top-1)
	if hi <= 0 {
		hi = top - 1
	}
	combo := OptionsKey(opts)
	var out []string
	for lo <= hi {
		// The largest block of 10^k prices starting at lo inside the range.
		k, size := 0, int64(1)
		for k < priceDigits && lo%(size*10) == 0 && lo+size*10-1 <= hi {
			k, size = k+1, size*10
		}
		out = append(out, combo+"|"+paddedPrice(lo)[:priceDigits-k])
		lo += size
	}
	return out
}

// paddedPrice writes a price with priceDigits digits.
func paddedPrice(p int64) string {
	s := strconv.FormatInt(max(p, 0), 10)
	if len(s) > priceDigits {
		return strings.Repeat("9", priceDigits)
	}
	return strings.Repeat("0", priceDigits-len(s)) + s
}
