package admin

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
	"shopbot/catalog/search"
)

// productsPage is /admin/products.
type productsPage struct {
	Query      url.Values
	Q          string
	Category   string
	Stock      string
	Sort       string
	Products   []catalog.Product
	Total      int
	Next       string // cursor of the next page, "" on the last
	Paged      bool   // not the first page
	Categories []categoryRow
	Sorts      [][2]string
	Stocks     [][2]string
	// ByIndex: the text search ran on the shop's search index (what
	// shoppers find, best match first), paged by number.
	ByIndex  bool
	Page     int
	NextPage int
	// Variants notes, by product id, the parents of the page: how many
	// variants they have and how many are low on stock.
	Variants map[int64]variantNote
}

// variantNote is what the products list says of a parent's variants.
type variantNote struct {
	Count int
	Low   string // "2 sizes low", "" when none is
}

// variantNotes describes the parents among ps: a variant is low when it
// is active with at most catalog.LowStock units left (the list's Low
// filter), sold-out ones included.
func variantNotes(ctx context.Context, db bun.IDB, ps []catalog.Product) (map[int64]variantNote, error) {
	var ids []int64
	for _, p := range ps {
		if p.HasVariants() {
			ids = append(ids, p.ID)
		}
	}
	out := map[int64]variantNote{}
	if len(ids) == 0 {
		return out, nil
	}
	vs, err := catalog.VariantsOf(ctx, db, ids)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if !p.HasVariants() {
			continue
		}
		n := variantNote{Count: len(vs[p.ID])}
		low := 0
		for _, v := range vs[p.ID] {
			if v.Active && v.Stock <= catalog.LowStock {
				low++
			}
		}
		if low > 0 {
			noun := "variants"
			if low == 1 {
				noun = "variant"
			}
			if len(p.OptionNames) == 1 {
				noun = strings.ToLower(p.OptionNames[0])
				if low > 1 {
					noun += "s"
				}
			}
			n.Low = fmt.Sprintf("%d %s low", low, noun)
		}
		out[p.ID] = n
	}
	return out, nil
}

// categoryRow is one line of the category tree.
type categoryRow struct {
	Path  string
	Name  string
	Depth int
	Count int
}

const productsPerPage = 50

var productSorts = [][2]string{
	{"newest", "Newest"}, {"title", "Title"}, {"price_asc", "Price ↑"}, {"price_desc", "Price ↓"}, {"stock_asc", "Stock ↑"},
}

var stockFilters = [][2]string{
	{"", "Any stock"}, {"in", "In stock"}, {"low", "Low (≤ 5)"}, {"out", "Out of stock"}, {"archived", "Archived"},
}

func (s *Server) products(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := productsPage{
		Query: q, Q: strings.TrimSpace(q.Get("q")), Category: q.Get("category"), Stock: q.Get("stock"),
		Sort: q.Get("sort"), Sorts: productSorts, Stocks: stockFilters,
	}
	if !validChoice(productSorts, p.Sort) && p.Sort != "relevance" {
		p.Sort = "newest"
	}
	if !validChoice(stockFilters, p.Stock) {
		p.Stock = ""
	}
	if len(p.Q) > 200 {
		p.Q = p.Q[:200]
	}
	cats, tree, err := s.tree.get(r.Context(), s.db, s.cfg.Now())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	p.Categories = tree
	var catIDs []int64
	if p.Category != "" {
		for _, c := range cats {
			if c.Path == p.Category {
				catIDs = catalog.Subtree(cats, c.ID)
			}
		}
		if catIDs == nil {
			catIDs = []int64{-1} // unknown category: nothing matches
		}
	}
	if p.Q != "" && s.cfg.Search != nil && (p.Stock == "" || p.Stock == "in") {
		err = s.searchProducts(r.Context(), &p)
	} else {
		cur, _ := catalog.ParseCursor(q.Get("after")) // a bad cursor is the first page
		p.Paged = cur != nil
		l := catalog.ProductList{Text: p.Q, CategoryIDs: catIDs, Stock: catalog.StockFilter(p.Stock), Sort: catalog.ProductSort(p.Sort), After: cur, Limit: productsPerPage}
		p.Products, p.Next, err = catalog.ListProductPage(r.Context(), s.db, l)
		if err == nil {
			key := fmt.Sprintf("%q %v %s", l.Text, l.CategoryIDs, l.Stock)
			p.Total, err = s.tree.count(key, s.cfg.Now(), func() (int, error) { return catalog.CountProductList(r.Context(), s.db, l) })
		}
	}
	if err == nil {
		p.Variants, err = variantNotes(r.Context(), s.db, p.Products)
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "products", "Products", "products", p)
}

// searchProducts answers a text query with the shop's search index: the
// products shoppers would find (stemming, typos, synonyms), best match
// first or by price, and an exact SKU first. A scan of 100,000 titles
// with LIKE would take hundreds of milliseconds; the index takes a few.
func (s *Server) searchProducts(ctx context.Context, p *productsPage) error {
	p.ByIndex = true
	p.Page, _ = strconv.Atoi(p.Query.Get("page"))
	p.Page = max(p.Page, 1)
	q := search.Query{Text: p.Q, Category: p.Category, InStockOnly: p.Stock == "in", Limit: productsPerPage, Offset: (p.Page - 1) * productsPerPage}
	switch p.Sort {
	case "price_asc":
		q.Sort = search.SortPriceAsc
	case "price_desc":
		q.Sort = search.SortPriceDesc
	default:
		p.Sort, q.Sort = "relevance", search.SortRelevance
	}
	res, err := s.cfg.Search.Search(ctx, q)
	if err != nil {
		return err
	}
	p.Products, p.Total = res.Products, res.Total
	if q.Offset+len(res.Products) < res.Total {
		p.NextPage = p.Page + 1
	}
	if p.Page == 1 {
		if exact, err := catalog.GetProduct(ctx, s.db, p.Q); err == nil {
			p.Products = append([]catalog.Product{*exact}, slices.DeleteFunc(p.Products, func(x catalog.Product) bool { return x.SKU == exact.SKU })...)
		}
	}
	return nil
}

func validChoice(choices [][2]string, v string) bool {
	for _, c := range choices {
		if c[0] == v {
			return true
		}
	}
	return false
}

// treeCache keeps the category tree with its product counts for a while:
// counting 100,000 products per category on every page view would be
// most of the page's time. Writes through the panel reset it.
type treeCache struct {
	mu     sync.Mutex
	at     time.Time
	cats   []catalog.Category
	rows   []categoryRow
	counts map[string]cachedCount // product counts by filter
}

type cachedCount struct {
	n  int
	at time.Time
}

// count returns the cached number of products matching a filter, or
// counts them (on Postgres a count of 100,000 rows is a scan of the table).
func (c *treeCache) count(key string, now time.Time, fill func() (int, error)) (int, error) {
	c.mu.Lock()
	e, ok := c.counts[key]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < treeTTL && !now.Before(e.at) {
		return e.n, nil
	}
	n, err := fill()
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil || len(c.counts) > 200 {
		c.counts = map[string]cachedCount{}
	}
	c.counts[key] = cachedCount{n, now}
	return n, nil
}

const treeTTL = 30 * time.Second

func (c *treeCache) get(ctx context.Context, db bun.IDB, now time.Time) ([]catalog.Category, []categoryRow, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows != nil && now.Sub(c.at) < treeTTL && !now.Before(c.at) {
		return c.cats, c.rows, nil
	}
	cats, err := catalog.ListCategories(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	counts, err := catalog.CategoryProductCounts(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	c.cats, c.rows, c.at = cats, categoryTree(cats, counts), now
	return c.cats, c.rows, nil
}

func (c *treeCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rows, c.counts = nil, nil
}

// categoryTree orders categories by path with their depth and the active
// products of their whole branch.
func categoryTree(cats []catalog.Category, direct map[int64]int) []categoryRow {
	rows := make([]categoryRow, 0, len(cats))
	for _, c := range cats {
		n := 0
		for _, id := range catalog.Subtree(cats, c.ID) {
			n += direct[id]
		}
		rows = append(rows, categoryRow{Path: c.Path, Name: c.Name, Depth: strings.Count(c.Path, catalog.PathSeparator), Count: n})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	return rows
}
