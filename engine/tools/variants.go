package tools

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// A product with variants is chosen one option at a time (picker.go). A
// family is a parent with its variants and, per option name, the values
// in order of first appearance over the variants by id: a value's index
// in that order is what an ActOption button carries, so it stays stable
// while stock changes.

// family is a parent product, its variants and their option values.
type family struct {
	parent   *catalog.Product
	variants []catalog.Product
	names    []string   // option names in the parent's order
	values   [][]string // per name, the values in catalog order
}

// loadFamily reads the variants of parent p.
func loadFamily(ctx context.Context, d *Deps, p *catalog.Product) (*family, error) {
	vs, err := d.products().Variants(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return newFamily(p, vs), nil
}

// newFamily builds a family from a parent and its variants (by id).
func newFamily(p *catalog.Product, vs []catalog.Product) *family {
	f := &family{parent: p, variants: vs}
	seen := map[string]bool{}
	for _, n := range p.OptionNames {
		if !seen[n] {
			seen[n] = true
			f.names = append(f.names, n)
		}
	}
	var extra []string // names the variants have that the parent does not list
	for _, v := range vs {
		for n := range v.Options {
			if !seen[n] {
				seen[n] = true
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	f.names = append(f.names, extra...)
	f.values = make([][]string, len(f.names))
	for i, n := range f.names {
		have := map[string]bool{}
		for _, v := range vs {
			if val, ok := v.Options[n]; ok && !have[val] {
				have[val] = true
				f.values[i] = append(f.values[i], val)
			}
		}
	}
	return f
}

// noChoice is a choice with no option chosen.
func (f *family) noChoice() []int {
	c := make([]int, len(f.names))
	for i := range c {
		c[i] = -1
	}
	return c
}

// nameIndex finds an option by name, ignoring case and aliases
// (catalog.OptionName: "color" finds the catalog's "Colour").
func (f *family) nameIndex(name string) int {
	name = catalog.OptionName(name)
	for i, n := range f.names {
		if catalog.OptionName(n) == name {
			return i
		}
	}
	return -1
}

// valueIndex finds a value of option i, ignoring case.
func (f *family) valueIndex(i int, value string) int {
	value = strings.TrimSpace(value)
	for j, v := range f.values[i] {
		if strings.EqualFold(v, value) {
			return j
		}
	}
	return -1
}

// resolve applies the shopper's options to choice: names and values
// match the catalog's ignoring case; a name the product does not have
// is tried as any option holding that value. Anything else is a
// ToolError naming what the product offers.
func (f *family) resolve(choice []int, opts map[string]string) error {
	names := make([]string, 0, len(opts))
	for n := range opts {
		names = append(names, n)
	}
	sort.Strings(names) // deterministic errors
	for _, n := range names {
		val := opts[n]
		i := f.nameIndex(n)
		if i < 0 {
			i = f.optionHolding(val)
		}
		if i < 0 {
			return Errorf("%s has no option %q; its options are %s", f.parent.Title, n, strings.Join(f.names, ", "))
		}
		j := f.valueIndex(i, val)
		if j < 0 {
			return Errorf("%s has no %s %q; choose one of %s", f.parent.Title, f.names[i], val, strings.Join(f.values[i], ", "))
		}
		choice[i] = j
	}
	return nil
}

// optionHolding is the one option with value among its values, or -1.
func (f *family) optionHolding(value string) int {
	found := -1
	for i := range f.names {
		if f.valueIndex(i, value) >= 0 {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// choose sets choice to a variant's own option values.
func (f *family) choose(choice []int, v *catalog.Product) {
	for i, n := range f.names {
		if val, ok := v.Options[n]; ok {
			choice[i] = f.valueIndex(i, val)
		}
	}
}

// matches reports whether variant v has the chosen values.
func (f *family) matches(v *catalog.Product, choice []int) bool {
	for i, j := range choice {
		if j >= 0 && v.Options[f.names[i]] != f.values[i][j] {
			return false
		}
	}
	return true
}

// inStock are the active variants in stock that match choice.
func (f *family) inStock(choice []int) []*catalog.Product {
	var out []*catalog.Product
	for i := range f.variants {
		v := &f.variants[i]
		if v.InStock() && f.matches(v, choice) {
			out = append(out, v)
		}
	}
	return out
}

// exact is the variant with every option chosen, or nil.
func (f *family) exact(choice []int) *catalog.Product {
	for _, j := range choice {
		if j < 0 {
			return nil
		}
	}
	for i := range f.variants {
		if f.matches(&f.variants[i], choice) {
			return &f.variants[i]
		}
	}
	return nil
}

// chosen is choice as option name → value.
func (f *family) chosen(choice []int) map[string]string {
	out := map[string]string{}
	for i, j := range choice {
		if j >= 0 {
			out[f.names[i]] = f.values[i][j]
		}
	}
	return out
}

// maxChoiceArg bounds an ActOption button's argument.
const maxChoiceArg = 3 * (catalog.MaxOptions + 1)

// encodeChoice writes choice as an ActOption argument: value indexes in
// option order, "" for an option not chosen, trailing ones left out
// ("2.0", ".1").
func encodeChoice(choice []int) string {
	last := -1
	for i, j := range choice {
		if j >= 0 {
			last = i
		}
	}
	parts := make([]string, last+1)
	for i := 0; i <= last; i++ {
		if choice[i] >= 0 {
			parts[i] = strconv.Itoa(choice[i])
		}
	}
	return strings.Join(parts, ".")
}

// decodeChoice reads an ActOption argument, which comes from a client:
// every index must name a value of the family.
func (f *family) decodeChoice(arg string) ([]int, bool) {
	choice := f.noChoice()
	if arg == "" {
		return choice, true
	}
	parts := strings.Split(arg, ".")
	if len(arg) > maxChoiceArg || len(parts) > len(f.names) {
		return nil, false
	}
	for i, p := range parts {
		if p == "" {
			continue
		}
		j, err := strconv.Atoi(p)
		if err != nil || j < 0 || j >= len(f.values[i]) || strconv.Itoa(j) != p {
			return nil, false
		}
		choice[i] = j
	}
	return choice, true
}

// ChoiceOptions turns an ActOption button's argument into add_to_cart's
// options for parent p with variants vs (by id); false when the argument
// does not name values of p (a forged or stale button).
func ChoiceOptions(p *catalog.Product, vs []catalog.Product, arg string) (map[string]string, bool) {
	f := newFamily(p, vs)
	choice, ok := f.decodeChoice(arg)
	if !ok {
		return nil, false
	}
	return f.chosen(choice), true
}

// cleanOptions trims an options argument, dropping empty names and
// values; nil when nothing is left.
func cleanOptions(opts map[string]string) map[string]string {
	var out map[string]string
	for n, v := range opts {
		n, v = strings.TrimSpace(n), strings.TrimSpace(v)
		if n == "" || v == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[n] = v
	}
	return out
}
