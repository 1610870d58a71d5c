package web

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"shopbot/engine"
)

// LoggedEvent is one event of a session's log: what the shopper was
// shown, in the very shape the chat stream sent it ("text", "cards",
// "buttons", "picker", "cart", "order", "notice", "error", and "user"
// for the shopper's own message), so a reloaded page draws it again
// through the code that drew it live. ID grows within a session; a live
// stream resumes after the last one it sent (SSE's Last-Event-ID).
type LoggedEvent struct {
	ID    int64           `json:"id"`
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
	At    time.Time       `json:"at"`
}

// EventLog keeps each web session's events where every replica reads
// them (bot/ wires one on the database). Append stores a turn's events in
// order and returns them with their ids; Latest returns the last limit,
// oldest first; After those after an id, of one kind when kind is set.
type EventLog interface {
	Append(ctx context.Context, session string, evs []LoggedEvent) ([]LoggedEvent, error)
	Latest(ctx context.Context, session string, limit int) ([]LoggedEvent, error)
	After(ctx context.Context, session string, after int64, kind string, limit int) ([]LoggedEvent, error)
}

// KeepEvents makes the chat keep its sessions' events in l instead of
// in this process's memory. Call it before serving.
func (c *Chat) KeepEvents(l EventLog) { c.events = l }

func (c *Chat) eventLog() EventLog {
	if c.events != nil {
		return c.events
	}
	c.memOnce.Do(func() { c.mem = &MemoryEvents{} })
	return c.mem
}

// Bounds of MemoryEvents.
const (
	maxMemorySessions = 10_000
	maxMemoryEvents   = 200 // per session; older ones are dropped
)

// MemoryEvents is an EventLog in this process's memory, bounded (200
// events for each of at most 10,000 sessions): the log of a Chat given
// none, and of tests and tools that run one process. Share one between
// Chats to stand for replicas sharing a database.
type MemoryEvents struct {
	mu     sync.Mutex
	last   int64
	byChat map[string][]LoggedEvent
}

// Append implements EventLog.
func (m *MemoryEvents) Append(_ context.Context, session string, evs []LoggedEvent) ([]LoggedEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byChat == nil {
		m.byChat = map[string][]LoggedEvent{}
	}
	q, ok := m.byChat[session]
	if !ok && len(m.byChat) >= maxMemorySessions {
		return nil, fmt.Errorf("web: %d sessions already logged in memory", maxMemorySessions)
	}
	out := make([]LoggedEvent, len(evs))
	for i, ev := range evs {
		m.last++
		ev.ID = m.last
		out[i] = ev
	}
	q = append(q, out...)
	if len(q) > maxMemoryEvents {
		q = append([]LoggedEvent(nil), q[len(q)-maxMemoryEvents:]...)
	}
	m.byChat[session] = q
	return out, nil
}

// Latest implements EventLog.
func (m *MemoryEvents) Latest(_ context.Context, session string, limit int) ([]LoggedEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.byChat[session]
	if limit < len(q) {
		q = q[len(q)-limit:]
	}
	return append([]LoggedEvent(nil), q...), nil
}

// After implements EventLog.
func (m *MemoryEvents) After(_ context.Context, session string, after int64, kind string, limit int) ([]LoggedEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []LoggedEvent
	for _, ev := range m.byChat[session] {
		if ev.ID > after && (kind == "" || ev.Event == kind) && len(out) < limit {
			out = append(out, ev)
		}
	}
	return out, nil
}

// recorder gathers what one turn showed the shopper, for the log: the
// shopper's message, then the engine's events as the stream sent them,
// with the text deltas joined into one "text" event.
type recorder struct {
	evs  []LoggedEvent
	text string // deltas not yet written
	said bool   // the answer's text was recorded
}

func newRecorder(t engine.Turn) *recorder {
	r := &recorder{}
	if t.Action == nil && t.Text != "" {
		r.add("user", map[string]string{"text": t.Text})
	}
	return r
}

func (r *recorder) add(event string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		return // our own types: cannot happen
	}
	r.evs = append(r.evs, LoggedEvent{Event: event, Data: b, At: time.Now().UTC()})
}

func (r *recorder) flush() {
	if r.text != "" {
		r.add("text", map[string]string{"text": r.text})
		r.text, r.said = "", true
	}
}

// see records one engine event.
func (r *recorder) see(ev engine.Event) {
	switch ev.Kind {
	case engine.EventText:
		r.text += ev.Text
		return
	case engine.EventTyping:
		return
	}
	r.flush()
	switch ev.Kind {
	case engine.EventDone:
		if !r.said && ev.Text != "" {
			r.add("text", map[string]string{"text": ev.Text})
		}
	case engine.EventError:
		r.add("error", map[string]string{"text": ev.Text})
		r.said = true
	default:
		if name, data, ok := eventData(ev); ok {
			r.add(name, data)
		}
	}
}

// record appends what the turn showed to the session's log; a failure
// is logged (the shopper has the answer; only a later reload misses it).
func (c *Chat) record(ctx context.Context, session string, r *recorder) {
	r.flush()
	if len(r.evs) == 0 {
		return
	}
	if _, err := c.eventLog().Append(context.WithoutCancel(ctx), session, r.evs); err != nil && c.log != nil {
		c.log.WarnContext(ctx, "web chat events not logged", "err", err)
	}
}
