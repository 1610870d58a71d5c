package tools

import (
	"cmp"
	"context"
	"reflect"
	"slices"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/engine/locale"
	"shopbot/engine/session"
)

// maxSuggested is how many categories a search that found nothing offers.
const maxSuggested = 4

// suggestCategories answers a search that found nothing, even after the
// lexicon's expansion, with the closest categories rather than a bare
// nothing: the categories of what the same words find without the
// filters (out of stock, another price, another category), or else the
// largest top-level categories. note is the sentence in the shopper's
// language (locale key tools.no_results); both are empty for a search
// without words or when the catalog has no categories.
func suggestCategories(ctx context.Context, d *Deps, s *session.Session, q search.Query) (paths []string, note string) {
	if q.Text == "" {
		return nil, ""
	}
	relaxed := search.Query{Text: q.Text, Limit: 20}
	if !reflect.DeepEqual(relaxed, search.Query{Text: q.Text, Limit: q.Limit}) { // nothing to relax otherwise
		if res, err := d.Search.Search(ctx, relaxed); err == nil {
			paths = categoriesByCount(res.Products)
		}
	}
	if len(paths) == 0 {
		paths = largestTopCategories(ctx, d)
	}
	if len(paths) == 0 {
		return nil, ""
	}
	note, err := locale.Text(s.Lang(), "tools.no_results", map[string]any{"Query": q.Text, "Categories": paths})
	if err != nil {
		note = ""
	}
	return paths, note
}

// categoriesByCount is the categories of ps, the most frequent first.
func categoriesByCount(ps []catalog.Product) []string {
	n := map[string]int{}
	var order []string
	for _, p := range ps {
		if p.Category == nil || p.Category.Path == "" {
			continue
		}
		if n[p.Category.Path] == 0 {
			order = append(order, p.Category.Path)
		}
		n[p.Category.Path]++
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(n[b], n[a]) })
	return order[:min(len(order), maxSuggested)]
}

// largestTopCategories is the top-level categories with the most
// products (their subcategories' included).
func largestTopCategories(ctx context.Context, d *Deps) []string {
	if d.Products == nil && d.DB == nil {
		return nil
	}
	all, err := d.products().Categories(ctx)
	if err != nil {
		return nil
	}
	counts, err := d.products().CategoryCounts(ctx)
	if err != nil {
		return nil
	}
	type top struct {
		path string
		n    int
	}
	var tops []top
	for _, c := range catalog.Children(all, nil) {
		t := top{path: c.Path}
		for _, id := range catalog.Subtree(all, c.ID) {
			t.n += counts[id]
		}
		if t.n > 0 {
			tops = append(tops, t)
		}
	}
	slices.SortStableFunc(tops, func(a, b top) int { return cmp.Compare(b.n, a.n) })
	var out []string
	for _, t := range tops[:min(len(tops), maxSuggested)] {
		out = append(out, t.path)
	}
	return out
}
