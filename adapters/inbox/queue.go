package inbox

import (
	"context"
	"errors"
	"sort"
	"sync"
)

// Job is one update's work.
type Job struct {
	// ID identifies the update (its inbox key): a job whose ID is queued
	// or running already is not queued again — a resumed update that is
	// also redelivered runs once.
	ID string
	// Seq orders the jobs of one key: a job runs after the queued jobs of
	// its key with a lower or equal Seq. Telegram gives the update_id, so a
	// resumed update and a fresh one run in the order Telegram sent them;
	// Slack gives 0, which keeps the order of arrival.
	Seq int64
	// Run does the work. It holds s, its place among the jobs running at
	// once, and may give it up while it only waits (Slot).
	Run func(ctx context.Context, s *Slot)
}

// Reasons Push refuses a job.
var (
	ErrQueued   = errors.New("inbox: job already queued")
	ErrFull     = errors.New("inbox: the chat's queue is full")
	ErrStopping = errors.New("inbox: stopping")
)

// Limits bound a Queue.
type Limits struct {
	Workers int // jobs running at once over all keys (default 8)
	PerKey  int // jobs waiting in one key (default 256)
}

// Queue runs the jobs of one key (a chat) one after another, in Seq order,
// and different keys concurrently, at most Limits.Workers at a time:
// unbounded, a burst of turns would crowd the database pool and slow the
// acknowledgements, which must record first. One goroutine runs per busy
// key. Jobs run under the context given to NewQueue; once it ends, the
// jobs not started are dropped (their updates stay unhandled in the inbox
// and are resumed at the next start).
type Queue struct {
	ctx    context.Context
	limits Limits
	slots  chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex
	keys   map[string][]Job
	queued map[string]bool // IDs queued or running
}

// NewQueue returns a queue whose jobs run under ctx.
func NewQueue(ctx context.Context, l Limits) *Queue {
	if l.Workers <= 0 {
		l.Workers = 8
	}
	if l.PerKey <= 0 {
		l.PerKey = 256
	}
	return &Queue{ctx: ctx, limits: l, slots: make(chan struct{}, l.Workers),
		keys: map[string][]Job{}, queued: map[string]bool{}}
}

// Push queues j under key behind the key's jobs of lower or equal Seq. It
// refuses a job whose ID is queued or running (ErrQueued), one over the
// key's bound (ErrFull: the update stays unhandled and runs at the next
// start) and any once the queue's context has ended (ErrStopping).
func (q *Queue) Push(key string, j Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch pending, busy := q.keys[key]; {
	case q.ctx.Err() != nil:
		return ErrStopping
	case q.queued[j.ID]:
		return ErrQueued
	case len(pending) >= q.limits.PerKey:
		return ErrFull
	case !busy:
		q.wg.Add(1)
		go q.drain(key)
	}
	q.queued[j.ID] = true
	pending := q.keys[key]
	i := sort.Search(len(pending), func(i int) bool { return pending[i].Seq > j.Seq })
	pending = append(pending, Job{})
	copy(pending[i+1:], pending[i:])
	pending[i] = j
	q.keys[key] = pending
	return nil
}

// drain runs the jobs of key until none is left.
func (q *Queue) drain(key string) {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		pending := q.keys[key]
		if len(pending) == 0 {
			delete(q.keys, key)
			q.mu.Unlock()
			return
		}
		j := pending[0]
		q.keys[key] = pending[1:]
		q.mu.Unlock()

		s := &Slot{q: q}
		if s.Acquire(q.ctx) {
			j.Run(q.ctx, s)
			s.Release()
		}
		q.mu.Lock()
		delete(q.queued, j.ID)
		q.mu.Unlock()
	}
}

// Wait blocks until every key's queue has drained: all jobs pushed so far
// have run, or been dropped because the context ended.
func (q *Queue) Wait() { q.wg.Wait() }

// Slot is a running job's place among the Workers allowed at once. A job
// gives it up while it only waits — Telegram's turns while they wait for
// the chat's pacer — so chats that wait to send do not hold up chats that
// could work. A nil Slot is always held.
type Slot struct {
	q    *Queue
	held bool
}

// Acquire takes the slot, waiting for a free one; it reports false if ctx
// ends first.
func (s *Slot) Acquire(ctx context.Context) bool {
	if s == nil || s.held {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	select {
	case s.q.slots <- struct{}{}:
		s.held = true
		return true
	case <-ctx.Done():
		return false
	}
}

// Release gives the slot up, if held.
func (s *Slot) Release() {
	if s != nil && s.held {
		<-s.q.slots
		s.held = false
	}
}
