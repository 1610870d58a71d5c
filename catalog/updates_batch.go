package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// MarkProcessedBatch records several updates of channel in one statement
// (one commit, however many callers are waiting) and returns the keys
// recorded now, i.e. seen for the first time; keys recorded before, and
// repeats within keys, are absent from it.
func MarkProcessedBatch(ctx context.Context, db bun.IDB, channel string, keys []string) (map[string]bool, error) {
	first := make(map[string]bool, len(keys))
	if channel == "" {
		return nil, fmt.Errorf("catalog: mark processed: %w: channel is required", ErrInvalid)
	}
	now := time.Now().UTC()
	seen := make(map[string]bool, len(keys))
	rows := make([]ProcessedUpdate, 0, len(keys))
	for _, k := range keys {
		if k == "" {
			return nil, fmt.Errorf("catalog: mark processed: %w: empty key", ErrInvalid)
		}
		if !seen[k] {
			seen[k] = true
			rows = append(rows, ProcessedUpdate{Channel: channel, UpdateKey: k, ReceivedAt: now})
		}
	}
	if len(rows) == 0 {
		return first, nil
	}
	var recorded []string
	err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("update_key").Scan(ctx, &recorded)
	if err != nil {
		return nil, fmt.Errorf("catalog: mark %d %s updates processed: %w", len(rows), channel, err)
	}
	for _, k := range recorded {
		first[k] = true
	}
	return first, nil
}
