package weaviate

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"

	"shopbot/catalog"
	"shopbot/catalog/clip"
	"shopbot/catalog/search"
	"shopbot/catalog/search/analysis"
)

// Page sizes and bounds, as in the embedded index. Weaviate answers at
// most maxWindow results past the offset (QUERY_MAXIMUM_RESULTS).
const (
	defaultLimit = 10
	maxLimit     = 100
	maxWindow    = 10000
	// queryEmbedTimeout bounds embedding a query; past it the query is
	// answered by keywords alone.
	queryEmbedTimeout = 3 * time.Second
)

// Search implements search.Searcher (see doc.go for how).
func (b *Backend) Search(ctx context.Context, q search.Query) (search.Results, error) {
	if err := ctx.Err(); err != nil {
		return search.Results{}, err
	}
	if err := b.ensure(ctx); err != nil {
		return search.Results{}, err
	}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = defaultLimit
	case limit > maxLimit:
		limit = maxLimit
	}
	offset := max(q.Offset, 0)
	where, ok := filter(q)
	if !ok || offset+limit > maxWindow {
		return search.Results{}, nil
	}
	pg := page{offset: offset, limit: limit, where: where}
	rank := q.RankText()
	slots := b.exp.Expand(rank)
	switch {
	case slots == nil: // no words: list by the filters
		return b.list(ctx, pg, sortKeys(q.Sort))
	case !relevance(q.Sort):
		return b.sorted(ctx, pg, slots, sortKeys(q.Sort))
	}
	return b.hybrid(ctx, pg, slots, rank)
}

// page is what every query shape needs of the request.
type page struct {
	offset, limit int
	where         *filters.WhereBuilder
}

func (p page) window() string {
	return "limit:" + strconv.Itoa(p.limit) + ", offset:" + strconv.Itoa(p.offset)
}

// list answers a query without words: the filtered products in the sort's
// order.
func (b *Backend) list(ctx context.Context, pg page, keys [][2]string) (search.Results, error) {
	return b.page(ctx, pg, pg.where, keys)
}

// sorted answers a query with words sorted by price, rating or sales: the
// products matching every word or, if none does, any of them.
func (b *Backend) sorted(ctx context.Context, pg page, slots [][]analysis.Alternative, keys [][2]string) (search.Results, error) {
	if len(slots) == 0 {
		return search.Results{}, nil
	}
	var all []*filters.WhereBuilder
	for _, sl := range slots {
		all = append(all, slotMatch(sl))
	}
	res, err := b.page(ctx, pg, and(pg.where, and(all...)), keys)
	if err != nil || res.Total > 0 || len(slots) == 1 {
		return res, err
	}
	return b.page(ctx, pg, and(pg.where, anyTerm(slots)), keys)
}

// page fetches one page of the products matching w in the order of keys.
// Total is exact when the page shows it is the last, or when nothing
// filters (the collection's size); otherwise the matches are counted up to
// countCap (Weaviate's Aggregate with a filter takes seconds on 100,000
// products; listing ids takes milliseconds).
func (b *Backend) page(ctx context.Context, pg page, w *filters.WhereBuilder, keys [][2]string) (search.Results, error) {
	hits, err := b.query(ctx, b.class+args(whereArg(w), sortArg(keys...), pg.window())+"{payload}")
	if err != nil {
		return search.Results{}, err
	}
	total := pg.offset + len(hits)
	switch {
	case len(hits) < pg.limit && (len(hits) > 0 || pg.offset == 0):
	case w == nil:
		total, err = b.count(ctx, nil)
	default:
		total, err = b.countUpTo(ctx, w, max(countCap, pg.offset+pg.limit+1))
	}
	if err != nil {
		return search.Results{}, err
	}
	return b.results(hits, total)
}

// countCap is how far a filtered query's matches are counted.
const countCap = maxLimit

// countUpTo counts the products matching w, up to n.
func (b *Backend) countUpTo(ctx context.Context, w *filters.WhereBuilder, n int) (int, error) {
	hits, err := b.query(ctx, b.class+args(whereArg(w), "limit:"+strconv.Itoa(min(n, maxWindow)))+"{_additional{id}}")
	return len(hits), err
}

// hybrid answers a relevance-ordered query with words: BM25 over the
// expanded words fused with vector similarity by Weaviate, over a window
// of maxLimit results (more for deeper pages), the same for every page of
// a query, so that pages agree (relative score fusion normalizes over
// what it fetched). Within the window a result must match a word or reach
// the similarity floor — hybrid search always finds nearest vectors,
// however far — and results are
// re-ranked by the share of the query's words they match (a coordination
// factor, as the embedded index ranks by words matched), then SKU.
func (b *Backend) hybrid(ctx context.Context, pg page, slots [][]analysis.Alternative, text string) (search.Results, error) {
	qvec := b.queryVector(ctx, text)
	bm := bm25Text(slots)
	if bm == "" && qvec == nil {
		return search.Results{}, nil
	}
	want := pg.offset + pg.limit
	n := maxLimit
	for n < want {
		n *= 2
	}
	n = min(n, maxWindow)
	get := b.class + args(whereArg(pg.where), b.searchArg(bm, qvec), "limit:"+strconv.Itoa(n)) + "{payload terms sku _additional{score}}"
	hits, err := b.query(ctx, get)
	if err != nil {
		return search.Results{}, err
	}
	kept, err := b.rank(ctx, hits, slots, qvec)
	if err != nil {
		return search.Results{}, err
	}
	// Total is what the window holds: exact below n, at least n at n.
	return b.results(kept[min(pg.offset, len(kept)):min(want, len(kept))], len(kept))
}

// count is how many products match w (nil: the collection's size, which
// Weaviate knows at once).
func (b *Backend) count(ctx context.Context, w *filters.WhereBuilder) (int, error) {
	resp, err := b.client.GraphQL().Raw().WithQuery("{Aggregate{" + b.class + args(whereArg(w)) + "{meta{count}}}}").Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("weaviate: count: %w", err)
	}
	if len(resp.Errors) > 0 {
		return 0, fmt.Errorf("weaviate: count: %s", resp.Errors[0].Message)
	}
	agg, _ := resp.Data["Aggregate"].(map[string]any)
	rows, _ := agg[b.class].([]any)
	if len(rows) == 0 {
		return 0, nil
	}
	meta, _ := rows[0].(map[string]any)["meta"].(map[string]any)
	n, _ := meta["count"].(float64)
	return int(n), nil
}

// searchArg is the hybrid argument, or bm25 without a query vector, or
// nearVector without words.
func (b *Backend) searchArg(bm string, qvec []float32) string {
	props := make([]string, len(searchProperties))
	for i, p := range searchProperties {
		props[i] = strconv.Quote(p)
	}
	propList := "properties:[" + strings.Join(props, ",") + "]"
	switch {
	case qvec == nil:
		return "bm25:{query:" + quote(bm) + ", " + propList + "}"
	case bm == "":
		return "nearVector:{vector:" + vectorLiteral(qvec) + ", distance:" + strconv.FormatFloat(-float64(b.floor), 'g', 6, 32) + "}"
	}
	return "hybrid:{query:" + quote(bm) + ", vector:" + vectorLiteral(qvec) +
		", alpha:" + strconv.FormatFloat(float64(b.alpha), 'g', 4, 32) +
		", fusionType:relativeScoreFusion, " + propList + "}"
}

// bm25Text is the keyword query: every alternative's stems, repeated by
// its weight (Weaviate multiplies a repeated term's idf): the word as
// typed outweighs a typo correction, which outweighs a synonym.
func bm25Text(slots [][]analysis.Alternative) string {
	var words []string
	for _, sl := range slots {
		for _, a := range sl {
			n := max(1, int(math.Round(float64(a.Weight)*5)))
			for range n {
				for _, s := range a.Stems {
					if s = clean(s); s != "" {
						words = append(words, s)
					}
				}
			}
		}
	}
	return strings.Join(words, " ")
}

// rank drops the hits that neither match a word nor reach the
// similarity floor and orders the rest by Weaviate's score times the
// coordination factor (1+matched)/(1+words), then SKU. The similarity of
// a hit without a word is computed here, from its stored product, by the
// same embedder (Weaviate's hybrid search does not return it, and
// fetching stored vectors costs more than embedding a few texts).
func (b *Backend) rank(ctx context.Context, hits []hit, slots [][]analysis.Alternative, qvec []float32) ([]hit, error) {
	var unmatched []int
	var texts []string
	for i := range hits {
		hits[i].matched = matched(hits[i].Terms, slots)
		if hits[i].matched == 0 && qvec != nil {
			p, err := decodeProduct(hits[i].Payload)
			if err != nil {
				return nil, err
			}
			unmatched = append(unmatched, i)
			texts = append(texts, analysis.VectorText(&p))
		}
	}
	sims := make([]float32, len(hits))
	if len(texts) > 0 {
		vecs, err := b.emb.Embed(ctx, texts)
		if err != nil || len(vecs) != len(texts) {
			vecs = nil // keywords only
		}
		for j, i := range unmatched {
			if vecs != nil {
				sims[i] = dot(qvec, vecs[j])
			}
		}
	}
	out := hits[:0]
	for i, h := range hits {
		if h.matched == 0 && sims[i] < b.floor {
			continue
		}
		score, _ := strconv.ParseFloat(h.Additional.Score, 64)
		h.rank = score * float64(1+h.matched) / float64(1+len(slots))
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(x, y hit) int {
		if c := cmp.Compare(y.rank, x.rank); c != 0 {
			return c
		}
		return cmp.Compare(x.SKU, y.SKU)
	})
	return out, nil
}

// matched counts the slots of which a product (its terms) contains an
// alternative.
func matched(terms string, slots [][]analysis.Alternative) int {
	set := map[string]bool{}
	for t := range strings.FieldsSeq(terms) {
		set[t] = true
	}
	n := 0
	for _, sl := range slots {
		for _, a := range sl {
			all := true
			for _, s := range a.Stems {
				all = all && set[s]
			}
			if all {
				n++
				break
			}
		}
	}
	return n
}

func dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// queryVector embeds the query text, or returns nil when alpha is 0 or
// embedding fails (the query is then answered by keywords alone).
func (b *Backend) queryVector(ctx context.Context, text string) []float32 {
	if b.alpha == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	vecs, err := b.emb.Embed(ctx, []string{clip.Bytes(text, analysis.MaxQueryBytes)})
	if err != nil || len(vecs) != 1 {
		b.log.WarnContext(ctx, "weaviate: embedding the query failed; keywords only", "embedder", b.emb.Name(), "err", err)
		return nil
	}
	for _, x := range vecs[0] {
		if x != 0 {
			return vecs[0]
		}
	}
	return nil // nothing to embed: a zero vector matches nothing
}

// results decodes the hits' products.
func (b *Backend) results(hits []hit, total int) (search.Results, error) {
	ps, err := products(hits)
	if err != nil {
		return search.Results{}, err
	}
	return search.Results{Products: ps, Total: max(total, len(ps))}, nil
}

func products(hits []hit) ([]catalog.Product, error) {
	out := make([]catalog.Product, 0, len(hits))
	for _, h := range hits {
		p, err := decodeProduct(h.Payload)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// relevance reports whether s ranks by the text (unknown sorts do).
func relevance(s search.Sort) bool {
	switch s {
	case search.SortPriceAsc, search.SortPriceDesc, search.SortRating, search.SortPopular:
		return false
	}
	return true
}

// sortKeys is the order of a sort, the SKU breaking ties; relevance
// without words lists what can be bought and is most reviewed first.
func sortKeys(s search.Sort) [][2]string {
	switch s {
	case search.SortPriceAsc:
		return [][2]string{{"price", "asc"}, {"sku", "asc"}}
	case search.SortPriceDesc:
		return [][2]string{{"price", "desc"}, {"sku", "asc"}}
	case search.SortRating:
		return [][2]string{{"rating_avg", "desc"}, {"rating_count", "desc"}, {"sku", "asc"}}
	case search.SortPopular:
		return [][2]string{{"sold_count", "desc"}, {"rating_count", "desc"}, {"sku", "asc"}}
	}
	return [][2]string{{"in_stock", "desc"}, {"rating_count", "desc"}, {"sku", "asc"}}
}

// errUnknown wraps a missing product.
func errUnknown(sku string) error {
	return fmt.Errorf("weaviate: %q: %w", sku, catalog.ErrNotFound)
}
