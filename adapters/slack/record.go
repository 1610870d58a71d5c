package slack

import (
	"context"
	"sync"

	"github.com/uptrace/bun"

	"shopbot/catalog"
)

// maxBatch bounds the keys recorded in one statement.
const maxBatch = 256

// marker records processed updates with group commit: requests that
// arrive while a write is in flight are recorded together by the next
// one, so a burst of events costs a few commits instead of one each (on
// SQLite every commit takes the single write lock).
type marker struct {
	db *bun.DB

	mu      sync.Mutex
	pending []markReq
	busy    bool
}

type markReq struct {
	key  string
	done chan markRes
}

type markRes struct {
	first bool
	err   error
}

// mark records key; first is false when it was recorded before.
func (m *marker) mark(ctx context.Context, key string) (first bool, err error) {
	req := markReq{key: key, done: make(chan markRes, 1)}
	m.mu.Lock()
	m.pending = append(m.pending, req)
	lead := !m.busy
	m.busy = true
	m.mu.Unlock()
	if lead {
		// This caller writes batches until none is waiting; the others
		// wait for their result.
		m.flush(context.WithoutCancel(ctx))
	}
	select {
	case res := <-req.done:
		return res.first, res.err
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

func (m *marker) flush(ctx context.Context) {
	for {
		m.mu.Lock()
		n := min(len(m.pending), maxBatch)
		batch := m.pending[:n:n]
		m.pending = m.pending[n:]
		if n == 0 {
			m.busy = false
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		keys := make([]string, n)
		for i, r := range batch {
			keys[i] = r.key
		}
		first, err := catalog.MarkProcessedBatch(ctx, m.db, "slack", keys)
		for _, r := range batch {
			// A key twice in one batch: the first request wins.
			res := markRes{first: first[r.key], err: err}
			delete(first, r.key)
			r.done <- res
		}
	}
}
