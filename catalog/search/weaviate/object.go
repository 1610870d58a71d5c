package weaviate

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	"github.com/weaviate/weaviate/entities/models"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// objectNamespace derives object ids from SKUs.
var objectNamespace = uuid.MustParse("6c1b3f0e-5f7a-4d0e-9a57-3e1f6a2b9c40")

// objectID is the id of a product's object.
func objectID(sku string) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(objectNamespace, []byte(sku)).String())
}

// object is a product as stored, with its variants vs (none for a product
// without): see doc.go for the properties.
func (b *Backend) object(p *catalog.Product, vs []catalog.Product, vec []float32, gen int64) (*models.Object, error) {
	payload, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("weaviate: encode %s: %w", p.SKU, err)
	}
	cat := ""
	if p.Category != nil {
		cat = p.Category.Path
	}
	segs := lowerSegments(cat)
	top := ""
	if len(segs) > 0 {
		top = segs[0]
	}
	title, brand, category := terms(p.Title), terms(p.Brand), terms(cat)
	attrs, desc := terms(analysis.AttributeText(p.Attributes)+search.OptionText(vs)), terms(p.Description)
	variants := make([]string, len(vs))
	for i := range vs {
		variants[i] = clean(vs[i].SKU)
	}
	props := map[string]any{
		"sku":               p.SKU,
		"payload":           string(payload),
		"t_title":           title,
		"t_brand":           brand,
		"t_category":        category,
		"t_attrs":           attrs,
		"t_desc":            desc,
		"terms":             strings.Join([]string{title, brand, category, attrs, desc}, " "),
		"category_keys":     categoryKeys(segs),
		"category_top":      top,
		"attr_keys":         attrValues(p.Attributes),
		"option_keys":       cleanAll(search.OptionCombos(vs)),
		"option_price_keys": cleanAll(search.OptionPriceKeys(vs)),
		"variant_skus":      variants,
		"price":             p.Price,
		"price_max":         max(p.Price, p.PriceMax),
		"stock":             p.Stock,
		"in_stock":          p.Stock > 0,
		"rating_avg":        p.RatingAvg,
		"rating_count":      p.RatingCount,
		"sold_count":        p.SoldCount,
		"generation":        gen,
	}
	return &models.Object{Class: b.class, ID: objectID(p.SKU), Properties: props, Vector: vec}, nil
}

// terms is a field's index terms separated by spaces (Weaviate splits
// them on whitespace).
func terms(text string) string { return strings.Join(analysis.Terms(text), " ") }

// lowerSegments splits a category path into its lower-cased names.
func lowerSegments(path string) []string {
	segs := catalog.SplitCategoryPath(path)
	for i, s := range segs {
		segs[i] = clean(strings.ToLower(s))
	}
	return segs
}

// categoryKeys is every run of consecutive names of a path: a category
// filter matches a full path or its last names, as in the other backends.
func categoryKeys(segs []string) []string {
	var keys []string
	for i := range segs {
		for j := i + 1; j <= len(segs); j++ {
			keys = append(keys, strings.Join(segs[i:j], " > "))
		}
	}
	return keys
}

// attrValues is what attribute filters match, as "key=value".
func attrValues(attrs map[string]string) []string {
	keys := analysis.AttributeKeys(attrs)
	for i, k := range keys {
		keys[i] = clean(strings.Replace(k, "\x00", "=", 1))
	}
	return keys
}

// attrFilterValue is the attr_keys value an attribute filter looks for.
func attrFilterValue(k, v string) string {
	return clean(strings.Replace(analysis.AttributeKey(k, v), "\x00", "=", 1))
}

// clean makes text safe to quote in GraphQL and to store: valid UTF-8,
// no control or other unprintable runes (Go's %q then escapes only quotes
// and backslashes, as GraphQL expects).
func clean(s string) string {
	s = strings.ToValidUTF8(s, "")
	if strings.IndexFunc(s, unprintable) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unprintable(r) {
			return -1
		}
		return r
	}, s)
}

func unprintable(r rune) bool {
	return r == utf8.RuneError || (r != ' ' && !unicode.IsPrint(r))
}

// decodeProduct reads a stored payload.
func decodeProduct(payload string) (catalog.Product, error) {
	var p catalog.Product
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		return p, fmt.Errorf("weaviate: decode stored product: %w", err)
	}
	return p, nil
}
