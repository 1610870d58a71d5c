package importer

import (
	"context"
	"fmt"
	"time"

	"shopbot/catalog"
)

// archive archives the active products a complete feed no longer names —
// never deleting them — unless the run looks incomplete: a row of the
// feed failed (its product would look absent), or the feed would archive
// more than ArchiveShare of the active products (a feed cut off at a row
// boundary looks like that). It returns how many it archived and, when it
// refused, the sentence the panel shows.
func (s *Scheduler) archive(ctx context.Context, sum Summary, seen map[string]struct{}, before time.Time) (int, string, error) {
	if sum.Failed > 0 {
		return 0, fmt.Sprintf("Nothing was archived: %d rows of the feed failed, so it may not list every product.", sum.Failed), nil
	}
	absent, active, err := catalog.AbsentProducts(ctx, s.db, func(sku string) bool {
		_, ok := seen[sku]
		return ok
	}, before)
	if err != nil || len(absent) == 0 {
		return 0, "", err
	}
	if float64(len(absent)) > s.cfg.ArchiveShare*float64(active) {
		return 0, fmt.Sprintf("Nothing was archived: the feed lists %d products and would archive %d of the %d active ones "+
			"(more than %.0f%%), which looks like a cut-off feed. Check the feed, or archive them in the panel.",
			len(seen), len(absent), active, s.cfg.ArchiveShare*100), nil
	}
	n, err := catalog.ArchiveProducts(ctx, s.db, absent, before)
	return n, "", err
}
