package web

import (
	"net/http"
	"strconv"
)

// History bounds.
const (
	defaultHistory = 100
	maxHistory     = 500
)

// History answers GET /api/chat/history?session=…[&limit=N]:
// {"events": [{"id", "event", "data", "at"}, …]} — the session's latest
// events (100, at most 500), oldest first, each the very event the chat
// stream sent (text, cards, buttons, picker, cart, order, notice, error)
// or the shopper's own message ("user"), so a reloaded page or a second
// tab draws the conversation again — cards with their photos and prices,
// the cart, the order — through the code that drew it live. The last id
// is where the live stream (Events) resumes. A session with no
// conversation yet has none; a bad session or limit gets a 400, an
// unreadable log a 503 with Retry-After.
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
			writeError(w, http.StatusBadRequest, "limit must be a number from 1 to 500")
			return
		}
		limit = n
	}
	evs, err := c.eventLog().Latest(r.Context(), s, limit)
	if err != nil {
		if c.log != nil {
			c.log.WarnContext(r.Context(), "web chat history not read", "err", err)
		}
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "the conversation is briefly unavailable; please try again in a few seconds")
		return
	}
	if evs == nil {
		evs = []LoggedEvent{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"events": evs})
}
