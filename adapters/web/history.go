package web

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// HistoryEntry is one message of a session's past as the widget shows
// it: the shopper's ("user"), the assistant's ("assistant") or a
// person's at the shop ("merchant").
type HistoryEntry struct {
	Role string    `json:"role"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// HistorySource reads a web session's recorded messages, oldest first,
// at most limit of the latest (bot/ wires it on the conversation store;
// the adapter imports no catalog).
type HistorySource interface {
	History(ctx context.Context, session string, limit int) ([]HistoryEntry, error)
}

// KeepHistory makes GET /api/chat/history read from h. Call it before
// serving.
func (c *Chat) KeepHistory(h HistorySource) { c.history = h }

// History bounds.
const (
	defaultHistory = 50
	maxHistory     = 200
)

// History answers GET /api/chat/history?session=…[&limit=N]:
// {"messages": [{"role", "text", "at"}, …]} — the session's latest
// messages (50, at most 200), oldest first, so a reloaded page or a
// second tab shows the conversation so far. A session with no
// conversation yet has none; a bad session or limit gets a 400, an
// unreadable store a 503 with Retry-After.
func (c *Chat) History(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s := q.Get("session")
	if !sessionRE.MatchString(s) {
		writeError(w, http.StatusBadRequest, "session must be 16-64 letters, digits, - or _ (e.g. a UUID)")
		return
	}
	limit := defaultHistory
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxHistory {
			writeError(w, http.StatusBadRequest, "limit must be a number from 1 to 200")
			return
		}
		limit = n
	}
	if c.history == nil {
		writeJSON(w, http.StatusOK, map[string]any{"messages": []HistoryEntry{}})
		return
	}
	ms, err := c.history.History(r.Context(), s, limit)
	if err != nil {
		if c.log != nil {
			c.log.WarnContext(r.Context(), "web chat history not read", "err", err)
		}
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "the conversation is briefly unavailable; please try again in a few seconds")
		return
	}
	if ms == nil {
		ms = []HistoryEntry{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"messages": ms})
}
