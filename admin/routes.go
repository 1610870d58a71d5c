package admin

import (
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes declares every route of the admin server.
func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{
		Registry:          s.reg,
		EnableOpenMetrics: true,
	}))
	if s.chat != nil {
		s.mux.Handle("POST /api/chat", s.chat)
	}
	for pattern, h := range s.extra {
		s.mux.Handle(pattern, h)
	}
}
