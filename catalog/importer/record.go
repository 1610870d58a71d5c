package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/clip"
)

// Columns lists the fields of an import file, in the order a CSV header
// usually has them.
var Columns = []string{"sku", "title", "description", "brand", "category", "price", "currency", "stock", "image_url", "attributes",
	"variant_of", "options", "option_names", "compare_at_price"}

// Record is one product as written in an import file. Price and Stock are
// kept as text so every problem is reported by Input, with the line.
type Record struct {
	SKU         string `json:"sku"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Brand       string `json:"brand"`
	Category    string `json:"category"`
	Price       Text   `json:"price"`
	// CompareAt is the regular price when Price is a sale price (a shop
	// export's compare-at or regular price); empty when not on sale.
	CompareAt  Text        `json:"compare_at_price"`
	Currency   string      `json:"currency"`
	Stock      Text        `json:"stock"`
	ImageURL   string      `json:"image_url"`
	Attributes *Attributes `json:"attributes"`
	// Variants (variants.go): a variant row names its parent's SKU and
	// its option values; a parent row may order its option names.
	VariantOf   string        `json:"variant_of"`
	Options     *OptionValues `json:"options"`
	OptionNames *NameList     `json:"option_names"`
	// Inactive imports the product hidden from shoppers (a draft or
	// archived product of a shop's export); the own format has no column
	// for it.
	Inactive bool `json:"-"`
}

// Text is a JSON string or number kept as its literal text.
type Text string

// UnmarshalJSON accepts "89.99", 89.99 and null.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*t = Text(b)
	default:
		return fmt.Errorf("want a string or a number, got %s", clip.Shorten(string(b), 20))
	}
	return nil
}

// Attributes is a flat key/value object. Numbers and booleans become text;
// nested objects and arrays are rejected.
type Attributes map[string]string

// UnmarshalJSON reads an attributes object.
func (a *Attributes) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("attributes must be a JSON object of strings: %v", err)
	}
	out := make(Attributes, len(raw))
	for k, v := range raw {
		key := strings.TrimSpace(k)
		if key == "" || len(key) > 64 {
			return fmt.Errorf("attribute name %q must be 1–64 characters", k)
		}
		var val any
		if err := json.Unmarshal(v, &val); err != nil {
			return err
		}
		switch x := val.(type) {
		case string:
			out[key] = strings.TrimSpace(x)
		case float64, bool:
			out[key] = strings.TrimSpace(string(v))
		case nil:
			// An explicit null is the same as leaving the attribute out.
		default:
			return fmt.Errorf("attribute %q must be text, not a nested object or list", key)
		}
	}
	*a = out
	return nil
}

// errMissingPrice is a row without a price: refused, except for a parent
// whose variants are in the same file (see variants.go). Input returns it
// only when the row is otherwise valid.
var errMissingPrice = fmt.Errorf("%w: missing price", catalog.ErrInvalid)

// Input validates a record and converts it for catalog.UpsertProducts.
// defaultCurrency applies when the record names none. Control characters
// are stripped first (see text.go). A row without a price gets an error
// that wraps catalog.ErrInvalid ("missing price") after every other check.
func (r *Record) Input(defaultCurrency string) (catalog.ProductInput, error) {
	r.clean()
	in := catalog.ProductInput{
		SKU: r.SKU, Title: r.Title, Description: strings.TrimSpace(r.Description),
		Brand: strings.TrimSpace(r.Brand), CategoryPath: catalog.SplitCategoryPath(r.Category),
		Currency: strings.TrimSpace(r.Currency), VariantOf: r.VariantOf, Inactive: r.Inactive,
	}
	if r.Options != nil {
		in.Options = r.Options.Values
	}
	if r.OptionNames != nil {
		in.OptionNames = *r.OptionNames
	}
	if in.Currency == "" {
		in.Currency = defaultCurrency
	}
	cur, err := catalog.NormalizeCurrency(in.Currency)
	if err != nil {
		return in, err
	}
	noPrice := strings.TrimSpace(string(r.Price)) == ""
	if !noPrice {
		if in.Price, err = catalog.ParseAmount(string(r.Price), cur); err != nil {
			return in, err
		}
	}
	if s := strings.TrimSpace(string(r.CompareAt)); s != "" {
		if in.CompareAt, err = catalog.ParseAmount(s, cur); err != nil {
			return in, fmt.Errorf("compare_at_price: %w", err)
		}
	}
	if s := strings.TrimSpace(string(r.Stock)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 10_000_000 {
			return in, fmt.Errorf("%w: stock %q must be a whole number from 0 to 10000000", catalog.ErrInvalid, clip.Shorten(s, 40))
		}
		in.Stock = n
	}
	if in.ImageURLs, err = imageURLs(r.ImageURL); err != nil {
		return in, err
	}
	if r.Attributes != nil {
		in.Attributes = *r.Attributes
	}
	if err := in.Validate(); err != nil {
		return in, err
	}
	if len(in.Title) > 300 || len(in.Description) > 10_000 {
		return in, fmt.Errorf("%w: title over 300 or description over 10000 characters", catalog.ErrInvalid)
	}
	if noPrice {
		return in, errMissingPrice
	}
	return in, nil
}

// clean strips NUL and other control characters from every field; only
// the description keeps line breaks and tabs.
func (r *Record) clean() {
	for _, f := range []*string{&r.SKU, &r.Title, &r.Brand, &r.Category, &r.Currency, &r.ImageURL, &r.VariantOf} {
		*f = cleanField(*f, false)
	}
	r.Description = cleanField(r.Description, true)
	r.Price = Text(cleanField(string(r.Price), false))
	r.CompareAt = Text(cleanField(string(r.CompareAt), false))
	r.Stock = Text(cleanField(string(r.Stock), false))
	if r.Options != nil {
		clean := OptionValues{Values: make(map[string]string, len(r.Options.Values))}
		for _, n := range r.Options.Names {
			c := strings.TrimSpace(cleanField(n, false))
			clean.Names = append(clean.Names, c)
			clean.Values[c] = strings.TrimSpace(cleanField(r.Options.Values[n], false))
		}
		*r.Options = clean
	}
	if r.OptionNames != nil {
		for i, n := range *r.OptionNames {
			(*r.OptionNames)[i] = strings.TrimSpace(cleanField(n, false))
		}
	}
	if r.Attributes == nil {
		return
	}
	clean := make(Attributes, len(*r.Attributes))
	for k, v := range *r.Attributes {
		if k = strings.TrimSpace(cleanField(k, false)); k != "" {
			clean[k] = strings.TrimSpace(cleanField(v, false))
		}
	}
	*r.Attributes = clean
}

// imageURLs splits a cell of one or more http(s) URLs separated by "|" or
// spaces.
func imageURLs(cell string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(cell, func(r rune) bool { return r == '|' || r == ' ' || r == '\n' }) {
		u, err := url.Parse(f)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("%w: image_url %q is not an http(s) URL", catalog.ErrInvalid, clip.Shorten(f, 60))
		}
		out = append(out, f)
	}
	return out, nil
}
