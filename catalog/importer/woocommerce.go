package importer

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// WooCommerce's product CSV export: one row per product or variation.
//
// Type simple and external are plain products; variable is a parent (its
// price, when empty, is its variations' lowest); variation is a variant of
// the product its Parent names ("id:123", the parent's ID in the export, or
// the parent's SKU), its options the Attribute N name → value pairs it
// carries. Grouped products have no price or stock of their own and are
// refused with a sentence saying so. A row without a SKU gets "wc-<ID>".
// Sale price, when set, is the price; Stock is the stock, else In stock?
// (1 or backorder: in stock). Published 1 is active, 0 (private) and -1
// (draft) are not. Categories "A > B, C" take the first path; Images
// (comma separated) are the images; Description (else Short description)
// is HTML turned into text; Tags and the attributes of a plain product
// become attributes.

var wooAttr = regexp.MustCompile(`^attribute (\d+) (name|value\(s\)|visible|global|default)$`)

// wooFields maps the columns the reader uses to catalog fields.
var wooFields = map[string]string{
	"id": "sku (when SKU is empty), parent link", "type": "product kind", "sku": "sku", "name": "title",
	"published": "active", "short description": "description (when Description is empty)",
	"description": "description (HTML to text)", "regular price": "price (when no Sale price), else compare-at price",
	"sale price": "price", "in stock?": "stock (when Stock is empty)", "stock": "stock",
	"categories": "category", "tags": "attributes.tags", "images": "images", "parent": "variant of",
}

// maxWooAttrs bounds the Attribute N columns read.
const maxWooAttrs = 50

type wooReader struct {
	t     *tabular
	cfg   readConfig
	attrs []int             // the N of each Attribute N name column, in header order
	ids   map[string]string // ID → SKU of variable products read so far
}

func newWooReader(t *tabular, cfg readConfig) *wooReader {
	w := &wooReader{t: t, cfg: cfg, ids: map[string]string{}}
	for _, h := range t.header {
		if m := wooAttr.FindStringSubmatch(normColumn(h)); m != nil && m[2] == "name" && len(w.attrs) < maxWooAttrs {
			n, _ := strconv.Atoi(m[1])
			w.attrs = append(w.attrs, n)
		}
	}
	return w
}

func (w *wooReader) mapping() Mapping {
	return mapColumns(w.t.header, func(col string) string {
		if m := wooAttr.FindStringSubmatch(col); m != nil {
			if m[2] == "name" || m[2] == "value(s)" {
				return "options (variation) or attributes"
			}
			return ""
		}
		return wooFields[col]
	})
}

func (w *wooReader) next() (row, error) {
	fields, r, err := w.t.read()
	if err != nil || fields == nil {
		return r, err
	}
	get := func(col string) string { return w.t.get(fields, col) }
	kind := wooKind(get("type"))
	id := get("id")
	rec := Record{SKU: get("sku"), Title: get("name"), Inactive: get("published") == "0" || get("published") == "-1"}
	if rec.SKU == "" && id != "" {
		rec.SKU = "wc-" + id
	}
	rec.SKU = strings.Join(strings.Fields(rec.SKU), "-")
	r.rec.SKU = rec.SKU
	if kind == "grouped" {
		r.err = errors.New("a grouped product has no price or stock of its own: it is not imported (its products are)")
		return r, nil
	}
	rec.Description = description(get("description"))
	if rec.Description == "" {
		rec.Description = description(get("short description"))
	}
	rec.Price = Text(get("regular price"))
	if sale := get("sale price"); sale != "" {
		rec.Price, rec.CompareAt = Text(sale), rec.Price
	}
	rec.Stock = w.stock(get("stock"), get("in stock?"))
	rec.Category = firstCategory(get("categories"))
	rec.ImageURL = strings.Join(splitList(get("images")), "|")
	if kind == "variation" {
		if r.err = w.variation(&rec, get("parent"), fields); r.err != nil {
			return r, nil
		}
	} else {
		w.attributes(&rec, get("tags"), fields, kind == "variable")
	}
	if kind == "variable" && id != "" {
		w.ids[id] = rec.SKU
	}
	r.rec = rec
	return r, nil
}

// variation links a variation to its parent and reads its options; its
// title, description and category are the parent's.
func (w *wooReader) variation(rec *Record, parent string, fields []string) error {
	switch {
	case parent == "":
		return errors.New("a variation without a Parent")
	case strings.HasPrefix(parent, "id:"):
		sku, ok := w.ids[strings.TrimPrefix(parent, "id:")]
		if !ok {
			return fmt.Errorf("its parent %s is not a variable product earlier in the file", parent)
		}
		rec.VariantOf = sku
	default:
		rec.VariantOf = parent
	}
	rec.Title, rec.Description, rec.Category = "", "", ""
	rec.Options = &OptionValues{Values: map[string]string{}}
	for _, n := range w.attrs {
		name, value := w.attr(fields, n)
		if name == "" || value == "" {
			continue
		}
		if _, dup := rec.Options.Values[name]; !dup {
			rec.Options.Names = append(rec.Options.Names, name)
		}
		rec.Options.Values[name] = value
	}
	if len(rec.Options.Names) == 0 {
		return errors.New("a variation with no attribute values (Attribute 1 value(s) is empty)")
	}
	return nil
}

// attributes gives a product its tags and, unless it is a variable
// product (whose attributes are its variations' options), its attributes.
func (w *wooReader) attributes(rec *Record, tags string, fields []string, variable bool) {
	a := Attributes{}
	if tags != "" {
		a["tags"] = tags
	}
	for _, n := range w.attrs {
		if name, value := w.attr(fields, n); !variable && name != "" && value != "" && len(name) <= 64 {
			a[name] = value
		}
	}
	if len(a) > 0 {
		rec.Attributes = &a
	}
}

func (w *wooReader) attr(fields []string, n int) (name, value string) {
	p := "attribute " + strconv.Itoa(n) + " "
	return w.t.get(fields, p+"name"), w.t.get(fields, p+"value(s)")
}

// stock is Stock, else In stock? (1 or backorder: in stock; 0: none).
func (w *wooReader) stock(qty, inStock string) Text {
	if qty != "" {
		return quantity(qty, 0)
	}
	switch strings.ToLower(inStock) {
	case "1", "yes", "backorder", "onbackorder":
		return quantity("", w.cfg.inStock)
	}
	return ""
}

// wooKind is the kind in a Type cell ("variable", "simple, virtual").
func wooKind(cell string) string {
	for _, k := range strings.Split(strings.ToLower(cell), ",") {
		switch k = strings.TrimSpace(k); k {
		case "simple", "variable", "variation", "grouped", "external":
			return k
		}
	}
	return "simple"
}

// firstCategory is the first path of a Categories cell ("A > B, C").
// A comma inside a name is written "\,".
func firstCategory(cell string) string {
	if list := splitList(cell); len(list) > 0 {
		return list[0]
	}
	return ""
}

// splitList splits a comma separated cell, keeping "\," as a comma.
func splitList(cell string) []string {
	var out []string
	for _, f := range strings.Split(strings.ReplaceAll(cell, `\,`, "\x00"), ",") {
		if f = strings.TrimSpace(strings.ReplaceAll(f, "\x00", ",")); f != "" {
			out = append(out, f)
		}
	}
	return out
}
