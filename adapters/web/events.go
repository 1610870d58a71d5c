package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
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

// Events answers GET /api/chat/events?session=…[&after=ID] with a
// server-sent event stream that stays open: each notice for the session
// (a merchant's reply during a takeover, back in stock, an order's
// status) as "event: notice" with its log id ("id: N"), the moment it is
// made on this replica, or within the poll interval when another replica
// made it. Every stream of the session gets it — two tabs, two streams.
// The stream resumes after the last id the client saw (the Last-Event-ID
// header a reconnecting EventSource sends, else ?after=, the last id of
// the history it drew), so notices missed while away or disconnected
// come first. With neither, the notices waiting in the NoticeStore come
// first, then new ones. Comments (": ping") keep an idle stream alive;
// the server ends a stream after 15 minutes and the client reconnects.
// A notice may reach a client twice (once here, once with an answer): its
// "id" field is the same, and the widget shows it once.
func (c *Chat) Events(w http.ResponseWriter, r *http.Request) {
	s := r.URL.Query().Get("session")
	if !sessionRE.MatchString(s) {
		writeError(w, http.StatusBadRequest, "session must be 16-64 letters, digits, - or _ (e.g. a UUID)")
		return
	}
	cursor, resumed, err := eventCursor(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	wake, ok := c.live.add(s)
	if !ok {
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "too many open chats on this server; please try again in a few seconds")
		return
	}
	defer c.live.remove(s, wake)
	var waiting []noticeEvent
	if !resumed {
		// From now on; first what waited in the store (read after the
		// log's end, so a notice made between is sent twice, not lost).
		if last, err := c.eventLog().Latest(r.Context(), s, 1); err == nil && len(last) > 0 {
			cursor = last[0].ID
		}
		waiting = c.takeNotices(r.Context(), s)
	}
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
	for _, n := range waiting {
		if !write(func() error { return writeData(w, "notice", n) }) {
			return
		}
	}
	poll := time.NewTicker(c.pollInterval())
	defer poll.Stop()
	ping := time.NewTicker(streamPing)
	defer ping.Stop()
	for {
		evs, err := c.eventLog().After(ctx, s, cursor, "notice", 50)
		if err != nil && ctx.Err() == nil && c.log != nil {
			c.log.WarnContext(ctx, "web notices not read for a live stream", "err", err)
		}
		for _, ev := range evs {
			if !write(func() error { return writeLogged(w, ev) }) {
				return
			}
			cursor = ev.ID
		}
		if len(evs) == 50 {
			continue // more are waiting
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

// eventCursor is the id a stream resumes after: Last-Event-ID, else
// ?after=; resumed is false when the client gave neither.
func eventCursor(r *http.Request) (after int64, resumed bool, err error) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, false, errors.New("after (or Last-Event-ID) must be an event id: a whole number from 0")
	}
	return n, true, nil
}

// writeLogged writes one logged event with its id.
func writeLogged(w http.ResponseWriter, ev LoggedEvent) error {
	_, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Event, ev.Data)
	return err
}

func (c *Chat) pollInterval() time.Duration {
	if c.pollEvery > 0 {
		return c.pollEvery
	}
	return defaultStreamPoll
}
