package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"

	"shopbot/catalog/clip"
)

// Formats read besides Shopbot's own CSV and JSONL. Each has its own file
// (shopify.go, woocommerce.go, merchantfeed.go) with a reader that turns
// the shop's rows into Records of the own format, so validation, variants,
// batching, the dry run and the report are the same for every format.
const (
	Shopify      Format = "shopify"      // Shopify's product CSV export
	WooCommerce  Format = "woocommerce"  // WooCommerce's product CSV export
	MerchantFeed Format = "merchant-xml" // Google Merchant Center RSS 2.0 or Atom feed
	MerchantTSV  Format = "merchant-tsv" // Google Merchant Center tab-separated feed
)

// ProductFormats are the product file formats Import reads, as a merchant
// is told them.
var ProductFormats = []Format{CSV, JSONL, Shopify, WooCommerce, MerchantFeed, MerchantTSV}

// Label names a format for people.
func (f Format) Label() string {
	switch f {
	case CSV:
		return "Shopbot CSV"
	case JSONL:
		return "Shopbot JSONL"
	case Shopify:
		return "Shopify product export"
	case WooCommerce:
		return "WooCommerce product export"
	case MerchantFeed:
		return "Google Merchant Center feed (XML)"
	case MerchantTSV:
		return "Google Merchant Center feed (TSV)"
	}
	return "unknown"
}

// Detect names the format of a CSV or TSV file from its header row, or
// returns "" when no format it knows has these columns. Column names are
// compared without case, surrounding spaces or a "g:" prefix.
func Detect(header []string) Format {
	has := map[string]bool{}
	for _, h := range header {
		has[normColumn(h)] = true
	}
	switch {
	case has["handle"] && (has["variant price"] || has["variant sku"]):
		return Shopify
	case has["type"] && has["name"] && (has["regular price"] || has["sale price"]):
		return WooCommerce
	case has["sku"] && has["title"] && has["price"]:
		return CSV
	case has["id"] && has["title"] && has["price"]:
		return MerchantTSV
	}
	return ""
}

// normColumn is a header cell as Detect and the readers compare it.
func normColumn(h string) string {
	h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")))
	return strings.TrimPrefix(h, "g:")
}

// readConfig is what readers need of the import's options.
type readConfig struct {
	inStock int // units of an item marked in stock without a quantity
}

// ColumnMap is one column of the file and the catalog field it fills.
type ColumnMap struct {
	Column string
	Field  string
}

// Mapping is how a file's columns (or feed elements) map onto the catalog:
// the columns used and those ignored.
type Mapping struct {
	Columns []ColumnMap
	Ignored []string
}

// mapper is a reader that reports its mapping.
type mapper interface {
	mapping() Mapping
}

// mapColumns sorts a header into used and ignored columns; field names
// the catalog field of a normalized column, "" when it is not used.
func mapColumns(header []string, field func(col string) string) Mapping {
	var m Mapping
	for _, h := range header {
		if f := field(normColumn(h)); f != "" {
			m.Columns = append(m.Columns, ColumnMap{Column: h, Field: f})
		} else if strings.TrimSpace(h) != "" {
			m.Ignored = append(m.Ignored, h)
		}
	}
	return m
}

// openTabular opens a file that is not JSONL: a Merchant Center XML feed,
// or a CSV or TSV file whose header names the format.
func openTabular(br *bufio.Reader, name string, head []byte, cfg readConfig) (rowReader, Format, error) {
	if t := bytes.TrimSpace(head); len(t) > 0 && t[0] == '<' {
		return newMerchantXML(br, cfg), MerchantFeed, nil
	}
	t := &tabular{limit: &rowLimiter{r: br, left: maxRowBytes}}
	t.r = csv.NewReader(t.limit)
	t.r.FieldsPerRecord = -1
	if tabSeparated(head) {
		t.r.Comma, t.r.LazyQuotes = '\t', true
	}
	header, err := t.r.Read()
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w: cannot read the header row: %v", name, ErrNotTabular, err)
	}
	t.header = slices.Clone(header)
	t.index = map[string]int{}
	for i, h := range t.header {
		if _, dup := t.index[normColumn(h)]; !dup {
			t.index[normColumn(h)] = i
		}
	}
	switch format := Detect(header); format {
	case Shopify:
		return newShopifyReader(t, cfg), format, nil
	case WooCommerce:
		return newWooReader(t, cfg), format, nil
	case MerchantTSV:
		return newMerchantTSV(t, cfg), format, nil
	}
	t.r.ReuseRecord = true
	cr, err := newOwnCSVReader(t, name)
	return cr, CSV, err
}

// tabSeparated reports a header line with more tabs than commas.
func tabSeparated(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return bytes.Count(line, []byte("\t")) > bytes.Count(line, []byte(","))
}

// tabular reads the rows of a CSV or TSV file with a header.
type tabular struct {
	r      *csv.Reader
	limit  *rowLimiter
	header []string
	index  map[string]int // by normalized column name
}

// read returns the next record's fields and line, or a row carrying the
// reason it cannot be read (fields nil), or io.EOF, or an error that
// stops the import (a record over maxRowBytes).
func (t *tabular) read() ([]string, row, error) {
	t.limit.left = maxRowBytes
	fields, err := t.r.Read()
	if err == io.EOF {
		return nil, row{}, io.EOF
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, row{line: pe.StartLine, err: fmt.Errorf("malformed CSV: %v", pe.Err)}, nil
	}
	if err != nil {
		return nil, row{}, err
	}
	line, _ := t.r.FieldPos(0)
	if col, bad := invalidUTF8(t.header, fields); bad {
		return nil, row{line: line, err: errNotUTF8(col)}, nil
	}
	if len(fields) != len(t.header) {
		return nil, row{line: line, err: fmt.Errorf("has %d fields, the header has %d", len(fields), len(t.header))}, nil
	}
	return fields, row{line: line}, nil
}

// get returns a field by normalized column name, trimmed.
func (t *tabular) get(fields []string, col string) string {
	if i, ok := t.index[col]; ok && i < len(fields) {
		return strings.TrimSpace(fields[i])
	}
	return ""
}

// productKey makes a SKU of a shop's own product key (a Shopify handle, a
// Merchant Center item group): one over 64 characters is cut and given a
// hash of the whole, so it stays unique and the same on every import.
func productKey(key string) string {
	key = strings.Join(strings.Fields(key), "-")
	if len(key) <= 64 {
		return key
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return clip.Bytes(key, 55) + "-" + fmt.Sprintf("%08x", h.Sum32())
}

// quantity is a stock cell: a negative count (an oversold variant) is
// 0; an empty one with inStock set is inStock units; anything else is
// passed on for Input to check.
func quantity(cell string, inStock int) Text {
	if cell == "" {
		if inStock > 0 {
			return Text(strconv.Itoa(inStock))
		}
		return ""
	}
	if n, err := strconv.Atoi(cell); err == nil && n < 0 {
		return "0"
	}
	if f, err := strconv.ParseFloat(cell, 64); err == nil && f == float64(int64(f)) {
		return Text(strconv.FormatInt(max(0, int64(f)), 10))
	}
	return Text(cell)
}

// maxDescription bounds a description converted from HTML: a long one is
// cut (at a rune) rather than refused, since the shop wrote it.
const maxDescription = 10_000

// description converts an HTML description to the catalog's text.
func description(cell string) string {
	return clip.Bytes(htmlText(cell), maxDescription)
}

// rowQueue holds records a reader has made and not yet returned.
type rowQueue struct{ rows []row }

func (q *rowQueue) push(r row) { q.rows = append(q.rows, r) }

func (q *rowQueue) pop() (row, bool) {
	if len(q.rows) == 0 {
		return row{}, false
	}
	r := q.rows[0]
	q.rows = q.rows[1:]
	if len(q.rows) == 0 {
		q.rows = q.rows[:0:0]
	}
	return r, true
}
