package admin

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Routes mounts the merchant panel on mux: its pages (signed-in session;
// a browser without one is sent to sign in), its actions (session plus
// CSRF token), sign-in, static files and product media. Every panel
// handler carries the security headers. This is the panel's one route
// table: bot/routes.go calls it, and the tests mount it the same way.
func (s *Server) Routes(mux *http.ServeMux) {
	page, action := s.page, s.action
	mux.Handle("GET /admin/static/", s.static())
	mux.HandleFunc("GET /media/{name}", s.media)
	mux.Handle("GET /admin", http.RedirectHandler("/admin/", http.StatusMovedPermanently))

	mux.HandleFunc("GET /admin/login", s.headers(s.loginPage))
	mux.HandleFunc("POST /admin/login", s.headers(s.login))
	mux.HandleFunc("POST /admin/logout", action(s.logout))

	mux.HandleFunc("GET /admin/{$}", page(s.dashboard))
	mux.HandleFunc("GET /admin/demo/remove", page(s.demoRemovePage))
	mux.HandleFunc("POST /admin/demo/remove", action(s.removeDemo))

	mux.HandleFunc("GET /admin/products", page(s.products))
	mux.HandleFunc("GET /admin/products/new", page(s.newProduct))
	mux.HandleFunc("POST /admin/products/new", action(s.createProduct))
	mux.HandleFunc("GET /admin/products/{id}", page(s.editProduct))
	mux.HandleFunc("POST /admin/products/{id}", action(s.saveProduct))
	mux.HandleFunc("POST /admin/products/{id}/archive", action(s.archiveProduct))
	mux.HandleFunc("POST /admin/products/{id}/restore", action(s.restoreProduct))
	mux.HandleFunc("GET /admin/products/{id}/reviews", page(s.productReviews))
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/hide", action(s.hideReview))
	mux.HandleFunc("POST /admin/products/{id}/reviews/{review}/show", action(s.showReview))
	mux.HandleFunc("GET /admin/import", page(s.importPage))
	mux.HandleFunc("POST /admin/import", action(s.startImport))
	mux.HandleFunc("POST /admin/import/preview", action(s.previewImport))
	mux.HandleFunc("POST /admin/import/confirm", action(s.confirmImport))
	mux.HandleFunc("GET /admin/import/{id}", page(s.importStatus))
	mux.HandleFunc("GET /admin/import/feeds", page(s.feedsList))
	mux.HandleFunc("POST /admin/import/feeds", action(s.createFeed))
	mux.HandleFunc("POST /admin/import/feeds/{id}", action(s.saveFeed))
	mux.HandleFunc("POST /admin/import/feeds/{id}/run", action(s.runFeedNow))
	mux.HandleFunc("POST /admin/import/feeds/{id}/delete", action(s.deleteFeed))

	mux.HandleFunc("GET /admin/orders", page(s.orders))
	mux.HandleFunc("GET /admin/orders/{number}", page(s.order))
	mux.HandleFunc("POST /admin/orders/{number}/status", action(s.setOrderStatus))
	mux.HandleFunc("POST /admin/orders/{number}/cancel", action(s.cancelOrder))
	mux.HandleFunc("POST /admin/orders/{number}/refund", action(s.refundOrder))

	mux.HandleFunc("GET /admin/pages", page(s.pagesList))
	mux.HandleFunc("GET /admin/pages/new", page(s.newPage))
	mux.HandleFunc("POST /admin/pages/new", action(s.createPage))
	mux.HandleFunc("GET /admin/pages/{slug}", page(s.editPage))
	mux.HandleFunc("POST /admin/pages/{slug}", action(s.savePage))
	mux.HandleFunc("POST /admin/pages/{slug}/delete", action(s.deletePage))

	mux.HandleFunc("GET /admin/promos", page(s.promosList))
	mux.HandleFunc("GET /admin/promos/new", page(s.newPromo))
	mux.HandleFunc("POST /admin/promos/new", action(s.createPromo))
	mux.HandleFunc("GET /admin/promos/{id}", page(s.editPromo))
	mux.HandleFunc("POST /admin/promos/{id}", action(s.savePromo))
	mux.HandleFunc("POST /admin/promos/{id}/active", action(s.setPromoActive))

	mux.HandleFunc("GET /admin/conversations", page(s.inbox))
	mux.HandleFunc("GET /admin/conversations/{id}", page(s.transcript))
	mux.HandleFunc("POST /admin/conversations/{id}/pause", action(s.pause))
	mux.HandleFunc("POST /admin/conversations/{id}/resume", action(s.resume))
	mux.HandleFunc("POST /admin/conversations/{id}/reply", action(s.reply))
	mux.HandleFunc("GET /admin/conversations/{id}/replay", page(s.replayConversation))
	mux.HandleFunc("GET /admin/replay", page(s.replayPage))
	mux.HandleFunc("POST /admin/replay", action(s.startReplay))

	mux.HandleFunc("GET /admin/playground", page(s.playground))
	mux.HandleFunc("GET /admin/playground/trace", page(s.playgroundTrace))
	mux.HandleFunc("GET /admin/playground/scenario", page(s.playgroundScenario))

	mux.HandleFunc("GET /admin/settings", page(s.settingsPage))
	mux.HandleFunc("POST /admin/settings", action(s.saveSettings))
	mux.HandleFunc("POST /admin/staff", action(s.addStaff))
	mux.HandleFunc("POST /admin/staff/{id}/delete", action(s.deleteStaff))
	mux.HandleFunc("GET /admin/settings/delivery", page(s.deliveryPage))
	mux.HandleFunc("POST /admin/settings/delivery", action(s.saveDelivery))
	mux.HandleFunc("POST /admin/settings/delivery/country", action(s.saveDefaultCountry))
	mux.HandleFunc("POST /admin/settings/delivery/{id}", action(s.saveDelivery))
	mux.HandleFunc("POST /admin/settings/delivery/{id}/delete", action(s.deleteDelivery))
	mux.HandleFunc("GET /admin/settings/synonyms", page(s.synonymsList))
	mux.HandleFunc("POST /admin/settings/synonyms", action(s.synonymsPost))
}

// Metrics is the Prometheus registry in the OpenMetrics format, behind
// METRICS_TOKEN when set.
func (s *Server) Metrics() http.Handler {
	return s.metricsAuth(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg, EnableOpenMetrics: true}))
}

// Instrument records every request mux serves in the request metrics, by
// its matched route pattern.
func (s *Server) Instrument(mux *http.ServeMux) http.Handler {
	return s.metrics.instrument(mux)
}
