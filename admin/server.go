package admin

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
)

// Config is what the admin server needs from the process.
type Config struct {
	Registry *prometheus.Registry
	// Chat serves the web chat API (POST /api/chat); nil leaves it out.
	Chat http.Handler
	// Routes are more handlers by ServeMux pattern, mounted as given:
	// platform webhooks such as "POST /telegram/webhook" and
	// "POST /slack/events". Each verifies its own requests.
	Routes map[string]http.Handler
	// Ready reports whether the process can serve traffic: database
	// reachable, schema current, startup finished.
	Ready func(ctx context.Context) error
}

// Server serves the admin routes.
type Server struct {
	reg     *prometheus.Registry
	ready   func(ctx context.Context) error
	chat    http.Handler
	extra   map[string]http.Handler
	metrics *metrics
	mux     *http.ServeMux
}

// New builds a Server and its routes.
func New(cfg Config) *Server {
	s := &Server{
		reg:     cfg.Registry,
		ready:   cfg.Ready,
		chat:    cfg.Chat,
		extra:   cfg.Routes,
		metrics: newMetrics(cfg.Registry),
		mux:     http.NewServeMux(),
	}
	s.routes()
	return s
}

// ServeHTTP dispatches to the routes and records request metrics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.metrics.instrument(s.mux).ServeHTTP(w, r)
}
