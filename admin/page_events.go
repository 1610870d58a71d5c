package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"shopbot/catalog/live"
	"shopbot/catalog/team"
)

// eventsHeartbeat is how often an idle stream sends a comment, so proxies
// keep it open and a closed browser is noticed.
const eventsHeartbeat = 20 * time.Second

// events is /admin/events: a server-sent event stream of the inbox's
// changes ("event: inbox", data {"id", "conversation_id", "kind"}) for the
// open inbox and transcript pages (static/live.js). It follows the
// database, so a change made on another replica arrives too; a browser
// that reconnects resumes after the last id it saw (Last-Event-ID), and a
// page's first stream after the newest id when it was made (?after=).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Live == nil {
		http.Error(w, "live updates are not configured", http.StatusServiceUnavailable)
		return
	}
	ctx := r.Context()
	// Resume after the last event the browser saw (a reconnect), else
	// after the newest one when its page was made, else from now.
	from := r.Header.Get("Last-Event-ID")
	if from == "" {
		from = r.URL.Query().Get("after")
	}
	after, err := strconv.ParseInt(from, 10, 64)
	if err != nil || after < 0 {
		if after, err = live.Latest(ctx, s.db); err != nil {
			s.renderError(w, r, err)
			return
		}
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.SetWriteDeadline(time.Now().Add(2 * eventsHeartbeat))
	fmt.Fprint(w, ": live\n\n")
	if rc.Flush() != nil {
		return
	}
	s.heartbeat(ctx)
	lastHeartbeat := time.Now()
	beat := time.NewTicker(eventsHeartbeat)
	defer beat.Stop()
	for {
		changed := s.cfg.Live.Changed() // before reading: a change in between still wakes us
		es, err := live.Since(ctx, s.db, after, 200)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "admin events: read", "err", err)
			}
			return
		}
		_ = rc.SetWriteDeadline(time.Now().Add(2 * eventsHeartbeat))
		for _, e := range es {
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "id: %d\nevent: inbox\ndata: %s\n\n", e.ID, b)
			after = e.ID
		}
		if len(es) > 0 && rc.Flush() != nil {
			return
		}
		if len(es) == 200 {
			continue // more are waiting
		}
		select {
		case <-ctx.Done():
			return
		case <-s.cfg.Live.Done():
			return
		case <-changed:
		case <-beat.C:
			if time.Since(lastHeartbeat) >= time.Minute { // a write a minute, well inside team.OnlineWindow
				s.heartbeat(ctx)
				lastHeartbeat = time.Now()
			}
			_ = rc.SetWriteDeadline(time.Now().Add(2 * eventsHeartbeat))
			fmt.Fprint(w, ": beat\n\n")
			if rc.Flush() != nil {
				return
			}
		}
	}
}

// heartbeat marks the stream's session as online (round-robin
// assignment counts it; team.OnlineWindow) without extending its idle
// timeout.
func (s *Server) heartbeat(ctx context.Context) {
	if sess := sessionFrom(ctx); sess != nil {
		if err := team.HeartbeatStaffSession(ctx, s.db, sess.tokenHash, s.cfg.Now()); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "admin events: heartbeat", "err", err)
		}
	}
}
