package search

import (
	"cmp"
	"context"
	"log/slog"
	"time"
)

// PassageFallback is a passage backend (Weaviate) backed by another (the
// embedded passage index): when Primary fails or takes longer than
// Timeout (default 2 s), Secondary answers, with a warning.
type PassageFallback struct {
	Primary, Secondary PassageSearcher
	Timeout            time.Duration
	Logger             *slog.Logger
}

// SearchPassages implements PassageSearcher.
func (f PassageFallback) SearchPassages(ctx context.Context, q PassageQuery) ([]Passage, error) {
	pctx, cancel := context.WithTimeout(ctx, cmp.Or(f.Timeout, 2*time.Second))
	ps, err := f.Primary.SearchPassages(pctx, q)
	cancel()
	if err == nil || ctx.Err() != nil {
		return ps, err
	}
	if f.Logger != nil {
		f.Logger.WarnContext(ctx, "search: passage backend failed; answering from the fallback", "err", err)
	}
	return f.Secondary.SearchPassages(ctx, q)
}
