package admin

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes declares every route of the admin server.
func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.Handle("GET /metrics", s.metricsAuth(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{
		Registry:          s.reg,
		EnableOpenMetrics: true,
	})))
	if s.chat != nil {
		s.mux.Handle("POST /api/chat", s.chat)
	}
	for pattern, h := range s.extra {
		s.mux.Handle(pattern, h)
	}
	if s.db != nil {
		s.panelRoutes()
	}
}

// panelRoutes are the merchant panel. page: a signed-in GET; action: a
// signed-in POST with a valid CSRF token.
func (s *Server) panelRoutes() {
	page, action := s.page, s.action
	s.mux.Handle("GET /admin/static/", s.static())
	s.mux.HandleFunc("GET /media/{name}", s.media)
	s.mux.Handle("GET /admin", http.RedirectHandler("/admin/", http.StatusMovedPermanently))

	s.mux.HandleFunc("GET /admin/login", s.headers(s.loginPage))
	s.mux.HandleFunc("POST /admin/login", s.headers(s.withForm(s.login)))
	s.mux.HandleFunc("POST /admin/logout", action(s.logout))

	s.mux.HandleFunc("GET /admin/{$}", page(s.dashboard))

	s.mux.HandleFunc("GET /admin/products", page(s.products))
	s.mux.HandleFunc("GET /admin/products/new", page(s.newProduct))
	s.mux.HandleFunc("POST /admin/products/new", action(s.createProduct))
	s.mux.HandleFunc("GET /admin/products/{id}", page(s.editProduct))
	s.mux.HandleFunc("POST /admin/products/{id}", action(s.saveProduct))
	s.mux.HandleFunc("POST /admin/products/{id}/archive", action(s.archiveProduct))
	s.mux.HandleFunc("POST /admin/products/{id}/restore", action(s.restoreProduct))
	s.mux.HandleFunc("GET /admin/import", page(s.importPage))
	s.mux.HandleFunc("POST /admin/import", action(s.startImport))
	s.mux.HandleFunc("GET /admin/import/{id}", page(s.importStatus))

	s.mux.HandleFunc("GET /admin/orders", page(s.orders))
	s.mux.HandleFunc("GET /admin/orders/{number}", page(s.order))
	s.mux.HandleFunc("POST /admin/orders/{number}/status", action(s.setOrderStatus))

	s.mux.HandleFunc("GET /admin/conversations", page(s.inbox))
	s.mux.HandleFunc("GET /admin/conversations/{id}", page(s.transcript))
	s.mux.HandleFunc("POST /admin/conversations/{id}/pause", action(s.pause))
	s.mux.HandleFunc("POST /admin/conversations/{id}/resume", action(s.resume))
	s.mux.HandleFunc("POST /admin/conversations/{id}/reply", action(s.reply))

	s.mux.HandleFunc("GET /admin/playground", page(s.playground))
	s.mux.HandleFunc("GET /admin/playground/trace", page(s.playgroundTrace))

	s.mux.HandleFunc("GET /admin/settings", page(s.settingsPage))
	s.mux.HandleFunc("POST /admin/settings", action(s.saveSettings))
	s.mux.HandleFunc("POST /admin/staff", action(s.addStaff))
	s.mux.HandleFunc("POST /admin/staff/{id}/delete", action(s.deleteStaff))
}
