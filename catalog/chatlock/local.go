package chatlock

import "sync"

// Local serializes the turns of one chat within a process, so a shopper's
// messages are answered in order while different chats run in parallel.
// The engine always takes it; on Postgres it takes Locks too, for the
// other processes. A key's entry lives while someone holds or waits for it.
type Local struct {
	mu    sync.Mutex
	locks map[string]*localLock
}

type localLock struct {
	mu   sync.Mutex
	refs int
}

// NewLocal returns an empty set of in-process chat locks.
func NewLocal() *Local { return &Local{locks: map[string]*localLock{}} }

// Lock waits for the chat's previous turns and returns the unlock.
func (c *Local) Lock(key string) (unlock func()) {
	c.mu.Lock()
	l := c.locks[key]
	if l == nil {
		l = &localLock{}
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
