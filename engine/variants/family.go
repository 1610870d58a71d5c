package variants

import (
	"sort"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/engine/toolkit"
)

// A product with variants is chosen one option at a time (picker.go). A
// Family is a parent with its variants and, per option name, the values
// in order of first appearance over the variants by id: a value's index
// in that order is what an ActOption button carries, so it stays stable
// while stock changes.

// Family is a parent product, its variants and their option values.
type Family struct {
	Parent   *catalog.Product
	Variants []catalog.Product
	Names    []string   // option names in the parent's order
	Values   [][]string // per name, the values in catalog order
}

// New builds a family from a parent and its variants (by id).
func New(p *catalog.Product, vs []catalog.Product) *Family {
	f := &Family{Parent: p, Variants: vs}
	seen := map[string]bool{}
	for _, n := range p.OptionNames {
		if !seen[n] {
			seen[n] = true
			f.Names = append(f.Names, n)
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
	f.Names = append(f.Names, extra...)
	f.Values = make([][]string, len(f.Names))
	for i, n := range f.Names {
		have := map[string]bool{}
		for _, v := range vs {
			if val, ok := v.Options[n]; ok && !have[val] {
				have[val] = true
				f.Values[i] = append(f.Values[i], val)
			}
		}
	}
	return f
}

// NoChoice is a choice with no option chosen.
func (f *Family) NoChoice() []int {
	c := make([]int, len(f.Names))
	for i := range c {
		c[i] = -1
	}
	return c
}

// nameIndex finds an option by name, ignoring case and aliases
// (catalog.OptionName: "color" finds the catalog's "Colour").
func (f *Family) nameIndex(name string) int {
	name = catalog.OptionName(name)
	for i, n := range f.Names {
		if catalog.OptionName(n) == name {
			return i
		}
	}
	return -1
}

// valueIndex finds a value of option i, ignoring case.
func (f *Family) valueIndex(i int, value string) int {
	value = strings.TrimSpace(value)
	for j, v := range f.Values[i] {
		if strings.EqualFold(v, value) {
			return j
		}
	}
	return -1
}

// Resolve applies the shopper's options to choice: names and values
// match the catalog's ignoring case; a name the product does not have
// is tried as any option holding that value. Anything else is a
// ToolError naming what the product offers.
func (f *Family) Resolve(choice []int, opts map[string]string) error {
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
			return toolkit.Errorf("%s has no option %q; its options are %s", f.Parent.Title, n, strings.Join(f.Names, ", "))
		}
		j := f.valueIndex(i, val)
		if j < 0 {
			return toolkit.Errorf("%s has no %s %q; choose one of %s", f.Parent.Title, f.Names[i], val, strings.Join(f.Values[i], ", "))
		}
		choice[i] = j
	}
	return nil
}

// optionHolding is the one option with value among its values, or -1.
func (f *Family) optionHolding(value string) int {
	found := -1
	for i := range f.Names {
		if f.valueIndex(i, value) >= 0 {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// Choose sets choice to a variant's own option values.
func (f *Family) Choose(choice []int, v *catalog.Product) {
	for i, n := range f.Names {
		if val, ok := v.Options[n]; ok {
			choice[i] = f.valueIndex(i, val)
		}
	}
}

// matches reports whether variant v has the chosen values.
func (f *Family) matches(v *catalog.Product, choice []int) bool {
	for i, j := range choice {
		if j >= 0 && v.Options[f.Names[i]] != f.Values[i][j] {
			return false
		}
	}
	return true
}

// InStock are the active variants in stock that match choice.
func (f *Family) InStock(choice []int) []*catalog.Product {
	var out []*catalog.Product
	for i := range f.Variants {
		v := &f.Variants[i]
		if v.InStock() && f.matches(v, choice) {
			out = append(out, v)
		}
	}
	return out
}

// Exact is the variant with every option chosen, or nil.
func (f *Family) Exact(choice []int) *catalog.Product {
	for _, j := range choice {
		if j < 0 {
			return nil
		}
	}
	for i := range f.Variants {
		if f.matches(&f.Variants[i], choice) {
			return &f.Variants[i]
		}
	}
	return nil
}

// Chosen is choice as option name → value.
func (f *Family) Chosen(choice []int) map[string]string {
	out := map[string]string{}
	for i, j := range choice {
		if j >= 0 {
			out[f.Names[i]] = f.Values[i][j]
		}
	}
	return out
}

// maxChoiceArg bounds an ActOption button's argument.
const maxChoiceArg = 3 * (catalog.MaxOptions + 1)

// EncodeChoice writes choice as an ActOption argument: value indexes in
// option order, "" for an option not chosen, trailing ones left out
// ("2.0", ".1").
func EncodeChoice(choice []int) string {
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

// DecodeChoice reads an ActOption argument, which comes from a client:
// every index must name a value of the family.
func (f *Family) DecodeChoice(arg string) ([]int, bool) {
	choice := f.NoChoice()
	if arg == "" {
		return choice, true
	}
	parts := strings.Split(arg, ".")
	if len(arg) > maxChoiceArg || len(parts) > len(f.Names) {
		return nil, false
	}
	for i, p := range parts {
		if p == "" {
			continue
		}
		j, err := strconv.Atoi(p)
		if err != nil || j < 0 || j >= len(f.Values[i]) || strconv.Itoa(j) != p {
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
	f := New(p, vs)
	choice, ok := f.DecodeChoice(arg)
	if !ok {
		return nil, false
	}
	return f.Chosen(choice), true
}

// CleanOptions trims an options argument, dropping empty names and
// values; nil when nothing is left.
func CleanOptions(opts map[string]string) map[string]string {
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
