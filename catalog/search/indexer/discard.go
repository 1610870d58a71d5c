package indexer

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// Discard acknowledges the due outbox events recorded before t without
// delivering them: a full rebuild that started reading the catalog after
// t has covered them. It returns how many it dropped.
func Discard(ctx context.Context, db bun.IDB, t time.Time) (int, error) {
	n := 0
	for {
		evs, err := catalog.PendingOutbox(ctx, db, 1000)
		if err != nil {
			return n, err
		}
		var ids []int64
		for _, ev := range evs {
			if ev.CreatedAt.Before(t) {
				ids = append(ids, ev.ID)
			}
		}
		if len(ids) == 0 {
			return n, nil
		}
		if err := catalog.AckOutbox(ctx, db, ids...); err != nil {
			return n, err
		}
		n += len(ids)
	}
}

// NoIndex is the Index of a shop whose search backend keeps current
// without the outbox: the embedded index follows the catalog itself, in
// every replica. A Worker over it acknowledges events unread, so the
// outbox does not grow.
var NoIndex Index = noIndex{}

type noIndex struct{}

func (noIndex) Upsert(context.Context, bun.IDB, ...string) error { return nil }
