package tools

// Paging of the lists a shopper sees: search results, a category, products
// like one, best sellers and their orders. The tool that shows a page
// remembers its list in session.State.Listing (kind, arguments, where the next page
// starts); "show more" and the More button continue that list, and only it.
import (
	"strings"

	"shopbot/catalog/search"
	"shopbot/engine/session"
	"shopbot/engine/view"
)

// maxListOffset bounds paging of every list, like search_products'
// offset: nobody reads a hundred items in a chat.
const maxListOffset = session.MaxListOffset

// pageOffset is a requested offset within 0..maxListOffset.
func pageOffset(n int) int { return min(max(n, 0), maxListOffset) }

// moreLabels is the More button's label per language.
var moreLabels = map[string]string{"en": "More", "ru": "Ещё"}

// MoreButton is the button that shows the next page of l, labelled in lang.
func MoreButton(lang string, l *session.Listing) view.Button {
	label, ok := moreLabels[lang]
	if !ok {
		label = moreLabels["en"]
	}
	return view.NewButton(label, view.Action{Kind: view.ActMore, Arg: l.MoreArg()})
}

// moreButtons is the More button of the session's listing when more
// remain, for a tool's result.
func moreButtons(s *session.Session) []view.Button {
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
func listed(s *session.Session, l session.Listing, p page) map[string]any {
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
func searchListing(a searchProductsArgs, q search.Query) session.Listing {
	l := session.Listing{Kind: SearchKind(q.Text, q.Category), Query: q.Text, Category: q.Category, Sort: string(q.Sort), Options: q.Options}
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
		return session.ListCategory
	}
	return session.ListSearch
}

// offsetSchema is the offset parameter of the listing tools, without a
// description: the name says it, and the tool schemas have a token budget.
func offsetSchema() map[string]any {
	return map[string]any{"type": "integer", "minimum": 0, "maximum": maxListOffset}
}
