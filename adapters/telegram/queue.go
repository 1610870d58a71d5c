package telegram

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"
)

// job is one recorded update waiting to be handled.
type job struct {
	update   *models.Update
	received time.Time
	slot     *slot // the running turn's share of Concurrency
}

// slot is a running job's place among the turns allowed at once. A turn
// gives it up while it waits for the pacer, so chats that wait to send do
// not hold up chats that could work.
type slot struct {
	c    *chats
	held bool
}

func (s *slot) acquire(ctx context.Context) bool {
	if s == nil || s.held {
		return true
	}
	select {
	case s.c.slots <- struct{}{}:
		s.held = true
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *slot) release() {
	if s != nil && s.held {
		<-s.c.slots
		s.held = false
	}
}

// chats runs the updates of one chat one after another, in update_id
// order, and different chats concurrently.
type chats struct {
	mu      sync.Mutex
	queues  map[string][]job
	queued  map[int64]bool // update ids queued or running
	wg      sync.WaitGroup
	handle  func(ctx context.Context, j job)
	baseCtx context.Context
	slots   chan struct{} // bounds the turns running at once
}

func newChats(ctx context.Context, handle func(context.Context, job), concurrency int) *chats {
	return &chats{
		queues: map[string][]job{}, queued: map[int64]bool{}, handle: handle, baseCtx: ctx,
		slots: make(chan struct{}, concurrency),
	}
}

// add queues j behind the chat's earlier updates; an update already queued
// (a resumed one also received again) is ignored.
func (c *chats) add(key string, j job) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queued[j.update.ID] {
		return false
	}
	c.queued[j.update.ID] = true
	q, running := c.queues[key]
	i := sort.Search(len(q), func(i int) bool { return q[i].update.ID > j.update.ID })
	q = append(q, job{})
	copy(q[i+1:], q[i:])
	q[i] = j
	c.queues[key] = q
	if !running {
		c.wg.Add(1)
		go c.drain(key)
	}
	return true
}

func (c *chats) drain(key string) {
	defer c.wg.Done()
	for {
		c.mu.Lock()
		q := c.queues[key]
		if len(q) == 0 {
			delete(c.queues, key)
			c.mu.Unlock()
			return
		}
		j := q[0]
		c.queues[key] = q[1:]
		c.mu.Unlock()

		j.slot = &slot{c: c}
		if j.slot.acquire(c.baseCtx) {
			c.handle(c.baseCtx, j)
			j.slot.release()
		}
		c.mu.Lock()
		delete(c.queued, j.update.ID)
		c.mu.Unlock()
	}
}

// wait blocks until every queue has drained (after the base context is
// cancelled, remaining jobs are dropped: they stay unhandled in the inbox).
func (c *chats) wait() { c.wg.Wait() }
