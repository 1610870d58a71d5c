package admin

import (
	"context"
	"net/http"
	"time"
)

// Healthz answers 200 while the process runs; it checks nothing else, so an
// orchestrator restarts the process only when it is truly stuck.
func (s *Server) Healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

// Readyz answers 200 when the process can serve shoppers (database
// reachable and migrated, startup done) and 503 with the reason otherwise.
func (s *Server) Readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.ready(ctx); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("not ready: " + err.Error() + "\n"))
		return
	}
	w.Write([]byte("ready\n"))
}
