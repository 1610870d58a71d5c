package session

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"shopbot/catalog"
)

// MaxListOffset bounds paging of every list: nobody reads a hundred items
// in a chat.
const MaxListOffset = 100

// The kinds of list a Listing continues.
const (
	ListSearch   = "search"   // search_products with a query
	ListCategory = "category" // search_products with a category and no query
	ListSimilar  = "similar"  // get_similar_products of Listing.SKU
	ListTop      = "top"      // get_top_selling_products, of Listing.Category if set
	ListOrders   = "orders"   // get_order_status without a number
)

// ListKind is the listing's kind; state saved before kinds existed holds
// searches.
func (l *Listing) ListKind() string {
	if l.Kind == "" {
		return ListSearch
	}
	return l.Kind
}

// DeliveryChoice is a method offered at checkout, kept in the checkout
// state so a later "the second one", "самовывоз" or a button resolves.
type DeliveryChoice struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Pickup bool   `json:"pickup,omitempty"`
}

// HasMore reports whether a next page exists: items remain past Offset and
// Offset is within the paging bound.
func (l *Listing) HasMore() bool {
	return l != nil && l.Offset < l.Total && l.Offset <= MaxListOffset
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

// ListedOptions is the option filter of the last list when it showed sku
// ("running shoes in size 42"), else nil: adding a product with variants
// from that list starts from those choices.
func (st *State) ListedOptions(sku string) map[string]string {
	if st.Listing == nil || len(st.Listing.Options) == 0 || !slices.Contains(st.Shown, sku) {
		return nil
	}
	return st.Listing.Options
}
