package engine

import (
	"context"
	"sync"
	"time"
)

// ChatLocker serializes the turns of one chat across processes.
type ChatLocker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// chatLocks serializes the turns of one chat so a shopper's messages are
// answered in order, while different chats run in parallel.
type chatLocks struct {
	mu    sync.Mutex
	locks map[string]*chatLock
}

type chatLock struct {
	mu   sync.Mutex
	refs int
}

func newChatLocks() *chatLocks { return &chatLocks{locks: map[string]*chatLock{}} }

// lock waits for the chat's previous turns and returns the unlock.
func (c *chatLocks) lock(key string) func() {
	c.mu.Lock()
	l := c.locks[key]
	if l == nil {
		l = &chatLock{}
		c.locks[key] = l
	}
	l.refs++
	c.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		c.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(c.locks, key)
		}
		c.mu.Unlock()
	}
}

// rateLimiter allows each customer limit turns per sliding window.
type rateLimiter struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	seen   map[int64][]time.Time
	sweep  time.Time
}

func newRateLimiter(limit int, window time.Duration) *rateLimiter {
	return &rateLimiter{limit: limit, window: window, seen: map[int64][]time.Time{}}
}

func (r *rateLimiter) allow(customer int64, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	cutoff := now.Add(-r.window)
	if now.Sub(r.sweep) > r.window { // forget idle customers
		for id, ts := range r.seen {
			if len(ts) == 0 || ts[len(ts)-1].Before(cutoff) {
				delete(r.seen, id)
			}
		}
		r.sweep = now
	}
	ts := r.seen[customer]
	i := 0
	for i < len(ts) && !ts[i].After(cutoff) {
		i++
	}
	ts = ts[i:]
	if len(ts) >= r.limit {
		r.seen[customer] = ts
		return false
	}
	r.seen[customer] = append(ts, now)
	return true
}

// overTokenBudget reports whether the customer used up today's model
// tokens (counted on the customer row, so it holds across replicas).
func (e *Engine) overTokenBudget(s *Session) bool {
	return s.Customer.TokensToday(tokenDay(s.Now)) >= e.cfg.DailyTokens
}

func tokenDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }
