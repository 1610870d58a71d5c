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
	answered *callbackAnswer // for button presses
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
}

func newChats(ctx context.Context, handle func(context.Context, job)) *chats {
	return &chats{queues: map[string][]job{}, queued: map[int64]bool{}, handle: handle, baseCtx: ctx}
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

		if c.baseCtx.Err() == nil {
			c.handle(c.baseCtx, j)
		}
		c.mu.Lock()
		delete(c.queued, j.update.ID)
		c.mu.Unlock()
	}
}

// wait blocks until every queue has drained (after the base context is
// cancelled, remaining jobs are dropped: they stay unhandled in the inbox).
func (c *chats) wait() { c.wg.Wait() }
