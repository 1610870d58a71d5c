package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// Judgment is one query of a judgments file.
type Judgment struct {
	Line  int
	Query string `json:"query"`
	// Kind groups queries for per-kind figures: plain, misspelled,
	// synonym, russian, … Optional.
	Kind     string         `json:"kind"`
	Filters  Filters        `json:"filters"`
	Relevant map[string]int `json:"relevant"`
}

// Filters are a query's constraints, as the search_products tool names them.
type Filters struct {
	Category   string            `json:"category"`
	MinPrice   *float64          `json:"min_price"`
	MaxPrice   *float64          `json:"max_price"`
	InStock    *bool             `json:"in_stock"`
	Sort       string            `json:"sort"`
	Attributes map[string]string `json:"attributes"`
}

// LineError is a line of the file that could not be used.
type LineError struct {
	Line int
	Err  error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Read parses a judgments file. Bad lines are returned as LineErrors and
// left out; blank lines are skipped.
func Read(r io.Reader) ([]Judgment, []LineError) {
	var out []Judgment
	var bad []LineError
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		j, err := parse(line)
		if err != nil {
			bad = append(bad, LineError{Line: n, Err: err})
			continue
		}
		j.Line = n
		out = append(out, j)
	}
	if err := sc.Err(); err != nil {
		bad = append(bad, LineError{Line: len(out) + len(bad) + 1, Err: err})
	}
	return out, bad
}

func parse(line []byte) (Judgment, error) {
	var j Judgment
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return j, fmt.Errorf("not a judgment object: %v", err)
	}
	for sku, g := range j.Relevant {
		if g < 1 || g > 3 {
			return j, fmt.Errorf("grade %d for %s is not 1-3", g, sku)
		}
	}
	switch search.Sort(j.Filters.Sort) {
	case "", search.SortRelevance, search.SortPriceAsc, search.SortPriceDesc, search.SortRating, search.SortPopular:
	default:
		return j, fmt.Errorf("unknown sort %q", j.Filters.Sort)
	}
	for _, p := range []*float64{j.Filters.MinPrice, j.Filters.MaxPrice} {
		if p != nil && (*p < 0 || math.IsNaN(*p)) {
			return j, fmt.Errorf("negative price filter")
		}
	}
	return j, nil
}

// query turns a judgment into a search query for the shop currency.
func (j Judgment) query(currency string, limit int) search.Query {
	f := j.Filters
	q := search.Query{Text: j.Query, Category: f.Category, Sort: search.Sort(f.Sort), Attributes: f.Attributes, Limit: limit}
	if f.InStock != nil {
		q.InStockOnly = *f.InStock
	}
	if f.MinPrice != nil {
		q.MinPrice = minor(*f.MinPrice, currency)
	}
	if f.MaxPrice != nil {
		q.MaxPrice = minor(*f.MaxPrice, currency)
	}
	return q
}

func minor(amount float64, currency string) int64 {
	digits, ok := catalog.CurrencyDigits(currency)
	if !ok {
		digits = 2
	}
	return int64(math.Round(amount * math.Pow10(digits)))
}
