package web

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// Bounds and pace of the live event streams (GET /api/chat/events).
const (
	// maxStreams bounds the streams one process holds open; one more is
	// answered 503 with Retry-After.
	maxStreams = 5000
	// defaultStreamPoll is how often a stream looks in the NoticeStore for
	// a notice another replica made (one made here wakes it at once).
	defaultStreamPoll = 3 * time.Second
	// streamPing is how often an idle stream sends a comment, so proxies
	// and the browser keep the connection.
	streamPing = 25 * time.Second
	// streamLife ends a stream after a while; the client reconnects (and
	// may reach another replica), which spreads long-lived connections.
	streamLife = 15 * time.Minute
)

// wakers are the live streams of this process by session: Notify wakes
// them, so a notice made here is delivered without waiting for a poll.
type wakers struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{}
	n    int
}

func (ws *wakers) add(session string) (chan struct{}, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.n >= maxStreams {
		return nil, false
	}
	if ws.subs == nil {
		ws.subs = map[string]map[chan struct{}]struct{}{}
	}
	ch := make(chan struct{}, 1)
	if ws.subs[session] == nil {
		ws.subs[session] = map[chan struct{}]struct{}{}
	}
	ws.subs[session][ch] = struct{}{}
	ws.n++
	return ch, true
}

func (ws *wakers) remove(session string, ch chan struct{}) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.subs[session], ch)
	if len(ws.subs[session]) == 0 {
		delete(ws.subs, session)
	}
	ws.n--
}

func (ws *wakers) wake(session string) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for ch := range ws.subs[session] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Streams is how many live event streams this process holds open.
func (c *Chat) Streams() int {
	c.live.mu.Lock()
	defer c.live.mu.Unlock()
	return c.live.n
}

// PollNotices sets how often a live stream looks for notices other
// replicas made (default 3 s). Call it before serving.
func (c *Chat) PollNotices(d time.Duration) {
	if d > 0 {
		c.pollEvery = d
	}
}

// Events answers GET /api/chat/events?session=… with a server-sent
// event stream that stays open: each notice for the session (a merchant's
// reply during a takeover, back in stock, an order's status) as
// "event: notice" the moment it is made on this replica, or within the
// poll interval when another replica made it. Notices that waited while
// no stream was open (missed messages) come first. Comments (": ping")
// keep an idle stream alive; the server ends a stream after 15 minutes
// and the client reconnects.
func (c *Chat) Events(w http.ResponseWriter, r *http.Request) {
	s := r.URL.Query().Get("session")
	if !sessionRE.MatchString(s) {
		writeError(w, http.StatusBadRequest, "session must be 16-64 letters, digits, - or _ (e.g. a UUID)")
		return
	}
	wake, ok := c.live.add(s)
	if !ok {
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "too many open chats on this server; please try again in a few seconds")
		return
	}
	defer c.live.remove(s, wake)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx, cancel := context.WithTimeout(r.Context(), streamLife)
	defer cancel()
	write := func(f func() error) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(streamWriteWindow))
		return f() == nil && rc.Flush() == nil
	}
	if !write(func() error { _, err := w.Write([]byte("retry: 3000\nevent: ready\ndata: {}\n\n")); return err }) {
		return
	}
	poll := time.NewTicker(c.pollInterval())
	defer poll.Stop()
	ping := time.NewTicker(streamPing)
	defer ping.Stop()
	for {
		ns, err := c.mail.take(ctx, s)
		if err != nil && ctx.Err() == nil && c.log != nil {
			c.log.WarnContext(ctx, "web notices not taken for a live stream", "err", err)
		}
		for _, n := range ns {
			if !write(func() error { return writeData(w, "notice", n) }) {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-poll.C:
		case <-ping.C:
			if !write(func() error { _, err := w.Write([]byte(": ping\n\n")); return err }) {
				return
			}
		}
	}
}

func (c *Chat) pollInterval() time.Duration {
	if c.pollEvery > 0 {
		return c.pollEvery
	}
	return defaultStreamPoll
}
