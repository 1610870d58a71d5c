package search

import (
	"context"

	"shopbot/catalog"
)

// Passage search: chunks of longer texts (shop pages now, reviews next)
// in an index of their own, ranked with the same hybrid machinery as
// products (shared analysis, vectors fused with DefaultAlpha).

// PassageQuery is one passage search. Kind is required: a search never
// mixes a shop policy with a shopper's review. Scope, when set, keeps the
// passages of that scope (a review's SKU).
type PassageQuery struct {
	Kind  catalog.PassageKind
	Text  string
	Scope string
	Limit int // default 5, at most MaxPassageLimit
}

// Passage limits shared by the backends.
const (
	DefaultPassageLimit = 5
	MaxPassageLimit     = 20
)

// PassageLimit is q's limit, defaulted and clamped.
func (q PassageQuery) PassageLimit() int {
	switch {
	case q.Limit <= 0:
		return DefaultPassageLimit
	case q.Limit > MaxPassageLimit:
		return MaxPassageLimit
	}
	return q.Limit
}

// Passage is one match: where it comes from (Kind and Ref, e.g. page
// "returns"), its source's Title, the Heading it sits under, its Text,
// and its fused Score in [0, 1], best first.
type Passage struct {
	Kind    catalog.PassageKind
	Ref     string
	Seq     int
	Scope   string
	Title   string
	Heading string
	Text    string
	Score   float64
}

// PassageSearcher is implemented by every backend that keeps passages.
// Only passages that share a word with the query, or whose vector is
// similar enough to it (DefaultMinSimilarity), are returned: none is an
// honest "nothing on that".
type PassageSearcher interface {
	SearchPassages(ctx context.Context, q PassageQuery) ([]Passage, error)
}
