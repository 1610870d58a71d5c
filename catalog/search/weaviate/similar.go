package weaviate

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"

	"shopbot/catalog"
	"shopbot/catalog/search/analysis"
)

// Similar returns active products like the one with sku: a hybrid query
// of its title, brand and category words and its own vector, those of its
// top-level category first, as in the embedded index. It never includes
// the product itself, nor variants (they are no objects); a variant's SKU
// is answered as its parent's.
func (b *Backend) Similar(ctx context.Context, sku string, limit int) ([]catalog.Product, error) {
	if err := b.ensure(ctx); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = defaultLimit
	}
	limit = min(limit, maxLimit)
	objs, err := b.client.Data().ObjectsGetter().WithClassName(b.class).WithID(objectID(sku).String()).WithVector().Do(ctx)
	if statusCode(err) == http.StatusNotFound || err == nil && len(objs) == 0 {
		parent, perr := b.parentOf(ctx, sku)
		if perr != nil {
			return nil, perr
		}
		if parent != "" {
			sku = parent
			objs, err = b.client.Data().ObjectsGetter().WithClassName(b.class).WithID(objectID(sku).String()).WithVector().Do(ctx)
		}
	}
	switch {
	case statusCode(err) == http.StatusNotFound || err == nil && len(objs) == 0:
		return nil, errUnknown(sku)
	case err != nil:
		return nil, fmt.Errorf("weaviate: similar to %q: %w", sku, err)
	}
	props, _ := objs[0].Properties.(map[string]any)
	payload, _ := props["payload"].(string)
	p, err := decodeProduct(payload)
	if err != nil {
		return nil, err
	}
	var words []string
	for _, text := range []string{p.Title, p.Brand, categoryPath(&p)} {
		for _, t := range analysis.Terms(text) {
			if !slices.Contains(words, t) {
				words = append(words, t)
			}
		}
	}
	vec := []float32(objs[0].Vector)
	if len(vec) == 0 || b.alpha == 0 {
		vec = nil
	}
	bm := bm25Text([][]analysis.Alternative{{{Stems: words, Weight: 0.2}}})
	if bm == "" && vec == nil {
		return nil, nil
	}
	notSelf := filters.Where().WithPath([]string{"sku"}).WithOperator(filters.NotEqual).WithValueText(clean(sku))
	n := min(3*limit, maxLimit) // room to put its own category first
	get := b.class + args(whereArg(notSelf), b.searchArg(bm, vec), "limit:"+strconv.Itoa(n)) + "{payload category_top}"
	hits, err := b.query(ctx, get)
	if err != nil {
		return nil, err
	}
	top := ""
	if segs := lowerSegments(categoryPath(&p)); len(segs) > 0 {
		top = segs[0]
	}
	slices.SortStableFunc(hits, func(x, y hit) int {
		return cmp.Compare(boolRank(y.Category == top && top != ""), boolRank(x.Category == top && top != ""))
	})
	return products(hits[:min(limit, len(hits))])
}

// parentOf returns the SKU of the object listing variant sku, "" if none.
func (b *Backend) parentOf(ctx context.Context, sku string) (string, error) {
	w := filters.Where().WithPath([]string{"variant_skus"}).WithOperator(filters.ContainsAny).WithValueText(clean(sku))
	hits, err := b.query(ctx, b.class+args(whereArg(w), "limit:1")+"{sku}")
	if err != nil || len(hits) == 0 {
		return "", err
	}
	return hits[0].SKU, nil
}

func categoryPath(p *catalog.Product) string {
	if p.Category == nil {
		return ""
	}
	return p.Category.Path
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
