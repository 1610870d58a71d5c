package slack

import (
	"context"
	"sync"
)

// maxQueued bounds the work waiting in one conversation.
const maxQueued = 256

// queue runs jobs after the acknowledgement: one goroutine per busy key
// (a conversation), so a thread's turns run in the order they arrived and
// threads run in parallel, at most workers at a time — unbounded, a burst
// of turns would crowd the database and slow the acknowledgements, which
// must record the event first. Jobs run under the process context; wait
// returns once every accepted job has finished.
type queue struct {
	ctx   context.Context
	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	jobs  map[string][]func(context.Context)
}

func newQueue(ctx context.Context, workers int) *queue {
	return &queue{ctx: ctx, slots: make(chan struct{}, workers), jobs: map[string][]func(context.Context){}}
}

// push queues job under key; it reports false when the process is
// stopping or the key's queue is full.
func (q *queue) push(key string, job func(context.Context)) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ctx.Err() != nil {
		return false
	}
	pending, busy := q.jobs[key]
	if len(pending) >= maxQueued {
		return false
	}
	q.jobs[key] = append(pending, job)
	if !busy {
		q.wg.Add(1)
		go q.drain(key)
	}
	return true
}

func (q *queue) drain(key string) {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		pending := q.jobs[key]
		if len(pending) == 0 {
			delete(q.jobs, key)
			q.mu.Unlock()
			return
		}
		job := pending[0]
		q.jobs[key] = pending[1:]
		q.mu.Unlock()
		q.run(job)
	}
}

// run runs job in a worker slot; once the process is stopping, jobs
// still waiting for a slot run at once with the cancelled context, so
// they finish quickly.
func (q *queue) run(job func(context.Context)) {
	select {
	case q.slots <- struct{}{}:
		defer func() { <-q.slots }()
	case <-q.ctx.Done():
	}
	job(q.ctx)
}

// wait blocks until all queued jobs are done.
func (q *queue) wait() { q.wg.Wait() }
