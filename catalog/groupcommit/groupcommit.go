package groupcommit

import (
	"context"
	"sync"
)

// Batcher writes items with group commit: the items that arrive while
// a write is in flight are written together by the next one, so a burst
// costs a few commits instead of one each — on SQLite every commit takes
// the single write slot. The caller that finds no write in flight writes
// the waiting batch; the others wait for their result.
//
// A caller waits for its own batch only: when it is written and more
// items wait, the next batch is written by a new goroutine, not by the
// caller that led the last one. Under a steady stream, a leader that kept
// writing until nothing waited could be held for the whole stream (an
// acknowledgement waiting behind everyone else's).
//
// Write stores a batch (at most Max items, default 256) and returns one
// result per item, or an error for the whole batch. It runs without the
// callers' cancellation: a caller that gives up does not stop a write
// others wait for.
type Batcher[T, R any] struct {
	Write func(ctx context.Context, items []T) ([]R, error)
	Max   int

	mu      sync.Mutex
	pending []groupReq[T, R]
	busy    bool
}

type groupReq[T, R any] struct {
	item T
	done chan groupRes[R]
}

type groupRes[R any] struct {
	res R
	err error
}

// Do writes item, with whatever else is waiting, and returns its result;
// if ctx ends first it returns ctx's error (the item may still be written).
func (g *Batcher[T, R]) Do(ctx context.Context, item T) (R, error) {
	req := groupReq[T, R]{item: item, done: make(chan groupRes[R], 1)}
	g.mu.Lock()
	g.pending = append(g.pending, req)
	lead := !g.busy
	g.busy = true
	g.mu.Unlock()
	if lead {
		g.flush(context.WithoutCancel(ctx))
	}
	select {
	case r := <-req.done:
		return r.res, r.err
	case <-ctx.Done():
		var zero R
		return zero, ctx.Err()
	}
}

// flush writes one batch of the waiting items, then hands the next batch,
// if any, to a new goroutine.
func (g *Batcher[T, R]) flush(ctx context.Context) {
	limit := g.Max
	if limit <= 0 {
		limit = 256
	}
	g.mu.Lock()
	n := min(len(g.pending), limit)
	batch := g.pending[:n:n]
	g.pending = g.pending[n:]
	g.mu.Unlock()
	items := make([]T, n)
	for i, r := range batch {
		items[i] = r.item
	}
	res, err := g.Write(ctx, items)
	for i, r := range batch {
		out := groupRes[R]{err: err}
		if err == nil && i < len(res) {
			out.res = res[i]
		}
		r.done <- out
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pending) == 0 {
		g.busy = false
		return
	}
	go g.flush(ctx)
}

// Pending reports whether a write is in flight and how many items wait
// for the next.
func (g *Batcher[T, R]) Pending() (busy bool, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.busy, len(g.pending)
}
