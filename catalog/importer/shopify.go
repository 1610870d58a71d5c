package importer

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Shopify's product CSV export. Rows that share a Handle are one product:
// the first carries the product's fields (Title, Body (HTML), Vendor,
// Product Category or Type, Tags, Status, option names) and its first
// variant; the following rows carry more variants, more images (Image
// Src), or both.
//
// A product whose only variant has the option "Title: Default Title" is a
// plain product, its SKU the Variant SKU (else the handle). Any other
// product becomes a parent whose SKU is its handle, with no price of its
// own (it takes its variants' lowest), and one variant per variant row:
// SKU the Variant SKU (else handle-N), options Option1..3 Name → Value,
// price Variant Price, stock Variant Inventory Qty (an oversold negative
// count is 0; an untracked variant counts as in stock), image Variant
// Image. Status draft or archived (or Published false when there is no
// Status column) imports the product and its variants inactive.
// Variant Compare At Price has no catalog field and is ignored.

// shopifyFields maps the columns the reader uses to catalog fields.
var shopifyFields = map[string]string{
	"handle": "sku (of a product with variants)", "title": "title", "body (html)": "description (HTML to text)",
	"vendor": "brand", "product category": "category", "type": "category (when no Product Category)",
	"tags": "attributes.tags", "published": "active (when no Status)", "status": "active",
	"option1 name": "option names", "option2 name": "option names", "option3 name": "option names",
	"option1 value": "options", "option2 value": "options", "option3 value": "options",
	"variant sku": "sku", "variant price": "price", "variant compare at price": "compare-at price (on sale)",
	"variant inventory qty": "stock", "variant inventory tracker": "stock (untracked: in stock)", "image src": "images", "variant image": "images (variant)",
}

// maxGroupRows bounds the rows of one handle kept in memory (Shopify allows
// 2,048 variants, each row may add an image).
const maxGroupRows = 5000

type shopifyReader struct {
	t     *tabular
	cfg   readConfig
	out   rowQueue
	ahead []string // first row of the next handle, read already
	aLine int
	eof   bool
}

func newShopifyReader(t *tabular, cfg readConfig) *shopifyReader {
	return &shopifyReader{t: t, cfg: cfg}
}

func (s *shopifyReader) mapping() Mapping {
	return mapColumns(s.t.header, func(col string) string { return shopifyFields[col] })
}

func (s *shopifyReader) next() (row, error) {
	for {
		if r, ok := s.out.pop(); ok {
			return r, nil
		}
		if s.eof && s.ahead == nil {
			return row{}, io.EOF
		}
		if err := s.readGroup(); err != nil {
			return row{}, err
		}
	}
}

// shopifyGroup is the rows of one handle.
type shopifyGroup struct {
	rows  [][]string
	lines []int
}

// readGroup reads the rows of the next handle and queues its records.
// Rows that cannot be read are queued as they come.
func (s *shopifyReader) readGroup() error {
	var g shopifyGroup
	handle := ""
	if s.ahead != nil {
		g.rows, g.lines = append(g.rows, s.ahead), append(g.lines, s.aLine)
		handle, s.ahead = s.t.get(s.ahead, "handle"), nil
	}
	for !s.eof {
		fields, r, err := s.t.read()
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return err
		}
		if fields == nil {
			s.out.push(r)
			continue
		}
		h := s.t.get(fields, "handle")
		if h == "" {
			r.err = fmt.Errorf("the Handle is empty")
			s.out.push(r)
			continue
		}
		if len(g.rows) > 0 && h != handle {
			s.ahead, s.aLine = fields, r.line
			break
		}
		if len(g.rows) >= maxGroupRows {
			r.err = fmt.Errorf("more than %d rows share the handle %q", maxGroupRows, h)
			s.out.push(r)
			continue
		}
		handle = h
		g.rows, g.lines = append(g.rows, fields), append(g.lines, r.line)
	}
	if len(g.rows) > 0 {
		s.product(g)
	}
	return nil
}

// product queues the records of one handle's rows.
func (s *shopifyReader) product(g shopifyGroup) {
	get := func(i int, col string) string { return s.t.get(g.rows[i], col) }
	key := productKey(get(0, "handle"))
	p := Record{
		SKU: key, Title: get(0, "title"), Description: description(get(0, "body (html)")),
		Brand: get(0, "vendor"), Category: get(0, "product category"), Inactive: s.inactive(g.rows[0]),
	}
	if p.Category == "" {
		p.Category = get(0, "type")
	}
	if tags := get(0, "tags"); tags != "" {
		p.Attributes = &Attributes{"tags": tags}
	}
	var names []string
	for n := 1; n <= 3; n++ {
		if name := get(0, "option"+strconv.Itoa(n)+" name"); name != "" {
			names = append(names, name)
		}
	}
	var images []string
	var variants []int // rows that carry a variant
	for i := range g.rows {
		if src := get(i, "image src"); src != "" && !slices.Contains(images, src) {
			images = append(images, src)
		}
		if get(i, "variant sku") != "" || get(i, "variant price") != "" || get(i, "option1 value") != "" {
			variants = append(variants, i)
		}
	}
	p.ImageURL = strings.Join(images, "|")
	if len(variants) <= 1 && (len(names) == 0 || (len(names) == 1 && get(0, "option1 value") == "Default Title")) {
		v := 0
		if len(variants) == 1 {
			v = variants[0]
		}
		if sku := get(v, "variant sku"); sku != "" {
			p.SKU = sku
		}
		p.Price, p.CompareAt, p.Stock = Text(get(v, "variant price")), Text(get(v, "variant compare at price")), s.stock(g.rows[v])
		if img := get(v, "variant image"); img != "" && !slices.Contains(images, img) {
			p.ImageURL = strings.Join(append([]string{img}, images...), "|")
		}
		s.out.push(row{line: g.lines[v], rec: p})
		return
	}
	nl := NameList(names)
	p.OptionNames = &nl
	s.out.push(row{line: g.lines[0], rec: p})
	for n, i := range variants {
		v := Record{
			SKU: get(i, "variant sku"), VariantOf: key, Price: Text(get(i, "variant price")), CompareAt: Text(get(i, "variant compare at price")),
			Stock: s.stock(g.rows[i]), ImageURL: get(i, "variant image"), Inactive: p.Inactive,
			Options: &OptionValues{Names: names, Values: map[string]string{}},
		}
		if v.SKU == "" {
			v.SKU = key + "-" + strconv.Itoa(n+1)
		}
		for k, name := range names {
			v.Options.Values[name] = get(i, "option"+strconv.Itoa(k+1)+" value")
		}
		s.out.push(row{line: g.lines[i], rec: v})
	}
}

// inactive reads Status (draft and archived are hidden), else Published.
func (s *shopifyReader) inactive(fields []string) bool {
	if _, ok := s.t.index["status"]; ok {
		st := strings.ToLower(s.t.get(fields, "status"))
		return st == "draft" || st == "archived"
	}
	return strings.EqualFold(s.t.get(fields, "published"), "false")
}

// stock is Variant Inventory Qty; an untracked variant is in stock.
func (s *shopifyReader) stock(fields []string) Text {
	qty := s.t.get(fields, "variant inventory qty")
	inStock := 0
	if _, tracked := s.t.index["variant inventory tracker"]; tracked && s.t.get(fields, "variant inventory tracker") == "" {
		inStock = s.cfg.inStock
	}
	return quantity(qty, inStock)
}
