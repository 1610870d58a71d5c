package demo

import (
	"fmt"
	"strings"
	"unicode"

	"shopbot/catalog"
)

// Variants: the demo sells shoes in sizes, apparel in sizes (and some in
// colours), and some furniture and bedding in colours, materials or bed
// sizes, where a shopper expects to choose. variantSpecs names the
// listings and their options; everything else (SKUs, stock per variant,
// which ones are sold out, prices) is derived from the listing's own
// record and the SKU's hash, so loading twice gives the same shop and the
// data files stay in the import format.
//
// A spec is "name=v1|v2;name2=…" in the order the shopper picks them
// (the parent's OptionNames). A value "@" takes the listing's attribute
// of that name ("40, 41, 42" → three values); a value may end in
// "+12.50" to cost that much more than the listing's price. The variant
// SKU is the listing's plus its values ("SHO-RUN-001-42",
// "APP-JKT-001-NAVY-M"); its attributes are the listing's with the
// option values set. The listing's stock (as written in the data file)
// is shared out over its variants, most to the middle sizes; a listing
// written sold out has every variant sold out, and about half the
// listings have their smallest or largest size sold out.
var variantSpecs = map[string]string{
	// Shoes: EU sizes as written in each listing's size attribute.
	"SHO-RUN-001": "size=@", "SHO-RUN-002": "size=@", "SHO-RUN-003": "size=@", "SHO-RUN-004": "size=@", "SHO-RUN-005": "size=@",
	"SHO-TRL-001": "size=@", "SHO-TRL-002": "size=@", "SHO-TRL-003": "size=@",
	"SHO-SNK-001": "size=@", "SHO-SNK-002": "size=@", "SHO-SNK-003": "size=@", "SHO-SNK-004": "size=@",
	"SHO-SNK-005": "size=@", "SHO-SNK-006": "size=@", "SHO-SNK-007": "size=@",
	"SHO-BTS-001": "size=@", "SHO-BTS-002": "size=@", "SHO-BTS-003": "size=@", "SHO-BTS-004": "size=@",
	"SHO-BTS-005": "size=@", "SHO-BTS-006": "size=@", "SHO-BTS-007": "size=@",
	"SHO-SND-001": "size=@", "SHO-SND-002": "size=@", "SHO-SND-003": "size=@", "SHO-SND-004": "size=@", "SHO-SND-005": "size=@",

	// Apparel: colour × size where the title does not name the colour,
	// size alone where it does (or the listing is a mixed pack).
	"APP-JKT-001": "color=navy|black|red;size=@",
	"APP-JKT-002": "color=red|yellow|navy;size=@",
	"APP-JKT-003": "color=green|orange;size=@",
	"APP-JKT-004": "size=@",
	"APP-JKT-005": "size=@",
	"APP-JKT-006": "color=grey|black;size=@",
	"APP-JKT-007": "color=black|olive|navy;size=@",
	"APP-TSH-001": "size=@",
	"APP-TSH-002": "color=navy|white|olive;size=@",
	"APP-TSH-003": "color=black|grey;size=@",
	"APP-TSH-004": "color=beige|white;size=@",
	"APP-TSH-005": "color=green|white|black;size=@",
	"APP-JNS-001": "size=@", "APP-JNS-002": "size=@", "APP-JNS-003": "size=@", "APP-JNS-004": "size=@", "APP-JNS-005": "size=@",
	"APP-SWT-001": "color=navy|grey|burgundy;size=@",
	"APP-SWT-002": "color=beige|grey;size=@",
	"APP-SWT-003": "color=green|white;size=@",
	"APP-SWT-004": "size=@",
	"APP-SWT-005": "color=red|beige;size=@",
	"APP-DRS-001": "size=@", "APP-DRS-002": "size=@", "APP-DRS-003": "size=@", "APP-DRS-004": "size=@", "APP-DRS-005": "size=@",

	// Furniture: upholstery colour, or a material that costs more.
	"HOM-FUR-001": "color=green|navy|grey",
	"HOM-FUR-002": "color=beige|grey",
	"HOM-FUR-004": "material=wool blend|velvet+40.00|boucle+60.00",
	"HOM-FUR-006": "material=oak|walnut+70.00",

	// Bedding: bed sizes, the larger the dearer.
	"HOM-BED-002": "size=Full|Queen+10.00|King+20.00",
	"HOM-BED-004": "size=Twin-10.00|Full|Queen+10.00|King+20.00",
	"HOM-BED-005": "size=Queen|King+30.00",
}

// option is one option of a spec: its name and values with their price
// differences in minor units.
type option struct {
	name   string
	values []string
	extra  []int64
}

// parseSpec reads a spec for the listing in.
func parseSpec(spec string, in catalog.ProductInput) ([]option, error) {
	var opts []option
	for _, part := range strings.Split(spec, ";") {
		name, vals, ok := strings.Cut(part, "=")
		if !ok || name == "" || vals == "" {
			return nil, fmt.Errorf("bad option %q", part)
		}
		o := option{name: name}
		list := strings.Split(vals, "|")
		if vals == "@" {
			list = strings.Split(in.Attributes[name], ",")
		}
		for _, v := range list {
			v = strings.TrimSpace(v)
			var extra int64
			if i := strings.LastIndexAny(v, "+-"); i > 0 && v[i-1] != ' ' && strings.Contains(v[i:], ".") {
				amt, err := catalog.ParseAmount(v[i+1:], in.Currency)
				if err != nil {
					return nil, fmt.Errorf("option %s value %q: %w", name, v, err)
				}
				if extra = amt; v[i] == '-' {
					extra = -amt
				}
				v = v[:i]
			}
			if v == "" {
				return nil, fmt.Errorf("option %s has an empty value (attribute %q)", name, in.Attributes[name])
			}
			o.values, o.extra = append(o.values, v), append(o.extra, extra)
		}
		opts = append(opts, o)
	}
	if len(opts) > catalog.MaxOptions {
		return nil, fmt.Errorf("%d options, at most %d", len(opts), catalog.MaxOptions)
	}
	return opts, nil
}

// expand turns a listing with a spec into a parent and its variants. The
// parent keeps its record and gets OptionNames; its stock and price are
// set to what RollupParents will compute, so the parsed catalog reads
// like the loaded one.
func expand(p *Product, spec string) error {
	in := &p.Input
	opts, err := parseSpec(spec, *in)
	if err != nil {
		return err
	}
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.name
	}
	in.OptionNames = names

	// Every combination, the last option varying fastest; a combination
	// is a list of value indexes.
	combos := [][]int{{}}
	for _, o := range opts {
		var next [][]int
		for _, c := range combos {
			for j := range o.values {
				next = append(next, append(append([]int(nil), c...), j))
			}
		}
		combos = next
	}
	stock := shareStock(in.SKU, in.Stock, opts, combos)
	p.Variants = make([]catalog.ProductInput, len(combos))
	minPrice, total := int64(-1), 0
	for k, c := range combos {
		v := catalog.ProductInput{
			VariantOf: in.SKU, Currency: in.Currency, Price: in.Price, Stock: stock[k],
			Options: map[string]string{}, Attributes: make(map[string]string, len(in.Attributes)),
		}
		for key, val := range in.Attributes {
			v.Attributes[key] = val
		}
		sku := []string{in.SKU}
		for i, j := range c {
			o := opts[i]
			v.Options[o.name] = o.values[j]
			v.Attributes[o.name] = strings.ToLower(o.values[j])
			v.Price += o.extra[j]
			sku = append(sku, skuPart(o.values[j]))
		}
		v.SKU = strings.Join(sku, "-")
		if err := v.Validate(); err != nil {
			return err
		}
		if minPrice < 0 || v.Price < minPrice {
			minPrice = v.Price
		}
		total += v.Stock
		p.Variants[k] = v
	}
	in.Price, in.Stock = minPrice, total
	return nil
}

// shareStock shares a listing's stock out over its variants: each gets a
// weight, highest for the middle values of the last option (the middle
// sizes), with a little of the SKU's hash; a listing whose hash is even
// has its last option's first or last value sold out.
func shareStock(sku string, stock int, opts []option, combos [][]int) []int {
	out := make([]int, len(combos))
	if stock == 0 || len(combos) == 0 {
		return out
	}
	last := len(opts) - 1
	n := len(opts[last].values)
	h := skuHash(sku)
	soldOut := -1
	if h%2 == 0 && n > 2 {
		soldOut = 0
		if h%4 == 0 {
			soldOut = n - 1
		}
	}
	weights := make([]int, len(combos))
	sum := 0
	for k, c := range combos {
		j := c[last]
		if j == soldOut {
			continue
		}
		centre := n - 1 - abs(2*j-(n-1)) // 0 at the ends, n-1 in the middle
		weights[k] = 2 + centre + int(skuHash(fmt.Sprint(sku, k))%3)
		sum += weights[k]
	}
	given, best := 0, 0
	for k, w := range weights {
		out[k] = stock * w / sum
		given += out[k]
		if w > weights[best] {
			best = k
		}
	}
	out[best] += stock - given
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// skuPart is an option value as a SKU part: letters and digits, upper
// case ("forest green" → "FORESTGREEN", "wool blend" → "WOOLBLEND").
func skuPart(v string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, v)
}
