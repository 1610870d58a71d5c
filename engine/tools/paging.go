package tools

// Paging of the lists a shopper sees: search results, a category, products
// like one, best sellers and their orders. The tool that shows a page
// remembers its list in State.Listing (kind, arguments, where the next page
// starts); "show more" and the More button continue that list, and only it.
import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"shopbot/catalog"
	"shopbot/catalog/search"
	"shopbot/engine/view"
)

// The kinds of list a Listing continues.
const (
	ListSearch   = "search"   // search_products with a query
	ListCategory = "category" // search_products with a category and no query
	ListSimilar  = "similar"  // get_similar_products of Listing.SKU
	ListTop      = "top"      // get_top_selling_products, of Listing.Category if set
	ListOrders   = "orders"   // get_order_status without a number
)

// maxListOffset bounds paging of every list, like search_products'
// offset: nobody reads a hundred items in a chat.
const maxListOffset = maxSearchOffset

// pageOffset is a requested offset within 0..maxListOffset.
func pageOffset(n int) int { return min(max(n, 0), maxListOffset) }

// ListKind is the listing's kind; state saved before kinds existed holds
// searches.
func (l *Listing) ListKind() string {
	if l.Kind == "" {
		return ListSearch
	}
	return l.Kind
}

// HasMore reports whether a next page exists: items remain past Offset and
// Offset is within the paging bound.
func (l *Listing) HasMore() bool {
	return l != nil && l.Offset < l.Total && l.Offset <= maxListOffset
}

// MoreArg names the listing in a More button: its kind and a fingerprint
// of what it lists ("search.1a2b3c4d"), well within Telegram's 64 bytes of
// callback data. The offset is not in it: a press continues the
// remembered list from where it stands, so pressing an older More button
// of the same list again repeats nothing.
func (l *Listing) MoreArg() string {
	return l.ListKind() + "." + l.fingerprint()
}

// NamedBy reports whether a More button's Arg names this listing. The Arg
// comes from a client: anything malformed, of another kind or of another
// list (a stale button from an older message) does not match.
func (l *Listing) NamedBy(arg string) bool {
	if l == nil || len(arg) > 40 {
		return false
	}
	kind, fp, ok := strings.Cut(arg, ".")
	return ok && kind == l.ListKind() && fp == l.fingerprint()
}

// fingerprint hashes what the listing lists, not how far it was paged.
func (l *Listing) fingerprint() string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%g\x00%g\x00%s\x00%s", l.ListKind(), l.SKU, l.Query, l.Category,
		l.MinPrice, l.MaxPrice, l.Sort, catalog.OptionKey(l.Options))
	return fmt.Sprintf("%08x", h.Sum32())
}

// moreLabels is the More button's label per language.
var moreLabels = map[string]string{"en": "More", "ru": "Ещё"}

// MoreButton is the button that shows the next page of l, labelled in lang.
func MoreButton(lang string, l *Listing) view.Button {
	label, ok := moreLabels[lang]
	if !ok {
		label = moreLabels["en"]
	}
	return view.NewButton(label, view.Action{Kind: view.ActMore, Arg: l.MoreArg()})
}

// moreButtons is the More button of the session's listing when more
// remain, for a tool's result.
func (s *Session) moreButtons() []view.Button {
	l := s.State.Listing
	if !l.HasMore() {
		return nil
	}
	lang := "en"
	if strings.HasPrefix(strings.ToLower(s.Lang()), "ru") {
		lang = "ru"
	}
	return []view.Button{MoreButton(lang, l)}
}

// page is where a page of a list starts and how many it shows; total is
// how many the list holds, or, where the backend does not count (similar,
// orders), how many are known: one past the page when more remain.
type page struct {
	offset, shown, total int
}

// listed records the page just shown as the session's listing and returns
// what the model reads about paging.
func (s *Session) listed(l Listing, p page) map[string]any {
	l.Offset, l.Total = p.offset+p.shown, max(p.total, p.offset+p.shown)
	s.State.Listing = &l
	more := l.HasMore()
	data := map[string]any{"offset": p.offset, "more": more}
	if more {
		data["next_offset"] = l.Offset
	}
	return data
}

// knownTotal is page.total for a backend that does not count, asked for
// the items up to one past the page: fetched of them came back.
func knownTotal(fetched, offset, limit int) int {
	return min(fetched, offset+limit+1)
}

// pageOf cuts the page [offset, offset+limit) out of items fetched from 0.
func pageOf[T any](items []T, offset, limit int) []T {
	if offset >= len(items) {
		return nil
	}
	return items[offset:min(len(items), offset+limit)]
}

// searchListing is the listing of a search_products call: a category
// browsed, or a search.
func searchListing(a searchProductsArgs, q search.Query) Listing {
	l := Listing{Kind: SearchKind(q.Text, q.Category), Query: q.Text, Category: q.Category, Sort: string(q.Sort), Options: q.Options}
	if a.MinPrice != nil {
		l.MinPrice = *a.MinPrice
	}
	if a.MaxPrice != nil {
		l.MaxPrice = *a.MaxPrice
	}
	return l
}

// SearchKind is the kind of list a search_products call makes: a category
// browsed when there is no query, else a search.
func SearchKind(query, category string) string {
	if strings.TrimSpace(query) == "" && category != "" {
		return ListCategory
	}
	return ListSearch
}

// offsetSchema is the offset parameter of the listing tools, without a
// description: the name says it, and the tool schemas have a token budget.
func offsetSchema() map[string]any {
	return map[string]any{"type": "integer", "minimum": 0, "maximum": maxListOffset}
}

// ListedOptions is the option filter of the last list when it showed sku
// ("running shoes in size 42"), else nil: adding a product with variants
// from that list starts from those choices.
func (st *State) ListedOptions(sku string) map[string]string {
	if st.Listing == nil || len(st.Listing.Options) == 0 || !slices.Contains(st.Shown, sku) {
		return nil
	}
	return st.Listing.Options
}
