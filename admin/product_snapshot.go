package admin

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"shopbot/catalog"
)

// A product form remembers, in its hidden "loaded" field, what it was
// opened at: the versions of the product and of each variant row, the
// stock each showed, and the values shown. Saving writes the content only
// over those versions and the stock only as a change to the stock as it
// is (catalog.SaveProducts), so a page left open while orders came in, an
// import ran or a colleague saved never writes old values back. When the
// save is refused, the form comes back with the current values and two
// lists built from the shown values: what changed since it was opened,
// and the edits that were not saved.

// snapshot is the content of the hidden "loaded" field.
type snapshot struct {
	Version int64               `json:"version"`
	Stock   int                 `json:"stock"`
	Rows    map[string]rowStamp `json:"rows,omitempty"` // by variant SKU
	Shown   []shownValue        `json:"shown"`
}

// rowStamp is a variant row's version and stock as loaded.
type rowStamp struct {
	Version int64 `json:"version"`
	Stock   int   `json:"stock"`
}

// shownValue is one value of the form as the merchant saw it.
type shownValue struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// snapshotOf is the snapshot of a stored product p with its variants vs,
// shown as the form f.
func snapshotOf(p *catalog.Product, vs []catalog.Product, f productForm) string {
	s := snapshot{Version: p.Version, Stock: p.Stock, Shown: shownOf(f)}
	if len(vs) > 0 {
		s.Rows = make(map[string]rowStamp, len(vs))
		for _, v := range vs {
			s.Rows[v.SKU] = rowStamp{Version: v.Version, Stock: v.Stock}
		}
	}
	b, _ := json.Marshal(s) // plain strings and numbers: cannot fail
	return string(b)
}

// readSnapshot reads the posted "loaded" field of a stored product's form.
func readSnapshot(raw string) (snapshot, error) {
	var s snapshot
	if err := json.Unmarshal([]byte(raw), &s); err != nil || s.Version < 1 {
		return s, badRequest("This form does not say when it was opened, so it could overwrite newer changes: nothing was saved. Open the product again and redo your change.")
	}
	return s, nil
}

// shownOf lists the values the form f shows, labelled for the merchant.
func shownOf(f productForm) []shownValue {
	active := func(b bool) string {
		if b {
			return "active"
		}
		return "archived"
	}
	out := []shownValue{
		{"title", f.Title}, {"brand", f.Brand}, {"category", f.Category}, {"price", f.Price},
		{"currency", f.Currency}, {"stock", f.Stock}, {"attributes", f.Attributes}, {"images", f.Images},
		{"description", f.Desc}, {"status", active(f.Active)},
	}
	if f.Parent != nil {
		return out
	}
	out = append(out, shownValue{"option names", joinNonEmpty(f.Variants.Names)})
	for _, row := range f.Variants.Rows {
		if row.Old == "" {
			continue
		}
		out = append(out,
			shownValue{row.Old + " options", joinNonEmpty(row.Opts)},
			shownValue{row.Old + " price", row.Price},
			shownValue{row.Old + " stock", row.Stock},
			shownValue{row.Old + " status", active(row.Active)})
	}
	return out
}

func joinNonEmpty(ss []string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " / ")
}

// differences lists, in the order of to, each value that differs between
// from and to as "label 'old' → 'new'"; values only in from are listed
// last.
func differences(from, to []shownValue) []string {
	before := make(map[string]string, len(from))
	for _, v := range from {
		before[v.Label] = v.Value
	}
	var out []string
	seen := map[string]bool{}
	for _, v := range to {
		seen[v.Label] = true
		if old, ok := before[v.Label]; !ok || old != v.Value {
			out = append(out, fmt.Sprintf("%s %s → %s", v.Label, quoteShort(old), quoteShort(v.Value)))
		}
	}
	for _, v := range from {
		if !seen[v.Label] {
			out = append(out, fmt.Sprintf("%s %s → (gone)", v.Label, quoteShort(v.Value)))
		}
	}
	return out
}

// quoteShort quotes a value in single quotes, cut to 60 characters on one
// line.
func quoteShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return "'" + s + "'"
}

// maxStockEntry bounds a stock count or change typed in a form.
const maxStockEntry = 10_000_000

// parseStock reads a stock field that showed was: "+10" or "-2" adds or
// removes units from the stock as it is when saved; a plain count replaces
// the stock only while it is still was (catalog.StockChange).
func parseStock(raw string, was int) (catalog.StockChange, error) {
	raw = strings.TrimSpace(raw)
	n, err := strconv.Atoi(raw)
	if err != nil || n > maxStockEntry || n < -maxStockEntry {
		return catalog.StockChange{}, fmt.Errorf("stock %q: write a count such as 12, or a change such as +10 or -2", raw)
	}
	if raw[0] == '+' || raw[0] == '-' {
		return catalog.StockChange{Add: n}, nil
	}
	return catalog.StockChange{Set: true, From: was, To: n}, nil
}

// newStock is the stock a new product or variant starts with.
func newStock(raw string) (int, error) {
	c, err := parseStock(raw, 0)
	n := c.Add
	if c.Set {
		n = c.To
	}
	if err == nil && n < 0 {
		err = fmt.Errorf("stock %q must be a whole number, 0 or more", raw)
	}
	return n, err
}
