package importer

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Google Merchant Center feeds: RSS 2.0 (items) or Atom (entries) XML with
// the attributes in the g: namespace (http://base.google.com/ns/1.0), and
// the tab-separated form whose header names the same attributes (id,
// title, description, link, image_link, availability, price, …).
//
// id is the SKU, title and description (HTML turned into text) the
// product's; price "15.00 USD" gives the price and the currency, and
// sale_price, when set, is the price; image_link and additional_image_link
// are the images; brand the brand; product_type (else a textual
// google_product_category) the category; availability in stock,
// preorder or backorder counts as in stock (a feed has no quantity) and
// out of stock as 0; gtin and mpn become attributes. Items sharing an
// item_group_id are variants of one product whose SKU is the group id,
// whose title, description, brand, category and images come from the
// group's first item, and whose options are the items' size, color,
// material and pattern. A g: element is preferred to a plain one of the
// same name (g:title to title).

// googleNS is the namespace of Merchant Center attributes.
const googleNS = "http://base.google.com/ns/1.0"

// merchantFields maps the attributes the reader uses to catalog fields.
var merchantFields = map[string]string{
	"id": "sku", "title": "title", "description": "description (HTML to text)",
	"price": "price and currency (compare-at price when on sale)", "sale_price": "price (when set)", "image_link": "images",
	"additional_image_link": "images", "brand": "brand", "product_type": "category",
	"google_product_category": "category (when no product_type)", "availability": "stock (in/out of stock)",
	"item_group_id": "variant of (the group is the product)", "size": "options", "color": "options",
	"material": "options", "pattern": "options", "gtin": "attributes.gtin", "mpn": "attributes.mpn",
}

// merchantOptions are the attributes that tell a group's items apart.
var merchantOptions = []string{"size", "color", "material", "pattern"}

// merchantMapper turns items into records, remembering the groups whose
// parent has been queued.
type merchantMapper struct {
	cfg    readConfig
	groups map[string]bool
	out    rowQueue
}

// item is one feed item: values by attribute name (lower case, no "g:").
type item map[string][]string

func (it item) first(name string) string {
	if v := it[name]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// add queues the records of an item: the product, or its group's parent
// (the first time the group is seen) and the variant.
func (m *merchantMapper) add(it item, line int) {
	rec := Record{SKU: it.first("id"), Title: it.first("title"), Description: description(it.first("description")),
		Brand: it.first("brand")}
	rec.Price, rec.Currency = splitPrice(it.first("price"))
	if sale := it.first("sale_price"); sale != "" {
		rec.CompareAt = rec.Price
		rec.Price, rec.Currency = splitPrice(sale)
	}
	var images []string
	for _, name := range []string{"image_link", "additional_image_link"} {
		for _, v := range it[name] {
			images = append(images, splitList(v)...)
		}
	}
	rec.ImageURL = strings.Join(images, "|")
	if list := splitList(it.first("product_type")); len(list) > 0 {
		rec.Category = list[0]
	} else if c := it.first("google_product_category"); strings.Trim(c, "0123456789") != "" {
		rec.Category = c
	}
	rec.Stock = m.availability(it.first("availability"))
	for _, name := range []string{"gtin", "mpn"} {
		if v := it.first(name); v != "" {
			if rec.Attributes == nil {
				rec.Attributes = &Attributes{}
			}
			(*rec.Attributes)[name] = v
		}
	}
	group := it.first("item_group_id")
	if group == "" {
		m.out.push(row{line: line, rec: rec})
		return
	}
	key := productKey(group)
	if !m.groups[key] {
		m.groups[key] = true
		m.out.push(row{line: line, rec: Record{SKU: key, Title: rec.Title, Description: rec.Description,
			Brand: rec.Brand, Category: rec.Category, ImageURL: rec.ImageURL, Currency: rec.Currency}})
	}
	v := Record{SKU: rec.SKU, VariantOf: key, Price: rec.Price, Currency: rec.Currency, Stock: rec.Stock,
		ImageURL: rec.ImageURL, Options: &OptionValues{Values: map[string]string{}}}
	for _, name := range merchantOptions {
		if val := it.first(name); val != "" {
			v.Options.Names = append(v.Options.Names, name)
			v.Options.Values[name] = val
		}
	}
	r := row{line: line, rec: v}
	if len(v.Options.Names) == 0 {
		r.err = fmt.Errorf("an item of the group %q has no size, color, material or pattern to tell it apart", group)
	}
	m.out.push(r)
}

// availability is the stock of an item: a feed says in or out of stock.
func (m *merchantMapper) availability(a string) Text {
	switch strings.ReplaceAll(strings.ToLower(a), " ", "_") {
	case "in_stock", "preorder", "backorder", "limited_availability":
		return quantity("", m.cfg.inStock)
	}
	return "0"
}

// splitPrice splits "15.00 USD" (or "USD 15.00") into amount and currency;
// a decimal comma ("15,00 EUR") is read as a point.
func splitPrice(cell string) (Text, string) {
	amount, currency := "", ""
	for _, f := range strings.Fields(cell) {
		if len(f) == 3 && strings.Trim(strings.ToUpper(f), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
			currency = strings.ToUpper(f)
		} else {
			amount += f
		}
	}
	if strings.Contains(amount, ",") {
		if strings.Contains(amount, ".") {
			amount = strings.ReplaceAll(amount, ",", "")
		} else {
			amount = strings.ReplaceAll(amount, ",", ".")
		}
	}
	return Text(amount), currency
}

// merchantXML reads an RSS or Atom feed item by item.
type merchantXML struct {
	merchantMapper
	dec   *xml.Decoder
	limit *rowLimiter
	seen  []string // attribute names met, in order (for the mapping)
	known map[string]bool
}

// maxFeedNames bounds the attribute names the mapping lists.
const maxFeedNames = 200

func newMerchantXML(br *bufio.Reader, cfg readConfig) *merchantXML {
	limit := &rowLimiter{r: br, left: maxRowBytes}
	return &merchantXML{merchantMapper: merchantMapper{cfg: cfg, groups: map[string]bool{}},
		dec: xml.NewDecoder(limit), limit: limit, known: map[string]bool{}}
}

// xmlItem is an item's elements, any namespace.
type xmlItem struct {
	Fields []struct {
		XMLName xml.Name
		Value   string `xml:",chardata"`
		Href    string `xml:"href,attr"`
	} `xml:",any"`
}

func (x *merchantXML) next() (row, error) {
	for {
		if r, ok := x.out.pop(); ok {
			return r, nil
		}
		x.limit.left = maxRowBytes
		tok, err := x.dec.Token()
		if err == io.EOF {
			return row{}, io.EOF
		}
		if err != nil {
			if errors.Is(err, errRowTooLong) {
				return row{}, err
			}
			return row{}, fmt.Errorf("the XML feed is malformed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || (se.Name.Local != "item" && se.Name.Local != "entry") {
			continue
		}
		line, _ := x.dec.InputPos()
		var xi xmlItem
		if err := x.dec.DecodeElement(&xi, &se); err != nil {
			if errors.Is(err, errRowTooLong) {
				return row{}, err
			}
			return row{}, fmt.Errorf("the XML feed is malformed near line %d: %v", line, err)
		}
		x.add(x.item(xi), line)
	}
}

// item collects an element's values, g: ones first.
func (x *merchantXML) item(xi xmlItem) item {
	it := item{}
	for _, google := range []bool{true, false} {
		for _, f := range xi.Fields {
			if (f.XMLName.Space == googleNS) != google {
				continue
			}
			name := strings.ToLower(f.XMLName.Local)
			v := f.Value
			if v == "" && name == "link" {
				v = f.Href
			}
			it[name] = append(it[name], cleanField(v, true))
			x.note(f.XMLName)
		}
	}
	return it
}

// note remembers an element name for the mapping.
func (x *merchantXML) note(n xml.Name) {
	shown := n.Local
	if n.Space == googleNS {
		shown = "g:" + n.Local
	}
	if !x.known[shown] && len(x.seen) < maxFeedNames {
		x.known[shown] = true
		x.seen = append(x.seen, shown)
	}
}

func (x *merchantXML) mapping() Mapping {
	return mapColumns(x.seen, func(col string) string { return merchantFields[col] })
}

// merchantTSV reads the tab-separated feed.
type merchantTSV struct {
	merchantMapper
	t     *tabular
	names []string // attribute name by field position
}

func newMerchantTSV(t *tabular, cfg readConfig) *merchantTSV {
	m := &merchantTSV{merchantMapper: merchantMapper{cfg: cfg, groups: map[string]bool{}}, t: t}
	for _, h := range t.header {
		m.names = append(m.names, strings.ReplaceAll(normColumn(h), " ", "_"))
	}
	return m
}

func (m *merchantTSV) next() (row, error) {
	for {
		if r, ok := m.out.pop(); ok {
			return r, nil
		}
		fields, r, err := m.t.read()
		if err != nil || fields == nil {
			return r, err
		}
		it := item{}
		for i, f := range fields {
			it[m.names[i]] = append(it[m.names[i]], f)
		}
		m.add(it, r.line)
	}
}

func (m *merchantTSV) mapping() Mapping {
	return mapColumns(m.t.header, func(col string) string { return merchantFields[strings.ReplaceAll(col, " ", "_")] })
}
